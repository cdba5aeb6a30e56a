"""Code that raises before it can run, and code only it leads to; what the rules find there is left out.

A statement raises each time it runs where it unpacks a call's result into a number of names that no ``return`` of the
called function gives (``scores, logits, states = model(x)`` where the model's ``forward`` now returns four values:
``ValueError``), or where it indexes the ``.data`` of a loss that is a 0-dim tensor (``loss.data[0]``, written for
PyTorch 0.3, whose losses had one element: ``IndexError`` since 1.0, a warning in 0.4). What it holds and what follows
it in its block never runs. A function of the file raises when it is run where its body, or the body of a ``for`` loop
at its top level (a loop over batches, taken to run at least once), holds such a statement at that level with no
``return``, ``break`` or ``continue`` before it; what follows a call of it in the caller's block never runs either
(``train(epoch)`` before ``test()`` in an epoch loop). A function of the file that no other file of the run names, whose
every mention in the file is in code that never runs, never runs.

For the unpack, only what the file shows counts, so that nothing is left out on a guess:

- the target is a plain tuple or list of names (no ``*rest``) and the statement is inside no ``try`` of its function;
- the called function is a function of the file (``f(...)``), a method of the enclosing class (``self.m(...)``), or
  the ``forward`` of the class a name is built from (``model = Net(...)`` in the file, its class found as the
  modes' rules find it), with no decorator, no ``yield``, and no ``__call__`` of its own class;
- every ``return`` of that function returns a tuple of one and the same length, and that length is not the number of
  names.

For the index, the loss is a name every assignment of which in its function is a call of a loss of ``torch.nn``
(``F.cross_entropy(...)``, or ``criterion(...)`` where every assignment of ``criterion`` or ``self.criterion`` in the
file builds an ``nn.CrossEntropyLoss(...)``, or a call of a name holding ``loss`` or ``criterion`` that the file
neither assigns, imports nor defines: a loss handed in), or such a call itself, with neither ``reduction`` nor
``reduce`` given, and no more positional arguments than come before them.

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
import re
from collections.abc import Callable

from gradmode_plugin.lint.names import classes_built, dotted_parts, last_name
from gradmode_plugin.lint.nodes import child_nodes, is_main_guard, own_nodes, subnodes

__all__ = ["unreachable_lines", "zero_dim_loss_read"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef
_BLOCK_FIELDS = ("body", "orelse")
_FUNCTION_OR_CLASS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_TRIES = (ast.Try, getattr(ast, "TryStar", ast.Try))  # `try`/`except*` (Python 3.11)
#: What reaches a module's functions by a name held in data rather than written: ``globals()[args.mode]``,
#: ``getattr(sys.modules[__name__], name)``, ``fire.Fire()`` (every function a command), ``eval``/``exec``.
_REACH_NAMES_ANOTHER_WAY = frozenset(
    {"globals", "locals", "vars", "getattr", "eval", "exec", "fire", "sys.modules", "fire.Fire"}
)


def unreachable_lines(
    tree: ast.Module,
    class_named: Callable[[str], ast.ClassDef | None],
    qualname: Callable[[ast.expr], str | None] = lambda node: None,
    named_elsewhere: Callable[[str], bool] = lambda name: True,
    written_elsewhere: Callable[[str], bool] = lambda name: True,
) -> set[int]:
    """The lines of ``tree`` that never run: at or after a statement that raises each time it runs, in that
    statement's block; after a call of a function of the file that raises when run, in the call's block; the lines
    of a function only such code mentions; and, in a script, those of a function nothing names. ``class_named``
    finds a class the file does not define (the run's files), ``qualname`` the imported name an expression is,
    ``named_elsewhere`` whether another file of the run names a function, ``written_elsewhere`` whether the word is
    in the text of any other file of the project (by default, any: no function is left out whole)."""
    functions = {node.name: node for node in tree.body if isinstance(node, _Function)}
    every = subnodes(tree)
    classes = {node.name: node for node in every if isinstance(node, ast.ClassDef)}
    built_from = classes_built(every)
    losses = _Losses(every, qualname)

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
    raisers: set[str] = set()
    blocks = _blocks(tree.body)  # the module's, then each function's: where a call of a raiser may stand
    for owner, function in _functions(tree):
        zero_dim = losses.names_in(own_nodes(function))

        def raises(statement: ast.stmt, owner: ast.ClassDef | None = owner, zero_dim: set[str] = zero_dim) -> bool:
            return _raises_on_unpack(statement, owner, callee) or losses.indexed(statement, zero_dim) is not None

        own_blocks = _blocks(function.body)
        blocks += own_blocks
        for block in own_blocks:
            for index, statement in enumerate(block):
                if raises(statement):
                    _leave_out(block[index:], lines)
                    break
        if functions.get(function.name) is function and _raises_when_run(function, raises):
            raisers.add(function.name)
    if raisers:
        for block in blocks:
            for index, statement in enumerate(block):
                if _calls(statement, raisers):
                    _leave_out(block[index + 1 :], lines)
                    break
    _leave_out_unnamed_functions_of_a_script(tree, functions, every, lines, written_elsewhere)
    _leave_out_functions_only_dead_code_names(functions, every, lines, named_elsewhere)
    return lines


def zero_dim_loss_read(tree: ast.Module, qualname: Callable[[ast.expr], str | None]) -> ast.Subscript | None:
    """The first place in the file (by line) that indexes the ``.data`` of a 0-dim loss (``loss.data[0]``), in any
    function or at the top level; None where there is none."""
    every = subnodes(tree)
    losses = _Losses(every, qualname)
    reads: list[ast.Subscript] = []
    for nodes in (own_nodes(tree), *(own_nodes(function) for _, function in _functions(tree))):
        zero_dim = losses.names_in(nodes)
        reads += [read for node in nodes if isinstance(node, ast.stmt) and (read := losses.indexed(node, zero_dim))]
    return min(reads, key=lambda read: (read.lineno, read.col_offset), default=None)


def _leave_out_unnamed_functions_of_a_script(
    tree: ast.Module,
    functions: dict[str, _Function],
    every: list[ast.AST],
    lines: set[int],
    written_elsewhere: Callable[[str], bool],
) -> None:
    """Add the lines of each undecorated module-level function of a script (a file with a top-level ``if __name__
    == "__main__":``) that nothing names: not a name of its file, not a word of a string of it, not a word of any
    other file of the project. Nothing may run such a function, unless the file reaches its names another way
    (``globals()``, ``getattr``, ``fire``, ...): then none is left out."""
    if not any(isinstance(statement, ast.If) and is_main_guard(statement.test) for statement in tree.body):
        return
    named: set[str] = set()
    words: set[str] = set()
    for node in every:
        if isinstance(node, ast.Name):
            if node.id in _REACH_NAMES_ANOTHER_WAY:
                return
            named.add(node.id)
        elif isinstance(node, ast.Attribute):
            if ".".join(dotted_parts(node) or ()) in _REACH_NAMES_ANOTHER_WAY:
                return
            named.add(node.attr)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words.update(re.findall(r"\w+", node.value))
        elif isinstance(node, ast.alias):
            named.add(node.name.rpartition(".")[2])
    for name, function in functions.items():
        if (
            function.decorator_list
            or name.startswith("__")
            or name in named
            or name in words
            or written_elsewhere(name)
        ):
            continue
        lines.update(range(function.lineno, (function.end_lineno or function.lineno) + 1))


def _leave_out(statements: list[ast.stmt], lines: set[int]) -> None:
    for statement in statements:
        lines.update(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))


def _leave_out_functions_only_dead_code_names(
    functions: dict[str, _Function], every: list[ast.AST], lines: set[int], named_elsewhere: Callable[[str], bool]
) -> None:
    """Add the lines of each function of the file whose every mention in it is on a line left out (and that no
    other file names), again while that leaves out more: a function only a dead function calls is dead too."""
    mentions: dict[str, list[int]] = {}
    for node in every:
        if isinstance(node, ast.Name) and node.id in functions:
            mentions.setdefault(node.id, []).append(node.lineno)
    dead: set[str] = set()
    changed = bool(lines)
    while changed:
        changed = False
        for name, function in functions.items():
            if name in dead or not mentions.get(name):
                continue
            if all(line in lines for line in mentions[name]) and not named_elsewhere(name):
                dead.add(name)
                lines.update(range(function.lineno, (function.end_lineno or function.lineno) + 1))
                changed = True


def _raises_when_run(function: _Function, raises: Callable[[ast.stmt], bool]) -> bool:
    """Whether a function raises each time it is run: a statement that raises at its body's top level, or at the top
    level of a ``for`` loop's body there, with no ``return``/``break``/``continue`` before it (a loop over batches is
    taken to run once at least); not a generator, nor a function a decorator may wrap."""
    if function.decorator_list or any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in own_nodes(function)):
        return False

    def raises_or_its_loop_does(statement: ast.stmt) -> bool:
        if raises(statement):
            return True
        return isinstance(statement, (ast.For, ast.AsyncFor)) and _raises_first(statement.body, raises)

    return _raises_first(function.body, raises_or_its_loop_does)


def _raises_first(body: list[ast.stmt], raises: Callable[[ast.stmt], bool]) -> bool:
    """Whether a statement of ``body`` raises before any may leave it (``return``, ``break``, ``continue``, a
    ``try``)."""
    for statement in body:
        if raises(statement):
            return True
        if _leaves(statement):
            return False
    return False


def _leaves(statement: ast.stmt) -> bool:
    """Whether a statement may end its block's run early (``return``, ``break``, ``continue``, ``raise``) or may
    catch what follows it (a ``try``)."""
    if isinstance(statement, (*_TRIES, *_FUNCTION_OR_CLASS)):
        return isinstance(statement, _TRIES)
    return any(
        isinstance(node, (ast.Return, ast.Break, ast.Continue, ast.Raise))
        for node in subnodes(statement)
        if not isinstance(node, _FUNCTION_OR_CLASS)
    )


def _calls(statement: ast.stmt, names: set[str]) -> bool:
    """Whether a simple statement is a call of one of these functions, or assigns its result."""
    value = statement.value if isinstance(statement, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)) else None
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in names


class _Losses:
    """The losses a file computes: which calls give a 0-dim tensor, and which names hold one."""

    def __init__(self, every: list[ast.AST], qualname: Callable[[ast.expr], str | None]) -> None:
        self._qualname = qualname
        built: dict[str, bool] = {}  # a name or attribute: whether every assignment of it builds a reducing loss
        #: names the file defines a function or class of, or imports: what calling one gives is not known by its name
        self._defined = {
            node.name for node in every if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        }
        for node in every:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self._defined.update((alias.asname or alias.name).partition(".")[0] for alias in node.names)
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                key = (
                    target.id
                    if isinstance(target, ast.Name)
                    else target.attr
                    if isinstance(target, ast.Attribute)
                    else None
                )
                if key is not None:
                    built[key] = built.get(key, True) and self._builds_loss(node.value)
        self._criteria = {key for key, always in built.items() if always}
        self._assigned = set(built)

    def _builds_loss(self, value: ast.expr) -> bool:
        """``nn.CrossEntropyLoss(...)`` and the like, reducing to one value."""
        if not isinstance(value, ast.Call):
            return False
        name = self._qualname(value.func) or ""
        return (
            name.startswith("torch.nn.")
            and name.endswith("Loss")
            and not name.endswith("WithLoss")  # AdaptiveLogSoftmaxWithLoss gives an output and a loss
            and _reduces(value, positional=2)
        )

    def _gives_0_dim(self, value: ast.expr) -> bool:
        if not isinstance(value, ast.Call):
            return False
        name = self._qualname(value.func) or ""
        if name.startswith("torch.nn.functional."):
            return name.rsplit(".", 1)[1] in _FUNCTIONAL_LOSSES and _reduces(value, positional=4)
        if isinstance(value.func, ast.Call):
            return self._builds_loss(value.func)  # `nn.MSELoss()(x, y)`
        key = last_name(value.func)
        if key is None or not _reduces(value, positional=None):
            return False
        if key in self._criteria:
            return True
        # a loss handed in (`def train(model, criterion)`, `self.loss_fn` built elsewhere): one value unless told
        # otherwise, which a call of it would say; one the file builds or defines is judged by what it is
        return key not in self._assigned and key not in self._defined and _NAMES_A_LOSS.search(key) is not None

    def names_in(self, nodes: list[ast.AST]) -> set[str]:
        """The names that hold a 0-dim loss wherever they are read: every assignment of each gives one."""
        stores: dict[str, int] = {}
        losses: dict[str, int] = {}
        for node in nodes:
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                stores[node.id] = stores.get(node.id, 0) + 1
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and self._gives_0_dim(node.value)
            ):
                losses[node.targets[0].id] = losses.get(node.targets[0].id, 0) + 1
        return {name for name, count in losses.items() if stores.get(name) == count}

    def indexed(self, statement: ast.stmt, zero_dim: set[str]) -> ast.Subscript | None:
        """Where a simple statement indexes the ``.data`` of a 0-dim loss (``loss.data[0]``), else None."""
        if not isinstance(statement, (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return)):
            return None
        for node in subnodes(statement):
            if (
                isinstance(node, ast.Subscript)
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "data"
                and isinstance(node.slice, ast.Constant)
                and node.slice.value == 0
            ):
                held = node.value.value
                if (isinstance(held, ast.Name) and held.id in zero_dim) or self._gives_0_dim(held):
                    return node
        return None


#: The name of a loss or criterion (``criterion``, ``loss_fn``, ``self.mse_loss``).
_NAMES_A_LOSS = re.compile(r"(?i)loss|criterion")

#: The losses of ``torch.nn.functional`` that reduce to one value unless told not to.
_FUNCTIONAL_LOSSES = frozenset(
    {
        "binary_cross_entropy",
        "binary_cross_entropy_with_logits",
        "cosine_embedding_loss",
        "cross_entropy",
        "ctc_loss",
        "gaussian_nll_loss",
        "hinge_embedding_loss",
        "huber_loss",
        "kl_div",
        "l1_loss",
        "margin_ranking_loss",
        "mse_loss",
        "multi_margin_loss",
        "multilabel_margin_loss",
        "multilabel_soft_margin_loss",
        "nll_loss",
        "poisson_nll_loss",
        "smooth_l1_loss",
        "soft_margin_loss",
        "triplet_margin_loss",
    }
)


def _reduces(call: ast.Call, positional: int | None) -> bool:
    """Whether a loss call or construction leaves the reduction at its default (one value): no ``reduction`` or
    ``reduce`` keyword, no ``**kwargs``, and no more positional arguments than come before them (None: any, for a
    call of a built loss, whose ``forward`` takes none)."""
    if any(keyword.arg in (None, "reduction", "reduce") for keyword in call.keywords):
        return False
    if any(isinstance(arg, ast.Starred) for arg in call.args):
        return False
    return positional is None or len(call.args) <= positional


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


def _blocks(body: list[ast.stmt]) -> list[list[ast.stmt]]:
    """A body and its statement lists (its ``if``/``for``/``while``/``with`` blocks, not those of a ``try`` or below
    one, nor of a function or class defined in it)."""
    blocks: list[list[ast.stmt]] = []
    pending: list[list[ast.stmt]] = [body]
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
