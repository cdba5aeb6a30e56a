"""``output_requires_grad``: a step output requires grad (it keeps a graph or parameters alive).

The adapters pass what a step returned to :meth:`OutputRequiresGrad.check` (``scope.check_output``). Values passed
to Lightning's ``self.log`` are not checked: Lightning stores a detached copy of each.
"""

from __future__ import annotations

from typing import Any

import torch

from gradmode_plugin.checks.base import Check


def find_grad_tensor(obj: Any, path: str = "output", depth: int = 0) -> str | None:
    """Path of the first tensor that requires grad inside ``obj`` (nested dicts, lists and tuples)."""
    if isinstance(obj, torch.Tensor):
        return path if obj.requires_grad else None
    if depth > 4:
        return None
    if isinstance(obj, dict):
        for key, value in obj.items():
            found = find_grad_tensor(value, f"{path}[{key!r}]", depth + 1)
            if found:
                return found
    elif isinstance(obj, (list, tuple)):
        for i, value in enumerate(obj):
            found = find_grad_tensor(value, f"{path}[{i}]", depth + 1)
            if found:
                return found
    return None


class OutputRequiresGrad(Check):
    kind = "output_requires_grad"
    summary = "a step output requires grad"
    hint = "detach what the step returns (tensor.detach()) so it does not keep a graph or parameters alive"

    def step_output(self, output: Any, what: str, where: str | None) -> None:
        if isinstance(output, torch.Tensor) and not output.requires_grad:
            return  # a tensor subclass (the scope decides only plain tensors without a call)
        path = find_grad_tensor(output, what)
        if path is not None:
            self.scope.found(self.kind, where=where, detail=f"{path} requires grad")
