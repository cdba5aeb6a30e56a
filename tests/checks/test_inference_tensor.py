"""inference_tensor_stored, a risk: the model's own code left an inference tensor on it under inference mode, which
breaks a later training step that reaches it through autograd. Noted with its line, never raised; what step, hook and
loop code keeps is not a finding; a training failure that follows is explained where it happens."""

from __future__ import annotations

import sys
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, allow_grad, evaluating
from tests.helpers.lightning import ToyModule, make_loader
from tests.helpers.models import BATCHES

THIS_FILE = __file__


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


def test_a_cache_made_under_inference_mode_is_noted_with_its_line_and_never_raised(
    caplog: pytest.LogCaptureFixture,
) -> None:
    scope = evaluate(Net(), grad_mode="inference")  # under raise: the stage runs to its end
    assert scope.report.total == 0 and scope.report.violations == []
    (risk,) = scope.report.risks
    assert (risk.kind, risk.stage, risk.module) == ("inference_tensor_stored", "evaluation", "rotary")
    assert "rotary.cos_cached (stored at" in risk.detail and "1 inference tensor(s)" in risk.detail
    # A static reading of the module's code: both lines that can store the cache are named.
    assert "in table: self.cos_cached = torch.arange(n, dtype=torch.float32)[:, None].cos()" in (risk.where or "")
    assert risk.detail.count(f"{THIS_FILE}:") == 2 and " or " in risk.detail
    assert "torch.inference_mode(False)" in risk.hint and "grad_mode='no_grad'" in risk.hint
    assert scope.report.stage("evaluation").risks == 1
    assert "a risk, not a violation" in caplog.text and "rotary.cos_cached" in caplog.text
    assert "risks noted (not violations): 1" in scope.report.summary()


@pytest.mark.parametrize(("fix", "grad_mode"), [(True, "inference"), (False, "no_grad")])
def test_a_cache_made_outside_inference_mode_is_silent_and_trains_afterwards(fix: bool, grad_mode: str) -> None:
    model = Net(fix)
    scope = evaluate(model, grad_mode=grad_mode)
    assert scope.report.total == 0 and scope.report.risks == []
    assert not model.rotary.cos_cached.is_inference()  # type: ignore[union-attr]
    train_step(model)  # no "Inference tensors cannot be saved for backward"


