"""Observe, never intrude: programs that the guard used to break run with identical results under it, and the same
programs with a real bug are still caught (one test per way a guard can intrude)."""

from __future__ import annotations

import copy
import functools
import io
import pickle
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import pytorch_lightning as pl
import torch
from torch import nn

from gradmode_plugin import GradModeContextError, GradModeGuard, GradModeViolation, allow_grad
from gradmode_plugin.lightning import _internals
from tests.helpers.lightning import ToyModule, assert_same_weights, leftovers, make_loader
from tests.helpers.models import hook_count, instance_attributes


def _predictions(trainer: pl.Trainer, model: pl.LightningModule) -> torch.Tensor:
    return torch.cat([p if isinstance(p, torch.Tensor) else p[0] for p in trainer.predict(model, make_loader())])


def _seeded(cls: type[pl.LightningModule], *args: Any) -> Any:
    """The same initial weights every time, so runs with and without the guard can be compared exactly."""
    torch.manual_seed(11)
    return cls(*args)


# -- 1. nothing of the guard on the model: copy, pickle, save, script --------------------------------------------
class SnapshotsItself(ToyModule):
    """Keeps an in-memory best-model snapshot and saves itself while validation runs."""

    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        self.bug = bug
        self.snapshots: list[nn.Module] = []
        self.saved: list[bytes] = []

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        with torch.set_grad_enabled(self.bug):
            super().validation_step(batch, batch_idx)
        self.snapshots.append(copy.deepcopy(self.net))
        buffer = io.BytesIO()
        torch.save(self.net, buffer)
        self.saved.append(buffer.getvalue() + pickle.dumps(self.net))


def _fit_snapshotting(make_trainer: Any, guard: bool) -> tuple[SnapshotsItself, pl.Trainer]:
    model = SnapshotsItself()
    trainer = make_trainer(callbacks=[GradModeGuard()] if guard else [], max_epochs=1, val_check_interval=2)
    trainer.fit(model, make_loader(), make_loader())
    return model, trainer


def _attribute_names(module: nn.Module) -> list[list[str]]:
    """The instance attribute names of every submodule, in order."""
    return [sorted(names) for names in instance_attributes(module).values()]


def test_model_copied_pickled_and_saved_during_a_stage_carries_nothing(make_trainer: Any) -> None:
    model, trainer = _fit_snapshotting(make_trainer, guard=True)
    plain, _ = _fit_snapshotting(make_trainer, guard=False)
    assert len(model.snapshots) > 0 and len(model.saved) == len(model.snapshots) == len(plain.snapshots)
    # What the copies made in the middle of a stage hold is compared with the copies made without the guard: a
    # copy compared with its own source would carry whatever the guard had put on the source.
    for guarded, unguarded in zip(model.snapshots, plain.snapshots):
        assert hook_count(guarded) == 0 and _attribute_names(guarded) == _attribute_names(unguarded)
    for guarded, unguarded in zip(model.saved, plain.saved):
        loaded = torch.load(io.BytesIO(guarded), weights_only=False)
        assert isinstance(loaded, nn.Sequential) and hook_count(loaded) == 0
        assert _attribute_names(loaded) == _attribute_names(torch.load(io.BytesIO(unguarded), weights_only=False))
    assert _attribute_names(model) == _attribute_names(plain), "the guard wrote onto the model"
    assert leftovers(trainer) == []
    snapshot = model.snapshots[-1]

    class Wrapped(ToyModule):
        def __init__(self, net: nn.Module) -> None:
            super().__init__()
            self.net = net

    # The copy runs under a Trainer without any guard: nothing of the dead guard raises from it.
    make_trainer().validate(Wrapped(snapshot), make_loader())


def test_model_copied_during_a_stage_still_has_its_bug_caught(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()], num_sanity_val_steps=0).fit(
            SnapshotsItself(bug=True), make_loader(), make_loader()
        )
    assert (info.value.kind, info.value.violation.batch_idx) == ("graph_built", 0)


