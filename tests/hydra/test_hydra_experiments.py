"""Every experiment, model and data option runs a fast_dev_run on the CPU, in-process, with the guard on."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import torch
from omegaconf import DictConfig

from gradmode_plugin import GradModeViolation
from gradmode_plugin.hydra.train import RunResult, format_summary, run
from tests.hydra._support import CONFIG_DIR

EXPERIMENTS = sorted(p.stem for p in (CONFIG_DIR / "experiment").glob("*.yaml"))
#: A fast_dev_run (one batch of each stage) on small batches.
FAST = ("debug=fdr", "data.batch_size=4", "data.image_size=32", "+trainer.enable_progress_bar=false")


def _run(compose_cfg: Callable[..., DictConfig], *overrides: str) -> RunResult:
    return run(compose_cfg(*FAST, *overrides))


def _check_mc_dropout(result: RunResult) -> None:
    assert result.report.stage("predict").train_allowed == ["head.mc_dropout"]
    # Dropout really was active at predict time: the MC samples disagree.
    assert float(result.predictions[0]["uncertainty"].mean()) > 0


def _check_saliency(result: RunResult) -> None:
    assert result.report.stage("test").allowed.get("saliency", 0) >= 1
    assert result.report.stage("predict").allowed.get("saliency", 0) >= 1
    # Under inference_mode: the sanctioned gradients need the clone inside allow_grad.
    assert result.report.stage("predict").grad_context == "inference_mode"
    saliency = result.predictions[0]["saliency"]
    assert saliency.shape == (4, 32, 32) and not saliency.requires_grad
    assert float(saliency.abs().sum()) > 0
    assert "test/saliency_mean" in result.metrics


def _check_planted_bug(result: RunResult) -> None:
    # The guard stops the run at the first validation batch (fast_dev_run has no sanity check), naming the kind.
    assert isinstance(result.violation, GradModeViolation)
    assert result.violation.kind == "graph_built"
    assert result.violation.violation.stage == "validation"
    assert result.exit_code == 1
    assert "graph_built" in format_summary(result)


CHECKS: dict[str, Callable[[RunResult], None]] = {
    "mc_dropout": _check_mc_dropout,
    "saliency": _check_saliency,
    "planted_bug": _check_planted_bug,
}


@pytest.mark.parametrize("experiment", EXPERIMENTS)
def test_every_experiment_runs(compose_cfg: Callable[..., DictConfig], experiment: str) -> None:
    result = _run(compose_cfg, f"experiment={experiment}")
    assert result.report is not None
    assert (result.output_dir / "gradmode_report.json").is_file()
    if experiment != "planted_bug":  # every other experiment is correct code: it must pass clean
        assert result.violation is None, result.violation
        assert result.report.total == 0, result.report.summary()
        assert {"validation", "test", "predict"} <= set(result.report.stages)
    if experiment in CHECKS:
        CHECKS[experiment](result)


def test_mc_dropout_without_allow_train_is_a_violation(compose_cfg: Callable[..., DictConfig]) -> None:
    only_predict = ("fit=false", "validate=false", "test=false")
    result = _run(compose_cfg, "experiment=mc_dropout", "callbacks.gradmode.allow_train=[]", *only_predict)
    assert isinstance(result.violation, GradModeViolation)
    assert result.violation.kind == "train_mode"
    assert result.violation.violation.stage == "predict"


@pytest.mark.parametrize("model", sorted(p.stem for p in (CONFIG_DIR / "model").glob("*.yaml")))
def test_every_model_builds_and_classifies(compose_cfg: Callable[..., DictConfig], model: str) -> None:
    """Each model option (resnet18 runs in every test above) builds without weights and maps images to classes."""
    from hydra.utils import instantiate

    cfg = compose_cfg(f"model={model}")
    net = instantiate(cfg.model).eval()
    with torch.no_grad():
        assert net(torch.randn(2, 3, 32, 32)).shape == (2, cfg.data.num_classes)
    assert [name for name, _ in net.head.named_children()] == ["mc_dropout", "fc"]


def _write_images(root: Path, classes: int, per_class: int) -> None:
    from PIL import Image

    for c in range(classes):
        folder = root / f"class_{c}"
        folder.mkdir(parents=True)
        for i in range(per_class):
            pixels = torch.full((12, 16, 3), 40 * c + i, dtype=torch.uint8).numpy()
            Image.fromarray(pixels).save(folder / f"{i}.png")


@pytest.mark.parametrize("layout", ["class_folders", "train_val"])
def test_image_folder_data_runs(compose_cfg: Callable[..., DictConfig], tmp_path: Path, layout: str) -> None:
    root = tmp_path / "images"
    if layout == "class_folders":
        _write_images(root, classes=3, per_class=5)
    else:
        _write_images(root / "train", classes=3, per_class=3)
        _write_images(root / "val", classes=3, per_class=2)
    result = _run(compose_cfg, "data=image_folder", f"data.root={root}", "data.num_workers=0", "data.image_size=32")
    assert result.violation is None and result.report.total == 0
    assert result.predictions[0]["probs"].shape[-1] == 3  # num_classes counted from the folders


def test_image_folder_names_a_missing_root(compose_cfg: Callable[..., DictConfig], tmp_path: Path) -> None:
    from hydra.errors import InstantiationException

    with pytest.raises(InstantiationException, match=r"data\.root=.*is not a folder"):
        _run(compose_cfg, "data=image_folder", f"data.root={tmp_path / 'nowhere'}")


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
@pytest.mark.parametrize("trainer", ["gpu", "ddp"])
def test_gpu_trainers_run(train_cli: Callable[..., subprocess.CompletedProcess[str]], trainer: str) -> None:
    """As a user runs them (DDP relaunches the command once per GPU)."""
    proc = train_cli(f"trainer={trainer}", "+trainer.fast_dev_run=true", "data.batch_size=4")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "total violations: 0 (none)" in proc.stdout
