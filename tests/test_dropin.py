"""GRADMODE_GUARD: a guard on every Trainer without a code change, through Lightning's callback entry points."""

from __future__ import annotations

import importlib.metadata
import sys
import traceback
import warnings
from pathlib import Path
from typing import Any

import pytest
import torch

from gradmode_plugin import GradModeGuard, Report, dropin
from gradmode_plugin.dropin import (
    GuardEnvironmentError,
    lightning_callbacks,
    options_from_environment,
    pytorch_lightning_callbacks,
)
from gradmode_plugin.spool import SPOOL_VARIABLE, SpooledReport
from tests.helpers.lightning import ToyModule, make_loader
from tests.helpers.process import REPO, run_process, this_checkout


class Buggy(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        self.net[1].train()
        super().validation_step(batch, batch_idx)


def test_factories_are_registered_for_both_namespaces() -> None:
    for group, name in [
        ("lightning.pytorch.callbacks_factory", "lightning_callbacks"),
        ("pytorch_lightning.callbacks_factory", "pytorch_lightning_callbacks"),
    ]:
        values = [e.value for e in importlib.metadata.entry_points(group=group) if e.name == "gradmode"]
        assert values == [f"gradmode_plugin.dropin:{name}"]


@pytest.mark.parametrize("value", [None, "", "0", "off"])
def test_no_guard_unless_the_environment_asks(monkeypatch: pytest.MonkeyPatch, value: str | None) -> None:
    if value is None:
        monkeypatch.delenv("GRADMODE_GUARD", raising=False)
    else:
        monkeypatch.setenv("GRADMODE_GUARD", value)
    assert lightning_callbacks() == [] and pytorch_lightning_callbacks() == []


def test_options_from_the_environment() -> None:
    options = options_from_environment(
        {
            "GRADMODE_GUARD": "Record",
            "GRADMODE_GRAD_MODE": "no_grad",
            "GRADMODE_ALLOW_TRAIN": " head.mc_dropout, *.drop ,",
            "GRADMODE_CHECK_PARAMS": "1",
        }
    )
    assert options is not None
    assert (options.on_violation, options.grad_mode, options.allow_train, options.check_params) == (
        "record",
        "no_grad",
        ("head.mc_dropout", "*.drop"),
        True,
    )


@pytest.mark.parametrize(
    ("environ", "named"),
    [
        ({"GRADMODE_GUARD": "loud"}, "GRADMODE_GUARD='loud' is not supported; allowed values: raise | warn | record"),
        ({"GRADMODE_GUARD": "raise", "GRADMODE_GRAD_MODE": "fast"}, "GRADMODE_GRAD_MODE='fast' is not supported"),
        ({"GRADMODE_GUARD": "raise", "GRADMODE_CHECK_PARAMS": "maybe"}, "GRADMODE_CHECK_PARAMS='maybe' is not"),
    ],
)
def test_a_bad_variable_is_named_with_what_it_takes(environ: dict[str, str], named: str) -> None:
    with pytest.raises(GuardEnvironmentError) as info:
        options_from_environment(environ)
    assert str(info.value).startswith(named), str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("factory", [lightning_callbacks, pytorch_lightning_callbacks])
def test_a_bad_variable_is_raised_from_the_factory_with_one_frame_of_its_module(
    monkeypatch: pytest.MonkeyPatch, factory: Any
) -> None:
    monkeypatch.setenv("GRADMODE_GUARD", "rais")
    with pytest.raises(GuardEnvironmentError, match="GRADMODE_GUARD='rais' is not supported") as info:
        factory()
    frames = traceback.extract_tb(info.value.__traceback__)
    assert [frame.name for frame in frames if frame.filename == dropin.__file__] == [factory.__name__]
    assert frames[-1].name == factory.__name__


@pytest.mark.slow  # a child process
def test_a_bad_variable_ends_a_script_in_a_few_lines_naming_it(tmp_path: Path) -> None:
    """What a user sees: one short traceback through the Trainer's constructor that ends at one frame of the
    project's (the factory Lightning called), then the variable, its value and what it takes; no chained exception,
    no name the user did not set."""
    proc = run_process(
        [sys.executable, "-c", "import lightning.pytorch as pl\npl.Trainer(logger=False)"],
        cwd=tmp_path,
        env={"GRADMODE_GUARD": "rais", **this_checkout()},
    )
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1 and lines, proc.stderr
    assert lines[-1] == (
        "gradmode_plugin.dropin.GuardEnvironmentError: GRADMODE_GUARD='rais' is not supported; allowed values: "
        "raise | warn | record (unset, empty, 0 or off: no guard)"
    ), proc.stderr
    assert proc.stderr.count("Traceback (most recent call last)") == 1, proc.stderr
    assert "on_violation" not in proc.stderr, proc.stderr
    frames = [line.strip() for line in lines if line.strip().startswith('File "')]
    own = [frame for frame in frames if f"{REPO}/gradmode_plugin/" in frame]
    assert len(own) == 1 and frames[-1] == own[0], "the traceback does not end at one frame of the project's"
    assert "in <module>" in frames[0]  # the user's line comes first


@pytest.mark.parametrize("namespace", ["pytorch_lightning", "lightning.pytorch"])
def test_every_trainer_is_guarded(monkeypatch: pytest.MonkeyPatch, tmp_path: Any, namespace: str) -> None:
    import importlib

    pl = importlib.import_module(namespace)
    monkeypatch.setenv("GRADMODE_GUARD", "raise")
    trainer = pl.Trainer(logger=False, enable_progress_bar=False, enable_model_summary=False, default_root_dir=tmp_path)
    guards = [c for c in trainer.callbacks if isinstance(c, GradModeGuard)]
    assert len(guards) == 1 and guards[0].from_environment and isinstance(guards[0], pl.Callback)


def _environments_guard(trainer: Any) -> GradModeGuard:
    """The one guard the environment added to ``trainer`` (the test fails when there is none: the drop-in is off)."""
    guards = [c for c in trainer.callbacks if isinstance(c, GradModeGuard) and c.from_environment]
    assert len(guards) == 1, f"expected the environment's guard among {trainer.callbacks}"
    return guards[0]


def test_a_guard_of_the_users_wins(monkeypatch: pytest.MonkeyPatch, make_trainer: Any) -> None:
    monkeypatch.setenv("GRADMODE_GUARD", "raise")
    _environments_guard(make_trainer())  # the environment does ask for a guard
    mine = GradModeGuard(on_violation="record")
    trainer = make_trainer(callbacks=[mine])
    assert [c for c in trainer.callbacks if isinstance(c, GradModeGuard)] == [mine], "exactly one guard"
    trainer.validate(Buggy(), make_loader())
    assert mine.report.count("train_mode") == 4


class ConfiguresItsOwnGuard(Buggy):
    def configure_callbacks(self) -> list[Any]:
        self.guard = GradModeGuard(on_violation="record")
        return [self.guard]


def test_a_guard_from_configure_callbacks_wins_too(monkeypatch: pytest.MonkeyPatch, make_trainer: Any) -> None:
    monkeypatch.setenv("GRADMODE_GUARD", "raise")
    model = ConfiguresItsOwnGuard()
    trainer = make_trainer()
    environments = _environments_guard(trainer)
    trainer.validate(model, make_loader())  # the environment's guard (raise) is replaced or stands aside
    assert model.guard.report.count("train_mode") == 4
    assert environments.report.stages == {}, "the environment's guard ran beside the model's"
    ckpt = trainer._checkpoint_connector.dump_checkpoint()
    assert list(ckpt["callbacks"]) == ["GradModeGuard"], "the environment's guard keeps nothing in checkpoints"
    assert torch.is_grad_enabled()


def test_the_environments_guard_keeps_nothing_in_checkpoints(
    monkeypatch: pytest.MonkeyPatch, make_trainer: Any
) -> None:
    monkeypatch.setenv("GRADMODE_GUARD", "record")
    trainer = make_trainer()
    guard = _environments_guard(trainer)
    trainer.validate(ToyModule(), make_loader())
    assert guard.report.stage("validation").batches == 4, "the environment's guard ran"
    assert trainer._checkpoint_connector.dump_checkpoint()["callbacks"] == {}


def test_a_recording_guard_the_user_asked_for_warns_at_the_end(
    monkeypatch: pytest.MonkeyPatch, make_trainer: Any
) -> None:
    """GRADMODE_GUARD=record outside a pytest --gradmode session: the end of the run says what was recorded."""
    monkeypatch.setenv("GRADMODE_GUARD", "record")
    monkeypatch.delenv(SPOOL_VARIABLE, raising=False)
    monkeypatch.setattr(dropin, "REPORT_SINK", None)
    trainer = make_trainer()
    (guard,) = [c for c in trainer.callbacks if isinstance(c, GradModeGuard)]
    assert type(guard.report) is Report and guard.warn_at_end
    with pytest.warns(UserWarning, match=r"violations during validate \(on_violation='record'\)"):
        trainer.validate(Buggy(), make_loader())
    assert guard.report.count("train_mode") == 4


@pytest.mark.parametrize("spooling", [False, True])
def test_a_guard_for_a_collecting_session_reports_to_it_not_in_a_warning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, make_trainer: Any, spooling: bool
) -> None:
    """Under pytest --gradmode the session collects each guard's report (in memory here, through the spool in a
    child process), and the plugin reports it: the guard does not warn at the end of a run."""
    monkeypatch.setenv("GRADMODE_GUARD", "record")
    if spooling:
        monkeypatch.setenv(SPOOL_VARIABLE, str(tmp_path))
    else:
        monkeypatch.delenv(SPOOL_VARIABLE, raising=False)
    sink: list[Report] = []
    monkeypatch.setattr(dropin, "REPORT_SINK", sink)
    trainer = make_trainer()
    (guard,) = [c for c in trainer.callbacks if isinstance(c, GradModeGuard)]
    assert sink == [guard.report] and not guard.warn_at_end
    assert isinstance(guard.report, SpooledReport) == spooling
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        trainer.validate(Buggy(), make_loader())
    assert guard.report.count("train_mode") == 4
    assert list(tmp_path.glob("*.jsonl")) == [], "pytest's own process keeps its findings in memory"