def test_swa_deep_copy_at_setup_carries_nothing_and_weights_are_identical(make_trainer: Any) -> None:
    from pytorch_lightning.callbacks import StochasticWeightAveraging

    def fit(guard: bool) -> tuple[ToyModule, Any]:
        torch.manual_seed(5)
        model = ToyModule()
        swa = StochasticWeightAveraging(swa_lrs=0.05, swa_epoch_start=1)
        callbacks = [swa, GradModeGuard()] if guard else [swa]
        make_trainer(callbacks=callbacks, max_epochs=3, deterministic=True).fit(model, make_loader(), make_loader())
        return model, swa._average_model

    guarded, average = fit(guard=True)
    plain, _ = fit(guard=False)
    assert_same_weights(guarded, plain)
    assert hook_count(average) == 0 and "clip_gradients" not in vars(average)


class WithScriptedPart(ToyModule):
    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        self.bug = bug
        self.scripted = torch.jit.script(nn.Linear(2, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.scripted(self.net(x))

    def predict_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        with torch.inference_mode(False), torch.set_grad_enabled(self.bug):
            return self(batch[0].clone()).detach()


def test_scripted_submodule_runs_identically_and_a_bug_in_it_is_caught(make_trainer: Any) -> None:
    model = WithScriptedPart()
    guarded = _predictions(make_trainer(callbacks=[GradModeGuard()]), model)
    assert torch.equal(guarded, _predictions(make_trainer(), model))
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()]).predict(WithScriptedPart(bug=True), make_loader())
    assert info.value.kind == "graph_built"


class ExportsTorchScript(pl.Callback):
    """Scripts and traces the model at the end of each validation, while the stage is still running."""

    def __init__(self) -> None:
        self.exported: list[torch.jit.ScriptModule] = []

    def on_validation_end(self, trainer: Any, pl_module: Any) -> None:
        self.exported.append(torch.jit.script(copy.deepcopy(pl_module.net)))
        self.exported.append(torch.jit.trace(copy.deepcopy(pl_module.net).eval(), torch.randn(2, 8)))


def test_scripting_and_tracing_during_a_stage_work(make_trainer: Any) -> None:
    export = ExportsTorchScript()
    model = ToyModule()
    make_trainer(callbacks=[GradModeGuard(), export]).validate(model, make_loader())
    scripted, traced = export.exported
    x = torch.randn(4, 8)
    with torch.no_grad():  # copies made under Lightning's inference_mode hold inference tensors
        expected = model.net.eval()(x)
        assert torch.allclose(scripted.eval()(x), expected) and torch.allclose(traced(x), expected)


# -- 2. the step methods are Lightning's to inspect: partials, decorated steps, dataloader_iter -------------------
def _logged_twice(fn: Any) -> Any:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return fn(*args, **kwargs)

    return wrapper


class UnusualSteps(ToyModule):
    """A partial step, a step without batch_idx, and a decorated step that takes ``dataloader_iter``."""

    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        self.bug = bug
        self.validation_step = functools.partial(self._validate, scale=1.0)  # type: ignore[method-assign]
        self.seen: list[str] = []

    def _validate(self, batch: Any, batch_idx: int, scale: float) -> None:
        self.seen.append(f"validation {batch_idx}")
        with torch.set_grad_enabled(self.bug):
            self.log("val_loss", scale * nn.functional.cross_entropy(self(batch[0]), batch[1]))

    def test_step(self, batch: Any) -> None:  # no batch_idx: Lightning inspects the signature
        self.seen.append("test")
        self.log("test_loss", nn.functional.cross_entropy(self(batch[0]), batch[1]))

    @_logged_twice  # one functools.wraps level: as far as Lightning's signature inspection unwraps
    def predict_step(self, dataloader_iter: Any) -> torch.Tensor:
        batch, _, _ = next(dataloader_iter)
        self.seen.append("predict")
        return self(batch[0]).softmax(-1)


def test_partial_decorated_and_dataloader_iter_steps_run_as_without_guard(make_trainer: Any) -> None:
    def run(guard: bool) -> tuple[list[str], torch.Tensor]:
        model = _seeded(UnusualSteps)
        trainer = make_trainer(callbacks=[GradModeGuard()] if guard else [])
        trainer.validate(model, make_loader())
        trainer.test(model, make_loader())
        preds = torch.cat(trainer.predict(model, make_loader()))
        return model.seen, preds

    seen, preds = run(guard=True)
    plain_seen, plain_preds = run(guard=False)
    assert seen == plain_seen and torch.equal(preds, plain_preds)
    assert seen.count("predict") == 4 and seen.count("test") == 4


