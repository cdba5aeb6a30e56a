"""Peak CUDA memory in the report, on any machine: PyTorch's CUDA memory functions are stood in for, so these tests
check what the guard asks of them (the same on a GPU in tests/gpu/test_gpu_memory.py)."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import evaluating
from tests.helpers.models import BATCHES

PEAK = 123 * 2**20


class OnCuda(nn.Linear):
    """Computes on the CPU but says its parameters live on ``cuda:0``, where the guard reads the peak."""

    def parameters(self, recurse: bool = True) -> Iterator[Any]:
        yield SimpleNamespace(device=torch.device("cuda", 0))


@pytest.fixture
def cuda_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every call of PyTorch's peak-memory functions, by name; the peak reads :data:`PEAK`, CUDA is initialised."""
    calls: list[str] = []

    def peak(device: Any = None) -> int:
        calls.append("max_memory_allocated")
        return PEAK

    monkeypatch.setattr(torch.cuda, "max_memory_allocated", peak)
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    for name in ("reset_peak_memory_stats", "reset_max_memory_allocated", "reset_accumulated_memory_stats"):
        monkeypatch.setattr(torch.cuda, name, lambda device=None, name=name: calls.append(name))
    return calls


def test_the_peak_is_read_and_never_reset(cuda_calls: list[str]) -> None:
    model = OnCuda(8, 2)
    with evaluating(model) as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i):
                model(x)
    assert scope.report.stage("evaluation").peak_allocated_bytes == PEAK
    assert cuda_calls == ["max_memory_allocated"], "the process-wide peak is the user's: the guard only reads it"
    assert "peak CUDA memory allocated (since start or last reset): 123.0 MiB" in scope.report.summary()


def test_no_peak_on_the_cpu(cuda_calls: list[str]) -> None:
    model = nn.Linear(8, 2)
    with evaluating(model) as scope, scope.batch(0):
        model(BATCHES[0])
    assert scope.report.stage("evaluation").peak_allocated_bytes is None and cuda_calls == []
