"""Who calls what within one file, and the grad mode at each call: what lets a function inherit the ``no_grad`` of
its callers (an ``encode_prompt`` called only from a ``@torch.no_grad()`` ``__call__``), a nested function that of
the function around it, and a module's ``forward`` that of the methods calling ``self(...)``.

One walk over the whole module, made only when a decision needs it (a finding about to be made), then cached.

Example:
    >>> import ast
    >>> tree = ast.parse("import torch\\n@torch.no_grad()\\ndef outer():\\n    inner()\\ndef inner():\\n    pass\\n")
    >>> index = CallIndex(tree, lambda node, as_decorator=False: 1 if "no_grad" in ast.unparse(node) else 0)
    >>> index.effective(index.find(5, "inner"))
    1
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable, Iterable
from typing import Final

from gradmode_plugin.lint.names import top_level_imports
from gradmode_plugin.lint.nodes import built_call, child_nodes, is_main_guard, own_nodes, parameters

# Grad mode set around a piece of code (gradmode_plugin.lint.walk has the full list).
FREE: Final = 0  # nothing said: whatever the caller set
OFF: Final = 1  # no_grad, inference_mode, set_grad_enabled(False)
ON: Final = 2  # enable_grad, set_grad_enabled(True)
_FUNCTIONS: Final = (ast.FunctionDef, ast.AsyncFunctionDef)

#: Statements and expressions whose ``test`` is read only for its truth value.
_TESTED: Final = (ast.If, ast.While, ast.IfExp, ast.Assert)

#: How a call names its callee: ("fn", name), ("self", class, method) or ("attr", method) for ``obj.method(...)``.
CalleeKey = tuple[str, ...]


class Def:
    """A function or method of the module: where it is, what its decorators and the ``with`` blocks around its
    ``def`` set, and the function it is nested in."""

    __slots__ = ("cls", "decorator_grad", "def_grad", "node", "parent")

    def __init__(
        self, node: ast.FunctionDef | ast.AsyncFunctionDef, cls: str | None, parent: Def | None, decorator_grad: int,
        def_grad: int,
    ) -> None:  # fmt: skip
        self.node = node
        self.cls = cls
        self.parent = parent
        self.decorator_grad = decorator_grad
        self.def_grad = def_grad

    @property
    def name(self) -> str:
        return self.node.name


class CallIndex:
    """Every function of a module, and every call of one, with the grad mode its ``with`` blocks set there.

    ``grad_of(node, as_decorator)`` gives the grad mode a context manager or decorator sets (0: none said,
    1: off, ...).
    """

    def __init__(
        self, tree: ast.Module, grad_of: Callable[..., int], run_without_grad: Callable[[Def], bool] | None = None
    ) -> None:
        self._grad_of = grad_of
        #: functions a framework runs with gradients off, whatever their decorators say (Lightning's steps)
        self._run_without_grad = run_without_grad
        self.defs: dict[tuple[int, str], Def] = {}
        self.by_name: dict[str, list[Def]] = {}
        #: callee -> [(the calling function or None at module level, grad mode there, the call or None where
        #: the function is only referred to: a callback, whose callers are unknown)]
        self.sites: dict[CalleeKey, list[tuple[Def | None, int, ast.Call | None]]] = {}
        self.main_guard = False
        self._effective: dict[int, int] = {}
        self._tree = tree
        self._visit_body(tree.body, None, None, None, FREE)

    # -- the walk ------------------------------------------------------------------------------------------------

    def _visit_body(
        self, body: list[ast.stmt], cur: Def | None, cls: str | None, self_cls: str | None, grad: int
    ) -> None:
        for stmt in body:
            self._visit(stmt, cur, cls, self_cls, grad)

    def _visit(self, node: ast.AST, cur: Def | None, cls: str | None, self_cls: str | None, grad: int) -> None:
        if isinstance(node, _FUNCTIONS):
            decorator = FREE
            for dec in node.decorator_list:
                decorator = self._grad_of(dec, True) or decorator
            definition = Def(node, cls, cur, decorator, grad)
            self.defs[(node.lineno, node.name)] = definition
            self.by_name.setdefault(node.name, []).append(definition)
            for arg in node.args.defaults + node.args.kw_defaults:
                if arg is not None:
                    self._visit(arg, cur, None, self_cls, grad)
            self._visit_body(node.body, definition, None, cls or self_cls, FREE)
            return
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                self._visit(base, cur, None, self_cls, grad)
            self._visit_body(node.body, cur, node.name, None, grad)
            return
        if isinstance(node, (ast.With, ast.AsyncWith)):
            inner = grad
            for item in node.items:
                inner = self._grad_of(item.context_expr) or inner
                self._visit(item.context_expr, cur, None, self_cls, grad)
            self._visit_body(node.body, cur, None, self_cls, inner)
            return
        if isinstance(node, ast.If) and cur is None and is_main_guard(node.test):
            self.main_guard = True
        if isinstance(node, _TESTED):
            # `if self.args.imprint_weights:` reads a flag that shares a method's name: a truth test hands no
            # function over to anyone, so it is no reference (only what the test calls is)
            self._visit_test(node.test, cur, self_cls, grad)
            for child in child_nodes(node):
                if child is not node.test:
                    self._visit(child, cur, None, self_cls, grad)
            return
        if isinstance(node, ast.Call):
            self._call(node, cur, self_cls, grad)
            return
        key = self._reference(node, self_cls)
        if key is not None:  # a function named but not called here (a callback): its callers are unknown
            self.sites.setdefault(key, []).append((None, FREE, None))
        for child in child_nodes(node):
            self._visit(child, cur, None, self_cls, grad)

    def _visit_test(self, node: ast.expr, cur: Def | None, self_cls: str | None, grad: int) -> None:
        """A truth test's operands: a name or attribute there is read for its truth value, not handed over."""
        if isinstance(node, ast.BoolOp):
            for value in node.values:
                self._visit_test(value, cur, self_cls, grad)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            self._visit_test(node.operand, cur, self_cls, grad)
        elif isinstance(node, ast.Compare):
            for operand in (node.left, *node.comparators):
                self._visit_test(operand, cur, self_cls, grad)
        elif isinstance(node, ast.Attribute):
            self._visit(node.value, cur, None, self_cls, grad)
        elif not isinstance(node, ast.Name):
            self._visit(node, cur, None, self_cls, grad)

    @staticmethod
    def _reference(node: ast.AST, self_cls: str | None) -> CalleeKey | None:
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            return ("fn", node.id)
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            if isinstance(node.value, ast.Name) and node.value.id == "self" and self_cls is not None:
                return ("self", self_cls, node.attr)
            return ("attr", node.attr)
        return None

    def _call(self, call: ast.Call, cur: Def | None, self_cls: str | None, grad: int) -> None:
        func = call.func
        key: CalleeKey | None = None
        if isinstance(func, ast.Name):
            key = ("self", self_cls, "forward") if func.id == "self" and self_cls else ("fn", func.id)
        elif isinstance(func, ast.Attribute):
            if isinstance(func.value, ast.Name) and func.value.id == "self" and self_cls is not None:
                key = ("self", self_cls, func.attr)
            else:
                key = ("attr", func.attr)
                self._visit(func.value, cur, None, self_cls, grad)
        else:
            self._visit(func, cur, None, self_cls, grad)
        if key is not None:
            self.sites.setdefault(key, []).append((cur, grad, call))
        for arg in [*call.args, *(kw.value for kw in call.keywords)]:
            self._visit(arg, cur, None, self_cls, grad)

    # -- queries -------------------------------------------------------------------------------------------------

    def find(self, line: int, name: str) -> Def | None:
        """The function defined at ``line`` with this name."""
        return self.defs.get((line, name))

    def callers(self, definition: Def) -> list[tuple[Def | None, int, ast.Call | None]]:
        """Every place the function is called (or referred to) in the module."""
        if definition.cls is None:
            return list(self.sites.get(("fn", definition.name), ()))
        return [
            *self.sites.get(("self", definition.cls, definition.name), ()),
            *(
                (caller, grad, call)
                for caller, grad, call in self.sites.get(("attr", definition.name), ())
                if call is None or not self._calls_another_class(call, caller, definition)
            ),
        ]

    @functools.cached_property
    def _classes(self) -> dict[str, ast.ClassDef | None]:
        """Each class of the module by its name; None where two classes share it. Read only where a method's callers
        are asked for and one is a call on an object (``obj.sample(n)``)."""
        classes: dict[str, ast.ClassDef | None] = {}
        for node in ast.walk(self._tree):
            if isinstance(node, ast.ClassDef):
                classes[node.name] = None if node.name in classes else node
        return classes

    def _calls_another_class(self, call: ast.Call, caller: Def | None, definition: Def) -> bool:
        """Whether ``obj.method(...)`` calls another class's method of that name: ``obj`` is built from a class of
        this module, not the method's own, that defines the method itself (``self.cond_generator.sample(n)``, where
        every value of ``self.cond_generator`` is ``Condvec(...)``, calls no ``CTABGANSynthesizer.sample``)."""
        receiver = self._receiver_class(call, caller)
        if receiver is None or receiver == definition.cls:
            return False
        node = self._classes.get(receiver)
        return node is not None and any(
            isinstance(stmt, _FUNCTIONS) and stmt.name == definition.name for stmt in node.body
        )

    def _receiver_class(self, call: ast.Call, caller: Def | None) -> str | None:
        """The class of this module the object a method is called on is built from, where every value the code
        gives it is that class's call (``Condvec(...)``, ``Sampler(...).to(device)``; ``None`` aside): a name the
        calling function assigns only so, or ``self.x`` that its class assigns only so."""
        func = call.func
        if caller is None or not isinstance(func, ast.Attribute):
            return None
        receiver = func.value
        values: list[ast.expr] | None
        if isinstance(receiver, ast.Name):
            name = receiver.id
            if name in parameters(caller.node):
                return None
            values = _assigned_only(
                own_nodes(caller.node), lambda target: isinstance(target, ast.Name) and target.id == name
            )
        elif (
            isinstance(receiver, ast.Attribute)
            and isinstance(receiver.value, ast.Name)
            and receiver.value.id == "self"
            and caller.cls is not None
        ):
            owner = self._classes.get(caller.cls)
            if owner is None:
                return None
            attr = receiver.attr
            values = _assigned_only(
                ast.walk(owner),
                lambda target: (
                    isinstance(target, ast.Attribute)
                    and isinstance(target.value, ast.Name)
                    and target.value.id == "self"
                    and target.attr == attr
                ),
            )
        else:
            return None
        if values is None:
            return None
        built = {
            _built_from(value) for value in values if not (isinstance(value, ast.Constant) and value.value is None)
        }
        if len(built) != 1:
            return None
        (built_from,) = built
        return built_from

    def effective(self, definition: Def | None) -> int:
        """The grad mode a function runs in as far as this module shows: its decorator's; for a nested function
        the one around its ``def``; else, where every call in the module is under ``no_grad``/``inference_mode``
        (and it is never passed around), off."""
        if definition is None:
            return FREE
        if definition.decorator_grad != FREE:
            return definition.decorator_grad
        if self._run_without_grad is not None and self._run_without_grad(definition):
            return OFF
        known = self._effective.get(id(definition))
        if known is not None:
            return known
        self._effective[id(definition)] = FREE  # a cycle of calls: nothing known
        if definition.parent is not None:
            mode = definition.def_grad if definition.def_grad != FREE else self.effective(definition.parent)
            if mode != OFF and definition.def_grad == FREE and self._called_inside_without_grad(definition):
                mode = OFF
        else:
            sites = self.callers(definition)
            mode = FREE
            if sites and all((grad if grad != FREE else self.effective(caller)) == OFF for caller, grad, _ in sites):
                mode = OFF
        self._effective[id(definition)] = mode
        return mode

    def _called_inside_without_grad(self, definition: Def) -> bool:
        """Whether a nested function is called within the function it is nested in, each time under
        ``no_grad``/``inference_mode`` (a ``valid_fn`` that ``main`` calls inside ``with torch.no_grad():``), and never
        handed over (a callback runs where unknown). A call of its name outside that function calls another one."""
        called = False
        for caller, grad, call in self.callers(definition):
            if call is None:
                return False
            if not _inside(caller, definition.parent):
                continue
            if (grad if grad != FREE else self.effective(caller)) != OFF:
                return False
            called = True
        return called

    def only_from_main(self, definition: Def) -> bool:
        """Whether a function is called from a script's top level (``main()`` under ``__main__``), and named nowhere
        else but there (handed to a launcher that runs it as a process's whole program: ``launch(main, ...)``)."""
        sites = self.callers(definition)
        return (
            self.main_guard
            and any(call is not None for _, _, call in sites)
            and all(caller is None for caller, _, _ in sites)
        )