def test_partial_step_with_a_bug_is_caught(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()], inference_mode=False).validate(UnusualSteps(bug=True), make_loader())
    assert (info.value.kind, info.value.violation.batch_idx) == ("graph_built", 0)


# -- 3. the model's own eval hook has the last word --------------------------------------------------------------
class CountsModeCalls(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.calls: list[str] = []

    def train(self, mode: bool = True) -> CountsModeCalls:
        self.calls.append(f"train({mode})")
        return super().train(mode)

    def val_dataloader(self) -> Any:
        self.calls.append("val_dataloader")
        return make_loader()

    def on_validation_model_eval(self) -> None:
        self.calls.append("on_validation_model_eval")
        super().on_validation_model_eval()


@pytest.mark.parametrize("limit_val_batches", [2, 0])
def test_no_extra_eval_call_and_none_for_a_stage_without_batches(make_trainer: Any, limit_val_batches: int) -> None:
    def calls(guard: bool) -> list[str]:
        model = CountsModeCalls()
        trainer = make_trainer(callbacks=[GradModeGuard()] if guard else [], limit_val_batches=limit_val_batches)
        trainer.validate(model)
        return model.calls

    assert calls(guard=True) == calls(guard=False)


# -- 4. Trainer(inference_mode=False) is the user's choice -------------------------------------------------------
class NeedsAutograd(ToyModule):
    """Evaluation code that needs autograd (an input gradient), on the batch and in a worker thread."""

    def __init__(self, threaded: bool = False) -> None:
        super().__init__()
        self.threaded = threaded

    def _input_gradient(self, x: torch.Tensor) -> torch.Tensor:
        with allow_grad("input gradient"):
            x = x.requires_grad_()  # fine under no_grad; impossible on an inference tensor
            (grad,) = torch.autograd.grad(self(x).sum(), x)
        return grad

    def predict_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        if self.threaded:
            with ThreadPoolExecutor(1) as pool:
                return pool.submit(self._input_gradient, batch[0]).result()  # noqa: GM801
        return self._input_gradient(batch[0])


@pytest.mark.parametrize("threaded", [False, True])
def test_trainer_inference_mode_false_makes_auto_choose_no_grad(make_trainer: Any, threaded: bool) -> None:
    guard = GradModeGuard()
    guarded = _predictions(make_trainer(callbacks=[guard], inference_mode=False), _seeded(NeedsAutograd, threaded))
    plain = _predictions(make_trainer(inference_mode=False), _seeded(NeedsAutograd, threaded))
    assert torch.equal(guarded, plain)
    assert guard.report.stage("predict").grad_context == "no_grad"
    assert "Trainer(inference_mode=False)" in guard.report.stage("predict").reason


@pytest.mark.parametrize("threaded", [False, True])
def test_crash_caused_by_the_guards_inference_mode_says_so(make_trainer: Any, threaded: bool) -> None:
    trainer = make_trainer(callbacks=[GradModeGuard(grad_mode="inference")], inference_mode=False)
    with pytest.raises(GradModeContextError) as info:
        trainer.predict(NeedsAutograd(threaded), make_loader())
    message = str(info.value)
    assert "inference_mode()" in message and "grad_mode='inference' was requested" in message
    assert "allow_grad" in message and "clone" in message and "grad_mode='no_grad'" in message
    assert isinstance(info.value.__cause__, RuntimeError) and "nference" in str(info.value.__cause__)


def test_lightnings_own_inference_mode_crash_is_not_blamed_on_the_guard(make_trainer: Any) -> None:
    with pytest.raises(RuntimeError) as info:
        make_trainer(callbacks=[GradModeGuard()]).predict(NeedsAutograd(), make_loader())
    assert not isinstance(info.value, GradModeContextError)


# -- 6. torch.func inside allow_grad -----------------------------------------------------------------------------
class FuncTransforms(ToyModule):
    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        self.bug = bug

    def predict_step(self, batch: Any, batch_idx: int) -> dict[str, torch.Tensor]:
        def energy(v: torch.Tensor) -> torch.Tensor:
            return self(v).logsumexp(-1).sum()

        if self.bug:
            with torch.inference_mode(False), torch.enable_grad():  # noqa: GM301
                return {"energy": energy(batch[0][:2].clone()).detach()}
        with allow_grad("physics"):
            x = batch[0][:2].clone()
            _, vjp = torch.func.vjp(energy, x)
            out = {
                "grad": torch.func.grad(energy)(x),
                "vjp": vjp(torch.ones(()))[0],
                "jacobian": torch.func.jacrev(energy)(x),
                "hessian": torch.func.hessian(energy)(x[:1]),
            }
        return {k: v.detach() for k, v in out.items()}


def test_torch_func_transforms_run_inside_allow_grad(make_trainer: Any) -> None:
    guard = GradModeGuard()
    guarded = make_trainer(callbacks=[guard]).predict(_seeded(FuncTransforms), make_loader())
    plain = make_trainer().predict(_seeded(FuncTransforms), make_loader())
    for a, b in zip(guarded, plain):
        assert all(torch.equal(a[k], b[k]) for k in a)
    assert guard.report.total == 0 and guard.report.stage("predict").allowed == {"physics": 4}


def test_gradients_outside_allow_grad_are_still_caught(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()]).predict(FuncTransforms(bug=True), make_loader())
    assert info.value.kind == "graph_built"


