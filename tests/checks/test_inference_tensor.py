"""inference_tensor_stored: evaluation under inference mode left an inference tensor on the model, which breaks the
next training step that uses it, far from the evaluation that stored it."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, evaluating
from tests.helpers.lightning import ToyModule, make_loader
from tests.helpers.models import BATCHES


class Rotary(nn.Module):
    """A rotary-style cos table, cached on first use (and grown for longer inputs), as attention code does."""

    def __init__(self, fix: bool = False) -> None:
        super().__init__()
        self.fix = fix
        self.fc = nn.Linear(8, 8)
        self.cos_cached: torch.Tensor | None = None
        self.register_buffer("positions", torch.zeros(0), persistent=False)

    def table(self, n: int) -> torch.Tensor:
        if self.cos_cached is None or self.cos_cached.shape[0] < n:
            if self.fix:
                with torch.inference_mode(False):  # a normal tensor, whatever the caller's mode
                    self.cos_cached = torch.arange(n, dtype=torch.float32)[:, None].cos()
            else:
                self.cos_cached = torch.arange(n, dtype=torch.float32)[:, None].cos()  # the bug, under inference
        return self.cos_cached[:n]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x) * self.table(x.shape[0])


class Net(nn.Module):
    def __init__(self, fix: bool = False) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.rotary = Rotary(fix)
        self.head = nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.rotary(x))


def train_step(model: nn.Module) -> None:
    model.train()
    model(BATCHES[0]).sum().backward()


def evaluate(model: nn.Module, **kwargs: Any) -> Any:
    with evaluating(model, **kwargs) as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i):
                model(x)
    return scope


def test_the_bug_is_real_without_the_guard() -> None:
    model = Net().eval()
    with torch.inference_mode():
        model(BATCHES[0])
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        train_step(model)


def test_a_cache_made_under_inference_mode_is_named_at_the_end_of_the_stage() -> None:
    with pytest.raises(GradModeViolation) as info:
        evaluate(Net(), grad_mode="inference")
    v = info.value.violation
    assert (v.kind, v.stage, v.batch_idx, v.module) == ("inference_tensor_stored", "evaluation", None, "rotary")
    assert "rotary.cos_cached" in v.detail and "1 inference tensor(s)" in v.detail
    assert "torch.inference_mode(False)" in v.hint and "grad_mode='no_grad'" in v.hint


@pytest.mark.parametrize(("fix", "grad_mode"), [(True, "inference"), (False, "no_grad")])
def test_a_cache_made_outside_inference_mode_is_silent_and_trains_afterwards(fix: bool, grad_mode: str) -> None:
    model = Net(fix)
    scope = evaluate(model, grad_mode=grad_mode)
    assert scope.report.total == 0 and not model.rotary.cos_cached.is_inference()  # type: ignore[union-attr]
    train_step(model)  # no "Inference tensors cannot be saved for backward"


def test_buffers_attributes_and_lazy_parameters_are_named_and_container_caches_are_not() -> None:
    class Stores(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.lazy = nn.LazyLinear(4)
            self.register_buffer("seen", torch.zeros(1))
            self.last: torch.Tensor | None = None
            self.history: list[torch.Tensor] = []
            self.eval_cache: dict[str, torch.Tensor] = {}  # for eval only, as timm's LeViT keeps one

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            self.seen = self.seen + 1  # replaced, not updated in place
            self.last = x * 2
            self.history.append(x.mean())
            self.eval_cache[str(x.device)] = x * 3
            return self.lazy(x)

    model = Stores()
    with pytest.raises(GradModeViolation) as info, evaluating(model, grad_mode="inference") as scope, scope.batch(0):
        model(BATCHES[0])
    detail = info.value.violation.detail
    assert "4 inference tensor(s)" in detail
    for name in ("lazy.weight", "lazy.bias", "seen", "last"):
        assert name in detail, name
    assert "history" not in detail and "eval_cache" not in detail


def test_tensors_already_there_and_in_place_updates_are_not_reported() -> None:
    model = Net()
    with torch.inference_mode():
        model.rotary.cos_cached = torch.ones(8, 1)  # stored before the stage: not this stage's doing
    model.rotary.positions = torch.zeros(3)

    class Updates(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.net = model

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            self.net.rotary.positions.add_(1)  # in place: the buffer stays a normal tensor
            return self.net(x)

    assert evaluate(Updates(), grad_mode="inference").report.total == 0


class RotaryModule(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.rotary = Rotary()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(self.rotary(x))


def test_validate_then_fit_is_reported_at_the_validation_that_stored_it(make_trainer: Any) -> None:
    model = RotaryModule()
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()]).validate(model, make_loader())
    assert (info.value.kind, info.value.violation.stage) == ("inference_tensor_stored", "validation")
    assert "rotary.cos_cached" in info.value.violation.detail
    # What the guard warned of: the fit that follows fails far from its cause.
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        make_trainer(num_sanity_val_steps=0).fit(model, make_loader())


def test_metric_states_a_metric_resets_itself_are_not_reported(make_trainer: Any) -> None:
    torchmetrics = pytest.importorskip("torchmetrics")

    class WithMetrics(ToyModule):
        def __init__(self) -> None:
            super().__init__()
            self.val_acc = torchmetrics.classification.BinaryAccuracy()
            self.val_loss = torchmetrics.MeanMetric()

        def validation_step(self, batch: Any, batch_idx: int) -> None:
            x, y = batch
            logits = self(x)
            self.val_acc(logits.argmax(-1), y)
            self.val_loss(nn.functional.cross_entropy(logits, y))
            self.log_dict({"val/acc": self.val_acc, "val/loss": self.val_loss})

    guard = GradModeGuard()
    model = WithMetrics()
    make_trainer(callbacks=[guard]).validate(model, make_loader())
    assert guard.report.total == 0
    assert any(t.is_inference() for t in vars(model.val_acc).values() if isinstance(t, torch.Tensor))
