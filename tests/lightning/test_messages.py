"""What the guard says, read as a user reads it: a misspelt argument, a clean run, and a PyTorch error inside a
guarded step whose cause the guard knows."""

from __future__ import annotations

import inspect
import logging
import os
import sys
import traceback
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, evaluating
from tests.helpers.lightning import ToyModule, make_loader

THIS_FILE = __file__


def test_a_misspelt_argument_names_the_closest_one() -> None:
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'grad_mod'; did you mean 'grad_mode'\?"):
        GradModeGuard(grad_mod="inference")  # type: ignore[call-arg]
    with pytest.raises(TypeError) as info:
        GradModeGuard(zzz=1)  # type: ignore[call-arg]
    assert "did you mean" not in str(info.value)
    assert "It takes: grad_mode, on_violation, allow_train, check_params, log_metrics" in str(info.value)
    assert GradModeGuard(grad_mode="no_grad").grad_mode == "no_grad"  # a correct call is untouched
    # The class's signature stays its __init__'s: what LightningCLI (jsonargparse) reads its arguments from.
    assert list(inspect.signature(GradModeGuard).parameters) == [
        "grad_mode",
        "on_violation",
        "allow_train",
        "check_params",
        "log_metrics",
    ]


def test_a_clean_run_says_what_it_checked(make_trainer: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="gradmode_plugin")
    guard = GradModeGuard()
    trainer = make_trainer(callbacks=[guard])
    trainer.validate(ToyModule(), make_loader())
    trainer.test(ToyModule(), make_loader(n=16))
    lines = [r.getMessage() for r in caplog.records if "checked" in r.getMessage()]
    assert lines == [
        "gradmode: validate checked validation 4 batch(es): 0 violation(s)",
        "gradmode: test checked test 2 batch(es): 0 violation(s)",
    ]


class FetchesItsBatches(ToyModule):
    """A validation step that takes ``dataloader_iter`` and consumes two batches a call; ``bug``: the third batch
    validated under enable_grad."""

    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        self.bug = bug
        self.losses: list[torch.Tensor] = []

    def validation_step(self, dataloader_iter: Any) -> None:  # type: ignore[override]
        for _ in range(2):
            (x, y), _, _ = next(dataloader_iter)
            with torch.set_grad_enabled(self.bug and len(self.losses) == 2):
                self.losses.append(nn.functional.cross_entropy(self(x), y))


def _checked_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if " checked " in r.getMessage()]