# -- 7. check_params on lazy modules -----------------------------------------------------------------------------
class Lazy(ToyModule):
    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        self.bug = bug
        self.net = nn.Sequential(nn.LazyLinear(16), nn.ReLU(), nn.LazyLinear(2))

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        super().validation_step(batch, batch_idx)
        if self.bug and batch_idx == 1:
            self.net[0].weight.mul_(0.5)


def test_check_params_on_lazy_modules(make_trainer: Any) -> None:
    guard = GradModeGuard(check_params=True, on_violation="record")
    model = Lazy()
    make_trainer(callbacks=[guard]).validate(model, make_loader())
    assert model.net[0].weight.shape == (16, 8)
    # Materialised under inference_mode, the weights are inference tensors: no parameter changed, but training them
    # later fails, which is noted as a risk (never a violation).
    assert guard.report.total == 0
    (risk,) = guard.report.risks
    assert risk.kind == "inference_tensor_stored" and "net.0.weight" in risk.detail and "net.2.weight" in risk.detail
    guard = GradModeGuard(check_params=True, on_violation="record")
    make_trainer(callbacks=[guard]).validate(Lazy(bug=True), make_loader())
    # Inference tensors track no version: the write is found by the value comparison at the end of the stage.
    changed = [v for v in guard.report.violations if v.kind == "params_changed"]
    assert len(changed) == 1 and "net.0.weight" in changed[0].detail
    guard = GradModeGuard(check_params=True)
    make_trainer(callbacks=[guard], inference_mode=False).validate(Lazy(), make_loader())
    assert guard.report.total == 0, "materialised under no_grad: nothing to report"


# -- 8. an EMA swap with load_state_dict around validation -------------------------------------------------------
class EMASwap(pl.Callback):
    """The pattern posted in Lightning issue 10914: evaluate the EMA weights, then put the live ones back."""

    def __init__(self, decay: float = 0.5) -> None:
        self.decay = decay
        self.ema: dict[str, torch.Tensor] | None = None
        self.live: dict[str, torch.Tensor] | None = None

    def on_train_batch_end(self, trainer: Any, pl_module: Any, *args: Any) -> None:
        state = {k: v.detach().clone() for k, v in pl_module.state_dict().items()}
        if self.ema is None:
            self.ema = state
        else:
            self.ema = {
                k: self.decay * self.ema[k] + (1 - self.decay) * v if v.is_floating_point() else v
                for k, v in state.items()
            }

    def on_validation_start(self, trainer: Any, pl_module: Any) -> None:
        if self.ema is not None:
            self.live = {k: v.detach().clone() for k, v in pl_module.state_dict().items()}
            pl_module.load_state_dict(self.ema)

    def on_validation_end(self, trainer: Any, pl_module: Any) -> None:
        if self.live is not None:
            pl_module.load_state_dict(self.live)


class LeavesBatchNormTraining(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        self.net[1].train()
        super().validation_step(batch, batch_idx)


def test_ema_weight_swap_is_not_a_statistics_update(make_trainer: Any) -> None:
    def fit(guard: GradModeGuard | None) -> ToyModule:
        torch.manual_seed(9)
        model = ToyModule()
        callbacks = [EMASwap(), guard] if guard else [EMASwap()]
        make_trainer(callbacks=callbacks, max_epochs=2, num_sanity_val_steps=0).fit(model, make_loader(), make_loader())
        return model

    guard = GradModeGuard(check_params=False)
    assert_same_weights(fit(guard), fit(None))
    assert guard.report.total == 0, guard.report.summary()
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[EMASwap(), GradModeGuard()], num_sanity_val_steps=0).fit(
            LeavesBatchNormTraining(), make_loader(), make_loader()
        )
    assert (info.value.kind, info.value.violation.module) == ("train_mode", "net.1")


