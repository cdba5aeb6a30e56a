"""gradmode-plugin: correct evaluation modes for PyTorch and Lightning, enforced and asserted at runtime.

Example:
    >>> from gradmode_plugin import GradModeGuard, evaluating, allow_grad
"""

from gradmode_plugin.allow import allow_grad
from gradmode_plugin.callback import GradModeGuard
from gradmode_plugin.modes import GRAD_MODES, ModuleModes, grad_context
from gradmode_plugin.report import Report, StageSummary
from gradmode_plugin.scope import ON_VIOLATION, EvaluationScope, evaluating, resolve_grad_mode
from gradmode_plugin.violations import HINTS, KINDS, GradModeViolation, GradModeWarning, Violation, ViolationKind

__version__ = "0.1.0"

__all__ = [
    "GRAD_MODES",
    "HINTS",
    "KINDS",
    "ON_VIOLATION",
    "EvaluationScope",
    "GradModeGuard",
    "GradModeViolation",
    "GradModeWarning",
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