def test_a_step_that_fetches_its_batches_counts_them_and_an_empty_stage_says_0(
    make_trainer: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gradmode_plugin")

    def validate(guard: GradModeGuard | None, model: FetchesItsBatches, **kwargs: Any) -> list[torch.Tensor]:
        make_trainer(callbacks=[guard] if guard else [], **kwargs).validate(model, make_loader())
        return model.losses

    torch.manual_seed(0)
    guarded = validate(GradModeGuard(), FetchesItsBatches())
    torch.manual_seed(0)
    assert torch.equal(torch.stack(guarded), torch.stack(validate(None, FetchesItsBatches())))
    assert _checked_lines(caplog) == [
        "gradmode: validate checked validation 4 batch(es) in 2 step call(s): 0 violation(s)"
    ]
    guard = GradModeGuard(on_violation="record")
    validate(guard, FetchesItsBatches(bug=True), inference_mode=False)  # the third batch, in the second call
    assert [v.kind for v in guard.report.violations] == ["graph_built"]
    assert "validation: 1 run(s), 4 batch(es) in 2 step call(s)" in guard.report.summary()

    caplog.clear()
    trainer = make_trainer(callbacks=[GradModeGuard()], limit_val_batches=0)
    trainer.validate(ToyModule(), make_loader())
    trainer.fit(ToyModule(), make_loader(), make_loader())
    assert _checked_lines(caplog) == [
        "gradmode: validate checked validation 0 batch(es): 0 violation(s)",
        "gradmode: fit checked validation 0 batch(es): 0 violation(s)",
    ]


class Saliency(ToyModule):
    """Saliency written with enable_grad, which does not leave the inference mode Lightning's validate runs under."""

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        with torch.enable_grad():  # noqa: GM301 (the bug this test plants)
            x = x.requires_grad_()
            loss = nn.functional.cross_entropy(self(x), y)
            (grad,) = torch.autograd.grad(loss, x)  # PyTorch: element 0 of tensors does not require grad
        self.log("saliency", grad.abs().mean())


def test_enable_grad_under_inference_mode_gets_the_guards_explanation(make_trainer: Any) -> None:
    with pytest.raises(RuntimeError, match="does not require grad") as info:
        make_trainer(callbacks=[GradModeGuard()]).validate(Saliency(), make_loader())
    if sys.version_info >= (3, 11):
        notes = "\n".join(getattr(info.value, "__notes__", []))
        assert "torch.enable_grad() records nothing" in notes
        assert "allow_grad('reason'), torch.inference_mode(False)" in notes and "inference_mode=False" in notes
    # without the guard the same error, without the note
    with pytest.raises(RuntimeError, match="does not require grad") as plain:
        make_trainer().validate(Saliency(), make_loader())
    assert not getattr(plain.value, "__notes__", None)


class Pooled(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pooled = x.mean(0, keepdim=True).expand_as(x)
        return self.fc(nn.functional.dropout(pooled, 0.2))  # the call as written  # noqa: GM101


def test_functional_dropout_says_the_call_as_written_and_its_own_fix() -> None:
    model = Pooled()
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope, scope.batch(0):
        model(torch.randn(4, 8))
    v = info.value.violation
    assert v.detail.startswith("F.dropout(p=0.2, training left at its default, True) ran during evaluation")
    assert "return self.fc(nn.functional.dropout(pooled, 0.2))  # the call as written" in (v.where or "")
    assert v.hint.startswith("functional dropout trains whenever its training argument is True")
    assert ".train()" not in v.hint  # one fix, for this cause
    text = str(info.value)
    assert text.count("\n  fix: ") == 1, text


class EnablesGrad(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        with torch.enable_grad():  # "for the gradient-norm metric"  # noqa: GM301
            logits = self(x)
        self.log("val_loss", nn.functional.cross_entropy(logits, y))


def test_a_graph_finding_names_the_with_block_that_enabled_grad(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard(grad_mode="no_grad")]).validate(EnablesGrad(), make_loader())
    v = info.value.violation
    assert v.kind == "graph_built"
    block = 'with torch.enable_grad():  # "for the gradient-norm metric"  # noqa: GM301'
    assert f"grad mode was turned on by {block} ({THIS_FILE}:" in v.detail
    assert "in validation_step)" in v.detail and "logits = self(x)" in (v.where or "")
    assert v.hint.startswith("remove that with block from evaluation code") and "worker thread" not in v.hint


def test_the_traceback_ends_at_one_frame_of_the_guards(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard(grad_mode="no_grad")]).validate(EnablesGrad(), make_loader())
    # Its last frame is the guard's step touchpoint; the one before it is Lightning's call of the step.
    assert guard_frames_at_the_end(info.value) == 1
    model = Pooled()
    with pytest.raises(GradModeViolation) as plain, evaluating(model) as scope, scope.batch(0):
        model(torch.randn(4, 8))
    assert guard_frames_at_the_end(plain.value) == 1  # the batch context's exit, after the user's `with` line


def guard_frames_at_the_end(error: BaseException) -> int:
    """How many frames of the guard's end the traceback (the innermost ones, where a reader looks first)."""
    frames = traceback.extract_tb(error.__traceback__)
    count = 0
    for frame in reversed(frames):
        if f"{os.sep}gradmode_plugin{os.sep}" not in frame.filename:
            break
        count += 1
    return count