# -- 10. a Lightning that changed its internals is refused, not run unguarded -------------------------------------
def test_missing_lightning_internal_is_a_clear_error(make_trainer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from pytorch_lightning.loops.evaluation_loop import _EvaluationLoop

    monkeypatch.delattr(_EvaluationLoop, "_build_kwargs")
    with pytest.raises(_internals.UnsupportedLightningError) as info:
        make_trainer(callbacks=[GradModeGuard()]).validate(ToyModule(), make_loader())
    message = str(info.value)
    assert "_build_kwargs" in message and f"pytorch_lightning {pl.__version__}" in message
    assert "remove GradModeGuard" in message


def test_a_lightning_that_calls_every_hook_is_refused(make_trainer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # The guard's unused per-batch hooks are None: a Lightning that called a hook without checking would fail there.
    from pytorch_lightning.trainer import call

    def calls_every_hook(trainer: Any, hook_name: str, *args: Any, **kwargs: Any) -> None:
        for callback in trainer.callbacks:
            getattr(callback, hook_name)(trainer, trainer.lightning_module, *args, **kwargs)

    monkeypatch.setattr(call, "_call_callback_hooks", calls_every_hook)
    _internals._skips_hooks_that_are_none.cache_clear()
    try:
        with pytest.raises(_internals.UnsupportedLightningError, match=r"skipping a hook that is None \(trainer/call"):
            make_trainer(callbacks=[GradModeGuard()]).validate(ToyModule(), make_loader())
    finally:
        _internals._skips_hooks_that_are_none.cache_clear()


class UsersTrainer(pl.Trainer):
    """A Trainer subclass in the user's own module (Lightning's own suite has one: test_trainer_subclassing)."""


@pytest.mark.parametrize("entry", ["validate", "fit"])
def test_a_trainer_subclass_in_the_users_module_is_guarded(make_trainer: Any, entry: str) -> None:
    guard = GradModeGuard()
    trainer = make_trainer(trainer_class=UsersTrainer, callbacks=[guard], num_sanity_val_steps=0)
    if entry == "fit":
        trainer.fit(ToyModule(), make_loader(), make_loader())
    else:
        trainer.validate(ToyModule(), make_loader())
    assert guard.report.stage("validation").batches == 4 and guard.report.total == 0
    assert _internals.lightning_version(trainer) == f"pytorch_lightning {pl.__version__}"


def test_stage_the_guard_did_not_enter_is_a_clear_error(make_trainer: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # As if Lightning stopped calling the loop's run(): the guard's wrapper is never entered.
    monkeypatch.setattr(_internals, "evaluation_loops", lambda trainer: [trainer.predict_loop])
    with pytest.raises(_internals.UnsupportedLightningError, match=r"wrapper of the evaluation loop's run\(\)"):
        make_trainer(callbacks=[GradModeGuard()]).validate(ToyModule(), make_loader())


def test_a_lightning_that_skips_the_eval_hook_has_the_modules_left_training_reported(
    make_trainer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pytorch_lightning.loops.evaluation_loop import _EvaluationLoop

    # As if Lightning stopped calling the model's eval hook: the guard sets no mode itself, it reports.
    monkeypatch.setattr(_EvaluationLoop, "_on_evaluation_model_eval", lambda self: None)
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()]).validate(ToyModule(), make_loader())
    v = info.value.violation
    assert (v.kind, v.stage, v.batch_idx, v.module) == ("train_mode", "validation", None, "")
    assert "still in training mode after on_validation_model_eval" in v.detail


def test_every_touchpoint_is_taken_off_after_each_stage(make_trainer: Any, tmp_path: Path) -> None:
    model = ToyModule()
    trainer = make_trainer(callbacks=[GradModeGuard()], gradient_clip_val=1.0)
    trainer.fit(model, make_loader(), make_loader())
    assert leftovers(trainer) == []
    trainer.predict(model, make_loader())
    assert leftovers(trainer) == [] and hook_count(model) == 0


# -- 9. the edges: a caller's inference mode, torch.func in fit, a Trainer copied mid-stage --------------------------
class SeesItsContext(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.inference: list[bool] = []

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        self.inference.append(torch.is_inference_mode_enabled())
        super().validation_step(batch, batch_idx)


@pytest.mark.parametrize("grad_mode", ["auto", "no_grad"])
def test_a_callers_inference_mode_around_validate_is_never_lowered(make_trainer: Any, grad_mode: str) -> None:
    @torch.inference_mode()
    def validate(guard: GradModeGuard | None) -> tuple[list[bool], list[dict[str, float]]]:
        model = _seeded(SeesItsContext)
        trainer = make_trainer(callbacks=[guard] if guard else [], inference_mode=False)
        return model.inference, trainer.validate(model, make_loader())

    guard = GradModeGuard(grad_mode=grad_mode)
    assert validate(guard) == validate(None)
    assert validate(None)[0] == [True] * 4
    summary = guard.report.stage("validation")
    assert guard.report.total == 0 and summary.grad_context == "inference_mode"
    assert summary.reason.startswith("inside the caller's torch.inference_mode(): the guard never lowers")


class FuncInValidation(ToyModule):
    """A validation step that takes an input gradient with torch.func, without allow_grad."""

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        grad = torch.func.grad(lambda v: nn.functional.cross_entropy(self(v), y))(x)  # the torch.func line
        self.log("input_grad", grad.abs().mean())


def test_torch_func_in_validation_during_fit_runs_to_the_end_under_record(make_trainer: Any) -> None:
    def fit(guard: GradModeGuard | None) -> FuncInValidation:
        model = _seeded(FuncInValidation)
        trainer = make_trainer(callbacks=[guard] if guard else [], limit_val_batches=2, num_sanity_val_steps=0)
        trainer.fit(model, make_loader(), make_loader())
        model.metrics = trainer.callback_metrics  # type: ignore[assignment]
        return model

    guard = GradModeGuard(on_violation="record")
    guarded, plain = fit(guard), fit(None)
    assert_same_weights(guarded, plain)
    assert torch.equal(guarded.metrics["input_grad"], plain.metrics["input_grad"])
    assert guard.report.count("graph_built", "validation") == 2
    assert "the torch.func line" in (guard.report.violations[0].where or "")
    with pytest.raises(GradModeViolation) as info:
        fit(GradModeGuard())
    assert info.value.kind == "graph_built" and "the torch.func line" in str(info.value)
    assert "allow_grad('reason')" in str(info.value)


class CopiesItsTrainer(ToyModule):
    """Deep-copies and pickles its Trainer in the middle of validation, as sweep and checkpoint tools do."""

    def __init__(self) -> None:
        super().__init__()
        self.copies: list[Any] = []

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        if batch_idx == 0:
            self.copies.append(copy.deepcopy(self.trainer))
            self.copies.append(pickle.loads(pickle.dumps(self.trainer)))
        super().validation_step(batch, batch_idx)


def test_a_trainer_copied_and_pickled_mid_stage_carries_nothing_of_the_guard(make_trainer: Any) -> None:
    def fit(guard: bool) -> CopiesItsTrainer:
        model = _seeded(CopiesItsTrainer)
        trainer = make_trainer(callbacks=[GradModeGuard()] if guard else [], limit_val_batches=2)
        trainer.fit(model, make_loader(), make_loader())
        return model

    guarded, plain = fit(guard=True), fit(guard=False)
    assert_same_weights(guarded, plain)
    assert len(guarded.copies) == 4  # the sanity check's and the epoch's validation, each copied and pickled
    for trainer in guarded.copies:
        loops = _internals.evaluation_loops(trainer)
        for owner in [*loops, *(loop.batch_progress for loop in loops), trainer.strategy, trainer.precision_plugin]:
            assert {"run", "_build_kwargs", "increment_completed", "__getstate__"}.isdisjoint(vars(owner))
            assert not any(name in vars(owner) for name in ("validation_step", "_clip_gradients", "clip_gradients"))
        copied_guard = next(c for c in trainer.callbacks if isinstance(c, GradModeGuard))
        assert copied_guard._scope is None and copied_guard._attached is None
        copy.deepcopy(trainer), pickle.dumps(trainer)  # and copied again
