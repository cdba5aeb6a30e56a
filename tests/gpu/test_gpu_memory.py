"""CUDA memory in the report: the peak allocated (read, never reset: the counter is the user's), and bytes saved
for backward."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

from gradmode_plugin import GradModeGuard, evaluating
from tests.gpu._gpu_support import REQUIRES_CUDA, GpuNet, make_gpu_trainer, make_loader, restored_torch_flags

pytestmark = [pytest.mark.gpu, REQUIRES_CUDA]


@pytest.fixture(autouse=True)
def _restore_flags() -> Iterator[None]:
    with restored_torch_flags():
        yield


def test_clean_validation_reports_peak_memory_and_nothing_saved(tmp_path: Path) -> None:
    guard = GradModeGuard()
    model = GpuNet()
    make_gpu_trainer(tmp_path, callbacks=[guard]).validate(model, dataloaders=make_loader(), verbose=False)

    summary = guard.report.stage("validation")
    assert summary.batches == 4 and guard.report.total == 0, guard.report.summary()
    param_bytes = sum(p.numel() * p.element_size() for p in model.parameters())
    assert isinstance(summary.peak_allocated_bytes, int)
    assert summary.peak_allocated_bytes >= param_bytes
    assert summary.saved_bytes == 0
    assert "peak CUDA memory allocated" in guard.report.summary()
    assert guard.report.to_dict()["stages"]["validation"]["peak_allocated_bytes"] == summary.peak_allocated_bytes


def test_planted_graph_reports_saved_bytes(tmp_path: Path) -> None:
    # no_grad: under inference_mode, enable_grad() alone cannot record a graph.
    guard = GradModeGuard(grad_mode="no_grad", on_violation="record")
    make_gpu_trainer(tmp_path, callbacks=[guard]).validate(GpuNet(bug=True), dataloaders=make_loader(), verbose=False)

    summary = guard.report.stage("validation")
    assert summary.counts["graph_built"] == 4, guard.report.summary()
    assert summary.saved_bytes > 0
    assert summary.peak_allocated_bytes is not None and summary.peak_allocated_bytes > 0


def test_plain_api_reads_the_peak_and_leaves_it_to_the_user() -> None:
    """The guard never resets the process-wide peak: after a stage the user still reads an earlier, larger
    allocation, and so does the report; reset by the user before a stage, the report's peak is the stage's own."""
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU()).cuda()
    torch.cuda.reset_peak_memory_stats()
    big = torch.empty(256 * 2**20, dtype=torch.uint8, device="cuda")
    del big
    with evaluating(model) as scope, scope.batch(0):
        model(torch.randn(32, 64, device="cuda"))
    assert torch.cuda.max_memory_allocated() >= 256 * 2**20, "the guard reset the user's peak"
    assert (scope.report.stage("evaluation").peak_allocated_bytes or 0) >= 256 * 2**20

    torch.cuda.reset_peak_memory_stats()
    with evaluating(model) as scope, scope.batch(0):
        model(torch.randn(32, 64, device="cuda"))
    peak = scope.report.stage("evaluation").peak_allocated_bytes
    assert peak is not None and 0 < peak < 256 * 2**20
    assert scope.report.stage("evaluation").saved_bytes == 0
