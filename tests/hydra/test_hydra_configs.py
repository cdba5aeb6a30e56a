"""Every config group option composes; the guard's config is typed, documented and rejects bad values."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hydra.errors import HydraException
from hydra.utils import instantiate
from omegaconf import DictConfig, ListConfig, OmegaConf, SCMode

from gradmode_plugin import GRAD_MODES, ON_VIOLATION, GradModeGuard
from gradmode_plugin.example.errors import SetupError
from gradmode_plugin.hydra.schema import GUARD_CONFIGS_PACKAGE, GradMode, GradModeGuardConf, OnViolation
from gradmode_plugin.hydra.train import build, check_config
from tests.hydra._support import CONFIG_DIR, GUARD_CONFIG_DIR

#: (group, option) of every config file the example app composes from: its own and the guard's.
GROUP_OPTIONS = sorted(
    (path.parent.relative_to(root).as_posix(), path.stem)
    for root in (CONFIG_DIR, GUARD_CONFIG_DIR)
    for path in root.glob("*/**/*.yaml")
)


def test_one_copy_of_each_config() -> None:
    """The guard's folder holds its config-group entry and nothing else; the example app's folder does not
    repeat it."""
    guard = sorted(p.relative_to(GUARD_CONFIG_DIR).as_posix() for p in GUARD_CONFIG_DIR.rglob("*.yaml"))
    app = {p.relative_to(CONFIG_DIR).as_posix() for p in CONFIG_DIR.rglob("*.yaml")}
    assert guard == ["callbacks/gradmode.yaml"]
    assert not app & set(guard)


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


#: Keys the compose_cfg fixture points at its temporary folder after composing.
REDIRECTED = {"paths.output_dir", "paths.log_dir"}


def _option_file(group: str, option: str) -> Path:
    return next(p for root in (CONFIG_DIR, GUARD_CONFIG_DIR) if (p := root / group / f"{option}.yaml").is_file())


def _leaves(node: Any, prefix: str = "") -> dict[str, Any]:
    """``{dotted key: value}`` of every value that is not a mapping (lists are values)."""
    if not isinstance(node, dict):
        return {prefix: node}
    found: dict[str, Any] = {}
    for key, value in node.items():
        found.update(_leaves(value, f"{prefix}.{key}" if prefix else str(key)))
    return found


def _plain(cfg: DictConfig) -> dict[str, Any]:
    """The composed config as plain data, interpolations unresolved (as the files write them)."""
    return OmegaConf.to_container(cfg, resolve=False, enum_to_str=True, structured_config_mode=SCMode.DICT)


@pytest.mark.parametrize(("group", "option"), GROUP_OPTIONS, ids=[f"{g}={o}" for g, o in GROUP_OPTIONS])
def test_group_option_composes(compose_cfg: Callable[..., DictConfig], group: str, option: str) -> None:
    """Choosing an option puts every value its file sets where the file's package says (nothing composed later
    overrides one of them), and every interpolation resolves."""
    cfg = compose_cfg(f"{group}={option}")
    path = _option_file(group, option)
    text = path.read_text()
    package = "" if "# @package _global_" in text else group.replace("/", ".")
    own = OmegaConf.to_container(OmegaConf.load(path), resolve=False) or {}
    own.pop("defaults", None)
    expected = {k: v for k, v in _leaves(own, package).items() if k not in REDIRECTED}
    composed = _leaves(_plain(cfg))
    if expected:
        wrong = {k: (v, composed.get(k, "<missing>")) for k, v in expected.items() if composed.get(k, "<no>") != v}
        assert not wrong, f"{path.name}: (file, composed) {wrong}"
    else:  # an option that empties its group (callbacks=none, logger=none)
        assert not OmegaConf.select(cfg, package), f"{group}={option} left {OmegaConf.select(cfg, package)}"
    # Interpolations resolve (mandatory ??? values such as data.root stay unresolved until used).
    OmegaConf.to_container(cfg, resolve=True, throw_on_missing=False)


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (
            ["callbacks=[default,gradmode]"],
            {
                "callbacks": ["model_checkpoint", "early_stopping", "model_summary", "gradmode"],
                # callbacks/gradmode.yaml comes last, so its own log_metrics (false) wins over callbacks/default's
                "callbacks.gradmode.log_metrics": False,
            },
        ),
        (["callbacks=[none,gradmode]"], {"callbacks": ["gradmode"], "callbacks.gradmode.log_metrics": False}),
        (["callbacks=gradmode"], {"callbacks": ["gradmode"], "callbacks.gradmode.log_metrics": False}),
        (
            ["trainer=gpu", "data=image_folder", "data.root=/data/images"],
            {
                "trainer._target_": "lightning.pytorch.Trainer",
                "trainer.accelerator": "gpu",
                "trainer.devices": 1,
                "trainer.max_epochs": 2,  # trainer/default.yaml underneath
                "data._target_": "gradmode_plugin.example.data.ImageFolderDataModule",
                "data.num_classes": None,
                "model.num_classes": None,  # counted from the class folders
                "callbacks": ["model_checkpoint", "early_stopping", "model_summary", "gradmode"],
            },
        ),
        (
            ["trainer=ddp", "experiment=mc_dropout"],
            {
                "trainer.strategy": "ddp",
                "trainer.accelerator": "gpu",
                "trainer.devices": "auto",
                "trainer.sync_batchnorm": True,
                "task_name": "mc_dropout",
                "model.dropout": 0.5,
                "model.mc_samples": 8,
                "callbacks.gradmode.allow_train": ["head.mc_dropout"],
                "callbacks.gradmode.on_violation": "raise",
            },
        ),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else "",
)
def test_documented_combinations_compose(
    compose_cfg: Callable[..., DictConfig], overrides: list[str], expected: dict[str, Any]
) -> None:
    """Each documented combination gives the settings it is documented for: the groups' own values and the
    defaults underneath them, not only the overrides given."""
    cfg = compose_cfg(*overrides)
    assert cfg.callbacks.gradmode._target_ == "gradmode_plugin.GradModeGuard"
    for key, value in expected.items():
        found = OmegaConf.select(cfg, key)
        if key == "callbacks":
            found = [name for name, entry in cfg.callbacks.items() if entry is not None]
        elif isinstance(found, (DictConfig, ListConfig)):
            found = OmegaConf.to_container(found)
        assert found == value, f"{key}: {found!r}, expected {value!r}"
    instantiate(cfg.callbacks.gradmode)  # and the guard it configures builds


def test_the_app_logs_the_guards_counts_other_apps_need_not(compose_cfg: Callable[..., DictConfig]) -> None:
    """log_metrics is off in the guard's own config (what every other app gets) and on in the example app's
    callbacks=default, so its CSV logs carry the counts."""
    assert GradModeGuardConf().log_metrics is False
    assert compose_cfg().callbacks.gradmode.log_metrics is True
    assert compose_cfg("callbacks=gradmode").callbacks.gradmode.log_metrics is False


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

    # The guard's config package on the search path, as the plugin puts it there (importing it registers the schema).
    (tmp_path / "config.yaml").write_text(
        "defaults:\n  - callbacks: gradmode\n  - _self_\n"
        f"hydra:\n  searchpath:\n    - pkg://{GUARD_CONFIGS_PACKAGE}\n"
        f"callbacks:\n  gradmode:\n    {setting}\n"
    )
    with initialize_config_dir(config_dir=str(tmp_path), version_base="1.3"), pytest.raises(HydraException) as info:
        compose("config")
    message = f"{info.value}\n{info.value.__cause__}"
    for text in must_name:
        assert text in message, f"{text!r} not in the error for {setting!r}:\n{message}"


@pytest.mark.parametrize("grad_mode", GRAD_MODES)
@pytest.mark.parametrize("on_violation", ON_VIOLATION)
def test_schema_accepts_every_allowed_value(
    compose_cfg: Callable[..., DictConfig], grad_mode: str, on_violation: str
) -> None:
    """Every value the guard takes composes and reaches the guard it builds as that plain string."""
    cfg = compose_cfg(f"callbacks.gradmode.grad_mode={grad_mode}", f"callbacks.gradmode.on_violation={on_violation}")
    guard = instantiate(cfg.callbacks.gradmode)
    assert (guard.grad_mode, guard.on_violation) == (grad_mode, on_violation)
    assert type(guard.grad_mode) is str and type(guard.on_violation) is str


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
    text = (GUARD_CONFIG_DIR / "callbacks" / "gradmode.yaml").read_text()
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


def test_misspelled_key_with_a_plus_is_caught_before_anything_is_built(
    compose_cfg: Callable[..., DictConfig],
) -> None:
    """Hydra 1.3 adds a '+key' to a structured config without checking it (the override's own rule, not the
    schema's): it composes. gradmode-train's first check names the key, the closest option and all of them."""
    cfg = compose_cfg("+callbacks.gradmode.grad_mod=no_grad")
    assert cfg.callbacks.gradmode.grad_mod == "no_grad"
    with pytest.raises(SetupError) as info:
        check_config(cfg)
    message = str(info.value)
    assert "callbacks.gradmode.grad_mod is not an option of GradModeGuard" in message
    assert "did you mean callbacks.gradmode.grad_mode?" in message
    assert "grad_mode, on_violation, allow_train, check_params, log_metrics" in message
    assert len(message.splitlines()) <= 3


def test_lightning_objects_follow_the_models_namespace(compose_cfg: Callable[..., DictConfig]) -> None:
    """The Trainer, Lightning callbacks and loggers are built in the namespace the example model subclasses, also
    where a config names the other one (a LightningModule of one namespace cannot be trained by the other's
    Trainer)."""
    from gradmode_plugin.example._lightning import OTHER_NAMESPACE, pl

    built = build(compose_cfg(f"callbacks.model_summary._target_={OTHER_NAMESPACE}.callbacks.ModelSummary"))
    assert isinstance(built.model, pl.LightningModule) and isinstance(built.datamodule, pl.LightningDataModule)
    assert isinstance(built.trainer, pl.Trainer)
    lightning_objects = [*built.loggers, *(c for c in built.callbacks if c is not built.guard)]
    assert [type(x).__name__ for x in lightning_objects] == [
        "CSVLogger",
        "ModelCheckpoint",
        "EarlyStopping",
        "ModelSummary",
    ]
    for obj in lightning_objects:
        assert type(obj).__module__.startswith(pl.__name__ + "."), type(obj)
    assert built.guard is not None and built.guard in built.trainer.callbacks
