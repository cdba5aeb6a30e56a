"""Every config group option composes; the guard's config is typed, documented and rejects bad values."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hydra.errors import HydraException
from hydra.utils import instantiate
from omegaconf import DictConfig, OmegaConf

from gradmode_plugin import GRAD_MODES, ON_VIOLATION, GradModeGuard
from gradmode_plugin.hydra import GradMode, GradModeGuardConf, OnViolation
from tests.hydra._support import CONFIG_DIR

GROUP_OPTIONS = sorted(
    (path.parent.relative_to(CONFIG_DIR).as_posix(), path.stem) for path in CONFIG_DIR.glob("*/**/*.yaml")
)


def test_every_group_is_there() -> None:
    groups = {group for group, _ in GROUP_OPTIONS}
    expected = {"callbacks", "data", "debug", "experiment", "hydra", "logger", "model", "paths", "trainer"}
    assert expected <= groups
    options = set(GROUP_OPTIONS)
    for needed in [
        ("callbacks", "gradmode"),
        ("callbacks", "default"),
        ("data", "fake"),
        ("data", "image_folder"),
        ("logger", "csv"),
        *(("trainer", name) for name in ("default", "cpu", "gpu", "ddp")),
        *(("experiment", name) for name in ("mc_dropout", "saliency", "planted_bug")),
    ]:
        assert needed in options, f"configs/{needed[0]}/{needed[1]}.yaml is missing"


@pytest.mark.parametrize(("group", "option"), GROUP_OPTIONS, ids=[f"{g}={o}" for g, o in GROUP_OPTIONS])
def test_group_option_composes(compose_cfg: Callable[..., DictConfig], group: str, option: str) -> None:
    cfg = compose_cfg(f"{group}={option}")
    assert cfg.hydra.runtime.choices[group] == option
    # Interpolations resolve (mandatory ??? values such as data.root stay unresolved until used).
    OmegaConf.to_container(cfg, resolve=True, throw_on_missing=False)


@pytest.mark.parametrize(
    "overrides",
    [
        ["callbacks=[default,gradmode]"],
        ["callbacks=[none,gradmode]"],
        ["callbacks=gradmode"],
        ["trainer=gpu", "data=image_folder", "data.root=/data/images"],
        ["trainer=ddp", "experiment=mc_dropout"],
    ],
    ids=str,
)
def test_documented_combinations_compose(compose_cfg: Callable[..., DictConfig], overrides: list[str]) -> None:
    cfg = compose_cfg(*overrides)
    assert cfg.callbacks.gradmode._target_ == "gradmode_plugin.GradModeGuard"


def test_defaults_are_a_short_cpu_run(compose_cfg: Callable[..., DictConfig]) -> None:
    """The no-argument run must stay a couple of minutes on 2 CPU cores: small images, few batches, CPU."""
    cfg = compose_cfg()
    assert cfg.hydra.runtime.choices["data"] == "fake"
    assert cfg.trainer.accelerator == "cpu" and cfg.trainer.devices == 1
    assert cfg.model.arch == "resnet18" and cfg.model.num_classes == cfg.data.num_classes
    assert cfg.data.image_size <= 64
    images = cfg.trainer.max_epochs * cfg.data.train_size + cfg.data.val_size * (cfg.trainer.max_epochs + 1)
    assert images <= 2000, f"{images} images per run: too many for a couple of minutes on 2 CPU cores"
    assert cfg.seed is not None and cfg.data.seed is not None
    assert cfg.fit and cfg.validate and cfg.test and cfg.predict
    assert cfg.report_file == "gradmode_report.json"
    assert list(cfg.logger) == ["csv"]
    assert {"model_checkpoint", "gradmode"} <= set(cfg.callbacks)
    assert cfg.callbacks.gradmode.on_violation == "raise"


def test_experiments_set_what_they_demonstrate(compose_cfg: Callable[..., DictConfig]) -> None:
    mc = compose_cfg("experiment=mc_dropout")
    assert list(mc.callbacks.gradmode.allow_train) == ["head.mc_dropout"]
    assert mc.model.mc_samples > 1 and mc.model.dropout > 0
    assert compose_cfg("experiment=saliency").model.saliency is True
    assert compose_cfg("experiment=planted_bug").model.planted_bug == "enable_grad_in_validation"


# -- the guard's schema ---------------------------------------------------------------------------------------


def _compose_error(compose_cfg: Callable[..., DictConfig], *overrides: str) -> str:
    with pytest.raises(HydraException) as info:
        compose_cfg(*overrides)
    err: BaseException | None = info.value
    parts = []
    while err is not None:  # Hydra wraps OmegaConf's validation error, which names the key
        parts.append(str(err))
        err = err.__cause__
    return "\n".join(parts)


@pytest.mark.parametrize(
    ("override", "must_name"),
    [
        ("callbacks.gradmode.grad_mode=bogus", ["grad_mode", "bogus", "auto, inference, no_grad"]),
        ("callbacks.gradmode.on_violation=explode", ["on_violation", "explode", "raise, warn, record"]),
        ("callbacks.gradmode.check_params=sometimes", ["check_params", "sometimes", "bool"]),
        ("callbacks.gradmode.allow_train=7", ["allow_train"]),
        ("callbacks.gradmode.grad_mod=no_grad", ["grad_mod", "GradModeGuardConf"]),
    ],
)
def test_schema_rejects_at_compose_time(
    compose_cfg: Callable[..., DictConfig], override: str, must_name: list[str]
) -> None:
    message = _compose_error(compose_cfg, override)
    for text in must_name:
        assert text in message, f"{text!r} not in the error for {override}:\n{message}"


@pytest.mark.parametrize(
    ("setting", "must_name"),
    [
        ("grad_mode: bogus", ["grad_mode", "bogus", "auto, inference, no_grad"]),
        ("on_violations: record", ["on_violations", "GradModeGuardConf"]),
    ],
)
def test_schema_rejects_a_typo_in_a_config_file(tmp_path: Path, setting: str, must_name: list[str]) -> None:
    """A template repo's own config that sets the guard wrongly fails at compose time too, not at instantiate."""
    from hydra import compose, initialize_config_dir

    from gradmode_plugin.hydra import register_configs

    register_configs()
    (tmp_path / "config.yaml").write_text(
        "defaults:\n  - callbacks: gradmode\n  - _self_\n"
        f"hydra:\n  searchpath:\n    - file://{CONFIG_DIR.as_posix()}\n"
        f"callbacks:\n  gradmode:\n    {setting}\n"
    )
    with initialize_config_dir(config_dir=str(tmp_path), version_base="1.3"), pytest.raises(HydraException) as info:
        compose("config")
    message = f"{info.value}\n{info.value.__cause__}"
    for text in must_name:
        assert text in message, f"{text!r} not in the error for {setting!r}:\n{message}"


