"""allow_grad: sanctioned gradients inside evaluation, counted instead of flagged."""

from __future__ import annotations

import threading

import pytest
import torch

from gradmode_plugin import GradModeViolation, allow_grad, evaluating
from tests.helpers.models import BATCHES, make_model


@pytest.mark.parametrize("grad_mode", ["inference", "no_grad"])
def test_allow_grad_inside_evaluating(grad_mode: str) -> None:
    model = make_model()
    with evaluating(model, grad_mode=grad_mode) as scope:
        x = BATCHES[0] * 1.0  # made under the guard's context
        with scope.batch(0), allow_grad("saliency"):
            x = x.clone().requires_grad_()
            model(x).sum().backward()
    assert x.grad is not None and scope.report.total == 0
    assert scope.report.stage("evaluation").allowed == {"saliency": 1}


def test_allow_grad_needs_a_reason() -> None:
    with pytest.raises(ValueError, match="reason"), allow_grad(""):
        pass


def test_allow_grad_outside_any_guard_just_enables_grad() -> None:
    with torch.no_grad(), allow_grad("metric"):
        assert torch.is_grad_enabled()
    assert torch.is_grad_enabled()


def test_allow_grad_does_not_cover_worker_threads() -> None:
    model = make_model()
    scope = evaluating(model, grad_mode="no_grad")
    with pytest.raises(GradModeViolation, match="thread"), scope, scope.batch(0), allow_grad("saliency"):
        worker = threading.Thread(target=lambda: model(BATCHES[0]))
        worker.start()
        worker.join()
