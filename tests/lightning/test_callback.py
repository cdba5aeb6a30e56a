"""GradModeGuard in real Lightning runs: every violation kind caught at the right stage and batch, correct code
passes untouched, state is restored after every stage and every exception."""

from __future__ import annotations

import csv
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import pytorch_lightning as pl
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, GradModeWarning, Violation, allow_grad
from tests.helpers.lightning import ToyModule, leftovers, make_loader
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


class ThreadedPredict(ToyModule):
    def predict_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        chunks = batch[0].chunk(2)
        with ThreadPoolExecutor(max_workers=2) as pool:  # worker threads run with grad mode on
            outs = list(pool.map(self, chunks))
        return torch.cat(outs).detach()


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


# -- correct code: zero violations ----------------------------------------------------------------------------
def test_fit_validate_test_predict_of_a_correct_model(make_trainer: Any) -> None:
    model, guard = ToyModule(), GradModeGuard(check_params=True)
    trainer = make_trainer(callbacks=[guard], max_epochs=2)
    trainer.fit(model, make_loader(), make_loader())
    trainer.validate(model, make_loader())
    trainer.test(model, make_loader())
    preds = trainer.predict(model, make_loader())
    assert guard.report.total == 0, guard.report.summary()
    assert set(guard.report.stages) == {"sanity_check", "validation", "test", "predict"}
    assert guard.report.stage("validation").runs == 3 and guard.report.stage("predict").batches == 4
    assert len(preds) == 4 and not preds[0].requires_grad
    assert leftovers(trainer) == [] and hook_count(model) == 0


class FrozenBackbone(ToyModule):
    """A backbone kept in eval through a custom ``train()``: the guard must restore exactly that."""

    def train(self, mode: bool = True) -> FrozenBackbone:
        super().train(mode)
        self.net[0:2].eval()
        return self

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.SGD(self.net[4].parameters(), lr=0.1)


def test_frozen_eval_mode_backbone_is_respected(make_trainer: Any) -> None:
    model = FrozenBackbone()
    model.train()
    before = flags(model)
    seen: list[list[bool]] = []

    class Spy(pl.Callback):
        def on_train_batch_start(self, *args: Any) -> None:
            seen.append(flags(model))

    guard = GradModeGuard()
    trainer = make_trainer(callbacks=[guard, Spy()], max_epochs=2)
    trainer.fit(model, make_loader(), make_loader())
    trainer.validate(model, make_loader())
    assert guard.report.total == 0
    assert flags(model) == before and all(s == before for s in seen)
    assert not model.net[1].training and model.net[3].training


