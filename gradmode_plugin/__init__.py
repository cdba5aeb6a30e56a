"""gradmode-plugin: correct evaluation modes for PyTorch and Lightning, enforced and asserted at runtime.

The core (``evaluating``, ``allow_grad``, the report) needs torch only; ``GradModeGuard`` needs Lightning
(``lightning`` or ``pytorch_lightning``) and is imported on first use.

Example:
    >>> from gradmode_plugin import evaluating, allow_grad
"""

from __future__ import annotations

import importlib.util
from typing import TYPE_CHECKING, Any

from gradmode_plugin.allow import allow_grad
from gradmode_plugin.kinds import HINTS, KINDS, REGISTRY, Kind
from gradmode_plugin.modes import CONTEXT_NAMES, GradContextChoice, ModuleModes, grad_context, resolve_grad_mode
from gradmode_plugin.options import GRAD_MODES, ON_VIOLATION, GuardOptions
from gradmode_plugin.report import Report, StageSummary
from gradmode_plugin.scope import EvaluationScope, evaluating
from gradmode_plugin.violations import (
    GradModeContextError,
    GradModeViolation,
    GradModeWarning,
    Violation,
    ViolationKind,
)

if TYPE_CHECKING:
    from gradmode_plugin.lightning.callback import GradModeGuard

__version__ = "0.2.0"

_LIGHTNING_AVAILABLE = any(importlib.util.find_spec(n) is not None for n in ("lightning", "pytorch_lightning"))

__all__ = [
    "CONTEXT_NAMES",
    "GRAD_MODES",
    "HINTS",
    "KINDS",
    "ON_VIOLATION",
    "REGISTRY",
    "EvaluationScope",
    "GradContextChoice",
    "GradModeContextError",
    "GradModeViolation",
    "GradModeWarning",
    "GuardOptions",
    "Kind",
    "ModuleModes",
    "Report",
    "StageSummary",
    "Violation",
    "ViolationKind",
    "__version__",
    "allow_grad",
    "evaluating",
    "grad_context",
    "resolve_grad_mode",
]
if _LIGHTNING_AVAILABLE:
    __all__ += ["GradModeGuard"]


def __getattr__(name: str) -> Any:
    if name == "GradModeGuard":
        from gradmode_plugin.lightning.callback import GradModeGuard

        return GradModeGuard
    raise AttributeError(f"module 'gradmode_plugin' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), "GradModeGuard"})
