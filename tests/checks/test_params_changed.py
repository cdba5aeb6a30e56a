"""params_changed (check_params=True): written or replaced parameters and buffers."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeViolation
from tests.helpers.models import make_model, run_loop


def test_parameter_replaced_by_assignment_is_caught_at_its_batch() -> None:
    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        if i == 2:
            m[4].weight = nn.Parameter(m[4].weight.detach() * 2)  # the optimizer keeps the old tensor
        return m(x)

    with pytest.raises(GradModeViolation) as info:
        run_loop(make_model(), body, check_params=True)
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module) == ("params_changed", 2, "4")
    assert "replaced by another tensor: 4.weight" in v.detail


def test_in_place_write_is_caught_at_its_batch_and_only_with_check_params() -> None:
    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        if i == 2:
            m[4].bias.add_(1.0)
        return m(x)

    assert run_loop(make_model(), body, on_violation="record").report.total == 0
    with pytest.raises(GradModeViolation) as info:
        run_loop(make_model(), body, check_params=True)
    assert (info.value.kind, info.value.violation.batch_idx, info.value.violation.module) == ("params_changed", 2, "4")


def test_allowed_modules_may_change() -> None:
    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        m[4].bias.add_(1.0)
        return m(x)

    scope = run_loop(make_model(), body, check_params=True, allow_train=("4",))
    assert scope.report.total == 0