def _assigned_only(nodes: Iterable[ast.AST], target: Callable[[ast.expr], bool]) -> list[ast.expr] | None:
    """The values every plain assignment (one target) among ``nodes`` gives what ``target`` picks out; None where it
    is also bound otherwise (a loop variable, a ``with ... as``, a tuple target, an augmented assignment, ``del``)."""
    stores = 0
    values: list[ast.expr] = []
    for node in nodes:
        if isinstance(node, (ast.Name, ast.Attribute)) and not isinstance(node.ctx, ast.Load) and target(node):
            stores += 1
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and target(node.targets[0]):
            values.append(node.value)
    return values if stores == len(values) else None


def _built_from(value: ast.expr) -> str | None:
    """The name of the class (or function) a value is the call of: ``Net`` for ``Net(...).to(device)``."""
    if not isinstance(value, ast.Call):
        return None
    func = built_call(value).func
    return func.id if isinstance(func, ast.Name) else None


def _inside(caller: Def | None, outer: Def | None) -> bool:
    """Whether code of ``caller`` is code of ``outer`` (itself, or a function nested in it at any depth)."""
    while caller is not None:
        if caller is outer:
            return True
        caller = caller.parent
    return False


def passed_to(call: ast.Call, node: ast.FunctionDef | ast.AsyncFunctionDef, name: str, bound: int) -> ast.expr | None:
    """What a call passes for a parameter of ``node``, by keyword or by position, its first ``bound`` parameters
    filled without the call (``self``); ``None`` where it passes nothing readable for it (``*args`` up to it)."""
    keyword = next((kw.value for kw in call.keywords if kw.arg == name), None)
    if keyword is not None:
        return keyword
    args = node.args
    positional = [arg.arg for arg in (*args.posonlyargs, *args.args)]
    if name not in positional:
        return None
    index = positional.index(name) - bound
    if index < 0 or index >= len(call.args) or any(isinstance(arg, ast.Starred) for arg in call.args[: index + 1]):
        return None
    return call.args[index]


