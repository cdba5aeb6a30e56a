"""Fabric and Accelerate loops on CUDA, under each precision: a correct loop trains and evaluates to bitwise the same
numbers with the guard, and a bug planted in the evaluation loop is raised at its batch naming the user's module."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gradmode_plugin import GradModeViolation
from tests.gpu._gpu_support import REQUIRES_BF16, REQUIRES_CUDA, deterministic_cuda, reset_accelerate
from tests.helpers.loops import accelerate_fit, fabric_fit, same

pytestmark = [pytest.mark.gpu, REQUIRES_CUDA]


@pytest.fixture(autouse=True)
def _deterministic() -> Iterator[None]:
    with deterministic_cuda():
        yield


def _same_and_caught(fit: Callable[..., Any], bug_at: int, **kwargs: Any) -> None:
    plain, plain_net = fit(False, **kwargs)
    guarded, guarded_net = fit(True, **kwargs)
    assert len(guarded) == 8 and same(plain, guarded)
    assert same(list(plain_net.state_dict().values()), list(guarded_net.state_dict().values()))
    assert next(guarded_net.parameters()).is_cuda
    with pytest.raises(GradModeViolation) as info:
        fit(True, unfreeze_at=bug_at, **kwargs)
    violation = info.value.violation
    assert (violation.kind, violation.batch_idx, violation.module) == ("train_mode", bug_at, "head")
    assert "the planted bug" in (violation.where or "")


@pytest.mark.parametrize("precision", ["32-true", "16-mixed", pytest.param("bf16-mixed", marks=REQUIRES_BF16)])
def test_a_fabric_loop_on_cuda(precision: str) -> None:
    _same_and_caught(fabric_fit, 2, accelerator="cuda", precision=precision)


@pytest.mark.parametrize("mixed_precision", ["no", "fp16", pytest.param("bf16", marks=REQUIRES_BF16)])
def test_an_accelerate_loop_on_cuda(mixed_precision: str) -> None:
    pytest.importorskip("accelerate")
    reset_accelerate()
    try:
        _same_and_caught(accelerate_fit, 1, cpu=False, mixed_precision=mixed_precision)
    finally:
        reset_accelerate()
