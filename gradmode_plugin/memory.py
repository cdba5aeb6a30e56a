"""Peak CUDA memory, read when a stage run ends (nothing on CPU)."""

from __future__ import annotations

from types import TracebackType

import torch
from torch import nn


class CudaPeak:
    """Reads PyTorch's peak of allocated memory on the model's CUDA device when the run exits (``peak``, bytes;
    ``None`` when the model is not on a CUDA device).

    It never resets that peak: the counter is process-wide and may be the user's (``torch.cuda.max_memory_allocated()``
    read after ``fit``). ``peak`` is therefore the highest allocation since the process started or since the last
    ``torch.cuda.reset_peak_memory_stats()``; whoever wants one stage's own peak resets it before that stage.
    """

    def __init__(self, model: nn.Module) -> None:
        self._model = model
        self.peak: int | None = None

    def __enter__(self) -> CudaPeak:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        # Without CUDA initialised nothing was allocated there: a CPU run looks at no parameter.
        if not torch.cuda.is_initialized():
            return
        device = next((p.device for p in self._model.parameters()), None)
        if device is not None and device.type == "cuda":
            self.peak = torch.cuda.max_memory_allocated(device)
