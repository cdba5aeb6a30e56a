"""Every experiment, model and data option runs a fast_dev_run on the CPU, in-process, with the guard on."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import torch
from omegaconf import DictConfig

from gradmode_plugin import GradModeViolation
from gradmode_plugin.hydra.train import EXIT_MISTAKE, JobOutcome, RunResult, format_summary, run, run_job
from tests.gpu._gpu_support import REQUIRES_CUDA
from tests.hydra._support import CONFIG_DIR, write_images

pytestmark = pytest.mark.slow  # the example app: a run of each experiment, model and data option

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


def test_mc_dropout_is_what_allow_train_asks_for(compose_cfg: Callable[..., DictConfig]) -> None:
    """allow_train puts head.mc_dropout in training mode after the model's eval hook; without it the head is in eval
    mode like every other module, every pass is the same, and there is nothing to report."""
    only_predict = ("fit=false", "validate=false", "test=false")
    result = _run(compose_cfg, "experiment=mc_dropout", "callbacks.gradmode.allow_train=[]", *only_predict)
    assert result.violation is None and result.report.total == 0
    assert float(result.predictions[0]["uncertainty"].abs().max()) == 0.0


@pytest.mark.parametrize("model", sorted(p.stem for p in (CONFIG_DIR / "model").glob("*.yaml")))
def test_every_model_builds_and_classifies(compose_cfg: Callable[..., DictConfig], model: str) -> None:
    """Each model option (resnet18 runs in every test above) builds without weights and maps images to classes."""
    from hydra.utils import instantiate

    cfg = compose_cfg(f"model={model}")
    net = instantiate(cfg.model).eval()
    with torch.no_grad():
        assert net(torch.randn(2, 3, 32, 32)).shape == (2, cfg.data.num_classes)
    assert [name for name, _ in net.head.named_children()] == ["mc_dropout", "fc"]


@pytest.mark.parametrize("layout", ["class_folders", "train_val"])
def test_image_folder_data_runs(compose_cfg: Callable[..., DictConfig], tmp_path: Path, layout: str) -> None:
    root = tmp_path / "images"
    if layout == "class_folders":
        write_images(root, ["a", "b", "c"], per_class=5)
    else:
        write_images(root / "train", ["a", "b", "c"], per_class=3)
        write_images(root / "val", ["a", "b", "c"], per_class=2)
    result = _run(compose_cfg, "data=image_folder", f"data.root={root}", "data.num_workers=0", "data.image_size=32")
    assert result.violation is None and result.report.total == 0
    assert result.predictions[0]["probs"].shape[-1] == 3  # num_classes counted from the folders


# -- ordinary mistakes: a few lines naming the fix, no traceback ------------------------------------------------


def _one_class(root: Path) -> None:
    write_images(root, ["cats"], per_class=4)


def _one_folder_too_high(root: Path) -> None:
    write_images(root / "images", ["a", "b"], per_class=4)


def _corrupt_image(root: Path) -> None:
    write_images(root, ["a", "b"], per_class=5)
    (root / "b" / "bad.png").write_bytes(b"not a png")


def _val_classes_differ(root: Path) -> None:
    write_images(root / "train", ["a", "b", "c"], per_class=2)
    write_images(root / "val", ["a", "c"], per_class=2)


IMAGE_FOLDER = ("data=image_folder", "data.root={root}", "data.image_size=32")
#: id -> (images to write under root, overrides ({root} is filled in), what the message must say, must not say)
MISTAKES = {
    "root_not_set": (None, ("data=image_folder",), ["data.root is not set", "fix: add data.root=/path"], []),
    "root_not_a_folder": (None, IMAGE_FOLDER, ["data.root=", "is not a folder", "fix: point data.root"], []),
    "one_class_folder": (
        _one_class,
        IMAGE_FOLDER,
        ["one class folder, 'cats'", "two classes or more"],
        ["num_classes"],
    ),
    "class_folders_one_level_down": (
        _one_folder_too_high,
        IMAGE_FOLDER,
        ["one class folder, 'images'", "did you mean data.root=", "it holds the class folders a, b"],
        ["num_classes"],
    ),
    "val_classes_differ": (_val_classes_differ, IMAGE_FOLDER, ["the labels would not match", "fix: give val/"], []),
    "corrupt_image_read_by_workers": (
        _corrupt_image,
        (*IMAGE_FOLDER, "data.num_workers=2", *FAST),
        ["cannot read the image", "bad.png: not an image", "fix: remove or replace that file"],
        ["Traceback", "DataLoader worker"],
    ),
    "one_class_of_generated_data": (None, ("data.num_classes=1",), ["two classes or more"], ["model.num_classes"]),
    "allow_train_matches_nothing": (
        None,
        ("callbacks.gradmode.allow_train=[head.mc_droput]", *FAST),
        ["'head.mc_droput'", "head.mc_dropout", "fix: correct the pattern in callbacks.gradmode.allow_train"],
        [],
    ),
}


@pytest.mark.parametrize("mistake", list(MISTAKES))
def test_mistake_is_told_in_a_few_lines(
    compose_cfg: Callable[..., DictConfig], tmp_path: Path, capsys: pytest.CaptureFixture[str], mistake: str
) -> None:
    write, overrides, must, must_not = MISTAKES[mistake]
    root = tmp_path / "images"
    if write is not None:
        write(root)
    outcomes: list[JobOutcome] = []
    outcome = run_job(compose_cfg(*(o.format(root=root) for o in overrides)), outcomes)
    assert outcomes == [outcome] and outcome.status == "failed" and outcome.exit_code == EXIT_MISTAKE
    stderr = capsys.readouterr().err
    told = stderr[stderr.index("gradmode-train: ") :]
    for text in must:
        assert text in told, f"{text!r} not in:\n{told}"
    for text in must_not:
        assert text not in told, f"{text!r} in:\n{told}"
    assert len(told.splitlines()) <= 8, told
    assert told.rstrip().endswith("(HYDRA_FULL_ERROR=1 shows the traceback)")
    assert outcome.detail == "failed: " + told.removeprefix("gradmode-train: ").splitlines()[0]


def test_full_error_raises_the_mistake(
    compose_cfg: Callable[..., DictConfig], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With HYDRA_FULL_ERROR=1 the error goes to Hydra, which shows its whole traceback."""
    from hydra.errors import InstantiationException

    from gradmode_plugin.example.errors import SetupError

    monkeypatch.setenv("HYDRA_FULL_ERROR", "1")
    outcomes: list[JobOutcome] = []
    with pytest.raises(InstantiationException, match=r"data\.root=.*is not a folder") as info:
        run_job(compose_cfg("data=image_folder", f"data.root={tmp_path / 'nowhere'}"), outcomes)
    assert isinstance(info.value.__cause__, SetupError)
    assert [o.status for o in outcomes] == ["failed"]


@pytest.mark.gpu
@REQUIRES_CUDA
@pytest.mark.parametrize("trainer", ["gpu", "ddp"])
def test_gpu_trainers_run(train_cli: Callable[..., subprocess.CompletedProcess[str]], trainer: str) -> None:
    """As a user runs them (DDP relaunches the command once per GPU)."""
    proc = train_cli(f"trainer={trainer}", "+trainer.fast_dev_run=true", "data.batch_size=4")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "total violations: 0 (none)" in proc.stdout
