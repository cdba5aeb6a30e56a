"""The legacy-API rule (GM601): ``Variable(..., volatile=True)``, which has done nothing since PyTorch 0.4."""

from __future__ import annotations

import ast

from gradmode_plugin.lint.rules import RULES_BY_CODE
from gradmode_plugin.lint.walk import OFF, RAISES, Ctx, Walk, is_true


class LegacyRules(Walk):
    """APIs that once turned gradients off and no longer do."""

    def _variable_call(self, call: ast.Call, ctx: Ctx) -> None:
        if ctx.grad in (OFF, RAISES):
            return  # a `volatile=True` left inside `with torch.no_grad():` does nothing, and nothing is needed
        if any(kw.arg == "volatile" and is_true(kw.value) for kw in call.keywords):
            self.report(
                call,
                "GM601",
                RULES_BY_CODE["GM601"].message(),
            )
