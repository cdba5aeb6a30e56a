"""GradModeGuard in real Lightning runs: correct code passes untouched (frozen backbones, MC dropout through
allow_train, saliency under allow_grad, manual optimisation, gradient penalties, several dataloaders)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytorch_lightning as pl
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, allow_grad
from tests.helpers.lightning import ToyModule, leftovers, make_loader
from tests.helpers.models import flags, hook_count

THIS_FILE = Path(__file__).name


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
