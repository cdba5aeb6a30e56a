"""The AST analysis of one source file: every rule of :mod:`gradmode_plugin.lint.rules`, in one walk of the tree.

The walk keeps, for every node, the function it is in (a scope), the grad mode the code around it sets (``with``
blocks and decorators), whether a test of ``self.training`` guards it, and which loop variables hold parameters.
Rules that need the whole function (an ``eval()`` before a call, a ``dropout_p`` assigned earlier) are decided when
the walk is over.

Example:
    >>> findings = check_source("import torch.nn.functional as F\\nF.dropout(x, 0.5)\\n", "model.py")
    >>> [(f.line, f.code) for f in findings]
    [(2, 'GM101')]
"""

from __future__ import annotations

import ast
import dataclasses
import fnmatch
from collections.abc import Iterable
from typing import Final, NamedTuple

from gradmode_plugin.lint import names
from gradmode_plugin.lint.names import ImportTable
from gradmode_plugin.lint.parsing import parse_relevant
from gradmode_plugin.lint.triggers import ALIASED_WORDS, Triggers, aliased_import


@dataclasses.dataclass(frozen=True, order=True)
class Finding:
    """One finding: where (``line`` and ``col`` count from 1) and which rule, with a message naming the fix."""

    path: str
    line: int
    col: int
    code: str
    message: str


#: Steps Lightning runs without gradients (the ``*_end`` ones are Lightning 1.x's).
LIGHTNING_EVAL_STEPS: Final[frozenset[str]] = frozenset(
    {
        "validation_step",
        "test_step",
        "predict_step",
        "validation_step_end",
        "test_step_end",
        "validation_epoch_end",
        "test_epoch_end",
    }
)
_EVAL_HOOK_PREFIXES: Final = ("on_validation_", "on_test_", "on_predict_")


def is_lightning_evaluation(name: str) -> bool:
    """Whether a function of this name runs in Lightning's evaluation: a step, or an ``on_validation_*``/
    ``on_test_*``/``on_predict_*`` hook other than ``on_*_model_train`` (which exists to restore training mode).

    Example:
        >>> is_lightning_evaluation("on_validation_batch_end"), is_lightning_evaluation("on_validation_model_train")
        (True, False)
    """
    if name in LIGHTNING_EVAL_STEPS:
        return True
    return name.startswith(_EVAL_HOOK_PREFIXES) and not name.endswith("_model_train")


# Grad mode set around a piece of code.
_FREE: Final = 0  # nothing said: whatever the caller set
_OFF: Final = 1  # no_grad, inference_mode, set_grad_enabled(False)
_ON: Final = 2  # enable_grad, set_grad_enabled(True)
_CHOSEN: Final = 3  # set_grad_enabled(<expression>): chosen on purpose, e.g. `phase == "train"`

_INPLACE: Final[frozenset[str]] = frozenset(
    {
        "add_", "sub_", "mul_", "div_", "true_divide_", "addcmul_", "addcdiv_", "copy_", "zero_", "fill_", "clamp_",
        "clamp_min_", "clamp_max_", "clip_", "lerp_", "uniform_", "normal_", "pow_", "sqrt_", "neg_", "masked_fill_",
        "renorm_", "set_", "exp_", "log_", "abs_", "sign_", "index_add_", "scatter_", "scatter_add_",
    }
)  # fmt: skip
_FUNCTIONS: Final = (ast.FunctionDef, ast.AsyncFunctionDef)
_CONTEXT_METHODS: Final = frozenset({"__enter__", "__exit__", "__aenter__", "__aexit__"})
_COMPREHENSIONS: Final = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
_NO_ARGS: Final[tuple[ast.expr, ...]] = ()


class _Class:
    """A class whose methods are being walked: its methods, and those called only from evaluation code."""

    __slots__ = ("derived", "methods")

    def __init__(self, node: ast.ClassDef, eval_functions: tuple[str, ...]) -> None:
        self.methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {
            stmt.name: stmt for stmt in node.body if isinstance(stmt, _FUNCTIONS)
        }
        #: method -> (the evaluation function it is called from, whether that one is Lightning's)
        self.derived: dict[str, tuple[str, bool]] = {}
        roots = {
            name: (name, is_lightning_evaluation(name))
            for name in self.methods
            if is_lightning_evaluation(name) or _matches(name, eval_functions)
        }
        if roots:
            self._derive(roots)

    def _derive(self, roots: dict[str, tuple[str, bool]]) -> None:
        """Methods called (as ``self.name(...)``) only from evaluation methods are evaluation code too (a shared
        ``_eval_step``); dunders and ``forward`` never are."""
        callers: dict[str, set[str]] = {}
        for caller, fn in self.methods.items():
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == "self"
                    and node.func.attr in self.methods
                ):
                    callers.setdefault(node.func.attr, set()).add(caller)
        known = dict(roots)
        changed = True
        while changed:
            changed = False
            for name, calling in callers.items():
                if name in known or name.startswith("__") or name == "forward" or not calling <= known.keys():
                    continue
                origins = [known[caller] for caller in sorted(calling)]
                known[name] = (origins[0][0], all(lightning for _, lightning in origins))
                self.derived[name] = known[name]
                changed = True