class MCDropout(ToyModule):
    """MC dropout the way Lightning sanctions it: the model's own predict-eval hook keeps the dropout training."""

    def __init__(self) -> None:
        super().__init__()
        self.head = nn.Sequential(nn.Dropout(0.5), nn.Linear(2, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.net(x))

    def on_predict_model_eval(self) -> None:
        self.eval()
        self.head[0].train()


def _predict_twice(make_trainer: Any, guard: GradModeGuard | None) -> tuple[torch.Tensor, torch.Tensor]:
    torch.manual_seed(3)
    model = MCDropout()
    trainer = make_trainer(callbacks=[guard] if guard else [])
    return torch.cat(trainer.predict(model, make_loader())), torch.cat(trainer.predict(model, make_loader()))


def test_mc_dropout_in_the_models_eval_hook_is_kept_and_allowed_by_pattern(make_trainer: Any) -> None:
    guard = GradModeGuard(allow_train=("head.0",))
    first, second = _predict_twice(make_trainer, guard)
    assert not torch.equal(first, second), "MC dropout must stay active at predict time"
    assert guard.report.total == 0
    assert guard.report.stage("predict").train_allowed == ["head.0"]
    unguarded = _predict_twice(make_trainer, None)
    assert torch.equal(first, unguarded[0]) and torch.equal(second, unguarded[1]), "same numbers as without the guard"


def test_mc_dropout_without_pattern_is_reported_not_switched_off(make_trainer: Any) -> None:
    guard = GradModeGuard(on_violation="record")
    first, second = _predict_twice(make_trainer, guard)
    assert not torch.equal(first, second), "the guard must not undo the model's own eval hook"
    # Per predict run: one finding right after the model's eval hook, then one per batch (4).
    assert guard.report.count("train_mode", "predict") == 10
    assert {v.module for v in guard.report.violations} == {"head.0"}
    after_hook = [v for v in guard.report.violations if v.batch_idx is None]
    assert len(after_hook) == 2 and "still in training mode after on_predict_model_eval" in after_hook[0].detail


def test_allow_train_pattern_matching_nothing_is_an_error(make_trainer: Any) -> None:
    with pytest.raises(ValueError, match=r"head\.mc_dropot.*match no module"):
        make_trainer(callbacks=[GradModeGuard(allow_train=("head.mc_dropot",))]).predict(MCDropout(), make_loader())


class Saliency(ToyModule):
    def test_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        x, y = batch
        with allow_grad("saliency"):
            # Under inference_mode the batch holds inference tensors, which autograd cannot save: clone them.
            x, y = x.clone().requires_grad_(), y.clone()
            score = self(x).gather(1, y[:, None]).sum()
            (grad,) = torch.autograd.grad(score, x)
        self.log("saliency", grad.abs().mean())
        return grad


@pytest.mark.parametrize("grad_mode", ["inference", "no_grad"])
def test_saliency_under_allow_grad(make_trainer: Any, grad_mode: str) -> None:
    guard = GradModeGuard(grad_mode=grad_mode)
    make_trainer(callbacks=[guard]).test(Saliency(), make_loader())
    stage = guard.report.stage("test")
    assert guard.report.total == 0
    assert stage.allowed == {"saliency": 4} and stage.saved_bytes == 0


def test_saliency_without_allow_grad_is_flagged(make_trainer: Any) -> None:
    class Unmarked(Saliency):
        def test_step(self, batch: Any, batch_idx: int) -> None:
            with torch.inference_mode(False), torch.enable_grad():  # noqa: GM301
                x = batch[0].clone().requires_grad_()
                torch.autograd.grad(self(x).sum(), x)

    with pytest.raises(GradModeViolation, match="graph_built"):
        make_trainer(callbacks=[GradModeGuard()]).test(Unmarked(), make_loader())


class Manual(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.automatic_optimization = False

    def training_step(self, batch: Any, batch_idx: int) -> None:
        opt = self.optimizers()
        x, y = batch
        loss = nn.functional.cross_entropy(self(x), y)
        opt.zero_grad()
        self.manual_backward(loss)
        self.clip_gradients(opt, gradient_clip_val=0.5, gradient_clip_algorithm="norm")
        opt.step()


def test_manual_optimisation_clips_under_no_grad(make_trainer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    modes: list[bool] = []
    model, guard = Manual(), GradModeGuard()
    trainer = make_trainer(callbacks=[guard])
    original = trainer.precision_plugin.clip_gradients

    def spy(*args: Any, **kwargs: Any) -> Any:
        modes.append(torch.is_grad_enabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(trainer.precision_plugin, "clip_gradients", spy)
    trainer.fit(model, make_loader(), make_loader())
    assert modes and not any(modes)
    assert vars(trainer.precision_plugin)["clip_gradients"] is spy, "the test's own spy is put back, not removed"
    monkeypatch.undo()
    assert guard.report.total == 0 and leftovers(trainer) == [] and hook_count(model) == 0


class GradientPenalty(ToyModule):
    def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        x, y = batch
        x = x.clone().requires_grad_()
        loss = nn.functional.cross_entropy(self(x), y)
        (gx,) = torch.autograd.grad(loss, x, create_graph=True)
        return loss + 0.1 * gx.pow(2).sum()


def test_gradient_penalty_training_is_untouched(make_trainer: Any) -> None:
    guard = GradModeGuard()
    make_trainer(callbacks=[guard], max_epochs=2, gradient_clip_val=1.0).fit(
        GradientPenalty(), make_loader(), make_loader()
    )
    assert guard.report.total == 0


class TwoValLoaders(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int, dataloader_idx: int = 0) -> None:
        x, y = batch
        self.log("val_loss", nn.functional.cross_entropy(self(x), y), add_dataloader_idx=True)


def test_multiple_validation_dataloaders(make_trainer: Any) -> None:
    guard = GradModeGuard()
    make_trainer(callbacks=[guard]).fit(TwoValLoaders(), make_loader(), [make_loader(), make_loader(n=16)])
    assert guard.report.total == 0 and guard.report.stage("validation").batches == 6


def test_violation_names_the_dataloader(make_trainer: Any) -> None:
    class BugInSecond(TwoValLoaders):
        def validation_step(self, batch: Any, batch_idx: int, dataloader_idx: int = 0) -> None:
            with torch.set_grad_enabled(dataloader_idx == 1):
                super().validation_step(batch, batch_idx, dataloader_idx)

    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard(grad_mode="no_grad")]).validate(
            BugInSecond(), [make_loader(), make_loader()]
        )
    assert (info.value.violation.dataloader_idx, info.value.violation.batch_idx) == (1, 0)


# -- grad context ---------------------------------------------------------------------------------------------
class RecordsContext(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.contexts: list[tuple[bool, bool]] = []

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        self.contexts.append((torch.is_inference_mode_enabled(), torch.is_grad_enabled()))
        super().validation_step(batch, batch_idx)


@pytest.mark.parametrize(
    ("grad_mode", "trainer_inference", "expected"),
    [
        ("auto", True, True),
        ("auto", False, False),
        ("inference", False, True),
        ("no_grad", True, False),
        ("no_grad", False, False),
    ],
)
def test_guard_decides_the_grad_context(
    make_trainer: Any, grad_mode: str, trainer_inference: bool, expected: bool
) -> None:
    model = RecordsContext()
    guard = GradModeGuard(grad_mode=grad_mode)
    make_trainer(callbacks=[guard], inference_mode=trainer_inference).validate(model, make_loader())
    assert set(model.contexts) == {(expected, False)}
    assert guard.report.stage("validation").grad_context == ("inference_mode" if expected else "no_grad")


def test_auto_uses_no_grad_for_validation_inside_fit(make_trainer: Any, caplog: pytest.LogCaptureFixture) -> None:
    model = RecordsContext()
    with caplog.at_level("INFO", logger="gradmode_plugin"):
        make_trainer(callbacks=[GradModeGuard()], num_sanity_val_steps=0).fit(model, make_loader(), make_loader())
    assert set(model.contexts) == {(False, False)}
    chosen = [r.getMessage() for r in caplog.records if "runs under" in r.getMessage()]
    assert len(chosen) == 1 and "no_grad" in chosen[0] and "validation during fit" in chosen[0]


# -- numerics -------------------------------------------------------------------------------------------------
def _fit_weights(make_trainer: Any, guard: bool, **kwargs: Any) -> dict[str, torch.Tensor]:
    torch.manual_seed(7)
    model = ToyModule()
    callbacks = [GradModeGuard()] if guard else []
    make_trainer(callbacks=callbacks, max_epochs=2, deterministic=True, **kwargs).fit(
        model, make_loader(seed=1), make_loader(seed=2)
    )
    return {k: v.clone() for k, v in model.state_dict().items()}


@pytest.mark.parametrize("algorithm", ["norm", "value"])
def test_clipping_gives_identical_weights_with_and_without_guard(make_trainer: Any, algorithm: str) -> None:
    kwargs = {"gradient_clip_val": 0.05, "gradient_clip_algorithm": algorithm}
    plain = _fit_weights(make_trainer, guard=False, **kwargs)
    guarded = _fit_weights(make_trainer, guard=True, **kwargs)
    unclipped = _fit_weights(make_trainer, guard=False)
    assert all(torch.equal(plain[k], guarded[k]) for k in plain)
    assert not all(torch.equal(plain[k], unclipped[k]) for k in plain), "clipping must have had an effect"


class AdaptiveClipping(ToyModule):
    """User clipping code that computes parameter norms: records a graph unless run under no_grad."""

    def __init__(self) -> None:
        super().__init__()
        self.norm_requires_grad: list[bool] = []

    def configure_gradient_clipping(
        self, optimizer: Any, gradient_clip_val: Any = None, gradient_clip_algorithm: Any = None
    ) -> None:
        params = [p for p in self.parameters() if p.grad is not None]
        weight_norm = torch.stack([p.norm() for p in params]).norm()
        self.norm_requires_grad.append(weight_norm.requires_grad)
        torch.nn.utils.clip_grad_norm_(params, max_norm=float(0.01 * weight_norm))


@pytest.mark.parametrize("guarded", [True, False])
def test_user_clipping_code_records_no_graph_under_guard(make_trainer: Any, guarded: bool) -> None:
    model = AdaptiveClipping()
    make_trainer(callbacks=[GradModeGuard()] if guarded else []).fit(model, make_loader(), make_loader())
    assert model.norm_requires_grad and set(model.norm_requires_grad) == {not guarded}
    assert "configure_gradient_clipping" not in vars(model)


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
    assert {name for name in vars(GradModeGuard) if name.startswith("on_")} - options <= hooks
