"""State shared by the guard's modules.

Per thread: context variables, not globals: each thread starts without them, exactly as each thread starts with grad
mode on, so a worker thread is never covered by an ``allow_grad()`` or a scope entered elsewhere.

Per process: the scopes running now, in any thread, so a probe that sees something in a thread without a scope can
find the scope whose model is involved (:func:`gradmode_plugin.probes.route`).
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

#: The reason given to the innermost ``allow_grad(...)`` block of this thread, if any.
allowed_reason: ContextVar[str | None] = ContextVar("gradmode_allowed_reason", default=None)
#: The evaluation scope entered in this thread, if any.
active_scope: ContextVar[Any] = ContextVar("gradmode_active_scope", default=None)
#: Every evaluation scope entered now, in any thread (appended and removed by the scopes themselves).
live_scopes: list[Any] = []
