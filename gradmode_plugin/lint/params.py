"""The parameter-update rules: a hand-written update of parameters outside ``no_grad`` (GM701), a loop variable
over parameters rebound instead of updated (GM702), and a gradient scaled by a value computed from parameters
(GM703).

Each holds only where the function runs with gradients on and the parameters require grad: deferred until the
whole module is walked, when the grad mode its callers set is known.
"""

from __future__ import annotations

import ast
from typing import Final

from gradmode_plugin.lint.rules import RULES_BY_CODE
from gradmode_plugin.lint.walk import COMPREHENSIONS, OFF, RAISES, Ctx, Scope, Stack, Walk, written

#: Tensor attributes and methods that read what a tensor is, not its values: no autograd history through them.
_METADATA: Final = frozenset(
    {"device", "dtype", "shape", "is_cuda", "ndim", "layout", "size", "dim", "numel", "requires_grad", "is_leaf"}
)


class ParamRules(Walk):
    """Parameters updated by hand: in place outside ``no_grad``, rebound, or their gradients given a history."""

    def _augassign(self, node: ast.AugAssign, ctx: Ctx, stack: Stack) -> bool:
        target = node.target
        if ctx.grad not in (OFF, RAISES) and not ctx.scope.grad_off_statement:
            if isinstance(target, ast.Name) and target.id in ctx.param_vars:
                self._inplace_update(node, target.id, ctx)
            elif isinstance(target, ast.Name) and self._leaf_tensor(target.id, ctx.scope) and _reads_grad(node.value):
                self._inplace_update(
                    node, target.id, ctx
                )  # `w -= lr * w.grad` on `w = torch.randn(..., requires_grad=True)`
            elif self._is_grad_of_parameter(target, ctx) and self._uses_parameters(node.value, ctx, 0):
                self._clipping(node, written(target), ctx)
        return True

    def _parameter_rebound(self, node: ast.Assign | ast.AnnAssign, name: str, value: ast.expr, ctx: Ctx) -> None:
        if self._mentions_grad_of(value, name) and ctx.grad not in (OFF, RAISES):
            self._defer(ctx, node, "GM702", name, name=name)

    def _grad_scaling(self, call: ast.Call, receiver: ast.expr, ctx: Ctx) -> None:
        if ctx.grad in (OFF, RAISES) or ctx.scope.grad_off_statement:
            return
        if any(self._uses_parameters(arg, ctx, 0) for arg in [*call.args, *(kw.value for kw in call.keywords)]):
            self._clipping(call, written(receiver), ctx)

    def _inplace_call(self, call: ast.Call, receiver: ast.expr, ctx: Ctx) -> None:
        if (
            isinstance(receiver, ast.Name)
            and (
                receiver.id in ctx.param_vars
                or (self._leaf_tensor(receiver.id, ctx.scope) and any(_reads_grad(arg) for arg in call.args))
            )
            and ctx.grad not in (OFF, RAISES)
            and not ctx.scope.grad_off_statement
        ):
            self._inplace_update(call, receiver.id, ctx)

    def _defer(self, ctx: Ctx, node: ast.AST, code: str, updated: str, **fields: object) -> None:
        """A finding that holds only if the function runs with gradients on and the parameters require grad: known
        once the whole module is walked. ``updated``: the name whose parameters (``param_sources``) it updates."""
        message = RULES_BY_CODE[code].message(**fields)
        ctx.scope.deferred.append((node, code, message, ctx.scope.param_sources.get(updated)))

    def _inplace_update(self, node: ast.AST, name: str, ctx: Ctx) -> None:
        self._defer(ctx, node, "GM701", name, name=name)

    def _clipping(self, node: ast.AST, target: str, ctx: Ctx) -> None:
        self._defer(ctx, node, "GM703", target.split(".")[0], target=target)

    @staticmethod
    def _mentions_grad_of(value: ast.expr, name: str) -> bool:
        """``p - lr * p.grad``: the value reads the loop variable and a gradient."""
        reads = grads = False
        for sub in ast.walk(value):
            if isinstance(sub, ast.Name) and sub.id == name:
                reads = True
            elif isinstance(sub, ast.Attribute) and sub.attr == "grad":
                grads = True
        return reads and grads

    def _uses_parameters(self, node: ast.expr, ctx: Ctx, depth: int) -> bool:
        """Whether a value is computed from parameter values (not their ``.grad``/``.data``/``.detach()``),
        following names assigned in the function a few steps back."""
        if isinstance(node, ast.Attribute) and node.attr in ("grad", "data") and isinstance(node.value, ast.Name):
            return False
        if isinstance(node, ast.Attribute) and node.attr in _METADATA:
            return False  # `scale.to(p.device)`: where the parameter is, not what it holds
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("detach", *_METADATA)
        ):
            return False
        if isinstance(node, ast.Name):
            if node.id in ctx.param_vars:
                return True
            if depth < 3:
                for value, _, param_vars in ctx.scope.assigned.get(node.id, ()):
                    if self._uses_parameters(value, ctx._replace(param_vars=param_vars), depth + 1):
                        return True
            return False
        if isinstance(node, COMPREHENSIONS):
            bound: frozenset[str] = frozenset()
            for generator in node.generators:
                bound |= self._parameter_targets(generator.target, generator.iter, ctx.scope)
            ctx = ctx._replace(param_vars=ctx.param_vars | bound)
            values = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            return any(self._uses_parameters(value, ctx, depth) for value in values)
        return any(self._uses_parameters(child, ctx, depth) for child in ast.iter_child_nodes(node))

    # -- decisions at a scope's end ------------------------------------------------------------------------------

    def _decide_params(self, scope: Scope) -> None:
        """In-place parameter updates and hand-written clipping: findings where the parameters require grad and
        the function runs with gradients on (not called only under ``no_grad``, in its file or by the run's others)."""
        if not scope.deferred:
            return
        if self.effective_grad(scope) == OFF:
            return
        found = [
            (node, code, message) for node, code, message, source in scope.deferred if not self._frozen(source, scope)
        ]
        if found and not self._called_elsewhere_without_grad(scope):  # last: it may read the run's other files
            for node, code, message in found:
                self.report(node, code, message, scope)


def _reads_grad(node: ast.expr) -> bool:
    return any(isinstance(sub, ast.Attribute) and sub.attr == "grad" for sub in ast.walk(node))
