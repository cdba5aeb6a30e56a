"""What happens to a violation once it is found: ``raise``, ``warn`` or ``record``."""

from __future__ import annotations

import warnings

from gradmode_plugin.options import ON_VIOLATION, validate_choice
from gradmode_plugin.violations import GradModeViolation, GradModeWarning, Violation


class Policy:
    """One per guard, shared by all its stage runs: warnings are issued once per (kind, stage, module) over the
    guard's whole life, not once per run.

    The scope of a run keeps the first violation it has not raised yet (:meth:`pending`); under ``raise`` it is
    raised at the next check point and then forgotten, so a caller that catches it can go on.
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

    def raise_for(self, violation: Violation | None) -> None:
        if violation is not None and self.raises:
            raise GradModeViolation(violation)
