"""Sanctioned gradients inside evaluation: ``allow_grad(reason)``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import torch

from gradmode_plugin._state import active_scope, allowed_reason
from gradmode_plugin.probes import lifted_saved_tensor_probe


@contextlib.contextmanager
def allow_grad(reason: str) -> Iterator[None]:
    """Record gradients on purpose inside a guarded evaluation (saliency maps, adversarial evaluation,
    ``autograd.grad`` in a physics model's forward, ``torch.func`` transforms).

    Inside the block grad mode is on and inference mode is off, whatever the guard chose, and the guard's
    saved-tensor hook is lifted (``torch.func.grad``/``vjp``/``jacrev``/``hessian`` refuse to run under one); what
    runs there is counted in the report under ``reason`` instead of being flagged. Usable as a decorator too.

    Under ``inference_mode`` the batch and anything computed before the block are *inference tensors*,
    which autograd cannot save for backward: clone them inside the block first
    (``x = batch.clone().requires_grad_()``). Under ``no_grad`` no clone is needed.

    Args:
        reason: why gradients are recorded here (a non-empty string, e.g. ``"saliency"``): the report counts the
            block's work under it.

    Example:
        >>> import torch
        >>> with torch.no_grad(), allow_grad("saliency"):
        ...     x = torch.ones(2, requires_grad=True)
        ...     (x * x).sum().backward()
        >>> x.grad
        tensor([2., 2.])
    """
    if not isinstance(reason, str) or not reason.strip():
        raise ValueError(
            f"allow_grad(reason={reason!r}): reason must be a non-empty string naming why, e.g. 'saliency'"
        )
    scope = active_scope.get()
    if scope is not None:
        scope.count_allowed(reason)
    token = allowed_reason.set(reason)
    try:
        with lifted_saved_tensor_probe(), torch.inference_mode(False), torch.enable_grad():
            yield
    finally:
        allowed_reason.reset(token)