def passed_for(call: ast.Call, definition: Def, name: str) -> ast.expr | None:
    """What a call passes for a parameter, by keyword or by position (a method called on an object is passed its
    ``self``); ``None`` where it passes nothing for it, or nothing that can be read (``*args`` before it)."""
    bound = definition.cls is not None and isinstance(call.func, ast.Attribute) and not is_static(definition.node)
    return passed_to(call, definition.node, name, bound)


def given_for(call: ast.Call, definition: Def, name: str) -> ast.expr | None:
    """What a parameter holds in a call: what the call passes for it, else its default where the call passes nothing
    that could fill it (no ``*args``/``**kwargs``); ``None`` where that cannot be read.

    >>> tree = ast.parse("def run(model, train=False): pass\\nrun(net)\\nrun(net, True)")
    >>> definition = Def(tree.body[0], None, None, 0, 0)
    >>> [ast.unparse(given_for(stmt.value, definition, "train")) for stmt in tree.body[1:]]
    ['False', 'True']
    """
    passed = passed_for(call, definition, name)
    if passed is not None:
        return passed
    if any(isinstance(arg, ast.Starred) for arg in call.args) or any(kw.arg is None for kw in call.keywords):
        return None
    args = definition.node.args
    positional = [*args.posonlyargs, *args.args]
    names = [arg.arg for arg in positional]
    if name in names:
        index = names.index(name)
        defaults = args.defaults
        first = len(positional) - len(defaults)
        return defaults[index - first] if index >= first else None
    kwonly = [arg.arg for arg in args.kwonlyargs]
    return args.kw_defaults[kwonly.index(name)] if name in kwonly else None


