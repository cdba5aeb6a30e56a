"""Code that raises before it can run: a call's result unpacked into a number of names that no ``return`` of the
called function gives (``scores, logits, states = model(x)`` where the model's ``forward`` now returns four values).
That statement raises ``ValueError`` each time it runs, so what it holds and what follows it in its block never runs;
what the rules find there is left out.

Only what the file shows counts, so that nothing is left out on a guess:

- the target is a plain tuple or list of names (no ``*rest``) and the statement is inside no ``try`` of its function;
- the called function is a function of the file (``f(...)``), a method of the enclosing class (``self.m(...)``), or
  the ``forward`` of the class a name is built from (``model = Net(...)`` in the file, its class found as the
  modes' rules find it), with no decorator, no ``yield``, and no ``__call__`` of its own class;
- every ``return`` of that function returns a tuple of one and the same length, and that length is not the number of
  names.

A forward before the statement in a loop's body runs once before the loop raises, and is kept; so is code after the
block (a loop that never runs, or a branch without the statement, can reach it).

Example:
    >>> import ast
    >>> tree = ast.parse('''
    ... class Net:
    ...     def forward(self, x):
    ...         return x, x, x, x
    ... def val(model, xs):
    ...     for x in xs:
    ...         a, b, c = model(x)
    ...         model(x)
    ... model = Net()
    ... ''')
    >>> sorted(unreachable_lines(tree, lambda name: None))
    [7, 8]
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from gradmode_plugin.lint.names import classes_built, last_name
from gradmode_plugin.lint.nodes import child_nodes, own_nodes, subnodes

__all__ = ["unreachable_lines"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef
_BLOCK_FIELDS = ("body", "orelse")
_FUNCTION_OR_CLASS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_TRIES = (ast.Try, getattr(ast, "TryStar", ast.Try))  # `try`/`except*` (Python 3.11)


def unreachable_lines(tree: ast.Module, class_named: Callable[[str], ast.ClassDef | None]) -> set[int]:
    """The lines of ``tree`` at or after a statement that unpacks a call's result into a number of names no return
    of the called function gives, in that statement's block; ``class_named`` finds a class the file does not define
    (the run's files)."""
    functions = {node.name: node for node in tree.body if isinstance(node, _Function)}
    every = subnodes(tree)
    classes = {node.name: node for node in every if isinstance(node, ast.ClassDef)}
    built_from = classes_built(every)

    def callee(call: ast.Call, owner: ast.ClassDef | None) -> _Function | None:
        func = call.func
        if isinstance(func, ast.Name) and func.id in functions:
            return functions[func.id]
        if isinstance(func, ast.Attribute) and last_name(func.value) == "self" and owner is not None:
            method = _method(owner, func.attr)
            if method is not None:
                return method
        name = last_name(func)
        cls_name = built_from.get(name) if name is not None else None
        if cls_name is None:
            return None
        cls = classes.get(cls_name) or class_named(cls_name)
        if cls is None or _method(cls, "__call__") is not None:
            return None
        return _method(cls, "forward")

    lines: set[int] = set()
    for owner, function in _functions(tree):
        for block in _blocks(function):
            for index, statement in enumerate(block):
                if not _raises_on_unpack(statement, owner, callee):
                    continue
                for later in block[index:]:
                    lines.update(range(later.lineno, (later.end_lineno or later.lineno) + 1))
                break
    return lines


def _raises_on_unpack(
    statement: ast.stmt,
    owner: ast.ClassDef | None,
    callee: Callable[[ast.Call, ast.ClassDef | None], _Function | None],
) -> bool:
    if not (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and isinstance(statement.targets[0], (ast.Tuple, ast.List))
        and isinstance(statement.value, ast.Call)
    ):
        return False
    names = statement.targets[0].elts
    if any(isinstance(name, ast.Starred) for name in names):
        return False
    function = callee(statement.value, owner)
    if function is None:
        return False
    given = _returned_length(function)
    return given is not None and given != len(names)


def _returned_length(function: _Function) -> int | None:
    """The one length of the tuples every ``return`` of ``function`` gives, else None (a decorator may change what
    it returns; a generator returns a generator)."""
    if function.decorator_list:
        return None
    lengths = set()
    for node in own_nodes(function):
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return None
        if isinstance(node, ast.Return):
            value = node.value
            if not isinstance(value, ast.Tuple) or any(isinstance(item, ast.Starred) for item in value.elts):
                return None
            lengths.add(len(value.elts))
    return lengths.pop() if len(lengths) == 1 else None


def _functions(tree: ast.Module) -> list[tuple[ast.ClassDef | None, _Function]]:
    """Every function of the module with the class it is a method of (None for the others)."""
    found: list[tuple[ast.ClassDef | None, _Function]] = []
    stack: list[tuple[ast.AST, ast.ClassDef | None]] = [(tree, None)]
    while stack:
        node, owner = stack.pop()
        for child in child_nodes(node):
            if isinstance(child, ast.ClassDef):
                stack.append((child, child))
            elif isinstance(child, _Function):
                found.append((owner if node is owner else None, child))
                stack.append((child, None))
            elif isinstance(child, ast.stmt):
                stack.append((child, owner if node is owner else None))
    return found


def _blocks(function: _Function) -> list[list[ast.stmt]]:
    """The statement lists of a function's own body (its ``if``/``for``/``while``/``with`` blocks, not those of a
    ``try`` or below one, nor of a function defined inside it)."""
    blocks: list[list[ast.stmt]] = []
    pending: list[list[ast.stmt]] = [function.body]
    while pending:
        block = pending.pop()
        blocks.append(block)
        for statement in block:
            if isinstance(statement, (*_TRIES, *_FUNCTION_OR_CLASS)):
                continue
            for field in _BLOCK_FIELDS:
                inner = getattr(statement, field, None)
                if inner:
                    pending.append(inner)
            if isinstance(statement, ast.Match):
                pending.extend(case.body for case in statement.cases)
    return blocks


def _method(cls: ast.ClassDef, name: str) -> _Function | None:
    return next((node for node in cls.body if isinstance(node, _Function) and node.name == name), None)
