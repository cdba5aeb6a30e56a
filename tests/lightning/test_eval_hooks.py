"""The modes evaluation runs under are the model's own: Lightning's ``on_*_model_eval`` hook sets them (its default
calls the model's ``eval()``; an override runs instead), the guard assigns no eval flag, reports every module still
training afterwards, and puts the ``allow_train`` modules in training mode (as ``evaluating`` does)."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, evaluating
from tests.helpers.lightning import ToyModule, make_loader


class WithHead(ToyModule):
    """A head with its own dropout (``head.mc_dropout``) after the correct ``ToyModule`` network."""

    def __init__(self) -> None:
        torch.manual_seed(0)
        super().__init__()
        self.head = nn.ModuleDict({"mc_dropout": nn.Dropout(0.5), "fc": nn.Linear(2, 2)})

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head["fc"](self.head["mc_dropout"](self.net(x)))


class ForgetfulTrain(WithHead):
    """A ``train()`` override that passes the mode on to ``net`` only: ``head`` keeps whatever mode it had."""

    def train(self, mode: bool = True) -> ForgetfulTrain:
        self.training = mode
        self.net.train(mode)
        return self


class HookWithoutEval(WithHead):
    """An eval-hook override that forgets to call ``eval()``."""

    def on_validation_model_eval(self) -> None:
        self.net.eval()


class HookWithEval(WithHead):
    def on_validation_model_eval(self) -> None:
        self.eval()


def validation_losses(model_class: type[WithHead], make_trainer: Any, guard: GradModeGuard | None) -> list[float]:
    losses = []
    model = model_class()
    for seed in (1, 2):
        torch.manual_seed(seed)
        trainer = make_trainer(callbacks=[guard] if guard else [])
        losses.append(trainer.validate(model, make_loader(), verbose=False)[0]["val_loss"])
    return losses


@pytest.mark.parametrize(
    ("model_class", "module", "cause"),
    [
        (ForgetfulTrain, "head", "ForgetfulTrain.train() (/"),
        (HookWithoutEval, "", "the model overrides on_validation_model_eval (/"),
    ],
)
def test_a_module_the_models_eval_leaves_training_is_reported_not_switched(
    model_class: type[WithHead], module: str, cause: str, make_trainer: Any
) -> None:
    plain = validation_losses(model_class, make_trainer, None)
    assert plain[0] != plain[1], "without the guard the dropout left training keeps dropping"
    guard = GradModeGuard(on_violation="record")
    with pytest.warns(UserWarning, match="violations during validate"):
        guarded = validation_losses(model_class, make_trainer, guard)
    assert guarded == plain, "the guard must not change what the model computes"
    after_hook = [v for v in guard.report.violations if v.batch_idx is None]
    assert len(after_hook) == 2 and after_hook[0].module == module
    assert "still in training mode after on_validation_model_eval" in after_hook[0].detail
    assert cause in after_hook[0].detail
    with pytest.raises(GradModeViolation) as info:
        validation_losses(model_class, make_trainer, GradModeGuard())
    v = info.value.violation
    assert (v.kind, v.stage, v.batch_idx, v.module) == ("train_mode", "validation", None, module)


class ForgetfulTestHook(HookWithEval):
    """A correct validation hook beside a test hook that forgets to call ``eval()``."""

    def on_test_model_eval(self) -> None:
        self.net.eval()


def test_the_cause_named_is_the_hook_of_the_stage_that_ran(make_trainer: Any) -> None:
    guard = GradModeGuard(on_violation="record")
    model = ForgetfulTestHook()
    make_trainer(callbacks=[guard]).validate(model, make_loader(), verbose=False)
    assert guard.report.total == 0, "the validation hook calls eval()"
    with pytest.warns(UserWarning, match="violations during test"):
        make_trainer(callbacks=[guard]).test(model, make_loader(), verbose=False)
    after_hook = [v for v in guard.report.violations if v.batch_idx is None and v.stage == "test"]
    assert after_hook and "still in training mode after on_test_model_eval" in after_hook[0].detail
    assert "the model overrides on_test_model_eval (/" in after_hook[0].detail, after_hook[0].detail


@pytest.mark.parametrize("model_class", [WithHead, HookWithEval])
def test_the_default_hook_and_an_override_that_calls_eval_are_silent(
    model_class: type[WithHead], make_trainer: Any
) -> None:
    guard = GradModeGuard()
    guarded = validation_losses(model_class, make_trainer, guard)
    assert guard.report.total == 0 and guarded == validation_losses(model_class, make_trainer, None)
    assert guarded[0] == guarded[1]


# -- allow_train: the modules named train, after the model's eval hook, in every adapter ----------------------------
class PredictHookKeepsEval(WithHead):
    def on_predict_model_eval(self) -> None:
        self.eval()


class ForgetfulPredict(ForgetfulTrain):
    pass


def predictions(model: WithHead, make_trainer: Any, guard: GradModeGuard) -> list[torch.Tensor]:
    trainer = make_trainer(callbacks=[guard])
    return [torch.cat(trainer.predict(model, make_loader())) for _ in range(2)]


@pytest.mark.parametrize("model_class", [WithHead, PredictHookKeepsEval, ForgetfulPredict])
def test_allow_train_puts_the_module_in_training_mode_after_the_models_eval_hook(
    model_class: type[WithHead], make_trainer: Any
) -> None:
    model = model_class()
    if model_class is ForgetfulPredict:
        model.head.eval()  # train(False) would not reach it anyway: it must be the guard that switches it on
    guard = GradModeGuard(allow_train=("head.mc_dropout",))
    first, second = predictions(model, make_trainer, guard)
    assert not torch.equal(first, second), "MC dropout must be active: allow_train asked for it"
    assert guard.report.total == 0 and guard.report.stage("predict").train_allowed == ["head.mc_dropout"]
    model.eval()
    with torch.inference_mode():
        deterministic = torch.cat([model(x) for x, _ in make_loader()])
    assert not torch.equal(first, deterministic)


def test_evaluating_and_the_callback_agree_on_allow_train(make_trainer: Any) -> None:
    model = WithHead()
    with evaluating(model, allow_train=("head.mc_dropout",)) as scope:
        seen = model.head["mc_dropout"].training, model.net[3].training
    assert seen == (True, False) and scope.report.total == 0

    class Probe(WithHead):
        def predict_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
            self.seen = self.head["mc_dropout"].training, self.net[3].training
            return super().predict_step(batch, batch_idx)

    probe = Probe()
    make_trainer(callbacks=[GradModeGuard(allow_train=("head.mc_dropout",))]).predict(probe, make_loader())
    assert probe.seen == seen
