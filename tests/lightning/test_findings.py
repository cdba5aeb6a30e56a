"""GradModeGuard in real Lightning runs: every violation kind caught at the right stage and batch, with its module
and line, and a finding in a hook placed in its batch or outside any."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytorch_lightning as pl
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation
from tests.helpers.lightning import ThreadedPredict, ToyModule, leftovers, make_loader
from tests.helpers.models import flags, hook_count

THIS_FILE = Path(__file__).name


# -- buggy modules: each must be caught ------------------------------------------------------------------------
class EnableGradInValidation(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        if batch_idx == 2:
            with torch.enable_grad():  # noqa: GM301
                out = self(x)
        else:
            out = self(x)
        self.log("val_loss", nn.functional.cross_entropy(out, y))


class BatchNormTrainInValidation(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        if batch_idx == 1:
            self.net[1].train()
        super().validation_step(batch, batch_idx)


class BatchNormTrainedAndReset(ToyModule):
    """Switches BatchNorm to train for one forward and back: only the statistics update remains visible."""

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        if batch_idx == 1:
            self.net[1].train()
            self(batch[0])
            self.net[1].eval()
        super().validation_step(batch, batch_idx)


class LeakingCallback(pl.Callback):
    def on_validation_batch_start(self, trainer: Any, pl_module: Any, batch: Any, batch_idx: int, *args: Any) -> None:
        if batch_idx == 1:
            torch.set_grad_enabled(True)  # noqa: GM401


class ReturnsParameter(ToyModule):
    def predict_step(self, batch: Any, batch_idx: int) -> dict[str, torch.Tensor]:
        return {"probs": self(batch[0]), "temperature": self.net[4].bias}


class LogsParameter(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.temperature = nn.Parameter(torch.ones(()))

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        super().validation_step(batch, batch_idx)
        self.log("temperature", self.temperature)


class WritesWeights(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        if batch_idx == 1:
            self.net[0].weight.mul_(0.5)
        super().validation_step(batch, batch_idx)


class WritesWeightsThroughData(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        if batch_idx == 1:
            self.net[0].weight.data.mul_(0.5)
        super().validation_step(batch, batch_idx)


class SameValueWrite(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        self.net[0].weight.mul_(1.0)
        super().validation_step(batch, batch_idx)


def test_enable_grad_in_validation_step_during_fit_is_caught_at_its_batch(make_trainer: Any) -> None:
    model = EnableGradInValidation()
    trainer = make_trainer(callbacks=[GradModeGuard()], num_sanity_val_steps=0)
    with pytest.raises(GradModeViolation) as info:
        trainer.fit(model, make_loader(), make_loader())
    v = info.value.violation
    assert (info.value.kind, v.stage, v.batch_idx) == ("graph_built", "validation", 2)
    assert THIS_FILE in (v.where or "") and "enable_grad" in (v.where or "")
    assert "graph_built" in str(info.value) and "batch 2" in str(info.value)
    assert leftovers(trainer) == [] and hook_count(model) == 0
    assert all(flags(model)), "the model must be back in train mode, as before the stage"


def test_enable_grad_caught_during_sanity_check(make_trainer: Any) -> None:
    class Always(ToyModule):
        def validation_step(self, batch: Any, batch_idx: int) -> None:
            with torch.enable_grad():  # noqa: GM301
                self(batch[0])

    trainer = make_trainer(callbacks=[GradModeGuard()])
    with pytest.raises(GradModeViolation) as info:
        trainer.fit(Always(), make_loader(), make_loader())
    assert (info.value.violation.stage, info.value.violation.batch_idx) == ("sanity_check", 0)


def test_batchnorm_switched_to_train_in_validation_step(make_trainer: Any) -> None:
    guard = GradModeGuard(on_violation="record")
    make_trainer(callbacks=[guard]).validate(BatchNormTrainInValidation(), make_loader())
    by_kind: dict[str, Any] = {}
    for v in guard.report.violations:
        by_kind.setdefault(v.kind, v)
    assert by_kind["train_mode"].batch_idx == 1 and by_kind["train_mode"].module == "net.1"
    assert by_kind["running_stats_updated"].batch_idx in (1, 2) and by_kind["running_stats_updated"].module == "net.1"

    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()]).validate(BatchNormTrainInValidation(), make_loader())
    assert (info.value.kind, info.value.violation.batch_idx, info.value.violation.module) == ("train_mode", 1, "net.1")


def test_running_stats_update_caught_even_when_mode_was_reset(make_trainer: Any) -> None:
    model = BatchNormTrainedAndReset()
    before = model.net[1].running_mean.clone()
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()]).validate(model, make_loader())
    assert (info.value.kind, info.value.violation.batch_idx) == ("running_stats_updated", 1)
    assert not torch.equal(before, model.net[1].running_mean)


def test_graph_built_in_worker_thread_of_predict_step(make_trainer: Any) -> None:
    # Under inference_mode the thread's forward fails loudly on the inference-tensor batch; under no_grad it
    # silently builds graphs, which the guard must catch.
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard(grad_mode="no_grad")]).predict(ThreadedPredict(), make_loader())
    v = info.value.violation
    assert (v.kind, v.stage, v.batch_idx) == ("graph_built", "predict", 0)
    assert "thread" in v.detail and v.module is not None


def test_callback_leaking_set_grad_enabled(make_trainer: Any) -> None:
    model = ToyModule()
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[LeakingCallback(), GradModeGuard()]).validate(model, make_loader())
    assert (info.value.kind, info.value.violation.batch_idx) == ("grad_enabled", 1)
    assert hook_count(model) == 0


def test_callback_leak_is_caught_whatever_the_callback_order(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard(), LeakingCallback()]).validate(ToyModule(), make_loader())
    assert (info.value.kind, info.value.violation.batch_idx) == ("grad_enabled", 1)


def test_step_output_that_requires_grad(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()]).predict(ReturnsParameter(), make_loader())
    v = info.value.violation
    assert (v.kind, v.stage, v.batch_idx) == ("output_requires_grad", "predict", 0)
    assert "temperature" in v.detail and THIS_FILE in (v.where or "")


def test_logged_parameter_is_not_a_violation_lightning_stores_a_detached_copy(make_trainer: Any) -> None:
    # LightningModule.log clones and detaches every value: logging a parameter keeps nothing alive.
    guard = GradModeGuard()
    make_trainer(callbacks=[guard]).validate(LogsParameter(), make_loader())
    assert guard.report.total == 0


def test_graph_behind_a_logged_value_is_caught(make_trainer: Any) -> None:
    class LogsWithGraph(ToyModule):
        def validation_step(self, batch: Any, batch_idx: int) -> None:
            with torch.enable_grad():  # noqa: GM301
                loss = nn.functional.cross_entropy(self(batch[0]), batch[1])
            self.log("val_loss", loss)

    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()], num_sanity_val_steps=0).fit(
            LogsWithGraph(), make_loader(), make_loader()
        )
    assert (info.value.kind, info.value.violation.batch_idx) == ("graph_built", 0)


def test_params_changed_only_with_check_params(make_trainer: Any) -> None:
    make_trainer(callbacks=[guard := GradModeGuard(on_violation="record")]).validate(WritesWeights(), make_loader())
    assert guard.report.count("params_changed") == 0
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard(check_params=True)]).validate(WritesWeights(), make_loader())
    assert (info.value.kind, info.value.violation.batch_idx, info.value.violation.module) == (
        "params_changed",
        1,
        "net.0",
    )


def test_params_changed_through_data_is_caught_at_stage_end(make_trainer: Any) -> None:
    guard = GradModeGuard(check_params=True, on_violation="record")
    make_trainer(callbacks=[guard]).validate(WritesWeightsThroughData(), make_loader())
    assert [v.kind for v in guard.report.violations] == ["params_changed"]
    assert "net.0.weight" in guard.report.violations[0].detail


def test_same_value_write_is_not_a_change(make_trainer: Any) -> None:
    guard = GradModeGuard(check_params=True)
    make_trainer(callbacks=[guard]).validate(SameValueWrite(), make_loader())
    assert guard.report.total == 0


# -- which batch a finding belongs to ----------------------------------------------------------------------------
class BuildsGraphIn(pl.Callback):
    """Runs the model under enable_grad in one hook (at one batch, for batch hooks)."""

    def __init__(self, hook: str, batch: int | None = None) -> None:
        self.hook, self.batch = hook, batch

    def _maybe(self, name: str, pl_module: Any, batch_idx: int | None = None) -> None:
        if name == self.hook and batch_idx == self.batch:
            with torch.enable_grad():  # noqa: GM301
                pl_module(torch.randn(2, 8))

    def on_validation_start(self, trainer: Any, pl_module: Any) -> None:
        self._maybe("on_validation_start", pl_module)

    def on_validation_epoch_end(self, trainer: Any, pl_module: Any) -> None:
        self._maybe("on_validation_epoch_end", pl_module)

    def on_validation_batch_start(self, trainer: Any, pl_module: Any, batch: Any, batch_idx: int, *args: Any) -> None:
        self._maybe("on_validation_batch_start", pl_module, batch_idx)

    def on_validation_batch_end(self, trainer: Any, pl_module: Any, *args: Any) -> None:
        self._maybe("on_validation_batch_end", pl_module, args[2])


@pytest.mark.parametrize(
    ("hook", "batch", "expected"),
    [
        ("on_validation_start", None, None),
        ("on_validation_epoch_end", None, None),
        ("on_validation_batch_start", 2, 2),
        ("on_validation_batch_end", 1, 1),
    ],
)
@pytest.mark.parametrize("guard_first", [True, False])
def test_findings_in_hooks_carry_their_batch_or_none(
    make_trainer: Any, hook: str, batch: int | None, expected: int | None, guard_first: bool
) -> None:
    guard = GradModeGuard(on_violation="record")
    callbacks = [guard, BuildsGraphIn(hook, batch)]
    trainer = make_trainer(callbacks=callbacks if guard_first else callbacks[::-1], inference_mode=False)
    trainer.validate(ToyModule(), make_loader())
    found = [(v.kind, v.batch_idx) for v in guard.report.violations]
    assert found == [("graph_built", expected)], (hook, guard_first)
