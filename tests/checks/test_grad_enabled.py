"""grad_enabled: grad mode found on at a boundary of evaluation, with its cause where it can be known."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeViolation, evaluating
from gradmode_plugin.checks.grad_enabled import DECORATOR_HINT
from tests.helpers.models import BATCHES, make_model, run_loop


@torch.enable_grad()
def validate_one_dataloader(model: nn.Module, batches: list[torch.Tensor], scope: Any, ran: list[int]) -> None:
    """A validation loop decorated to get gradients of the predictions (a real user's out-of-memory bug)."""
    for i, x in enumerate(batches):
        with scope.batch(i):
            ran.append(i)
            model(x)


def validate(on_violation: str = "raise", ran: list[int] | None = None) -> Any:
    model = make_model()
    with evaluating(model, on_violation=on_violation) as scope:
        validate_one_dataloader(model, BATCHES, scope, [] if ran is None else ran)
    return scope


def test_enable_grad_decorator_around_the_loop_is_named_with_its_fix() -> None:
    ran: list[int] = []
    with pytest.raises(GradModeViolation) as info:
        validate(ran=ran)
    v = info.value.violation
    assert (v.kind, v.batch_idx) == ("grad_enabled", 0)
    assert "@torch.enable_grad() on validate_one_dataloader" in v.detail and "test_grad_enabled.py" in v.detail
    assert v.hint.startswith(DECORATOR_HINT) and "allow_grad" in v.hint and "context manager" not in v.hint
    assert "with scope.batch(i)" in (v.where or "")
    assert ran == [], "under raise it stops before the batch runs"


def test_decorator_under_record_builds_its_graphs_and_both_are_reported() -> None:
    scope = validate(on_violation="record")
    kinds = {v.kind for v in scope.report.violations}
    assert kinds == {"grad_enabled", "graph_built"}, "reported, not switched off: the user's code keeps its grads"
    graph = next(v for v in scope.report.violations if v.kind == "graph_built")
    assert "@torch.enable_grad() on validate_one_dataloader" in graph.detail


def test_leaked_set_grad_enabled_is_flagged_with_the_context_manager_fix() -> None:
    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        out = m(x)
        if i == 3:
            torch.set_grad_enabled(True)  # noqa: GM401
        return out

    with pytest.raises(GradModeViolation) as info:
        run_loop(make_model(), body)
    assert (info.value.kind, info.value.violation.batch_idx) == ("grad_enabled", 3)
    assert "context manager" in info.value.violation.hint


def test_grad_left_on_after_the_last_batch_is_reported_once() -> None:
    model = make_model()
    with torch.no_grad():
        scope = evaluating(model, on_violation="record")
        with scope:
            with scope.batch(0):
                model(BATCHES[0])
            torch.set_grad_enabled(True)  # noqa: GM401
    found = [(v.kind, v.batch_idx) for v in scope.report.violations]
    assert found == [("grad_enabled", None)], "outside any batch"
