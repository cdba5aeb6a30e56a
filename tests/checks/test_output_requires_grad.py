"""output_requires_grad: a step output that keeps a graph or parameters alive."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeViolation
from gradmode_plugin.checks.output_requires_grad import find_grad_tensor
from tests.helpers.models import make_model, run_loop


def test_nested_output_that_requires_grad_is_named_by_its_path() -> None:
    def body(m: nn.Module, i: int, x: torch.Tensor) -> Any:
        return {"out": m(x), "w": [m[0].weight]}

    with pytest.raises(GradModeViolation, match=r"output\['w'\]\[0\] requires grad") as info:
        run_loop(make_model(), body)
    assert (info.value.kind, info.value.violation.batch_idx) == ("output_requires_grad", 0)


def test_detached_outputs_are_silent() -> None:
    def body(m: nn.Module, i: int, x: torch.Tensor) -> Any:
        return {"out": m(x), "w": [m[0].weight.detach()]}

    assert run_loop(make_model(), body).report.total == 0


def test_find_grad_tensor_walks_nested_outputs() -> None:
    w = torch.ones(1, requires_grad=True)
    assert find_grad_tensor({"a": [torch.ones(1), (1, w)]}) == "output['a'][1][1]"
    assert find_grad_tensor({"a": torch.ones(1)}) is None
