"""Module classes that freeze themselves when built: a constructor that turns off ``requires_grad`` on all its
parameters, by default or as the call that builds it asks.

FID's ``InceptionV3(..., requires_grad=False)`` and LPIPS' ``vgg16(requires_grad=False)`` end their ``__init__``
with ``for param in self.parameters(): param.requires_grad = requires_grad``: built with the default, nothing of
theirs records a graph, so running one after ``eval()`` without ``no_grad`` costs nothing. Read from the
constructor's own statements only: an ``if`` is followed where its test is a parameter (or ``not`` one) whose value
the call fixes; a module attribute assigned after the freezing statement has parameters the statement never saw.

Example:
    >>> import ast
    >>> tree = ast.parse(
    ...     "class Net(nn.Module):\\n"
    ...     "    def __init__(self, blocks, requires_grad=False):\\n"
    ...     "        self.body = nn.Sequential(*blocks)\\n"
    ...     "        for p in self.parameters():\\n"
    ...     "            p.requires_grad = requires_grad\\n")
    >>> cls = tree.body[0]
    >>> freezes_when_built(cls, ast.parse("Net(blocks)").body[0].value)
    True
    >>> freezes_when_built(cls, ast.parse("Net(blocks, requires_grad=True)").body[0].value)
    False
"""

from __future__ import annotations

import ast
from typing import Final

__all__ = ["freezes_when_built"]

_UNKNOWN: Final = object()


def freezes_when_built(cls: ast.ClassDef, call: ast.Call) -> bool:
    """Whether ``call`` builds an instance of ``cls`` none of whose parameters requires grad."""
    init = next((node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == "__init__"), None)
    if (
        init is None
        or any(isinstance(arg, ast.Starred) for arg in call.args)
        or any(kw.arg is None for kw in call.keywords)
    ):
        return False
    values = _argument_values(init.args, call)
    if values is None:
        return False
    frozen_at = _freezing_statement(init.body, values)
    if frozen_at is None:
        return False
    # a submodule made after the freezing loop keeps its parameters trainable
    return not any(
        isinstance(node, (ast.Assign, ast.AnnAssign))
        and node.lineno > frozen_at
        and any(
            isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
        for node in ast.walk(init)
    )


def _argument_values(args: ast.arguments, call: ast.Call) -> dict[str, object] | None:
    """Each constructor parameter's value in this call: a constant, or ``_UNKNOWN``; None where the call passes
    more positional arguments than the constructor names (the parameters cannot be told apart)."""
    positional = [arg.arg for arg in [*args.posonlyargs, *args.args]][1:]  # without `self`
    if len(call.args) > len(positional):
        return None
    defaults: dict[str, ast.expr | None] = dict(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    defaults.update((arg.arg, default) for arg, default in zip(args.kwonlyargs, args.kw_defaults, strict=True))
    passed: dict[str, ast.expr | None] = dict(zip(positional, call.args, strict=False))
    passed.update((kw.arg, kw.value) for kw in call.keywords if kw.arg is not None)
    values: dict[str, object] = {}
    for name in [*positional, *(arg.arg for arg in args.kwonlyargs)]:
        node = passed.get(name, defaults.get(name))
        values[name] = node.value if isinstance(node, ast.Constant) else _UNKNOWN
    return values


def _truth(test: ast.expr, values: dict[str, object]) -> object:
    """The value of an ``if`` test made of one parameter (``flag``, ``not flag``), else ``_UNKNOWN``."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand, values)
        return _UNKNOWN if inner is _UNKNOWN else not inner
    if isinstance(test, ast.Name):
        value = values.get(test.id, _UNKNOWN)
        return _UNKNOWN if value is _UNKNOWN else bool(value)
    if isinstance(test, ast.Constant):
        return bool(test.value)
    return _UNKNOWN


def _freezing_statement(body: list[ast.stmt], values: dict[str, object]) -> int | None:
    """The line of a statement that surely runs and turns ``requires_grad`` off on all of ``self``'s parameters:
    ``for p in self.parameters(): p.requires_grad = False`` (or ``p.requires_grad_(False)``, or the value a
    parameter holds), or ``self.requires_grad_(False)``."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            truth = _truth(stmt.test, values)
            if truth is _UNKNOWN:
                continue
            line = _freezing_statement(stmt.body if truth else stmt.orelse, values)
        elif isinstance(stmt, ast.For) and _self_parameters(stmt.iter) and isinstance(stmt.target, ast.Name):
            line = stmt.lineno if _turns_off(stmt.body, stmt.target.id, values) else None
        elif isinstance(stmt, ast.Expr) and _requires_grad_call(stmt.value, "self", values):
            line = stmt.lineno
        else:
            line = None
        if line is not None:
            return line
    return None


def _self_parameters(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "parameters"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "self"
    )


def _false(node: ast.expr | None, values: dict[str, object]) -> bool:
    if isinstance(node, ast.Constant):
        return node.value is False
    return isinstance(node, ast.Name) and values.get(node.id, _UNKNOWN) is False


def _requires_grad_call(node: ast.expr, name: str, values: dict[str, object]) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "requires_grad_"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == name
        and len(node.args) == 1
        and _false(node.args[0], values)
    )


def _turns_off(body: list[ast.stmt], name: str, values: dict[str, object]) -> bool:
    """The loop's body, unconditionally, sets ``name.requires_grad`` to false."""
    for stmt in body:
        if (
            isinstance(stmt, ast.Assign)
            and _false(stmt.value, values)
            and any(
                isinstance(target, ast.Attribute)
                and target.attr == "requires_grad"
                and isinstance(target.value, ast.Name)
                and target.value.id == name
                for target in stmt.targets
            )
        ):
            return True
        if isinstance(stmt, ast.Expr) and _requires_grad_call(stmt.value, name, values):
            return True
    return False
