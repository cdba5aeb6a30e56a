"""Shared by the CUDA tests: why a test skips, a tiny model that can plant a graph, data, a quiet GPU Trainer,
sync-debug mode and restoring the process-wide flags that ``deterministic=True`` changes.

Plain helpers rather than a ``conftest.py``, so this folder never shadows ``tests/conftest.py``. Every CUDA test
module here marks itself ``gpu`` and skips with :data:`REQUIRES_CUDA`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from typing import Any

import pytest
import pytorch_lightning as pl
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from tests.helpers.lightning import ToyModule, quiet_trainer


def cuda_missing() -> str | None:
    """Why a CUDA test cannot run here, or ``None``."""
    return None if torch.cuda.is_available() else "no CUDA device"


def bf16_missing() -> str | None:
    """Why a ``bf16-mixed`` CUDA test cannot run here, or ``None``: no device at all is said as such."""
    missing = cuda_missing()
    if missing is None and not torch.cuda.is_bf16_supported():
        missing = "GPU without bf16"
    return missing


#: Skip without a CUDA device.
REQUIRES_CUDA = pytest.mark.skipif(cuda_missing() is not None, reason=cuda_missing() or "")
#: Skip without a CUDA device that computes in bf16.
REQUIRES_BF16 = pytest.mark.skipif(bf16_missing() is not None, reason=bf16_missing() or "")
#: Lightning's CUDA mixed precisions, each skipped where the GPU cannot compute in it.
MIXED_PRECISIONS = ["16-mixed", pytest.param("bf16-mixed", marks=REQUIRES_BF16)]


class GpuNet(ToyModule):
    """BatchNorm and Dropout; ``bug=True`` builds a graph in ``validation_step`` (under ``no_grad`` contexts);
    ``returns=True`` makes ``validation_step`` return a dict holding its loss (an output the guard checks)."""

    def __init__(self, bug: bool = False, lr: float = 0.5, returns: bool = False) -> None:
        super().__init__(lr=lr)
        self.bug = bug
        self.returns = returns
        self.net = nn.Sequential(
            nn.Linear(8, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.3), nn.Linear(64, 64), nn.ReLU()
        )
        self.head = nn.Linear(64, 2)
        self.val_losses: list[torch.Tensor] = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.net(x))

    def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        x, y = batch
        return nn.functional.cross_entropy(self(x), y)

    def validation_step(self, batch: Any, batch_idx: int) -> dict[str, torch.Tensor] | None:
        x, y = batch
        if self.bug:
            with torch.enable_grad():  # noqa: GM301
                out = self(x)
        else:
            out = self(x)
        loss = nn.functional.cross_entropy(out, y)
        self.val_losses.append(loss.detach().float().cpu())
        self.log("val_loss", loss.detach())
        return {"val_loss": loss.detach()} if self.returns else None

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.SGD(self.parameters(), lr=self.lr, momentum=0.9)


def make_loader(seed: int = 0, n: int = 64, batch_size: int = 16) -> DataLoader:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g) * 3
    y = (x[:, 0] + x[:, 1] > 0).long()
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, num_workers=0)


@contextlib.contextmanager
def sync_debug(mode: str | int) -> Iterator[None]:
    """``torch.cuda.set_sync_debug_mode(mode)`` for the block, then the previous mode."""
    previous = torch.cuda.get_sync_debug_mode()
    torch.cuda.set_sync_debug_mode(mode)
    try:
        yield
    finally:
        torch.cuda.set_sync_debug_mode(previous)


def make_gpu_trainer(root: Any, **kwargs: Any) -> pl.Trainer:
    return quiet_trainer(root, **{"accelerator": "gpu", **kwargs})


@contextlib.contextmanager
def restored_torch_flags() -> Iterator[None]:
    """``deterministic=True`` changes process-wide flags; give every later test the flags it had."""
    deterministic = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    benchmark = torch.backends.cudnn.benchmark
    cublas = os.environ.get("CUBLAS_WORKSPACE_CONFIG")
    sync_mode = torch.cuda.get_sync_debug_mode() if torch.cuda.is_available() else 0
    try:
        yield
    finally:
        _restore(deterministic, warn_only, benchmark, cublas, sync_mode)


@contextlib.contextmanager
def deterministic_cuda() -> Iterator[None]:
    """Deterministic CUDA algorithms (cuBLAS's workspace fixed) for the block, then every flag as it was: two runs
    of the same training on a GPU then give bitwise the same weights."""
    with restored_torch_flags():
        os.environ["CUBLAS_WORKSPACE_CONFIG"] = ":4096:8"
        torch.use_deterministic_algorithms(True)
        yield


def reset_accelerate() -> None:
    """Accelerate keeps its settings (mixed precision among them) in process-wide singletons; transformers' Trainer
    builds on them too."""
    from accelerate.state import AcceleratorState, GradientState

    AcceleratorState._reset_state(reset_partial_state=True)
    GradientState._reset_state()


def _restore(deterministic: bool, warn_only: bool, benchmark: bool, cublas: str | None, sync_mode: int) -> None:
    torch.use_deterministic_algorithms(deterministic, warn_only=warn_only)
    torch.backends.cudnn.benchmark = benchmark
    if cublas is None:
        os.environ.pop("CUBLAS_WORKSPACE_CONFIG", None)
    else:
        os.environ["CUBLAS_WORKSPACE_CONFIG"] = cublas
    if torch.cuda.is_available():
        torch.cuda.set_sync_debug_mode(sync_mode)
