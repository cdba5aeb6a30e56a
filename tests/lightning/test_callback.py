"""GradModeGuard in real Lightning runs: state restored after every stage and every exception, the policies, logging
and checkpoints, its arguments, and its hooks."""

from __future__ import annotations

import csv
import warnings
from pathlib import Path
from typing import Any

import pytest
import pytorch_lightning as pl
import torch
from pytorch_lightning.profilers import PassThroughProfiler

from gradmode_plugin import GradModeGuard, GradModeViolation, GradModeWarning, Violation
from gradmode_plugin.lightning._internals import UNUSED_BATCH_HOOKS
from tests.helpers.lightning import ThreadedPredict, ToyModule, leftovers, make_loader
from tests.helpers.models import flags, hook_count

THIS_FILE = Path(__file__).name


# -- exceptions and leftovers ---------------------------------------------------------------------------------
class Explodes(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        if batch_idx == 1:
            raise ValueError("boom")
        super().validation_step(batch, batch_idx)


@pytest.mark.parametrize("entry", ["validate", "fit"])
def test_state_restored_after_an_exception_in_a_step(make_trainer: Any, entry: str) -> None:
    model = Explodes()
    model.train()
    model.net[1].eval()  # a user-frozen BatchNorm must stay frozen
    before = flags(model)
    trainer = make_trainer(callbacks=[GradModeGuard()], num_sanity_val_steps=0)
    with pytest.raises(ValueError, match="boom"):
        if entry == "fit":
            trainer.fit(model, make_loader(), make_loader())
        else:
            trainer.validate(model, make_loader())
    assert flags(model) == before
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    assert leftovers(trainer) == [] and hook_count(model) == 0


def test_state_restored_after_a_violation_in_predict(make_trainer: Any) -> None:
    model = ThreadedPredict()
    before = flags(model)
    trainer = make_trainer(callbacks=[GradModeGuard(grad_mode="no_grad")])
    with pytest.raises(GradModeViolation):
        trainer.predict(model, make_loader())
    assert flags(model) == before and leftovers(trainer) == [] and hook_count(model) == 0


# -- policies, logging, checkpoints ----------------------------------------------------------------------------
def test_enable_grad_under_inference_mode_builds_nothing_and_is_not_flagged(make_trainer: Any) -> None:
    guard = GradModeGuard(grad_mode="inference")
    make_trainer(callbacks=[guard]).validate(AlwaysEnableGrad(), make_loader())
    assert guard.report.total == 0 and guard.report.stage("validation").saved_bytes == 0


class AlwaysEnableGrad(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        with torch.enable_grad():  # noqa: GM301
            super().validation_step(batch, batch_idx)


def test_warn_policy_warns_once_per_kind_stage_and_module_over_the_guards_life(make_trainer: Any) -> None:
    guard = GradModeGuard(on_violation="warn", grad_mode="no_grad")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trainer = make_trainer(callbacks=[guard])
        trainer.validate(AlwaysEnableGrad(), make_loader())
        trainer.validate(AlwaysEnableGrad(), make_loader())
    ours = [str(w.message) for w in caught if issubclass(w.category, GradModeWarning)]
    assert len(ours) == 1 and "[graph_built]" in ours[0], "one warning, not one per batch or per stage run"
    assert guard.report.count("graph_built", "validation") == 8


def test_record_policy_collects_and_warns_once_at_the_end(make_trainer: Any) -> None:
    guard = GradModeGuard(on_violation="record", grad_mode="no_grad")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        make_trainer(callbacks=[guard]).validate(AlwaysEnableGrad(), make_loader())
    assert guard.report.counts["validation"]["graph_built"] == 4
    assert [v.batch_idx for v in guard.report.violations if v.kind == "graph_built"] == [0, 1, 2, 3]
    summaries = [str(w.message) for w in caught if "violations during validate" in str(w.message)]
    assert len(summaries) == 1 and "validation: graph_built=4" in summaries[0]
    # One distinct finding, described once with its count, not once per batch.
    assert summaries[0].count("[graph_built]") == 1 and THIS_FILE in summaries[0], summaries[0]
    assert "found 4 times: validation batches 0-3" in summaries[0]
    data = guard.report.to_dict()
    assert data["total"] == 4 and data["violations"][0]["kind"] == "graph_built"


@pytest.mark.parametrize("log_metrics", [False, True])
def test_loggers_get_counts_only_when_asked(make_trainer: Any, tmp_path: Path, log_metrics: bool) -> None:
    from pytorch_lightning.loggers import CSVLogger

    guard = GradModeGuard(on_violation="record", grad_mode="no_grad", log_metrics=log_metrics)
    logger = CSVLogger(str(tmp_path), name="run")
    make_trainer(callbacks=[guard], logger=logger).validate(AlwaysEnableGrad(), make_loader())
    with open(Path(logger.log_dir) / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    keys = {k for row in rows for k, v in row.items() if v}
    ours = {k for k in keys if k.startswith("gradmode/")}
    if log_metrics:
        assert ours == {"gradmode/validation/violations", "gradmode/validation/graph_built"}
        assert any(r.get("gradmode/validation/graph_built") == "4.0" for r in rows)
    else:
        assert ours == set() and "val_loss" in keys


def test_report_counts_survive_checkpoint_resume(make_trainer: Any, tmp_path: Path) -> None:
    guard = GradModeGuard(on_violation="record")
    trainer = make_trainer(callbacks=[guard], num_sanity_val_steps=0)
    trainer.fit(AlwaysEnableGrad(), make_loader(), make_loader())
    assert guard.report.count("graph_built") == 4
    ckpt = tmp_path / "last.ckpt"
    trainer.save_checkpoint(ckpt)

    resumed = GradModeGuard(on_violation="record")
    make_trainer(callbacks=[resumed], max_epochs=2, num_sanity_val_steps=0).fit(
        AlwaysEnableGrad(), make_loader(), make_loader(), ckpt_path=str(ckpt)
    )
    assert resumed.report.count("graph_built") == 8, "4 restored from the checkpoint + 4 new"
    assert resumed.report.stage("validation").runs == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"grad_mode": "bogus"}, r"grad_mode='bogus'.*'auto', 'inference', 'no_grad'"),
        ({"on_violation": "ignore"}, r"on_violation='ignore'.*'raise', 'warn', 'record'"),
        ({"allow_train": [3]}, r"allow_train=\[3\].*glob patterns"),
        ({"check_params": "yes"}, r"check_params='yes'.*True, False"),
    ],
)
def test_invalid_arguments_name_the_argument_and_allowed_values(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GradModeGuard(**kwargs)


def test_loading_an_older_checkpoint_does_not_rewind_a_live_report() -> None:
    guard = GradModeGuard(on_violation="record")
    older = guard.state_dict()
    for batch in range(6):
        guard.report.record(Violation(kind="graph_built", stage="validation", batch_idx=batch))
    guard.load_state_dict(older)
    assert guard.report.count("graph_built") == 6

    fresh = GradModeGuard()
    fresh.load_state_dict(guard.state_dict())
    assert fresh.report.count("graph_built") == 6


def test_string_enums_from_typed_configs_become_plain_strings() -> None:
    import enum

    class Mode(str, enum.Enum):
        no_grad = "no_grad"

    guard = GradModeGuard(grad_mode=Mode.no_grad)  # type: ignore[arg-type]
    assert guard.grad_mode == "no_grad" and type(guard.grad_mode) is str


def test_every_hook_of_the_guard_overrides_a_callback_hook_of_that_name() -> None:
    # A misspelled hook would never run: each one is marked @override and must exist on Lightning's Callback.
    hooks = {
        name
        for name, value in vars(GradModeGuard).items()
        if getattr(getattr(value, "fget", value), "__override__", False)
    }
    assert hooks >= {"setup", "teardown", "on_exception", "state_dict", "load_state_dict", "state_key"}
    assert {f"on_{stage}_{when}" for stage in ("validation", "test", "predict") for when in ("start", "end")} <= hooks
    for base in GradModeGuard.__bases__:
        assert all(hasattr(base, name) for name in hooks), [name for name in hooks if not hasattr(base, name)]
    options = {"on_violation"}  # a property for the option of that name, not a hook
    unused = set(UNUSED_BATCH_HOOKS)
    assert {name for name in vars(GradModeGuard) if name.startswith("on_")} - options - unused <= hooks
    assert not unused & hooks and all(getattr(GradModeGuard, name) is None for name in unused)
    for base in GradModeGuard.__bases__:
        assert all(callable(getattr(base, name)) for name in unused)


class HookNames(PassThroughProfiler):
    """Every action Lightning profiles, by name: ``[Callback]<state_key>.<hook>`` for each callback hook it calls."""

    def __init__(self) -> None:
        super().__init__()
        self.actions: set[str] = set()

    def start(self, action_name: str) -> None:
        self.actions.add(action_name)


def test_lightning_calls_none_of_the_per_batch_hooks_the_guard_does_not_use(make_trainer: Any) -> None:
    profiler = HookNames()
    trainer = make_trainer(callbacks=[GradModeGuard(), pl.Callback()], profiler=profiler, max_epochs=1)
    model = ToyModule()
    trainer.fit(model, make_loader(), make_loader())
    trainer.test(model, make_loader())
    trainer.predict(model, make_loader())

    def hooks(state_key: str) -> set[str]:
        prefix = f"[Callback]{state_key}."
        return {action.removeprefix(prefix) for action in profiler.actions if action.startswith(prefix)}

    assert set(UNUSED_BATCH_HOOKS) <= hooks("Callback"), "an empty Callback has each of them called"
    assert not hooks("GradModeGuard") & set(UNUSED_BATCH_HOOKS)
    assert {"setup", "on_validation_start", "on_test_end", "on_predict_end"} <= hooks("GradModeGuard")
