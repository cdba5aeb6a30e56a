"""Modules frozen where they are made: a class whose constructor turns off ``requires_grad`` on all its parameters,
by default or as the call that builds it asks; a function of the file that freezes the module it is handed
(``toggle_grad(model, False)``), or the one it builds and returns (``create_enet()``).

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

from gradmode_plugin.lint.nodes import own_nodes

__all__ = ["freezes_when_built", "frozen_arguments", "returns_frozen", "returns_frozen_argument"]

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
    values = _argument_values(init.args, call, bound=1)
    if values is None:
        return False
    frozen_at = _freezing_statement(init.body, values, "self")
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


def frozen_arguments(
    function: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, bound: int = 0
) -> list[ast.expr]:
    """The arguments of ``call`` whose modules ``function`` surely freezes (the parameter's own object, not one bound
    to its name first): GAN code's ``toggle_grad(model, False)`` over ``for p in model.parameters():
    p.requires_grad_(requires_grad)``, a ``freeze(model)`` ending in ``model.requires_grad_(False)``.

    Example:
        >>> import ast
        >>> helper = ast.parse(
        ...     "def toggle_grad(model, flag):\\n"
        ...     "    for p in model.parameters():\\n"
        ...     "        p.requires_grad_(flag)\\n").body[0]
        >>> [ast.unparse(a) for a in frozen_arguments(helper, ast.parse("toggle_grad(ema, False)").body[0].value)]
        ['ema']
        >>> frozen_arguments(helper, ast.parse("toggle_grad(ema, True)").body[0].value)
        []

    ``bound``: how many leading parameters the call does not pass (1 for a method's ``self``:
    ``self.fix_network(self.vit)``).
    """
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(kw.arg is None for kw in call.keywords):
        return []
    values = _argument_values(function.args, call, bound)
    if values is None:
        return []
    passed = _passed(function, call, bound)
    assigned = bindings(function)
    found: list[ast.expr] = []
    for name, argument in passed.items():
        frozen_at = _freezing_statement(function.body, values, name)
        # `nets = [nets]` before the loop: what is frozen is no longer the argument itself
        if frozen_at is not None and all(line >= frozen_at for line in assigned.get(name, ())):
            found.append(argument)
    return found


def returns_frozen(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a function builds a module, freezes it, and returns it: every ``return`` gives the one name that a
    statement of its body surely freezes and nothing assigns again after it (``create_enet()`` ending in
    ``for param in enet.parameters(): param.requires_grad = False`` then ``return enet``)."""
    returns = [node for node in own_nodes(function) if isinstance(node, ast.Return)]
    if not returns or not all(isinstance(node.value, ast.Name) for node in returns):
        return False
    names = {node.value.id for node in returns if isinstance(node.value, ast.Name)}
    if len(names) != 1:
        return False
    name = names.pop()
    values = _argument_values(function.args, ast.Call(func=ast.Name(id=function.name), args=[], keywords=[]), bound=0)
    frozen_at = _freezing_statement(function.body, values or {}, name)
    return frozen_at is not None and all(line <= frozen_at for line in bindings(function).get(name, ()))


def returns_frozen_argument(function: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, bound: int = 0) -> bool:
    """Whether ``call`` hands ``function`` a module that it freezes and gives back: every ``return`` gives the one
    parameter whose argument ``frozen_arguments`` finds frozen (``self.old_fc = self.freeze(deepcopy(self.fc))``
    over ``def freeze(self, m): for p in m.parameters(): p.requires_grad = False; return m``).

    Example:
        >>> import ast
        >>> helper = ast.parse(
        ...     "def freeze(m):\\n"
        ...     "    for p in m.parameters():\\n"
        ...     "        p.requires_grad = False\\n"
        ...     "    return m\\n").body[0]
        >>> returns_frozen_argument(helper, ast.parse("freeze(copy.deepcopy(fc))").body[0].value)
        True
    """
    frozen = frozen_arguments(function, call, bound)
    if not frozen:
        return False
    passed = _passed(function, call, bound)
    names = {name for name, argument in passed.items() if any(argument is done for done in frozen)}
    returns = [node for node in own_nodes(function) if isinstance(node, ast.Return)]
    return bool(returns) and all(isinstance(node.value, ast.Name) and node.value.id in names for node in returns)


def _passed(function: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call, bound: int) -> dict[str, ast.expr]:
    """Each parameter ``call`` passes an argument for, by position or keyword, with that argument."""
    positional = [arg.arg for arg in [*function.args.posonlyargs, *function.args.args]][bound:]
    passed = dict(zip(positional, call.args, strict=False))
    passed.update((kw.arg, kw.value) for kw in call.keywords if kw.arg is not None)
    return passed


def bindings(function: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[int]]:
    """Each name a function's body assigns itself (a target, a loop variable, a ``with ... as``, a ``:=``; not
    ``name.attr = ...``), with the lines it is assigned on."""
    lines: dict[str, list[int]] = {}
    for node in own_nodes(function):
        if isinstance(node, ast.Assign):
            targets: list[ast.expr] = list(node.targets)
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.NamedExpr)):
            targets = [node.target]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets = [node.optional_vars]
        else:
            continue
        while targets:
            target = targets.pop()
            if isinstance(target, ast.Name):
                lines.setdefault(target.id, []).append(target.lineno)
            elif isinstance(target, (ast.Tuple, ast.List)):
                targets.extend(target.elts)
            elif isinstance(target, ast.Starred):
                targets.append(target.value)
    return lines


def _argument_values(args: ast.arguments, call: ast.Call, bound: int) -> dict[str, object] | None:
    """Each parameter's value in this call: a constant, or ``_UNKNOWN``; None where the call passes more
    positional arguments than the function names (the parameters cannot be told apart). ``bound``: how many leading
    parameters the call does not pass (1 for ``self``)."""
    positional = [arg.arg for arg in [*args.posonlyargs, *args.args]][bound:]
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


def _freezing_statement(body: list[ast.stmt], values: dict[str, object], owner: str) -> int | None:
    """The line of a statement that surely runs and turns ``requires_grad`` off on all of ``owner``'s parameters
    (``owner``: ``self``, or a name of the function): ``for p in owner.parameters(): p.requires_grad = False`` (or
    ``p.requires_grad_(False)``, or the value a parameter holds), or ``owner.requires_grad_(False)``."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            truth = _truth(stmt.test, values)
            if truth is _UNKNOWN:
                continue
            line = _freezing_statement(stmt.body if truth else stmt.orelse, values, owner)
        elif isinstance(stmt, ast.For) and _parameters_of(stmt.iter, owner) and isinstance(stmt.target, ast.Name):
            line = stmt.lineno if _turns_off(stmt.body, stmt.target.id, values) else None
        elif isinstance(stmt, ast.Expr) and _requires_grad_call(stmt.value, owner, values):
            line = stmt.lineno
        else:
            line = None
        if line is not None:
            return line
    return None


def _parameters_of(node: ast.expr, owner: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "parameters"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == owner
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