@pytest.mark.parametrize("grad_mode", GRAD_MODES)
def test_schema_accepts_every_allowed_value(compose_cfg: Callable[..., DictConfig], grad_mode: str) -> None:
    cfg = compose_cfg(f"callbacks.gradmode.grad_mode={grad_mode}", "callbacks.gradmode.on_violation=record")
    assert cfg.callbacks.gradmode.grad_mode == grad_mode


def test_schema_choices_match_the_guard() -> None:
    """The schema's enums list exactly the values the guard accepts (they live apart: the schema must load
    without torch)."""
    assert [m.value for m in GradMode] == list(GRAD_MODES)
    assert [m.value for m in OnViolation] == list(ON_VIOLATION)
    assert [m.name for m in GradMode] == list(GRAD_MODES)  # OmegaConf looks values up by member name
    assert [m.name for m in OnViolation] == list(ON_VIOLATION)


def test_schema_and_yaml_cover_every_constructor_option() -> None:
    """Every GradModeGuard option is in the schema and in callbacks/gradmode.yaml with a comment line above it."""
    options = [p for p in inspect.signature(GradModeGuard.__init__).parameters if p != "self"]
    fields = [f for f in GradModeGuardConf.__dataclass_fields__ if not f.startswith("_")]
    assert fields == options
    text = (CONFIG_DIR / "callbacks" / "gradmode.yaml").read_text()
    lines = text.splitlines()
    for option in options:
        index = next((i for i, line in enumerate(lines) if re.match(rf"\s+{option}:", line)), None)
        assert index is not None, f"{option} is missing from callbacks/gradmode.yaml"
        assert lines[index - 1].strip().startswith("#"), f"{option} has no comment line in callbacks/gradmode.yaml"


def test_instantiated_guard_gets_plain_python_values(compose_cfg: Callable[..., DictConfig]) -> None:
    cfg = compose_cfg(
        "callbacks.gradmode.grad_mode=no_grad",
        "callbacks.gradmode.on_violation=warn",
        "callbacks.gradmode.allow_train=[head.mc_dropout,backbone.*]",
        "callbacks.gradmode.check_params=true",
    )
    guard = instantiate(cfg.callbacks.gradmode)
    assert isinstance(guard, GradModeGuard)
    assert guard.grad_mode == "no_grad" and repr(guard.grad_mode) == "'no_grad'" and f"{guard.grad_mode}" == "no_grad"
    assert guard.on_violation == "warn"
    assert guard.allow_train == ("head.mc_dropout", "backbone.*")
    assert guard.check_params is True


def test_ddp_spawn_can_pickle_the_instantiated_guard(compose_cfg: Callable[..., DictConfig]) -> None:
    import pickle

    guard = instantiate(compose_cfg("callbacks.gradmode.grad_mode=inference").callbacks.gradmode)
    copy = pickle.loads(pickle.dumps(guard))
    assert copy.grad_mode == "inference" and copy.on_violation == "raise"
