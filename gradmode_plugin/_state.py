"""Per-thread state shared by the guard's modules.

Context variables, not globals: each thread starts without them, exactly as each thread starts with grad mode on,
so a worker thread is never covered by an ``allow_grad()`` or a scope entered elsewhere.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

#: The reason given to the innermost ``allow_grad(...)`` block of this thread, if any.
allowed_reason: ContextVar[str | None] = ContextVar("gradmode_allowed_reason", default=None)
#: The evaluation scope entered in this thread, if any.
active_scope: ContextVar[Any] = ContextVar("gradmode_active_scope", default=None)
