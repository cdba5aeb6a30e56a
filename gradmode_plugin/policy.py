"""What happens to a violation once it is found: ``raise``, ``warn`` or ``record``."""

from __future__ import annotations

import warnings

from gradmode_plugin.options import ON_VIOLATION, validate_choice
from gradmode_plugin.violations import GradModeWarning, Violation


class Policy:
    """One per guard, shared by all its stage runs: warnings are issued once per (kind, stage, module) over the
    guard's whole life, not once per run.

    Raising is the scope's: it keeps the first violation it has not raised yet and, under ``raise``, raises it at
    the next check point (:meth:`~gradmode_plugin.scope.EvaluationScope.raise_pending`) and then forgets it, so a
    caller that catches it can go on.
    """

    def __init__(self, on_violation: str = "raise") -> None:
        self.on_violation = validate_choice("on_violation", on_violation, ON_VIOLATION)
        self._warned: set[tuple[str, str, str | None]] = set()

    @property
    def raises(self) -> bool:
        return self.on_violation == "raise"

    def handle(self, violation: Violation) -> None:
        """Warn about ``violation`` under ``warn`` (the first of its kind, stage and module only)."""
        if self.on_violation != "warn":
            return
        key = (violation.kind, violation.stage, violation.module)
        if key in self._warned:
            return
        self._warned.add(key)
        warnings.warn(f"gradmode: {violation.describe()}", GradModeWarning, stacklevel=3)
