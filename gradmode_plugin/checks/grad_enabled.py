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

HINT = (
    "something called torch.set_grad_enabled(True) and did not restore it; use it as a context manager "
    "(with torch.set_grad_enabled(...):) so it is undone on exit"
)
DECORATOR_HINT = (
    "remove the decorator: it turns grad mode on for everything the function calls, evaluation included; compute "
    "the gradients you need inside `with gradmode_plugin.allow_grad('reason'):` instead"
)


class GradEnabled(Check):
    kind = "grad_enabled"

    def start(self) -> None:
        #: The batch (its count) at whose end grad mode was last found on and reported.
        self._on_at_batch_end: int | None = None

    def boundary(self, when: str) -> bool:
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

    # The scope reads grad mode at the start of each batch and calls boundary() when it is on; at the end of a
    # batch it reads it through batch_end_when (a C call), and calls batch_end only when it is on.
    def batch_end_when(self) -> Callable[[], bool]:
        return torch.is_grad_enabled

    def batch_end(self) -> None:
        if self.boundary("at the end of the batch"):
            self._on_at_batch_end = self.scope.batches_begun

    def stage_end(self) -> None:
        # Still on since the last batch reported it: the same finding.
        if self.scope.final_checks and self._on_at_batch_end != self.scope.batches_begun:
            self.boundary("at the end of the scope")
