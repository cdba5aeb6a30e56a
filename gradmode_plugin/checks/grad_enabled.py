"""``grad_enabled``: grad mode found on at a boundary of evaluation (outside ``allow_grad``).

The cause is named where it can be known: a function decorated with ``@torch.enable_grad()`` around the code
that runs the batches turns grad mode on for all of it; otherwise grad mode was left on by a plain
``torch.set_grad_enabled(True)`` call somewhere before. Nothing is switched back: the finding is reported (and
under ``raise``, raised at once).
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from gradmode_plugin._state import allowed_reason
from gradmode_plugin.blame import grad_decorator
from gradmode_plugin.checks.base import Check

DECORATOR_HINT = (
    "remove the decorator: it turns grad mode on for everything the function calls, evaluation included; compute "
    "the gradients you need inside `with gradmode_plugin.allow_grad('reason'):` instead"
)


class GradEnabled(Check):
    kind = "grad_enabled"
    summary = "grad mode found enabled at a boundary of evaluation"
    hint = (
        "something called torch.set_grad_enabled(True) and did not restore it; use it as a context manager (with "
        "torch.set_grad_enabled(...):) so it is undone on exit"
    )

    def start(self) -> None:
        #: The batch (its count) at whose end grad mode was last found on and reported.
        self._on_at_batch_end: int | None = None

    def boundary_when(self) -> Callable[[], bool]:
        return torch.is_grad_enabled

    def boundary(self, when: str) -> None:
        self._report(when)

    def _report(self, when: str) -> bool:
        """Report grad mode found enabled ``when`` (e.g. "at the start of the batch"); True when it was."""
        if not torch.is_grad_enabled() or allowed_reason.get() is not None:
            return False
        cause = grad_decorator(1)
        if cause:
            detail = f"grad mode was enabled {when}: {cause} encloses the evaluation"
            self.scope.found(self.kind, where=self.scope.where(), detail=detail, hint=DECORATOR_HINT)
        else:
            self.scope.found(self.kind, where=self.scope.where(), detail=f"grad mode was enabled {when}")
        return True

    # The scope reads grad mode at each boundary (boundary_when) and at the end of each batch (batch_end_when), both C
    # calls, and calls boundary / batch_end only when it is on.
    def batch_end_when(self) -> Callable[[], bool]:
        return torch.is_grad_enabled

    def batch_end(self) -> None:
        if self._report("at the end of the batch"):
            self._on_at_batch_end = self.scope.batches_begun

    def stage_end(self) -> None:
        # Still on since the last batch reported it: the same finding.
        if self.scope.final_checks and self._on_at_batch_end != self.scope.batches_begun:
            self._report("at the end of the scope")