class _Scope:
    """A function (or the module) being walked, and what the rules decided at its end need from it."""

    __slots__ = (
        "assigned",
        "cls",
        "decorator_grad",
        "eval_name",
        "full",
        "functions",
        "grad_off_statement",
        "lightning",
        "mode_calls",
        "model_calls",
        "name",
        "node",
        "param_iterables",
        "params",
        "parent",
        "pending_dropouts",
        "pools",
        "reads_grad_mode",
        "sdpa_calls",
        "set_grad_statements",
        "threads",
        "train_calls",
        "wants_grad",
    )

    def __init__(
        self,
        node: ast.AST,
        parent: _Scope | None,
        cls: _Class | None,
        eval_name: str | None,
        lightning: bool,
        decorator_grad: int,
    ) -> None:
        self.node = node
        self.name: str = getattr(node, "name", "<module>")
        self.parent = parent
        self.cls = cls
        #: the evaluation function this code is part of (itself, the one it is nested in or called from), if any
        self.eval_name = eval_name
        #: whether Lightning runs that function without gradients (a step or hook, not a configured name)
        self.lightning = lightning
        self.decorator_grad = decorator_grad
        self.params: frozenset[str] = _parameters(node) if isinstance(node, (*_FUNCTIONS, ast.Lambda)) else frozenset()
        #: name -> [(value, assigned under a test of training, parameter loop variables there)]
        self.assigned: dict[str, list[tuple[ast.expr, bool, frozenset[str]]]] = {}
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        #: (position, receiver, "eval" | "train")
        self.mode_calls: list[tuple[tuple[int, int], str, str]] = []
        self.train_calls: list[tuple[ast.Call, str]] = []
        self.model_calls: list[tuple[ast.Call, int]] = []
        self.sdpa_calls: list[tuple[ast.Call, ast.expr, bool]] = []
        self.pending_dropouts: list[tuple[ast.Call, str, ast.Name]] = []
        self.set_grad_statements: list[ast.Call] = []
        self.threads: list[tuple[ast.Call, ast.expr, str]] = []
        self.pools: set[str] = set()
        self.param_iterables: set[str] = set()
        self.wants_grad = False
        self.grad_off_statement = False
        #: every statement is walked (the function calls `.eval()`: any call in it may be the model's)
        self.full = False
        self.reads_grad_mode = False

    def where(self) -> str:
        """Where this code runs in evaluation, for messages: "`validation_step`" or "`_shared` (called from ...)"."""
        if self.eval_name is None or self.eval_name == self.name:
            return f"`{self.name}`"
        return f"`{self.name}` (part of `{self.eval_name}`)"


class _Ctx(NamedTuple):
    """What holds at a node: its scope, the grad mode around it, whether ``allow_grad`` sanctions gradients there,
    whether a test of training guards it, which names are parameter loop variables, and the class being defined."""

    scope: _Scope
    grad: int
    allow: bool
    training: bool
    param_vars: frozenset[str]
    cls: _Class | None


def _matches(name: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in patterns)


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> frozenset[str]:
    args = node.args
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return frozenset(arg.arg for arg in every if arg is not None)


def _dotted(node: ast.expr) -> str | None:
    """``self.model`` for a chain of names and attributes, else None."""
    parts = names.dotted_parts(node)
    return ".".join(parts) if parts is not None else None


def _mentions_training(node: ast.expr) -> bool:
    """Whether an expression reads the training flag (``self.training``, a ``training``/``is_train`` argument)."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and "train" in sub.attr.lower():
            return True
        if isinstance(sub, ast.Name) and "train" in sub.id.lower():
            return True
    return False


def _mode_set(call: ast.Call) -> str | None:
    """``"eval"`` or ``"train"`` for a call of ``.eval()``/``.train(...)`` with a known mode, else None."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr == "eval" and not call.args and not call.keywords:
        return "eval"
    if func.attr == "train":
        mode = _argument(call, "mode", 0)
        if mode is None or _is_true(mode):
            return "train"
        if isinstance(mode, ast.Constant) and mode.value is False:
            return "eval"
    return None


def _mode_chain(call: ast.Call) -> tuple[str | None, str | None]:
    """The module and the mode a statement leaves it in: ``model.to(device).eval()`` and ``model.eval().cuda()``
    give ``("model", "eval")``. Only statements and assignments count: ``torch.jit.freeze(f.eval())`` hands the
    module on."""
    mode = None
    node: ast.expr = call
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        mode = mode or _mode_set(node)  # the outermost call runs last
        node = node.func.value
    return _dotted(node), mode


def _argument(call: ast.Call, keyword: str, position: int) -> ast.expr | None:
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if len(call.args) > position and not any(isinstance(arg, ast.Starred) for arg in call.args[: position + 1]):
        return call.args[position]
    return None


def _splat(call: ast.Call) -> bool:
    """Whether arguments are passed by ``*args``/``**kwargs`` (what they hold is unknown)."""
    return any(isinstance(arg, ast.Starred) for arg in call.args) or any(kw.arg is None for kw in call.keywords)


def _is_true(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _written(node: ast.expr) -> str:
    return ast.unparse(node)


_COMPOUND: Final = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While,
    ast.If, ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()), ast.Match,
)  # fmt: skip
_SKIPPED_FIELDS: Final = frozenset({"ctx", "type_comment"})
_FIELDS: dict[type, tuple[str, ...]] = {}