class Stores(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lazy = nn.Sequential(nn.Linear(8, 8), nn.LazyLinear(4))  # not the first layer: its weight is saved
        self.register_buffer("seen", torch.zeros(1))
        self.last: torch.Tensor | None = None
        self.history: list[torch.Tensor] = []
        self.eval_cache: dict[str, torch.Tensor] = {}  # for eval only, as timm's LeViT keeps one

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.seen = self.seen + 1  # replaced, not updated in place
        self.last = x * 2
        self.history.append(x.mean())
        self.eval_cache[str(x.device)] = x * 3
        return self.lazy(x)  # the lazy layer's first call


def test_buffers_attributes_and_lazy_parameters_are_noted_and_container_caches_are_not() -> None:
    model = Stores()
    with evaluating(model, grad_mode="inference") as scope, scope.batch(0):
        model(BATCHES[0])
    (risk,) = scope.report.risks
    assert "4 inference tensor(s)" in risk.detail and scope.report.total == 0
    for name in ("lazy.1.weight", "lazy.1.bias", "seen", "last"):
        assert name in risk.detail, name
    assert "history" not in risk.detail and "eval_cache" not in risk.detail
    assert "a lazy module's parameter, materialised by its first forward at " in risk.detail
    assert "return self.lazy(x)  # the lazy layer's first call" in risk.detail or THIS_FILE in risk.detail
    # The hazard is real: the lazy weight is saved for the gradient of the layer's input.
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        train_step(model)


def test_the_lazy_layers_first_forward_line_is_the_one_noted() -> None:
    model = Stores()
    with evaluating(model, grad_mode="inference") as scope, scope.batch(0):
        model(BATCHES[0])
    lazy = scope.report.risks[0].detail.split("lazy.1.weight (a lazy module's parameter, materialised by its first ")[1]
    assert lazy.startswith(f"forward at {THIS_FILE}:"), lazy
    assert torch.nn.modules.module._global_forward_pre_hooks == {}  # the pre-hook that saw it is gone


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

    scope = evaluate(Updates(), grad_mode="inference")
    assert scope.report.total == 0 and scope.report.risks == []


# -- what step, hook and loop code keeps is not a finding ----------------------------------------------------------
class Keeps(ToyModule):
    """Tensors kept by step code for a later hook, as users write them (none of them reaches autograd)."""

    def __init__(self) -> None:
        super().__init__()
        self.last_images: torch.Tensor | None = None
        self.last_imgs: torch.Tensor | None = None
        self.sal: torch.Tensor | None = None

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        self.last_images = x[:4]  # for an image-logging hook
        self.log("val_loss", nn.functional.cross_entropy(self(x), y))

    def test_step(self, batch: Any, batch_idx: int) -> None:
        imgs, y = batch
        self.last_imgs = imgs  # the input-gradient report (Lightning #2427)
        with allow_grad("saliency"), torch.inference_mode(False):
            gx = imgs.clone().requires_grad_()
            nn.functional.cross_entropy(self(gx), y.clone()).backward()
        self.sal = gx.grad.abs().sum().detach()  # type: ignore[union-attr]  # a saliency score for the test's end

    def on_validation_epoch_end(self) -> None:
        assert self.last_images is not None and self.last_images.shape[0] == 4


def test_tensors_step_code_keeps_are_not_findings_in_lightning(make_trainer: Any) -> None:
    guard = GradModeGuard()  # under raise
    model = Keeps()
    trainer = make_trainer(callbacks=[guard])
    trainer.validate(model, make_loader())
    trainer.test(model, make_loader())
    assert model.last_images.is_inference() and model.last_imgs.is_inference()  # type: ignore[union-attr]
    assert guard.report.total == 0 and guard.report.risks == [], guard.report.summary()
    # and a fit afterwards trains: none of them reaches autograd
    make_trainer(callbacks=[guard], max_epochs=1, num_sanity_val_steps=0).fit(model, make_loader(), make_loader())


def test_tensors_a_plain_loop_keeps_on_the_model_are_not_findings() -> None:
    model = Net(fix=True)
    with evaluating(model, grad_mode="inference") as scope:  # under raise
        for i, x in enumerate(BATCHES):
            with scope.batch(i):
                model.last_images = x[:4]  # type: ignore[assignment]  # kept for logging by the caller's loop
    assert scope.report.total == 0 and scope.report.risks == []
    train_step(model)


class RotaryModule(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.rotary = Rotary()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(self.rotary(x))


def test_validate_then_fit_notes_the_cache_and_explains_the_failure_where_it_happens(
    make_trainer: Any, caplog: pytest.LogCaptureFixture
) -> None:
    model = RotaryModule()
    guard = GradModeGuard()
    trainer = make_trainer(callbacks=[guard], num_sanity_val_steps=0)
    trainer.validate(model, make_loader())  # under raise: runs to its end
    (risk,) = guard.report.risks
    assert (risk.kind, risk.stage, risk.module) == ("inference_tensor_stored", "validation", "rotary")
    assert "self.cos_cached = torch.arange(n" in (risk.where or "")
    # What the note warned of: the fit that follows fails far from its cause, and the guard says why there.
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward") as info:
        trainer.fit(model, make_loader())
    notes = "\n".join(getattr(info.value, "__notes__", [])) if sys.version_info >= (3, 11) else caplog.text
    assert "the inference tensor an earlier evaluation left on the model" in notes
    assert "stage 'validation'" in notes and "rotary.cos_cached" in notes
    assert "self.cos_cached = torch.arange(n" in notes and "torch.inference_mode(False)" in notes
    assert "rotary.cos_cached" in caplog.text


def test_a_training_failure_with_no_risk_noted_gets_no_explanation(make_trainer: Any) -> None:
    class Fails(ToyModule):
        def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
            with torch.inference_mode():
                x = batch[0] * 1
            return self(x).sum()  # PyTorch refuses: no evaluation of the guard's stored it

    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward") as info:
        make_trainer(callbacks=[GradModeGuard()], num_sanity_val_steps=0).fit(Fails(), make_loader())
    assert not getattr(info.value, "__notes__", None)


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
    assert guard.report.total == 0 and guard.report.risks == []
    assert any(t.is_inference() for t in vars(model.val_acc).values() if isinstance(t, torch.Tensor))
