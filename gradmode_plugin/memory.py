"""Peak CUDA memory of one stage run (nothing on CPU)."""

from __future__ import annotations

from types import TracebackType

import torch
from torch import nn


class CudaPeak:
    """Resets PyTorch's process-wide peak statistics of the model's CUDA device on entry and reads the peak on
    exit (``peak``, bytes; ``None`` when the model is not on a CUDA device)."""

    def __init__(self, model: nn.Module) -> None:
        device = next((p.device for p in model.parameters()), None)
        self._device = device if device is not None and device.type == "cuda" else None
        self.peak: int | None = None

    def __enter__(self) -> CudaPeak:
        if self._device is not None:
            torch.cuda.reset_peak_memory_stats(self._device)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._device is not None:
            self.peak = torch.cuda.max_memory_allocated(self._device)