def _children(node: ast.AST) -> list[ast.AST]:
    """The child nodes, in source order, less expression contexts (``Load``/``Store``): faster than
    ``ast.iter_child_nodes``."""
    kind = type(node)
    fields = _FIELDS.get(kind)
    if fields is None:
        fields = _FIELDS[kind] = tuple(name for name in kind._fields if name not in _SKIPPED_FIELDS)
    children: list[ast.AST] = []
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, list):
            children.extend(item for item in value if isinstance(item, ast.AST))
        elif isinstance(value, ast.AST):
            children.append(value)
    return children


class _Analysis:
    """One walk over a module's tree, then the decisions at every scope's end."""

    def __init__(
        self, tree: ast.Module, source: bytes, triggers: Triggers, path: str, eval_functions: tuple[str, ...]
    ) -> None:
        self.tree = tree
        self.path = path
        self.eval_functions = eval_functions
        self.imports = ImportTable()
        self.imports.bound_in(tree)
        aliases = self.imports.aliases(ALIASED_WORDS)
        self.lines = triggers if not aliases else Triggers(source, aliases)
        self.findings: list[Finding] = []
        self.scopes: list[_Scope] = []
        self.module = self._new_scope(tree, None, None, None, False, _FREE)
        self.module.full = self.lines.any_eval()

    # -- results -------------------------------------------------------------------------------------------------

    def report(self, node: ast.AST, code: str, message: str) -> None:
        self.findings.append(Finding(self.path, node.lineno, node.col_offset + 1, code, message))  # type: ignore[attr-defined]

    def run(self) -> list[Finding]:
        ctx = _Ctx(self.module, _FREE, False, False, frozenset(), None)
        self._walk(self.tree.body, ctx)
        for scope in self.scopes:
            self._decide(scope)
        return sorted(self.findings)

    # -- the walk ------------------------------------------------------------------------------------------------

    def _new_scope(
        self,
        node: ast.AST,
        parent: _Scope | None,
        cls: _Class | None,
        eval_name: str | None,
        lightning: bool,
        decorator_grad: int,
    ) -> _Scope:
        scope = _Scope(node, parent, cls, eval_name, lightning, decorator_grad)
        self.scopes.append(scope)
        return scope

    def _walk(self, body: list[ast.stmt], ctx: _Ctx) -> None:
        stack: list[tuple[ast.AST, _Ctx]] = []
        self._push_body(stack, body, ctx)
        handlers = {
            ast.Call: self._call,
            ast.With: self._with,
            ast.AsyncWith: self._with,
            ast.If: self._if,
            ast.IfExp: self._ifexp,
            ast.For: self._for,
            ast.AsyncFor: self._for,
            ast.FunctionDef: self._function,
            ast.AsyncFunctionDef: self._function,
            ast.ClassDef: self._class,
            ast.Assign: self._assign,
            ast.AnnAssign: self._assign,
            ast.AugAssign: self._augassign,
            ast.Expr: self._expr,
            ast.Import: self._import,
            ast.ImportFrom: self._import,
            ast.ListComp: self._comprehension,
            ast.SetComp: self._comprehension,
            ast.GeneratorExp: self._comprehension,
            ast.DictComp: self._comprehension,
        }
        lines = self.lines
        while stack:
            node, ctx = stack.pop()
            kind = type(node)
            if (
                isinstance(node, ast.stmt)
                and kind not in _COMPOUND
                and not (ctx.scope.full or ctx.param_vars or ctx.scope.pools)
                and not lines.in_lines(node.lineno, node.end_lineno or node.lineno)
            ):
                if kind is ast.Assign or kind is ast.AnnAssign:
                    self._record_assignment(node, ctx)  # type: ignore[arg-type]
                elif kind is ast.Import or kind is ast.ImportFrom:
                    self._import(node, ctx, stack)  # type: ignore[arg-type]
                continue
            handler = handlers.get(kind)
            if handler is None or handler(node, ctx, stack):
                children = _children(node)
                children.reverse()
                stack.extend((child, ctx) for child in children)

    @staticmethod
    def _push_body(stack: list[tuple[ast.AST, _Ctx]], body: list[ast.stmt], ctx: _Ctx) -> None:
        """Push a block's statements; after ``if not self.training: return ...`` the rest of it runs in training."""
        items: list[tuple[ast.AST, _Ctx]] = []
        for stmt in body:
            items.append((stmt, ctx))
            if (
                not ctx.training
                and isinstance(stmt, ast.If)
                and stmt.body
                and isinstance(stmt.body[-1], (ast.Return, ast.Raise))
                and _mentions_training(stmt.test)
            ):
                ctx = ctx._replace(training=True)
        items.reverse()
        stack.extend(items)

    # Each handler returns whether the walk should go on into all the node's children itself.

    def _import(self, node: ast.Import | ast.ImportFrom, ctx: _Ctx, stack: list) -> bool:
        self.imports.add(node)
        if any(alias.asname for alias in node.names) and ctx.scope is not self.module:
            ctx.scope.full = True  # an alias bound here is not among the module's trigger words
        return False

    def _expr(self, node: ast.Expr, ctx: _Ctx, stack: list) -> bool:
        call = node.value
        if isinstance(call, ast.Call):
            if self.imports.qualname(call.func) == names.SET_GRAD_ENABLED:
                ctx.scope.set_grad_statements.append(call)
                if call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is False:
                    ctx.scope.grad_off_statement = True
            base, mode = _mode_chain(call)
            if mode is not None and base is not None and not self.imports.is_import(base.partition(".")[0]):
                ctx.scope.mode_calls.append(((node.lineno, node.col_offset), base, mode))
        return True

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, ctx: _Ctx, stack: list) -> bool:
        parent = ctx.scope
        decorator_grad = _FREE
        for decorator in node.decorator_list:
            decorator_grad = self._grad_of(decorator, as_decorator=True) or decorator_grad
        if ctx.cls is not None and node.name in ctx.cls.derived:
            eval_name, lightning = ctx.cls.derived[node.name]
        elif is_lightning_evaluation(node.name):
            eval_name, lightning = node.name, True
        elif _matches(node.name, self.eval_functions):
            eval_name, lightning = node.name, False
        else:
            eval_name, lightning = parent.eval_name, parent.lightning
        cls = ctx.cls if ctx.cls is not None else parent.cls
        scope = self._new_scope(node, parent, cls, eval_name, lightning, decorator_grad)
        scope.full = self.lines.eval_in_lines(node.lineno, node.end_lineno or node.lineno)
        if ctx.cls is None:
            parent.functions[node.name] = node
        if decorator_grad == _ON and eval_name is not None:
            decorator = next(d for d in node.decorator_list if self._grad_of(d, as_decorator=True) == _ON)
            self.report(
                decorator,
                "GM302",
                f"`@{_written(decorator)}` on {scope.where()} turns gradients on for evaluation, which Lightning "
                "and `evaluating()` run without them: remove it, and wrap the gradients you need in "
                '`allow_grad("why")`',
            )
        body_ctx = _Ctx(scope, decorator_grad, False, False, frozenset(), None)
        self._push_body(stack, node.body, body_ctx)
        stack.extend((item, ctx) for item in reversed(node.decorator_list))
        return False

    def _class(self, node: ast.ClassDef, ctx: _Ctx, stack: list) -> bool:
        cls = _Class(node, self.eval_functions)
        self._push_body(stack, node.body, ctx._replace(cls=cls))
        around = [*node.decorator_list, *node.bases, *node.keywords]
        stack.extend((item, ctx) for item in reversed(around))
        return False

    def _with(self, node: ast.With | ast.AsyncWith, ctx: _Ctx, stack: list) -> bool:
        grad, allow = ctx.grad, ctx.allow
        for item in node.items:
            state = self._grad_of(item.context_expr)
            if state == _FREE and self._chosen_by_caller(item.context_expr, ctx.scope):
                state = _CHOSEN
            if self._is_allow_grad(item.context_expr):
                allow = True
            if state == _ON and ctx.scope.eval_name is not None and not allow:
                self.report(
                    item.context_expr,
                    "GM301",
                    f"`{_written(item.context_expr)}` in {ctx.scope.where()} builds autograd graphs during "
                    'evaluation: remove it, or wrap the gradients you need in `allow_grad("why")`',
                )
            if state != _FREE:
                grad = state
            if (
                isinstance(item.optional_vars, ast.Name)
                and isinstance(item.context_expr, ast.Call)
                and self.imports.qualname(item.context_expr.func) == names.THREAD_POOL
            ):
                ctx.scope.pools.add(item.optional_vars.id)
        self._push_body(stack, node.body, ctx._replace(grad=grad, allow=allow))
        for item in reversed(node.items):
            if item.optional_vars is not None:
                stack.append((item.optional_vars, ctx))
            stack.append((item.context_expr, ctx))
        return False

    def _if(self, node: ast.If, ctx: _Ctx, stack: list) -> bool:
        inner = ctx._replace(training=True) if not ctx.training and _mentions_training(node.test) else ctx
        self._push_body(stack, node.orelse, inner)
        self._push_body(stack, node.body, inner)
        stack.append((node.test, ctx))
        return False

    def _ifexp(self, node: ast.IfExp, ctx: _Ctx, stack: list) -> bool:
        inner = ctx._replace(training=True) if not ctx.training and _mentions_training(node.test) else ctx
        stack.extend([(node.orelse, inner), (node.body, inner), (node.test, ctx)])
        return False

    def _for(self, node: ast.For | ast.AsyncFor, ctx: _Ctx, stack: list) -> bool:
        bound = self._parameter_targets(node.target, node.iter, ctx.scope)
        inner = ctx._replace(param_vars=ctx.param_vars | bound) if bound else ctx
        self._push_body(stack, node.orelse, ctx)
        self._push_body(stack, node.body, inner)
        stack.extend([(node.target, ctx), (node.iter, ctx)])
        return False

    def _comprehension(self, node: ast.expr, ctx: _Ctx, stack: list) -> bool:
        bound: frozenset[str] = frozenset()
        for generator in node.generators:  # type: ignore[attr-defined]
            bound |= self._parameter_targets(generator.target, generator.iter, ctx.scope)
        inner = ctx._replace(param_vars=ctx.param_vars | bound) if bound else ctx
        stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))
        return False

    @staticmethod
    def _record_assignment(node: ast.Assign | ast.AnnAssign, ctx: _Ctx) -> None:
        """Record what a name is assigned (a later ``dropout_p=name`` looks it up)."""
        if node.value is None:
            return
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            if isinstance(target, ast.Name):
                ctx.scope.assigned.setdefault(target.id, []).append((node.value, ctx.training, ctx.param_vars))

    def _assign(self, node: ast.Assign | ast.AnnAssign, ctx: _Ctx, stack: list) -> bool:
        value = node.value
        if value is None:
            return True
        self._record_assignment(node, ctx)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        scope = ctx.scope
        for target in targets:
            if not isinstance(target, ast.Name):
                continue
            name = target.id
            if isinstance(value, ast.Call):
                if self.imports.qualname(value.func) == names.THREAD_POOL:
                    scope.pools.add(name)
                if self._parameter_source(value, scope):
                    scope.param_iterables.add(name)
                base, mode = _mode_chain(value)
                if mode is not None:  # `model = build().to(device).eval()`: the name holds a module in that mode
                    position = (node.lineno, node.col_offset)
                    scope.mode_calls.append((position, name, mode))
                    if base is not None and base != name and not self.imports.is_import(base.partition(".")[0]):
                        scope.mode_calls.append((position, base, mode))
            if name in ctx.param_vars and self._mentions_grad_of(value, name) and ctx.grad != _OFF:
                self.report(
                    node,
                    "GM702",
                    f"`{name} = ...` rebinds the loop variable over parameters: the parameter is not updated; "
                    f"update it in place under `torch.no_grad()` (`{name} -= lr * {name}.grad`)",
                )
        return True

    def _augassign(self, node: ast.AugAssign, ctx: _Ctx, stack: list) -> bool:
        target = node.target
        if ctx.grad != _OFF and not ctx.scope.grad_off_statement:
            if isinstance(target, ast.Name) and target.id in ctx.param_vars:
                self._inplace_update(node, target.id)
            elif self._is_grad_of_parameter(target, ctx) and self._uses_parameters(node.value, ctx, 0):
                self._clipping(node, _written(target))
        return True

    # -- calls ---------------------------------------------------------------------------------------------------

    def _call(self, call: ast.Call, ctx: _Ctx, stack: list) -> bool:
        func = call.func
        scope = ctx.scope
        qualname = self.imports.qualname(func)
        if qualname is not None:
            self._qualified_call(call, qualname, ctx)
        if isinstance(func, ast.Attribute) and qualname is None:
            self._method_call(call, func, ctx)
        elif isinstance(func, ast.Name) and not self.imports.is_import(func.id):
            scope.model_calls.append((call, ctx.grad))
        if any(kw.arg == "requires_grad" and _is_true(kw.value) for kw in call.keywords):
            scope.wants_grad = True
        return True

    def _qualified_call(self, call: ast.Call, qualname: str, ctx: _Ctx) -> None:
        scope = ctx.scope
        if ctx.training and (qualname in names.DROPOUT_FUNCTIONAL or qualname in names.DROPOUT_TORCH):
            return  # `if self.training:` around it: dropout only where it belongs
        if qualname in names.DROPOUT_FUNCTIONAL:
            self._functional_dropout(call, qualname, ctx)
        elif qualname in names.DROPOUT_TORCH:
            train = _argument(call, "train", 2)
            if _is_true(train):
                self.report(
                    call,
                    "GM103",
                    f"`{_written(call.func)}(..., True)` drops activations in evaluation too: pass `self.training` "
                    "as `train`",
                )
        elif qualname == names.SDPA:
            value = _argument(call, "dropout_p", 4)
            if value is not None and not ctx.training:
                scope.sdpa_calls.append((call, value, ctx.training))
        elif qualname == names.VARIABLE:
            if any(kw.arg == "volatile" and _is_true(kw.value) for kw in call.keywords):
                self.report(
                    call,
                    "GM601",
                    "`Variable(..., volatile=True)` has done nothing since PyTorch 0.4 (the graph is built): use "
                    "`with torch.no_grad():` instead",
                )
        elif qualname in names.AUTOGRAD_BACKWARD:
            self._backward(call, ctx)
        elif qualname in names.AUTOGRAD_GRAD:
            scope.wants_grad = True
        elif qualname == names.IS_GRAD_ENABLED:
            scope.reads_grad_mode = True
        elif qualname == names.THREAD:
            worker = next((kw.value for kw in call.keywords if kw.arg == "target"), None)
            if worker is not None:
                self._thread(call, worker, "`threading.Thread`", ctx)

    def _method_call(self, call: ast.Call, func: ast.Attribute, ctx: _Ctx) -> None:
        scope = ctx.scope
        attr = func.attr
        receiver = func.value
        if attr in ("backward", "manual_backward"):
            self._backward(call, ctx)
            return
        if attr == "requires_grad_":
            scope.wants_grad = scope.wants_grad or not call.args or _is_true(call.args[0])
            return
        if attr in _INPLACE and self._is_grad_of_parameter(receiver, ctx):
            self._grad_scaling(call, receiver, ctx)
            return
        key = _dotted(receiver)
        if key is None or (isinstance(receiver, ast.Name) and self.imports.is_import(receiver.id)):
            return
        if attr == "train":
            if _mode_set(call) == "train" and scope.eval_name is not None:
                scope.train_calls.append((call, key))
        elif attr in ("submit", "map") and _is_pool(receiver, scope) and call.args:
            self._thread(call, call.args[0], f"`{key}.{attr}`", ctx)
        elif (
            attr in _INPLACE
            and isinstance(receiver, ast.Name)
            and receiver.id in ctx.param_vars
            and ctx.grad != _OFF
            and not scope.grad_off_statement
        ):
            self._inplace_update(call, receiver.id)
        # `self.model(x)` calls the attribute `model`; `m.forward(x)` calls `m`: both may be a module's forward.
        scope.model_calls.append((call, ctx.grad))

    def _functional_dropout(self, call: ast.Call, qualname: str, ctx: _Ctx) -> None:
        training = _argument(call, "training", 2)
        short = _written(call.func)
        if training is None:
            if qualname in names.DROPOUT_TRAINING_DEFAULT_TRUE and not _splat(call):
                self.report(
                    call,
                    "GM101",
                    f"`{short}` without `training=` drops activations in evaluation too (`training` defaults to "
                    "True): pass `training=self.training`",
                )
        elif _is_true(training):
            self._dropout_true(call, short)
        elif isinstance(training, ast.Name):
            ctx.scope.pending_dropouts.append((call, short, training))

    def _dropout_true(self, call: ast.Call, short: str) -> None:
        self.report(
            call,
            "GM102",
            f"`{short}(..., training=True)` drops activations in evaluation too: pass `training=self.training`",
        )

    def _backward(self, call: ast.Call, ctx: _Ctx) -> None:
        scope = ctx.scope
        scope.wants_grad = True
        if scope.eval_name is not None and not ctx.allow:
            self.report(
                call,
                "GM303",
                f"`{_written(call.func)}(...)` in {scope.where()}: evaluation runs without gradients, so this "
                "fails or needs a graph built for it; remove it, or put sanctioned gradients inside "
                '`allow_grad("why")`',
            )

    def _thread(self, call: ast.Call, worker: ast.expr, starter: str, ctx: _Ctx) -> None:
        scope = ctx.scope
        if scope.eval_name is not None or ctx.grad == _OFF or scope.grad_off_statement:
            scope.threads.append((call, worker, starter))

    def _inplace_update(self, node: ast.AST, name: str) -> None:
        self.report(
            node,
            "GM701",
            f"in-place update of parameter `{name}` outside `no_grad` raises 'a leaf Variable that requires grad "
            "is being used in an in-place operation': wrap the update in `with torch.no_grad():`",
        )

    def _grad_scaling(self, call: ast.Call, receiver: ast.expr, ctx: _Ctx) -> None:
        if ctx.grad == _OFF or ctx.scope.grad_off_statement:
            return
        if any(self._uses_parameters(arg, ctx, 0) for arg in [*call.args, *(kw.value for kw in call.keywords)]):
            self._clipping(call, _written(receiver))

    def _clipping(self, node: ast.AST, target: str) -> None:
        self.report(
            node,
            "GM703",
            f"`{target}` scaled in place by a value computed from parameters outside `no_grad`: the gradient gets "
            "an autograd history; use `torch.nn.utils.clip_grad_norm_` or compute the scale under "
            "`torch.no_grad()`",
        )

    # -- what an expression is -----------------------------------------------------------------------------------

    def _grad_of(self, node: ast.expr, as_decorator: bool = False) -> int:
        """The grad mode a context manager (or decorator) sets."""
        call = node if isinstance(node, ast.Call) else None
        target = call.func if call is not None else node
        if call is None and not as_decorator:
            return _FREE
        qualname = self.imports.qualname(target)
        if qualname is None:
            written = _dotted(target) or ""
            return _OFF if "no_grad" in written or "inference_mode" in written else _FREE
        if qualname in names.NO_GRAD_CONTEXTS:
            return _OFF
        if qualname == names.INFERENCE_MODE:
            mode = _argument(call, "mode", 0) if call is not None else None
            return _FREE if isinstance(mode, ast.Constant) and mode.value is False else _OFF
        if qualname == names.ENABLE_GRAD:
            return _ON
        if qualname == names.SET_GRAD_ENABLED and call is not None:
            mode = _argument(call, "mode", 0)
            if isinstance(mode, ast.Constant):
                return _ON if mode.value else _OFF
            return _CHOSEN
        return _FREE

    @staticmethod
    def _chosen_by_caller(node: ast.expr, scope: _Scope) -> bool:
        """``with context():`` where ``context`` is an argument (of this function or one around it), or a variable
        assigned there (``context = torch.no_grad if ... else torch.inference_mode``): chosen elsewhere, unknown
        here, so not reported."""
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            return False
        where: _Scope | None = scope
        while where is not None:
            if node.func.id in where.params or node.func.id in where.assigned:
                return True
            where = where.parent
        return False

    def _is_allow_grad(self, node: ast.expr) -> bool:
        if not isinstance(node, ast.Call):
            return False
        qualname = self.imports.qualname(node.func)
        return qualname == names.ALLOW_GRAD or (qualname is None and _dotted(node.func) == "allow_grad")

    def _parameter_source(self, node: ast.expr, scope: _Scope) -> bool:
        """Whether iterating ``node`` gives parameters: ``m.parameters()``, ``group["params"]``, ``list(...)`` of
        those, or a name bound to one."""
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr == "parameters":
                return True
            if isinstance(func, ast.Name) and func.id in ("list", "tuple", "filter") and node.args:
                return self._parameter_source(node.args[-1], scope)
            return False
        if isinstance(node, ast.Subscript):
            index = node.slice
            return isinstance(index, ast.Constant) and index.value == "params"
        return isinstance(node, ast.Name) and node.id in scope.param_iterables

    def _parameter_targets(self, target: ast.expr, iterable: ast.expr, scope: _Scope) -> frozenset[str]:
        """The loop variables that hold parameters in ``for target in iterable``."""
        if isinstance(target, ast.Name):
            return frozenset({target.id}) if self._parameter_source(iterable, scope) else frozenset()
        if not isinstance(target, ast.Tuple) or not isinstance(iterable, ast.Call):
            return frozenset()
        func = iterable.func
        elts = target.elts
        if isinstance(func, ast.Attribute) and func.attr == "named_parameters" and len(elts) == 2:
            return self._parameter_targets(elts[1], ast.Call(ast.Attribute(func.value, "parameters"), [], []), scope)
        if isinstance(func, ast.Name) and func.id == "enumerate" and len(elts) == 2 and iterable.args:
            return self._parameter_targets(elts[1], iterable.args[0], scope)
        if isinstance(func, ast.Name) and func.id == "zip" and len(elts) == len(iterable.args):
            bound: frozenset[str] = frozenset()
            for elt, arg in zip(elts, iterable.args):
                bound |= self._parameter_targets(elt, arg, scope)
            return bound
        return frozenset()

    @staticmethod
    def _is_grad_of_parameter(node: ast.expr, ctx: _Ctx) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "grad"
            and isinstance(node.value, ast.Name)
            and node.value.id in ctx.param_vars
        )

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

    def _uses_parameters(self, node: ast.expr, ctx: _Ctx, depth: int) -> bool:
        """Whether a value is computed from parameter values (not their ``.grad``/``.data``/``.detach()``),
        following names assigned in the function a few steps back."""
        if isinstance(node, ast.Attribute) and node.attr in ("grad", "data") and isinstance(node.value, ast.Name):
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "detach":
            return False
        if isinstance(node, ast.Name):
            if node.id in ctx.param_vars:
                return True
            if depth < 3:
                for value, _, param_vars in ctx.scope.assigned.get(node.id, ()):
                    if self._uses_parameters(value, ctx._replace(param_vars=param_vars), depth + 1):
                        return True
            return False
        if isinstance(node, _COMPREHENSIONS):
            bound: frozenset[str] = frozenset()
            for generator in node.generators:
                bound |= self._parameter_targets(generator.target, generator.iter, ctx.scope)
            ctx = ctx._replace(param_vars=ctx.param_vars | bound)
            values = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            return any(self._uses_parameters(value, ctx, depth) for value in values)
        return any(self._uses_parameters(child, ctx, depth) for child in ast.iter_child_nodes(node))

    # -- decisions at a scope's end ------------------------------------------------------------------------------

    def _decide(self, scope: _Scope) -> None:
        for call, value, _ in scope.sdpa_calls:
            if self._drops_in_evaluation(value, scope, 0):
                self.report(
                    call,
                    "GM104",
                    f"`dropout_p={_written(value)}` does not depend on `self.training`: attention weights are "
                    f"dropped in evaluation too; use `dropout_p={_written(value)} if self.training else 0.0`",
                )
        for call, short, name in scope.pending_dropouts:
            if self._constant_true(name.id, scope):
                self._dropout_true(call, short)
        self._decide_train_calls(scope)
        self._decide_set_grad_statements(scope)
        self._decide_eval_loop(scope)
        for call, worker, starter in scope.threads:
            self._decide_thread(call, worker, starter, scope)

    def _drops_in_evaluation(self, value: ast.expr, scope: _Scope, depth: int) -> bool:
        """Whether a ``dropout_p`` value is non-zero whatever the module's mode. Unknown values (calls, names
        from elsewhere) are taken as conditioned: no finding without evidence."""
        if isinstance(value, ast.Constant):
            return isinstance(value.value, (int, float)) and not isinstance(value.value, bool) and value.value != 0
        if _mentions_training(value):
            return False
        if isinstance(value, (ast.Attribute, ast.Subscript)):
            return True
        if isinstance(value, ast.Name):
            if value.id in scope.params or depth >= 4:
                return False
            assignments = scope.assigned.get(value.id)
            if assignments is None:
                if scope is self.module:
                    return False
                return self._drops_in_evaluation(value, self.module, depth + 1)
            if any(under_training for _, under_training, _ in assignments):
                return False
            return any(self._drops_in_evaluation(assigned, scope, depth + 1) for assigned, _, _ in assignments)
        if isinstance(value, ast.BinOp):
            return self._drops_in_evaluation(value.left, scope, depth) or self._drops_in_evaluation(
                value.right, scope, depth
            )
        if isinstance(value, ast.IfExp):
            return self._drops_in_evaluation(value.body, scope, depth) or self._drops_in_evaluation(
                value.orelse, scope, depth
            )
        return False

    def _constant_true(self, name: str, scope: _Scope) -> bool:
        for where in (scope, self.module):
            if name in where.params:
                return False
            assignments = where.assigned.get(name)
            if assignments:
                return all(_is_true(value) for value, _, _ in assignments)
        return False

    def _decide_train_calls(self, scope: _Scope) -> None:
        for call, key in scope.train_calls:
            position = (call.lineno, call.col_offset)
            if any(mode == "eval" and other == key and at < position for at, other, mode in scope.mode_calls):
                continue  # restores the mode it switched off earlier in the same function
            self.report(
                call,
                "GM201",
                f"`{key}.train()` in {scope.where()} switches training mode on during evaluation (dropout, "
                "batch-norm statistics): remove it; Lightning restores training mode after evaluation itself",
            )

    def _decide_set_grad_statements(self, scope: _Scope) -> None:
        statements = scope.set_grad_statements
        if not statements or scope is self.module or scope.name in _CONTEXT_METHODS or scope.reads_grad_mode:
            return  # a script's top-level switch; a context manager's own enter/exit; a function that saves the mode
        if any(not (call.args and isinstance(call.args[0], ast.Constant)) for call in statements):
            return  # the function saves and restores the mode itself (`set_grad_enabled(previous)`)
        for call in statements:
            self.report(
                call,
                "GM401",
                f"`{_written(call)}` as a statement sets grad mode past the end of `{scope.name}` (and past an "
                f"exception): use `with {_written(call)}:` around the code it is meant for",
            )

    def _decide_eval_loop(self, scope: _Scope) -> None:
        if (
            scope.lightning
            or scope.wants_grad
            or scope.decorator_grad != _FREE
            or scope.grad_off_statement
            or not any(mode == "eval" for _, _, mode in scope.mode_calls)
        ):
            return
        reported: set[str] = set()
        modes = sorted(scope.mode_calls)
        for call, grad in sorted(scope.model_calls, key=lambda item: (item[0].lineno, item[0].col_offset)):
            if grad != _FREE:
                continue
            func = call.func
            target = func.value if isinstance(func, ast.Attribute) and func.attr == "forward" else func
            key = _dotted(target)
            if key is None or key in reported:
                continue
            position = (call.lineno, call.col_offset)
            last = None
            for at, other, mode in modes:
                if at >= position:
                    break
                if other == key:
                    last = (at, mode)
            if last is None or last[1] != "eval":
                continue
            reported.add(key)
            self.report(
                call,
                "GM501",
                f"`{_written(call.func)}(...)` after `{key}.eval()` (line {last[0][0]}) runs with gradients on: "
                "`eval()` does not turn them off; use `with torch.no_grad():` (or `torch.inference_mode()`) around "
                "it, or decorate the function with `@torch.no_grad()`",
            )

    def _decide_thread(self, call: ast.Call, worker: ast.expr, starter: str, scope: _Scope) -> None:
        target = worker
        if isinstance(target, ast.Call) and self.imports.qualname(target.func) == names.PARTIAL and target.args:
            target = target.args[0]
        if isinstance(target, ast.Call) and self._grad_of(target.func) == _OFF:
            return  # torch.no_grad()(fn)
        if isinstance(target, ast.Lambda):
            body = target.body
            inner = self._resolve_function(body.func, scope) if isinstance(body, ast.Call) else None
            if inner is not None and self._enters_no_grad(inner):
                return
        else:
            function = self._resolve_function(target, scope)
            if function is None or self._enters_no_grad(function):
                return  # a worker we cannot see is given the benefit of the doubt
        where = scope.where() if scope.eval_name is not None else f"`{scope.name}` (under `no_grad`)"
        self.report(
            call,
            "GM801",
            f"{starter} worker `{_written(worker)}` started in {where} runs with gradients on (grad mode is "
            "thread-local): enter `with torch.no_grad():` (or `torch.inference_mode()`) inside the worker",
        )

    def _resolve_function(self, node: ast.expr, scope: _Scope) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        if isinstance(node, ast.Name):
            where: _Scope | None = scope
            while where is not None:
                if node.id in where.functions:
                    return where.functions[node.id]
                where = where.parent
            return None
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
            and scope.cls is not None
        ):
            return scope.cls.methods.get(node.attr)
        return None

    def _enters_no_grad(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        if any(self._grad_of(decorator, as_decorator=True) == _OFF for decorator in function.decorator_list):
            return True
        for node in ast.walk(function):
            if isinstance(node, (ast.With, ast.AsyncWith)):
                if any(self._grad_of(item.context_expr) == _OFF for item in node.items):
                    return True
            elif isinstance(node, ast.Call) and self.imports.qualname(node.func) == names.SET_GRAD_ENABLED:
                mode = _argument(node, "mode", 0)
                if isinstance(mode, ast.Constant) and mode.value is False:
                    return True
        return False


def _is_pool(receiver: ast.expr, scope: _Scope) -> bool:
    return isinstance(receiver, ast.Name) and receiver.id in scope.pools


def check_source(source: str | bytes, path: str, eval_functions: tuple[str, ...] = ()) -> list[Finding]:
    """Every finding in a module's source, sorted by position (``noqa`` not applied).

    Raises:
        SyntaxError: the source does not parse (also for null bytes).
    """
    data = source.encode() if isinstance(source, str) else source
    triggers = Triggers(data)
    try:
        # threads: a worker may be any function of the module; an aliased trigger name: the alias is found in
        # the imports, once parsed
        whole = b"Thread" in data or aliased_import(data)
        tree = parse_relevant(data, triggers, whole, path)
    except ValueError as err:  # null bytes
        raise SyntaxError(str(err)) from err
    return _Analysis(tree, data, triggers, path, eval_functions).run()
