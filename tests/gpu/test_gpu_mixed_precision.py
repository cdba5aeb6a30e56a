"""Mixed precision on CUDA (``16-mixed`` with its grad scaler, ``bf16-mixed``): the guard changes no weight.

Same seed, data and model with and without the guard; every tensor of the final ``state_dict`` must be
bitwise equal after a 2-epoch fit with gradient clipping (norm and value), and after a fit with validation
between training steps (the autocast cache must not hand training a weight cast made without grad).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard
from tests.gpu._gpu_support import (
    MIXED_PRECISIONS,
    REQUIRES_CUDA,
    GpuNet,
    make_gpu_trainer,
    make_loader,
    restored_torch_flags,
)
from tests.helpers.lightning import assert_same_weights

pytestmark = [pytest.mark.gpu, REQUIRES_CUDA]

PRECISIONS = MIXED_PRECISIONS


@pytest.fixture(autouse=True)
def _restore_flags() -> Iterator[None]:
    with restored_torch_flags():
        yield


def _fit(
    guard: GradModeGuard | None,
    tmp_path: Path,
    **kwargs: Any,
) -> nn.Module:
    torch.manual_seed(1234)
    model = GpuNet()
    options: dict[str, Any] = dict(max_epochs=2, deterministic=True, callbacks=[guard] if guard is not None else [])
    options.update(kwargs)
    trainer = make_gpu_trainer(tmp_path, **options)
    trainer.fit(model, train_dataloaders=make_loader(0), val_dataloaders=make_loader(1, n=32))
    return model


@pytest.mark.parametrize("algorithm", ["norm", "value"])
@pytest.mark.parametrize("precision", PRECISIONS)
def test_clipping_gives_identical_weights(
    precision: str,
    algorithm: str,
    tmp_path: Path,
) -> None:
    clip = dict(precision=precision, gradient_clip_val=0.05, gradient_clip_algorithm=algorithm, limit_val_batches=0)
    guard = GradModeGuard()
    guarded = _fit(guard, tmp_path, **clip)
    plain = _fit(None, tmp_path, **clip)

    assert_same_weights(guarded, plain)
    unclipped = _fit(None, tmp_path, precision=precision, limit_val_batches=0)
    assert not torch.equal(unclipped.head.weight, plain.head.weight), "clipping changed nothing: test is void"
    assert guard.report.total == 0


@pytest.mark.parametrize("grad_mode", ["auto", "inference"])
@pytest.mark.parametrize("precision", PRECISIONS)
def test_validation_between_steps_gives_identical_weights(
    precision: str,
    grad_mode: str,
    tmp_path: Path,
) -> None:
    between = dict(precision=precision, val_check_interval=0.5, gradient_clip_val=0.05)
    guard = GradModeGuard(grad_mode=grad_mode)
    guarded = _fit(guard, tmp_path, **between)
    plain = _fit(None, tmp_path, **between)

    assert_same_weights(guarded, plain)
    assert [v.item() for v in guarded.val_losses] == [v.item() for v in plain.val_losses]
    summary = guard.report.stage("validation")
    assert summary.runs == 4 and summary.batches == 8
    assert summary.grad_context == ("no_grad" if grad_mode == "auto" else "inference_mode")
    assert guard.report.total == 0
