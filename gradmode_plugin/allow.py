"""Sanctioned gradients inside evaluation: ``allow_grad(reason)``."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Protocol

import torch


class _AllowedCounter(Protocol):
    def count_allowed(self, reason: str) -> None: ...


# Context variables, not globals: each thread starts without them, exactly as each thread starts with grad
# mode on, so a worker thread is never covered by an allow_grad() entered elsewhere.
_allowed_reason: ContextVar[str | None] = ContextVar("gradmode_allowed_reason", default=None)
_active_scope: ContextVar[_AllowedCounter | None] = ContextVar("gradmode_active_scope", default=None)


@contextlib.contextmanager
def allow_grad(reason: str) -> Iterator[None]:
    """Record gradients on purpose inside a guarded evaluation (saliency maps, adversarial evaluation,
    ``autograd.grad`` in a physics model's forward).

    Inside the block grad mode is on and inference mode is off, whatever the guard chose; what runs there is
    counted in the report under ``reason`` instead of being flagged. Usable as a decorator too.

    Under ``inference_mode`` the batch and anything computed before the block are *inference tensors*,
    which autograd cannot save for backward: clone them inside the block first
    (``x = batch.clone().requires_grad_()``). Under ``no_grad`` no clone is needed.

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
    scope = _active_scope.get()
    if scope is not None:
        scope.count_allowed(reason)
    token = _allowed_reason.set(reason)
    try:
        with torch.inference_mode(False), torch.enable_grad():
            yield
    finally:
        _allowed_reason.reset(token)
