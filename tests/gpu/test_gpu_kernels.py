"""On CUDA, under Lightning's mixed precision: the operators a validation runs (each with its shapes, dtypes, strides
and scalar arguments, read by the execution-trace observer, which leaves dispatch alone) and the losses it computes,
the first batch's included, are the same with and without the guard."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import torch

from gradmode_plugin import GradModeGuard
from tests.gpu._gpu_support import (
    MIXED_PRECISIONS,
    REQUIRES_CUDA,
    GpuNet,
    make_gpu_trainer,
    make_loader,
    restored_torch_flags,
)
from tests.helpers.kernels import first_difference, kernels

pytestmark = [pytest.mark.gpu, REQUIRES_CUDA]

PRECISIONS = MIXED_PRECISIONS


@pytest.fixture(autouse=True)
def _restore_flags() -> Iterator[None]:
    with restored_torch_flags():
        yield


def _validate(guard: GradModeGuard | None, precision: str, tmp_path: Path) -> tuple[list[Any], list[float]]:
    torch.manual_seed(1234)
    model = GpuNet()
    trainer = make_gpu_trainer(tmp_path, precision=precision, callbacks=[guard] if guard is not None else [])
    ran = kernels(lambda: trainer.validate(model, dataloaders=make_loader(1, n=32), verbose=False))
    return ran, [loss.item() for loss in model.val_losses]


@pytest.mark.parametrize("grad_mode", ["auto", "inference"])
@pytest.mark.parametrize("precision", PRECISIONS)
def test_a_mixed_precision_validate_runs_the_same_operators_and_losses(
    precision: str, grad_mode: str, tmp_path: Path
) -> None:
    without, plain = _validate(None, precision, tmp_path)
    with_guard, guarded = _validate(GradModeGuard(grad_mode=grad_mode), precision, tmp_path)
    assert len(plain) == 2 and guarded == plain  # the first, audited batch included
    assert first_difference(without, with_guard) is None
