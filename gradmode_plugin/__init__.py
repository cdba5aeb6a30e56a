"""gradmode-plugin: correct evaluation modes for PyTorch and Lightning, enforced and asserted at runtime.

The core (``evaluating``, ``allow_grad``, the report) needs torch only; ``GradModeGuard`` needs Lightning
(``lightning`` or ``pytorch_lightning``). Names are imported on first use, so ``import gradmode_plugin`` (done by
the pytest plugin in every test session) costs nothing until one is.

Example:
    >>> from gradmode_plugin import evaluating, allow_grad
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # the names below, for type checkers (explicit re-exports)
    from gradmode_plugin.allow import allow_grad as allow_grad
    from gradmode_plugin.kinds import HINTS as HINTS
    from gradmode_plugin.kinds import KINDS as KINDS
    from gradmode_plugin.kinds import REGISTRY as REGISTRY
    from gradmode_plugin.kinds import RISKS as RISKS
    from gradmode_plugin.kinds import Kind as Kind
    from gradmode_plugin.lightning.callback import GradModeGuard as GradModeGuard
    from gradmode_plugin.modes import CONTEXT_NAMES as CONTEXT_NAMES
    from gradmode_plugin.modes import GradContextChoice as GradContextChoice
    from gradmode_plugin.modes import ModuleModes as ModuleModes
    from gradmode_plugin.modes import grad_context as grad_context
    from gradmode_plugin.modes import resolve_grad_mode as resolve_grad_mode
    from gradmode_plugin.options import GRAD_MODES as GRAD_MODES
    from gradmode_plugin.options import ON_VIOLATION as ON_VIOLATION
    from gradmode_plugin.options import GuardOptions as GuardOptions
    from gradmode_plugin.report import Report as Report
    from gradmode_plugin.report import StageSummary as StageSummary
    from gradmode_plugin.scope import EvaluationScope as EvaluationScope
    from gradmode_plugin.scope import evaluating as evaluating
    from gradmode_plugin.violations import GradModeContextError as GradModeContextError
    from gradmode_plugin.violations import GradModeViolation as GradModeViolation
    from gradmode_plugin.violations import GradModeWarning as GradModeWarning
    from gradmode_plugin.violations import Violation as Violation
    from gradmode_plugin.violations import ViolationKind as ViolationKind

__version__ = "0.2.0"

#: Public name -> the module that defines it.
_EXPORTS: Final[dict[str, str]] = {
    "allow_grad": "allow",
    "HINTS": "kinds",
    "KINDS": "kinds",
    "REGISTRY": "kinds",
    "RISKS": "kinds",
    "Kind": "kinds",
    "GradModeGuard": "lightning.callback",
    "CONTEXT_NAMES": "modes",
    "GradContextChoice": "modes",
    "ModuleModes": "modes",
    "grad_context": "modes",
    "resolve_grad_mode": "modes",
    "GRAD_MODES": "options",
    "ON_VIOLATION": "options",
    "GuardOptions": "options",
    "Report": "report",
    "StageSummary": "report",
    "EvaluationScope": "scope",
    "evaluating": "scope",
    "GradModeContextError": "violations",
    "GradModeViolation": "violations",
    "GradModeWarning": "violations",
    "Violation": "violations",
    "ViolationKind": "violations",
}


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


_LIGHTNING_AVAILABLE = _installed("lightning") or _installed("pytorch_lightning")

# GradModeGuard is listed only where Lightning is installed, so `from gradmode_plugin import *` works without it.
__all__ = [*sorted(name for name in _EXPORTS if name != "GradModeGuard" or _LIGHTNING_AVAILABLE), "__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gradmode_plugin' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"gradmode_plugin.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
