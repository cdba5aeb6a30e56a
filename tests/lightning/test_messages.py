"""What the guard says, read as a user reads it: a misspelt argument, a clean run, and a PyTorch error inside a
guarded step whose cause the guard knows."""

from __future__ import annotations

import logging
import sys
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard
from tests.helpers.lightning import ToyModule, make_loader


def test_a_misspelt_argument_names_the_closest_one() -> None:
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'grad_mod'; did you mean 'grad_mode'\?"):
        GradModeGuard(grad_mod="inference")  # type: ignore[call-arg]
    with pytest.raises(TypeError) as info:
        GradModeGuard(zzz=1)  # type: ignore[call-arg]
    assert "did you mean" not in str(info.value)
    assert "It takes: grad_mode, on_violation, allow_train, check_params, log_metrics" in str(info.value)
    assert GradModeGuard(grad_mode="no_grad").grad_mode == "no_grad"  # a correct call is untouched


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


class Saliency(ToyModule):
    """Saliency written with enable_grad, which does not leave the inference mode Lightning's validate runs under."""

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        with torch.enable_grad():
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
