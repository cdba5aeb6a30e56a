"""gradmode-plugin: correct evaluation modes for PyTorch and Lightning, enforced and asserted at runtime.

The core (``evaluating``, ``allow_grad``, the report) needs torch only; ``GradModeGuard`` needs Lightning
(``lightning`` or ``pytorch_lightning``), ``HFGradModeGuard`` needs transformers (the ``hf`` extra). Names are
imported on first use, so ``import gradmode_plugin`` (done by the pytest plugin in every test session) costs nothing
until one is.

Example:
    >>> from gradmode_plugin import evaluating, allow_grad
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # the names below, for type checkers (explicit re-exports)
    from gradmode_plugin.allow import allow_grad as allow_grad
    from gradmode_plugin.hf.callback import HFGradModeGuard as HFGradModeGuard
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


def _exports() -> dict[str, str]:
    """Public name -> the module that defines it, read from the ``TYPE_CHECKING`` imports above: the one list of the
    public names (type checkers read the same lines)."""
    try:
        source: str | None = Path(__file__).read_text(encoding="utf-8")
    except OSError:  # not a plain file (a zip): its loader may still have it
        get_source = getattr(__loader__, "get_source", None)
        source = get_source(__name__) if get_source is not None else None
    if source is None:
        raise ImportError("gradmode_plugin: its __init__.py source is needed to list the public names")
    names: dict[str, str] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module:
                    module = statement.module.removeprefix("gradmode_plugin.")
                    names.update({alias.asname or alias.name: module for alias in statement.names})
    return names


#: Public name -> the module that defines it.
_EXPORTS: Final[dict[str, str]] = _exports()


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


_LIGHTNING_AVAILABLE = _installed("lightning") or _installed("pytorch_lightning")
_TRANSFORMERS_AVAILABLE = _installed("transformers")
#: The names that need an optional framework, listed in __all__ only where it is installed.
_NEEDS: Final[dict[str, bool]] = {"GradModeGuard": _LIGHTNING_AVAILABLE, "HFGradModeGuard": _TRANSFORMERS_AVAILABLE}

# So `from gradmode_plugin import *` works without Lightning or transformers.
__all__ = [*sorted(name for name in _EXPORTS if _NEEDS.get(name, True)), "__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'gradmode_plugin' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"gradmode_plugin.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