def is_static(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a method is a ``@staticmethod`` (called without ``self``)."""
    return any(isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list)


def returns_eval(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """``m.eval()`` (or ``m = ....eval()``) then ``return m``, or ``return m.eval()``."""
    return eval_returned_at(node) == -1


def eval_returned_at(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
    """Where a function returns a module it put in ``eval()``: -1 for the whole value (``return m``), the index
    in a returned tuple (``return m, tokenizer``: 0), None where it returns none."""
    evaluated: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Expr) and _ends_in_eval(sub.value):
            base = _chain_base(sub.value)
            if base is not None:
                evaluated.add(base)
        elif isinstance(sub, ast.Assign) and _ends_in_eval(sub.value):
            evaluated.update(t.id for t in sub.targets if isinstance(t, ast.Name))
        elif isinstance(sub, ast.Return) and sub.value is not None:
            if isinstance(sub.value, ast.Name) and sub.value.id in evaluated:
                return -1
            if _ends_in_eval(sub.value):
                return -1
            if isinstance(sub.value, ast.Tuple):
                for index, item in enumerate(sub.value.elts):
                    if (isinstance(item, ast.Name) and item.id in evaluated) or _ends_in_eval(item):
                        return index
    return None


def _ends_in_eval(node: ast.expr) -> bool:
    """A chain of calls one of which is ``.eval()`` (``model.to(device).eval()``)."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "eval" and not node.args and not node.keywords:
            return True
        node = node.func.value
    return False


def _chain_base(node: ast.expr) -> str | None:
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node = node.func.value
    return node.id if isinstance(node, ast.Name) else None


def constructions(
    tree: ast.Module, name: str, own_file: bool = False
) -> list[tuple[ast.Call, ast.FunctionDef | ast.AsyncFunctionDef | None]] | None:
    """Every call of a class by its name in a module (``Block(dim)``, ``layers.Block(dim)``), each with the
    function it is made in (None at the top level); None where the name is also used otherwise than called,
    subclassed, named in ``super(Block, self)`` or tested by ``isinstance``/``issubclass`` (``block = Block`` then
    ``block(dim, p=0.1)``: what builds it is unknown). A name read from a module the file imports is another class
    than the project's: one of torch (``nn.MultiheadAttention``), and in the class's own file (``own_file``) one of
    any imported module (``mdl.MultiheadAttention`` beside a ``class MultiheadAttention``)."""
    foreign = _module_aliases(tree, everything=own_file)
    enclosing: dict[int, ast.FunctionDef | ast.AsyncFunctionDef] = {}
    for function in ast.walk(tree):  # outer functions come first: a nested one's calls are claimed last
        if isinstance(function, _FUNCTIONS):
            for node in ast.walk(function):
                if isinstance(node, ast.Call):
                    enclosing[id(node)] = function
    called: set[int] = set()
    found: list[tuple[ast.Call, ast.FunctionDef | ast.AsyncFunctionDef | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == name and _read_from(func.value, foreign):
                called.add(id(func))
            elif (isinstance(func, ast.Name) and func.id == name) or (
                isinstance(func, ast.Attribute) and func.attr == name
            ):
                called.add(id(func))
                found.append((node, enclosing.get(id(node))))
        elif isinstance(node, ast.ClassDef):
            called.update(id(base) for base in node.bases)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super":
            called.update(id(arg) for arg in node.args)  # `super(Block, self).__init__()`
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
        ):  # `isinstance(module, Block)` tests a module, builds none
            kinds = node.args[1]
            called.update(id(kind) for kind in (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]))
    for node in ast.walk(tree):
        if (
            (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Load))
            or (isinstance(node, ast.Attribute) and node.attr == name and not _read_from(node.value, foreign))
        ) and id(node) not in called:
            return None
    return found


def _module_aliases(tree: ast.Module, everything: bool) -> frozenset[str]:
    """The names the module's top-level imports (also under a ``try``/``if``) bind to modules: those of torch
    (``nn``, ``torch``), or, with ``everything``, those of any import (a module's name read from it is not a class
    the module defines)."""
    found: set[str] = set()
    for node in top_level_imports(tree.body):  # also those under a module-level `try`/`if` (an optional dependency)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if everything or alias.name == "torch" or alias.name.startswith("torch."):
                    found.add(alias.asname or alias.name.partition(".")[0])
        else:
            module = node.module or ""
            if everything or (node.level == 0 and (module == "torch" or module.startswith("torch."))):
                found.update(alias.asname or alias.name for alias in node.names if alias.name != "*")
    return frozenset(found)


def _read_from(value: ast.expr, aliases: frozenset[str]) -> bool:
    """Whether ``value`` (``nn``, ``torch.nn``) starts at one of these names."""
    while isinstance(value, ast.Attribute):
        value = value.value
    return isinstance(value, ast.Name) and value.id in aliases
