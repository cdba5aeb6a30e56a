"""running_stats_updated: statistics moved by a forward pass in training mode, found when it happens (module
layers, functional layers holding their own statistics), never for a copy into the statistics."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, allow_grad, evaluating
from tests.helpers.lightning import ToyModule, make_loader

THIS_FILE = Path(__file__).name
BATCHES = [torch.randn(4, 3, 5, 5, generator=torch.Generator().manual_seed(i)) for i in range(3)]


class FunctionalNorm(nn.Module):
    """A MAML++-style layer: running statistics as plain tensors or parameters, normalised with F.batch_norm."""

    def __init__(self, stats: str, always_train: bool) -> None:
        super().__init__()
        self.always_train = always_train
        self.weight = nn.Parameter(torch.ones(3))
        self.bias = nn.Parameter(torch.zeros(3))
        if stats == "parameter":
            self.running_mean = nn.Parameter(torch.zeros(3), requires_grad=False)
            self.running_var = nn.Parameter(torch.ones(3), requires_grad=False)
        else:
            self.register_buffer("running_mean", torch.zeros(3), persistent=False)
            self.register_buffer("running_var", torch.ones(3), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        training = True if self.always_train else self.training
        return F.batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias, training=training)


class Net(nn.Module):
    def __init__(self, norm: nn.Module) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.conv = nn.Conv2d(3, 3, 3, padding=1)
        self.norm = norm

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(self.conv(x))


def evaluate(model: nn.Module, on_batch: Any = None, **kwargs: Any) -> tuple[Any, list[torch.Tensor]]:
    outputs = []
    with evaluating(model, **kwargs) as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i):
                outputs.append(on_batch(model, i, x) if on_batch else model(x))
    return scope, outputs


@pytest.mark.parametrize("stats", ["tensor", "parameter"])
def test_functional_batch_norm_in_training_mode_is_caught_at_its_first_batch(stats: str) -> None:
    model = Net(FunctionalNorm(stats, always_train=True))
    before = model.norm.running_mean.clone()
    with pytest.raises(GradModeViolation) as info:
        evaluate(model)
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module) == ("running_stats_updated", 0, "norm")
    assert "F.batch_norm(training=True)" in v.detail and "(eval mode)" in v.detail
    assert THIS_FILE in (v.where or "") and "F.batch_norm(" in (v.where or "")
    assert not torch.equal(before, model.norm.running_mean), "the statistics really moved"


@pytest.mark.parametrize("stats", ["tensor", "parameter"])
def test_functional_batch_norm_following_the_module_flag_is_silent_and_identical(stats: str) -> None:
    scope, guarded = evaluate(Net(FunctionalNorm(stats, always_train=False)))
    assert scope.report.total == 0
    plain_model = Net(FunctionalNorm(stats, always_train=False)).eval()
    with torch.no_grad():
        assert all(torch.equal(a, plain_model(x)) for a, x in zip(guarded, BATCHES))


def test_instance_norm_switched_to_train_and_back_within_a_step() -> None:
    model = Net(nn.InstanceNorm2d(3, track_running_stats=True))

    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        if i == 1:
            m.norm.train()
            m(x)
            m.norm.eval()
        return m(x)

    scope, _ = evaluate(model, body, on_violation="record")
    found = [(v.kind, v.batch_idx, v.module) for v in scope.report.violations]
    assert found == [("running_stats_updated", 1, "norm")], "found although the flag was reset within the step"


def test_instance_norm_in_eval_is_silent() -> None:
    scope, _ = evaluate(Net(nn.InstanceNorm2d(3, track_running_stats=True)))
    assert scope.report.total == 0


def test_load_state_dict_into_statistics_is_not_an_update() -> None:
    model = Net(nn.BatchNorm2d(3))
    other = Net(nn.BatchNorm2d(3))
    other.norm.running_mean.fill_(0.5)

    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        m.load_state_dict(other.state_dict())  # an EMA or best-weights swap
        return m(x)

    scope, _ = evaluate(model, body)
    assert scope.report.total == 0 and torch.equal(model.norm.running_mean, other.norm.running_mean)


class AdaptsAtTestTime(ToyModule):
    """Tent-style adaptation: BatchNorm kept training by the model's own test-eval hook, its affine parameters
    trained on the prediction entropy of each test batch inside allow_grad."""

    def on_test_model_eval(self) -> None:
        self.eval()
        self.net[1].train()

    def test_step(self, batch: Any, batch_idx: int) -> None:
        bn = self.net[1]
        with allow_grad("test-time adaptation"):
            x = batch[0].clone()
            probs = self(x).softmax(-1)
            entropy = -(probs * probs.log()).sum(-1).mean()
            grads = torch.autograd.grad(entropy, [bn.weight, bn.bias])
            with torch.no_grad():
                for p, g in zip((bn.weight, bn.bias), grads):
                    p -= 0.1 * g
        self.log("entropy", entropy.detach())


def test_test_time_adaptation_through_allow_train_and_allow_grad(make_trainer: Any) -> None:
    def run(guard: GradModeGuard | None) -> AdaptsAtTestTime:
        torch.manual_seed(2)
        model = AdaptsAtTestTime()
        make_trainer(callbacks=[guard] if guard else [], inference_mode=False).test(model, make_loader())
        return model

    guard = GradModeGuard(allow_train=("net.1",), check_params=True)
    adapted, plain = run(guard), run(None)
    assert guard.report.total == 0, guard.report.summary()
    assert guard.report.stage("test").allowed == {"test-time adaptation": 4}
    assert all(torch.equal(a, b) for a, b in zip(adapted.state_dict().values(), plain.state_dict().values()))
    with pytest.raises(GradModeViolation) as info:
        run(GradModeGuard())  # the same program without allowing it
    assert info.value.kind in ("train_mode", "running_stats_updated")
