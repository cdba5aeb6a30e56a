"""FSDP on one GPU: evaluation falls back to ``no_grad`` (inference tensors break FSDP) and finds nothing."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
import torch.distributed as dist

from gradmode_plugin import GradModeGuard
from tests.gpu._gpu_support import REQUIRES_CUDA, GpuNet, make_gpu_trainer, make_loader, restored_torch_flags

pytestmark = [
    pytest.mark.gpu,
    REQUIRES_CUDA,
    pytest.mark.skipif(not dist.is_available() or not dist.is_nccl_available(), reason="needs NCCL"),
]


@pytest.fixture(autouse=True)
def _restore_flags() -> Iterator[None]:
    with restored_torch_flags():
        yield


_LAUNCH_ENV = ("MASTER_ADDR", "MASTER_PORT", "NODE_RANK", "LOCAL_RANK", "WORLD_SIZE", "RANK")


@pytest.fixture(autouse=True)
def _own_process_group() -> Iterator[None]:
    """Lightning leaves the 1-process group it created for FSDP, and its launch variables in the environment;
    later tests must find neither."""
    was_initialized = dist.is_initialized()
    env = {k: os.environ.get(k) for k in _LAUNCH_ENV}
    yield
    if not was_initialized and dist.is_initialized():
        dist.destroy_process_group()
    for key, value in env.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def test_fsdp_validate_runs_under_no_grad(tmp_path: Path) -> None:
    guard = GradModeGuard()
    model = GpuNet()
    trainer = make_gpu_trainer(tmp_path, callbacks=[guard], strategy="fsdp")

    trainer.validate(model, dataloaders=make_loader(), verbose=False)

    summary = guard.report.stage("validation")
    assert summary.grad_context == "no_grad", guard.report.summary()
    assert "FSDP" in summary.reason
    assert summary.batches == 4
    assert guard.report.total == 0, guard.report.summary()
    assert summary.saved_bytes == 0
    assert summary.rank_counts == {0: {k: 0 for k in summary.counts}}
    assert len(model.val_losses) == 4


def test_fsdp_fit_with_validation_and_test(tmp_path: Path) -> None:
    guard = GradModeGuard()
    model = GpuNet()
    trainer = make_gpu_trainer(tmp_path, callbacks=[guard], strategy="fsdp", max_epochs=1, val_check_interval=0.5)

    trainer.fit(model, train_dataloaders=make_loader(), val_dataloaders=make_loader(1))
    trainer.test(model, dataloaders=make_loader(2), verbose=False)

    assert guard.report.total == 0, guard.report.summary()
    for stage in ("validation", "test"):
        assert guard.report.stage(stage).grad_context == "no_grad", guard.report.summary()
    assert guard.report.stage("validation").batches == 8
