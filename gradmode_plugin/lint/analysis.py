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
import builtins
import dataclasses
import fnmatch
import os
from collections.abc import Iterable
from typing import Final, NamedTuple

from gradmode_plugin.lint import names
from gradmode_plugin.lint.calls import CallIndex, Def, returns_eval
from gradmode_plugin.lint.names import ImportTable
from gradmode_plugin.lint.parsing import parse_relevant
from gradmode_plugin.lint.rules import RULES_BY_CODE, TEST_QUIET_CODES
from gradmode_plugin.lint.testcode import is_test_function, is_test_path
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
_RAISES: Final = 4  # the body of `pytest.raises(...)`: expected to fail, nothing it records outlives it

#: Methods of a module that run (a part of) its forward like ``__call__``: ``model.encode_image(x)`` after
#: ``model.eval()`` records a graph as ``model(x)`` does. ``forward`` always; the others only where the module's
#: own file defines a method of that name without a ``no_grad``/``inference_mode`` decorator (research code: CLIP's
#: ``encode_image``/``encode_text``, a VAE's ``encode``/``decode``, a TTS model's ``inference``/``infer``), since
#: libraries decorate theirs (torch_geometric's ``inference``, sentence encoders' ``encode``, latent diffusion's
#: ``encode_first_stage``). ``generate``/``sample`` are never counted: the libraries that define them
#: (transformers' ``generate``, diffusion samplers) run them under ``torch.no_grad()``.
FORWARD_METHODS: Final[frozenset[str]] = frozenset(
    {"encode", "decode", "inference", "infer", "encode_image", "encode_text"}
)
#: Names of functions that run inference: ``@torch.enable_grad()`` on one of them is GM302 whatever
#: ``eval-functions`` says (a saliency or attack function is free to turn gradients on; a `predict` is not).
INFERENCE_FUNCTIONS: Final = ("predict", "predict_*", "inference", "inference_*", "*_inference", "infer", "infer_*")
#: ``torch.nn`` modules without parameters (and those whose parameters are off by default, as ``InstanceNorm``'s
#: ``affine=False``): applied to a tensor that does not require grad, they record nothing.
PARAMETER_FREE: Final[frozenset[str]] = frozenset(
    "torch.nn." + name
    for name in (
        "Identity", "ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Mish", "Sigmoid", "Tanh",
        "Hardtanh", "Hardswish", "Hardsigmoid", "Softplus", "Softmax", "LogSoftmax", "Softmin", "Dropout",
        "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout", "Flatten", "Unflatten",
        "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d", "AdaptiveAvgPool1d",
        "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
        "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle",
        "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LocalResponseNorm", "ZeroPad2d", "ConstantPad1d",
        "ConstantPad2d", "ConstantPad3d", "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d",
        "ReplicationPad2d", "CosineSimilarity", "PairwiseDistance",
    )
)  # fmt: skip
_AFFINE_BY_DEFAULT: Final = frozenset({"torch.nn.InstanceNorm1d", "torch.nn.InstanceNorm2d", "torch.nn.InstanceNorm3d"})
#: Tensor attributes and methods that read what a tensor is, not its values: no autograd history through them.
_METADATA: Final = frozenset(
    {"device", "dtype", "shape", "is_cuda", "ndim", "layout", "size", "dim", "numel", "requires_grad", "is_leaf"}
)
_BUILTINS: Final = frozenset(dir(builtins))
#: Frameworks whose evaluation steps are not run under ``no_grad`` by their caller (each step sets it itself).
_STEPS_KEEP_GRAD: Final = ("skorch.",)
_THREAD_POOLS: Final = frozenset(
    {"concurrent.futures.ThreadPoolExecutor", "multiprocessing.pool.ThreadPool", "multiprocessing.dummy.Pool"}
)

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

    __slots__ = ("autograd", "derived", "frozen", "init_training", "methods", "name", "pools", "steps_keep_grad")

    def __init__(self, node: ast.ClassDef, eval_functions: tuple[str, ...]) -> None:
        self.name = node.name
        self.methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {
            stmt.name: stmt for stmt in node.body if isinstance(stmt, _FUNCTIONS)
        }
        #: a custom ``torch.autograd.Function``: its ``backward`` runs in a backward pass, never in evaluation
        self.autograd = any((_dotted(base) or "").endswith("Function") for base in node.bases)
        #: ``self.x`` attributes whose parameters are made not to require grad somewhere in the class
        self.frozen: set[str] = set()
        #: ``self.x`` attributes holding a thread pool
        self.pools: set[str] = set()
        #: ``self.x = ... self.training ...`` in ``__init__``: attribute -> the assignment (always the training value)
        self.init_training: dict[str, ast.AST] = {}
        #: a subclass of a framework whose steps set grad mode themselves (skorch's ``NeuralNet.validation_step``
        #: enters ``no_grad`` in its own body): an override that drops it runs with gradients on
        self.steps_keep_grad = False
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
        "def_grad",
        "default_dropouts",
        "deferred",
        "eval_name",
        "frozen",
        "full",
        "functions",
        "grad_off_statement",
        "grad_paths",
        "init_training_dropouts",
        "leaf_tensors",
        "lightning",
        "loop_lines",
        "mode_calls",
        "model_calls",
        "name",
        "node",
        "param_free",
        "param_iterables",
        "param_sources",
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
        self.model_calls: list[tuple[ast.Call, int, tuple[int, ...]]] = []
        self.sdpa_calls: list[tuple[ast.Call, ast.expr, bool]] = []
        self.pending_dropouts: list[tuple[ast.Call, str, ast.Name]] = []
        #: dropouts whose `training` defaults to True, decided at the end: their `p` may be 0 in evaluation
        self.default_dropouts: list[tuple[ast.Call, str]] = []
        #: dropouts with `training=self.x`, `self.x` set from `self.training` in `__init__`
        self.init_training_dropouts: list[tuple[ast.Call, str, ast.expr]] = []
        self.set_grad_statements: list[ast.Call] = []
        self.threads: list[tuple[ast.Call, ast.expr, str, int]] = []
        self.pools: set[str] = set()
        self.param_iterables: set[str] = set()
        self.wants_grad = False
        #: block paths (see `_Ctx.path`) where the function computes gradients on purpose (a `backward()`, ...)
        self.grad_paths: list[tuple[tuple[int, ...], tuple[int, int]]] = []
        #: the grad mode of the `with` blocks around this function's `def` (a nested function inherits it)
        self.def_grad = _FREE
        #: names (dotted) whose parameters do not require grad, and modules without parameters
        self.frozen: set[str] = set()
        self.param_free: set[str] = set()
        #: parameter loop variable -> the module (dotted) whose parameters it walks
        self.param_sources: dict[str, str] = {}
        #: tensors created here with `requires_grad=True` (leaves a hand-written SGD step updates)
        self.leaf_tensors: set[str] = set()
        #: the lines of the loops in the function (block paths name loops and branches by their line)
        self.loop_lines: set[int] = set()
        #: findings that need the function to run with gradients on: decided at the end, once the grad mode its
        #: callers set is known: (node, code, message, the module whose parameters it updates)
        self.deferred: list[tuple[ast.AST, str, str, str | None]] = []
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
    whether a test of training guards it, which names are parameter loop variables, the class being defined, and
    the block path: the branches and loop bodies it is in (a ``backward()`` in the ``train`` branch says nothing of
    the ``valid`` branch)."""

    scope: _Scope
    grad: int
    allow: bool
    training: bool
    param_vars: frozenset[str]
    cls: _Class | None
    path: tuple[int, ...] = ()


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
        self,
        tree: ast.Module,
        source: bytes,
        triggers: Triggers,
        path: str,
        eval_functions: tuple[str, ...],
        tests: bool = False,
        whole: bool = False,
    ) -> None:
        self.tree = tree
        self.source = source
        self.whole = whole
        self.path = path
        #: test code is not checked for the rules whose bug only costs the test (`TEST_QUIET_CODES`)
        self.quiet_tests = not tests
        self.test_file = is_test_path(path)
        self._index: CallIndex | None = None
        self._eval_returners: frozenset[str] | None = None
        self.eval_functions = eval_functions
        self.imports = ImportTable()
        self.imports.bound_in(tree)
        aliases = self.imports.aliases(ALIASED_WORDS)
        self.lines = triggers if not aliases else Triggers(source, aliases)
        self.findings: list[Finding] = []
        self.scopes: list[_Scope] = []
        self.module = self._new_scope(tree, None, None, None, False, _FREE)
        #: a module that puts something in `eval()` is walked whole: the model may be run in any function
        self.all_full = self.lines.any_eval()
        #: and one that names threads: a pool's `submit`/`map` names no trigger word
        self.walk_all = self.all_full or b"Thread" in source
        self.module.full = self.walk_all

    # -- results -------------------------------------------------------------------------------------------------

    def report(self, node: ast.AST, code: str, message: str, scope: _Scope | None = None) -> None:
        if code in TEST_QUIET_CODES and self.quiet_tests and (self.test_file or _in_test(scope)):
            return  # a graph recorded in a test costs that test alone
        self.findings.append(Finding(self.path, node.lineno, node.col_offset + 1, code, message))  # type: ignore[attr-defined]

    def run(self) -> list[Finding]:
        ctx = _Ctx(self.module, _FREE, False, False, frozenset(), None)
        self._walk(self.tree.body, ctx)
        for scope in self.scopes:
            self._decide(scope)
        self._decide_classes()
        return sorted(set(self.findings))

    # -- calls within the module ---------------------------------------------------------------------------------

    def index(self) -> CallIndex:
        """The module's calls (the whole module, parsed again if only a part was), built once when asked."""
        if self._index is None:
            tree = self.tree if self.whole else ast.parse(self.source, filename=self.path)
            self._index = CallIndex(tree, self._grad_of)
        return self._index

    def eval_returners(self) -> frozenset[str]:
        """The module's functions that put a module in ``eval()`` and return it (``load_model()``): only those
        whose lines name ``.eval`` are looked into."""
        if self._eval_returners is None:
            self._eval_returners = frozenset(
                node.name
                for node in self.tree.body
                if isinstance(node, _FUNCTIONS)
                and self.lines.eval_in_lines(node.lineno, node.end_lineno or node.lineno)
                and returns_eval(node)
            )
        return self._eval_returners

    def _definition(self, scope: _Scope) -> Def | None:
        node = scope.node
        if not isinstance(node, _FUNCTIONS):
            return None
        return self.index().find(node.lineno, node.name)

    def effective_grad(self, scope: _Scope) -> int:
        """The grad mode a function runs in: its decorator's, else the one its ``def`` is nested in, else off where
        the module calls it only under ``no_grad``/``inference_mode``."""
        if scope.decorator_grad != _FREE or scope is self.module:
            return scope.decorator_grad
        if scope.def_grad != _FREE:
            return scope.def_grad
        return self.index().effective(self._definition(scope))

    def _frozen(self, key: str | None, scope: _Scope) -> bool:
        """Whether nothing of ``key`` requires grad: made ``requires_grad_(False)`` (or a copy of one that is) here,
        in a function around, at module level, or anywhere in the class for ``self.x``; or a module without
        parameters."""
        if key is None:
            return False
        where: _Scope | None = scope
        while where is not None:
            if key in where.frozen or key in where.param_free:
                return True
            where = where.parent
        return scope.cls is not None and key in scope.cls.frozen

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
            ast.While: self._while,
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
                elif kind is ast.Expr:
                    self._quiet_expr(node, ctx)  # type: ignore[arg-type]
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
        elif is_lightning_evaluation(node.name) and not (
            self.test_file and ctx.cls is not None and ctx.cls.name.startswith("Test")
        ):  # a test class's `test_step` tests a `step`
            eval_name, lightning = node.name, not (ctx.cls is not None and ctx.cls.steps_keep_grad)
        elif _matches(node.name, self.eval_functions):
            eval_name, lightning = node.name, False
        else:
            eval_name, lightning = parent.eval_name, parent.lightning
        cls = ctx.cls if ctx.cls is not None else parent.cls
        scope = self._new_scope(node, parent, cls, eval_name, lightning, decorator_grad)
        scope.full = self.walk_all or self.lines.eval_in_lines(node.lineno, node.end_lineno or node.lineno)
        scope.def_grad = ctx.grad if ctx.grad in (_OFF, _ON) else _FREE
        if parent is not self.module and scope.def_grad == _FREE and parent.decorator_grad in (_OFF, _ON):
            scope.def_grad = parent.decorator_grad  # a nested function runs where its enclosing one does
        if ctx.cls is None:
            parent.functions[node.name] = node
        if decorator_grad == _ON and (eval_name is not None or _matches(node.name, INFERENCE_FUNCTIONS)):
            decorator = next(d for d in node.decorator_list if self._grad_of(d, as_decorator=True) == _ON)
            what = "evaluation, which Lightning and `evaluating()` run" if eval_name is not None else "inference, run"
            self.report(
                decorator,
                "GM302",
                RULES_BY_CODE["GM302"].message(decorator=_written(decorator), where=scope.where(), what=what),
            )
        # a custom autograd Function's backward runs in a backward pass: gradients on, never evaluation code
        backward_pass = ctx.cls is not None and ctx.cls.autograd and node.name in ("backward", "jvp", "vjp")
        if backward_pass:
            scope.wants_grad = True
            scope.grad_paths.append(((), (0, 0)))
        body_ctx = _Ctx(scope, decorator_grad, False, backward_pass, frozenset(), None)
        self._push_body(stack, node.body, body_ctx)
        stack.extend((item, ctx) for item in reversed(node.decorator_list))
        return False

    def _class(self, node: ast.ClassDef, ctx: _Ctx, stack: list) -> bool:
        cls = _Class(node, self.eval_functions)
        cls.steps_keep_grad = any(
            (self.imports.qualname(base) or "").startswith(_STEPS_KEEP_GRAD) for base in node.bases
        )
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
            if state == _FREE and self._expects_raise(item.context_expr):
                state = _RAISES
            if state == _ON and not allow:
                # gradients turned on for a block: the function expects to run under `no_grad`, and its other
                # forwards run in whatever mode its caller chose
                ctx.scope.wants_grad = True
                ctx.scope.grad_paths.append(((), (0, 0)))
            if self._is_allow_grad(item.context_expr):
                allow = True
            if state == _ON and ctx.scope.eval_name is not None and not allow:
                self.report(
                    item.context_expr,
                    "GM301",
                    RULES_BY_CODE["GM301"].message(context=_written(item.context_expr), where=ctx.scope.where()),
                )
            if state != _FREE:
                grad = state
            if (
                isinstance(item.optional_vars, ast.Name)
                and isinstance(item.context_expr, ast.Call)
                and self.imports.qualname(item.context_expr.func) in _THREAD_POOLS
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
        self._push_body(stack, node.orelse, inner._replace(path=(*ctx.path, -node.lineno)))
        self._push_body(stack, node.body, inner._replace(path=(*ctx.path, node.lineno)))
        stack.append((node.test, ctx))
        return False

    def _while(self, node: ast.While, ctx: _Ctx, stack: list) -> bool:
        ctx.scope.loop_lines.add(node.lineno)
        self._push_body(stack, node.orelse, ctx)
        self._push_body(stack, node.body, ctx._replace(path=(*ctx.path, node.lineno)))
        stack.append((node.test, ctx))
        return False

    def _ifexp(self, node: ast.IfExp, ctx: _Ctx, stack: list) -> bool:
        inner = ctx._replace(training=True) if not ctx.training and _mentions_training(node.test) else ctx
        stack.extend([(node.orelse, inner), (node.body, inner), (node.test, ctx)])
        return False

    def _for(self, node: ast.For | ast.AsyncFor, ctx: _Ctx, stack: list) -> bool:
        bound = self._parameter_targets(node.target, node.iter, ctx.scope)
        inner = ctx._replace(param_vars=ctx.param_vars | bound) if bound else ctx
        if bound:
            for name, source in _loop_sources(node.target, node.iter).items():
                if name in bound and source is not None:
                    ctx.scope.param_sources[name] = source
        ctx.scope.loop_lines.add(node.lineno)
        self._push_body(stack, node.orelse, ctx)
        self._push_body(stack, node.body, inner._replace(path=(*ctx.path, node.lineno)))
        stack.extend([(node.target, ctx), (node.iter, ctx)])
        return False

    def _comprehension(self, node: ast.expr, ctx: _Ctx, stack: list) -> bool:
        bound: frozenset[str] = frozenset()
        for generator in node.generators:  # type: ignore[attr-defined]
            bound |= self._parameter_targets(generator.target, generator.iter, ctx.scope)
        inner = ctx._replace(param_vars=ctx.param_vars | bound) if bound else ctx
        stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))
        return False

    def _record_assignment(self, node: ast.Assign | ast.AnnAssign, ctx: _Ctx) -> None:
        """Record what a name is assigned (a later ``dropout_p=name`` looks it up), and what the value says of
        grad: a module made not to require grad, one without parameters, a tensor that requires grad, a pool."""
        value = node.value
        if value is None:
            return
        scope = ctx.scope
        for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
            if isinstance(target, ast.Name):
                scope.assigned.setdefault(target.id, []).append((value, ctx.training, ctx.param_vars))
                key: str | None = target.id
            elif isinstance(target, ast.Attribute):
                key = _dotted(target)
                if (
                    target.attr == "requires_grad"
                    and isinstance(target.value, ast.Name)
                    and isinstance(value, ast.Constant)
                    and value.value is False
                ):
                    self._freeze(scope.param_sources.get(target.value.id), scope)
                    continue
                if (
                    key is not None
                    and scope.cls is not None
                    and scope.name == "__init__"
                    and key.startswith("self.")
                    and _reads_self_training(value)
                ):
                    scope.cls.init_training[key] = node
            else:
                continue
            if key is None or not isinstance(value, ast.Call):
                continue
            if self._made_frozen(value, scope):
                self._freeze(key, scope)
            qualname = self.imports.qualname(value.func)
            if qualname in PARAMETER_FREE and not (
                qualname in _AFFINE_BY_DEFAULT and any(kw.arg == "affine" for kw in value.keywords)
            ):
                scope.param_free.add(key)
            elif qualname in _THREAD_POOLS:
                scope.pools.add(key)
                if scope.cls is not None and key.startswith("self."):
                    scope.cls.pools.add(key)
            if any(kw.arg == "requires_grad" and _is_true(kw.value) for kw in value.keywords) or _chain_has(
                value, "requires_grad_", lambda call: not call.args or _is_true(call.args[0])
            ):
                scope.leaf_tensors.add(key)

    def _made_frozen(self, value: ast.Call, scope: _Scope) -> bool:
        """``X(...).requires_grad_(False)`` (anywhere in a chain), or ``copy.deepcopy(m)`` of a frozen ``m``."""
        if _chain_has(value, "requires_grad_", lambda call: bool(call.args) and _is_false(call.args[0])):
            return True
        node: ast.expr = value
        while isinstance(node, ast.Call):
            if (_dotted(node.func) or "").endswith("deepcopy") and node.args:
                return self._frozen(_dotted(node.args[0]), scope)
            if not isinstance(node.func, ast.Attribute):
                break
            node = node.func.value
        return False

    @staticmethod
    def _freeze(key: str | None, scope: _Scope) -> None:
        if key is None:
            return
        scope.frozen.add(key)
        if scope.cls is not None and key.startswith("self."):
            scope.cls.frozen.add(key)

    def _quiet_expr(self, node: ast.Expr, ctx: _Ctx) -> None:
        """A statement with no trigger word: only ``m.requires_grad_(False)`` matters."""
        value = node.value
        if isinstance(value, ast.Call) and _chain_has(
            value, "requires_grad_", lambda call: bool(call.args) and _is_false(call.args[0])
        ):
            self._freeze(_dotted_base(value), ctx.scope)

    def _wants_grad(self, ctx: _Ctx, node: ast.expr) -> None:
        """The code at ``ctx`` computes gradients on purpose: evaluation-without-no_grad says nothing of its
        block (nor of the blocks around and inside it)."""
        ctx.scope.wants_grad = True
        end = (node.end_lineno or node.lineno, node.end_col_offset or node.col_offset)
        ctx.scope.grad_paths.append((ctx.path, end))  # where it ends: `autograd.grad(model(x), x)` is after the call

    def _expects_raise(self, node: ast.expr) -> bool:
        if not isinstance(node, ast.Call):
            return False
        qualname = self.imports.qualname(node.func) or _dotted(node.func) or ""
        return qualname in ("pytest.raises", "self.assertRaises", "self.assertRaisesRegex")

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
                if self._parameter_source(value, scope):
                    scope.param_iterables.add(name)
                base, mode = _mode_chain(value)
                if (
                    mode is None
                    and self.all_full
                    and isinstance(value.func, ast.Name)
                    and value.func.id in self.eval_returners()
                ):
                    base, mode = None, "eval"  # `model = load_model()`, which returns it in `eval()`
                if mode is not None:  # `model = build().to(device).eval()`: the name holds a module in that mode
                    position = (node.lineno, node.col_offset)
                    scope.mode_calls.append((position, name, mode))
                    if base is not None and base != name and not self.imports.is_import(base.partition(".")[0]):
                        scope.mode_calls.append((position, base, mode))
            if name in ctx.param_vars and self._mentions_grad_of(value, name) and ctx.grad not in (_OFF, _RAISES):
                self._defer(
                    ctx,
                    node,
                    "GM702",
                    RULES_BY_CODE["GM702"].message(name=name),
                    scope.param_sources.get(name),
                )
        return True

    def _augassign(self, node: ast.AugAssign, ctx: _Ctx, stack: list) -> bool:
        target = node.target
        if ctx.grad not in (_OFF, _RAISES) and not ctx.scope.grad_off_statement:
            if isinstance(target, ast.Name) and target.id in ctx.param_vars:
                self._inplace_update(node, target.id, ctx)
            elif isinstance(target, ast.Name) and self._leaf_tensor(target.id, ctx.scope) and _reads_grad(node.value):
                self._inplace_update(
                    node, target.id, ctx
                )  # `w -= lr * w.grad` on `w = torch.randn(..., requires_grad=True)`
            elif self._is_grad_of_parameter(target, ctx) and self._uses_parameters(node.value, ctx, 0):
                self._clipping(node, _written(target), ctx)
        return True

    @staticmethod
    def _leaf_tensor(name: str, scope: _Scope) -> bool:
        where: _Scope | None = scope
        while where is not None:
            if name in where.leaf_tensors:
                return True
            where = where.parent
        return False

    def _defer(self, ctx: _Ctx, node: ast.AST, code: str, message: str, source: str | None) -> None:
        """A finding that holds only if the function runs with gradients on and the parameters require grad: known
        once the whole module is walked."""
        ctx.scope.deferred.append((node, code, message, source))

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
            scope.model_calls.append((call, ctx.grad, ctx.path))
        if any(kw.arg == "requires_grad" and _is_true(kw.value) for kw in call.keywords):
            self._wants_grad(ctx, call)
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
                    RULES_BY_CODE["GM103"].message(call=_written(call.func)),
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
                    RULES_BY_CODE["GM601"].message(),
                )
        elif qualname in names.AUTOGRAD_BACKWARD:
            self._backward(call, ctx)
        elif qualname in names.AUTOGRAD_GRAD:
            self._wants_grad(ctx, call)
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
            if not call.args or _is_true(call.args[0]):
                self._wants_grad(ctx, call)
            elif _is_false(call.args[0]):
                base = _dotted_base(receiver)
                self._freeze(scope.param_sources.get(base, base) if base else None, scope)
            return
        if attr == "detach_" and isinstance(receiver, ast.Name) and receiver.id in ctx.param_vars:
            self._freeze(scope.param_sources.get(receiver.id), scope)  # `for p in m.parameters(): p.detach_()`
            return
        if attr in _INPLACE and self._is_grad_of_parameter(receiver, ctx):
            self._grad_scaling(call, receiver, ctx)
            return
        if attr in ("submit", "map") and call.args and self._is_pool_expr(receiver, ctx):
            self._thread(call, call.args[0], f"`{_written(receiver)}.{attr}`", ctx)
            return
        key = _dotted(receiver)
        if key is None or (isinstance(receiver, ast.Name) and self.imports.is_import(receiver.id)):
            return
        if attr == "train":
            if _mode_set(call) == "train" and scope.eval_name is not None:
                scope.train_calls.append((call, key))
        elif (
            attr in _INPLACE
            and isinstance(receiver, ast.Name)
            and (
                receiver.id in ctx.param_vars
                or (self._leaf_tensor(receiver.id, scope) and any(_reads_grad(arg) for arg in call.args))
            )
            and ctx.grad not in (_OFF, _RAISES)
            and not scope.grad_off_statement
        ):
            self._inplace_update(call, receiver.id, ctx)
        # `self.model(x)` calls the attribute `model`; `m.forward(x)` calls `m`: both may be a module's forward.
        scope.model_calls.append((call, ctx.grad, ctx.path))

    def _is_pool_expr(self, receiver: ast.expr, ctx: _Ctx) -> bool:
        """A thread pool: a local name or ``self.x`` bound to one, or one made inline
        (``ThreadPoolExecutor(4).map(...)``)."""
        if isinstance(receiver, ast.Call):
            return self.imports.qualname(receiver.func) in _THREAD_POOLS
        key = _dotted(receiver)
        if key is None:
            return False
        where: _Scope | None = ctx.scope
        while where is not None:
            if key in where.pools:
                return True
            where = where.parent
        return (ctx.cls is not None and key in ctx.cls.pools) or (
            ctx.scope.cls is not None and key in ctx.scope.cls.pools
        )

    def _functional_dropout(self, call: ast.Call, qualname: str, ctx: _Ctx) -> None:
        training = _argument(call, "training", 2)
        short = _written(call.func)
        if training is None:
            if qualname in names.DROPOUT_TRAINING_DEFAULT_TRUE and not _splat(call):
                ctx.scope.default_dropouts.append((call, short))
        elif (
            isinstance(training, ast.Attribute)
            and ctx.cls is None
            and ctx.scope.cls is not None
            and _dotted(training) in ctx.scope.cls.init_training
        ):
            ctx.scope.init_training_dropouts.append((call, short, training))
        elif _is_true(training):
            self._dropout_true(call, short)
        elif isinstance(training, ast.Name):
            ctx.scope.pending_dropouts.append((call, short, training))

    def _dropout_true(self, call: ast.Call, short: str) -> None:
        self.report(
            call,
            "GM102",
            RULES_BY_CODE["GM102"].message(call=short),
        )

    def _backward(self, call: ast.Call, ctx: _Ctx) -> None:
        scope = ctx.scope
        self._wants_grad(ctx, call)
        if scope.eval_name is not None and not ctx.allow:
            self.report(
                call,
                "GM303",
                RULES_BY_CODE["GM303"].message(call=_written(call.func), where=scope.where()),
            )

    def _thread(self, call: ast.Call, worker: ast.expr, starter: str, ctx: _Ctx) -> None:
        ctx.scope.threads.append((call, worker, starter, ctx.grad))

    def _inplace_update(self, node: ast.AST, name: str, ctx: _Ctx) -> None:
        self._defer(
            ctx,
            node,
            "GM701",
            RULES_BY_CODE["GM701"].message(name=name),
            ctx.scope.param_sources.get(name),
        )

    def _grad_scaling(self, call: ast.Call, receiver: ast.expr, ctx: _Ctx) -> None:
        if ctx.grad in (_OFF, _RAISES) or ctx.scope.grad_off_statement:
            return
        if any(self._uses_parameters(arg, ctx, 0) for arg in [*call.args, *(kw.value for kw in call.keywords)]):
            self._clipping(call, _written(receiver), ctx)

    def _clipping(self, node: ast.AST, target: str, ctx: _Ctx) -> None:
        name = target.split(".")[0]
        self._defer(
            ctx,
            node,
            "GM703",
            RULES_BY_CODE["GM703"].message(target=target),
            ctx.scope.param_sources.get(name),
        )

    # -- what an expression is -----------------------------------------------------------------------------------

    def _grad_of(self, node: ast.expr, as_decorator: bool = False) -> int:
        """The grad mode a context manager (or decorator) sets."""
        call = node if isinstance(node, ast.Call) else None
        target = call.func if call is not None else node
        if call is None and not as_decorator:
            return _FREE
        qualname = self.imports.qualname(target)
        if qualname is None or not qualname.startswith(("torch.", "gradmode_plugin.")):
            # a project's own wrapper, named for what it does (yolov5's `smart_inference_mode`)
            written = (qualname or _dotted(target) or "").rpartition(".")[2]
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
        those, a name bound to one, or a list of tensors that require grad."""
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
        if isinstance(node, (ast.List, ast.Tuple)):  # `for p in [w, b]`, tensors made with `requires_grad=True`
            return bool(node.elts) and all(
                isinstance(elt, ast.Name) and self._leaf_tensor(elt.id, scope) for elt in node.elts
            )
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
            init = self._init_training_attribute(value, scope)
            if init is not None:
                self.report(
                    call,
                    "GM104",
                    RULES_BY_CODE["GM104"].message("init", value=_written(value), line=init.lineno),
                )
            elif self._drops_in_evaluation(value, scope, 0):
                self.report(
                    call,
                    "GM104",
                    RULES_BY_CODE["GM104"].message(value=_written(value)),
                )
        for call, short, name in scope.pending_dropouts:
            if self._constant_true(name.id, scope):
                self._dropout_true(call, short)
        for call, short in scope.default_dropouts:
            if not self._zero_in_evaluation(_argument(call, "p", 1), scope):
                self.report(
                    call,
                    "GM101",
                    RULES_BY_CODE["GM101"].message(call=short),
                )
        for call, short, training in scope.init_training_dropouts:
            init = scope.cls.init_training[_dotted(training) or ""] if scope.cls else None
            self.report(
                call,
                "GM102",
                RULES_BY_CODE["GM102"].message(
                    "init", call=short, flag=_written(training), line=getattr(init, "lineno", "?")
                ),
            )
        self._decide_train_calls(scope)
        self._decide_set_grad_statements(scope)
        self._decide_eval_loop(scope)
        self._decide_deferred(scope)
        for call, worker, starter, grad in scope.threads:
            if scope.eval_name is not None or grad == _OFF or scope.grad_off_statement:
                self._decide_thread(call, worker, starter, scope, False)
            elif grad == _FREE:  # started where the callers' grad mode holds: known once the worker is judged
                self._decide_thread(call, worker, starter, scope, True)

    def _init_training_attribute(self, value: ast.expr, scope: _Scope) -> ast.AST | None:
        """The ``__init__`` assignment of ``self.x`` from ``self.training`` that a ``dropout_p=self.x`` reads."""
        if scope.cls is None or not isinstance(value, ast.Attribute):
            return None
        return scope.cls.init_training.get(_dotted(value) or "")

    def _zero_in_evaluation(self, p: ast.expr | None, scope: _Scope) -> bool:
        """Whether a dropout probability is 0 whenever it matters: a name set to 0 under a test of training
        (``if not training: dropout_p = 0.0``, as torch's own functional attention does), or a parameter whose
        default is 0 that no call in the module passes anything else for (noise dropout a sampler's caller opts
        into)."""
        if not isinstance(p, ast.Name):
            return False
        if any(under_training and _is_zero(value) for value, under_training, _ in scope.assigned.get(p.id, ())):
            return True
        while scope.parent is not None and p.id not in scope.params and p.id not in scope.assigned:
            scope = scope.parent  # a closure's probability is its enclosing function's
        node = scope.node
        if not isinstance(node, _FUNCTIONS) or p.id not in scope.params or p.id in scope.assigned:
            return False
        if not _zero_default(node, p.id):
            return False
        definition = self._definition(scope)
        if definition is None:
            return False
        for caller, _, call in self.index().callers(definition):
            if call is None:
                continue
            passed = next((kw.value for kw in call.keywords if kw.arg == p.id), None)
            if passed is None or _is_zero(passed):
                continue
            if (
                isinstance(passed, ast.Name)
                and caller is not None
                and passed.id in _parameters(caller.node)
                and _zero_default(caller.node, passed.id)
            ):
                continue  # handed on from the caller's own parameter, 0 by default
            return False
        return True

    def _decide_deferred(self, scope: _Scope) -> None:
        """In-place parameter updates and hand-written clipping: findings where the parameters require grad and
        the function runs with gradients on (not called only under ``no_grad``)."""
        if not scope.deferred:
            return
        if self.effective_grad(scope) == _OFF:
            return
        for node, code, message, source in scope.deferred:
            if not self._frozen(source, scope):
                self.report(node, code, message, scope)

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
                RULES_BY_CODE["GM201"].message(module=key, where=scope.where()),
            )

    def _decide_set_grad_statements(self, scope: _Scope) -> None:
        statements = scope.set_grad_statements
        if not statements or scope.name in _CONTEXT_METHODS or scope.reads_grad_mode:
            return  # a context manager's own enter/exit; a function that saves the mode
        if any(not (call.args and isinstance(call.args[0], ast.Constant)) for call in statements):
            return  # the function saves and restores the mode itself (`set_grad_enabled(previous)`)
        if scope is self.module:
            if self._library_module():
                for call in statements:
                    self.report(
                        call,
                        "GM401",
                        RULES_BY_CODE["GM401"].message("import", call=_written(call)),
                    )
            return  # a script's top-level switch
        definition = self._definition(scope)
        if definition is not None and definition.parent is None and self.index().only_from_main(definition):
            return  # a script's `main()`: the mode it sets ends with the program
        for call in statements:
            self.report(
                call,
                "GM401",
                RULES_BY_CODE["GM401"].message(call=_written(call), function=scope.name),
            )

    def _library_module(self) -> bool:
        """Whether a module is imported rather than run: a module of a package (an ``__init__.py`` beside it) whose
        top level only imports, defines and assigns (no call other than setting grad mode, no loop, no ``__main__``
        block)."""
        folder = os.path.dirname(self.path) or "."
        if os.path.basename(self.path) == "__main__.py" or not os.path.isfile(os.path.join(folder, "__init__.py")):
            return False
        tree = self.tree if self.whole else ast.parse(self.source, filename=self.path)
        for stmt in tree.body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom, *_FUNCTIONS, ast.ClassDef, ast.Assign, ast.AnnAssign)):
                continue
            if isinstance(stmt, ast.Expr) and (
                isinstance(stmt.value, ast.Constant)
                or (
                    isinstance(stmt.value, ast.Call)
                    and self.imports.qualname(stmt.value.func) == names.SET_GRAD_ENABLED
                )
            ):
                continue
            if isinstance(stmt, ast.Try) and all(
                isinstance(sub, (ast.Import, ast.ImportFrom, ast.Assign, ast.Pass))
                for block in (stmt.body, *(h.body for h in stmt.handlers))
                for sub in block
            ):
                continue
            return False
        return True

    def _decide_eval_loop(self, scope: _Scope) -> None:
        if scope.lightning or scope.grad_off_statement or not any(mode == "eval" for _, _, mode in scope.mode_calls):
            return
        if scope.decorator_grad != _FREE:
            return
        reported: set[str] = set()
        modes = sorted(scope.mode_calls)
        effective: int | None = None
        for call, grad, path in sorted(scope.model_calls, key=lambda item: (item[0].lineno, item[0].col_offset)):
            if grad != _FREE:
                continue
            position = (call.lineno, call.col_offset)
            passed = self._passed_to_function(call, modes, position)
            if passed is not None:
                key, callee, inner = passed
            else:
                key = self._forward_of(call.func, scope.cls)
            if key is None or key in reported or self._frozen(key, scope):
                continue
            last = _last_mode(modes, key, position)
            if last is None or last[1] != "eval":
                continue
            until = min(
                (at for at, other, mode in modes if other == key and at > last[0] and mode == "train"), default=None
            )
            if _excused(path, last[0], until, scope.grad_paths):
                continue
            if effective is None:
                effective = self.effective_grad(scope)
                if effective == _FREE and self._called_where_grad_is_wanted(scope):
                    effective = _CHOSEN
            if effective != _FREE:
                return
            if passed is None and self._returned(call, path, scope):
                continue
            reported.add(key)
            if passed is None:
                message = RULES_BY_CODE["GM501"].message(call=_written(call.func), module=key, line=last[0][0])
            else:
                message = RULES_BY_CODE["GM501"].message(
                    "passed",
                    call=_written(call.func),
                    module=key,
                    line=last[0][0],
                    forward=_written(inner.func),
                    callee=callee,
                    forward_line=inner.lineno,
                )
            self.report(call, "GM501", message, scope)

    def _forward_of(self, func: ast.expr, cls: _Class | None = None) -> str | None:
        """The module a call runs the forward of: ``m`` for ``m(x)`` and ``m.forward(x)``, and for
        ``m.encode_image(x)`` where this file defines a plain ``encode_image`` (see ``FORWARD_METHODS``) other than
        the calling class's own (a wrapper's ``decode`` calling its wrapped model's)."""
        if isinstance(func, ast.Attribute):
            if func.attr == "forward":
                return _dotted(func.value)
            if func.attr in FORWARD_METHODS and self.all_full:
                own = cls.name if cls is not None and isinstance(func.value, ast.Attribute) else None
                defined = [d for d in self.index().by_name.get(func.attr, ()) if own is None or d.cls != own]
                if defined and all(d.decorator_grad == _FREE for d in defined):
                    return _dotted(func.value)
        return _dotted(func)

    def _returned(self, call: ast.Call, path: tuple[int, ...], scope: _Scope) -> bool:
        """Whether a module that puts itself in ``eval()`` hands one forward's output (not one per batch of a loop)
        back to its caller, who decides whether it is differentiated: a model's own API (``self.eval()``, ``mvn =
        self(X)``, ..., ``return posterior``) that gradients flow through (an acquisition function optimised through
        a model's posterior). A framework's steps hand theirs to the framework, not to a caller that differentiates
        (skorch's)."""
        node = scope.node
        if not isinstance(node, _FUNCTIONS) or any(line in scope.loop_lines for line in path):
            return False
        if scope.cls is not None and scope.cls.steps_keep_grad:
            return False
        if self._forward_of(call.func, scope.cls) != "self":
            return False
        if any(isinstance(sub, _COMPREHENSIONS) and _contains(sub, call) for sub in ast.walk(node)):
            return False  # one forward per item
        returns = [sub for sub in ast.walk(node) if isinstance(sub, ast.Return) and sub.value is not None]
        if any(_contains(ret.value, call) for ret in returns):
            return True
        derived: set[str] = set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.Assign) and _contains(sub.value, call):
                derived.update(t.id for target in sub.targets for t in ast.walk(target) if isinstance(t, ast.Name))
        for _ in range(3):  # `mvn = self(X)`, `posterior = Posterior(mvn)`, `return posterior`
            for sub in ast.walk(node):
                if isinstance(sub, ast.Assign) and _reads_tensor_of(sub.value, derived):
                    derived.update(t.id for target in sub.targets for t in ast.walk(target) if isinstance(t, ast.Name))
        return any(_reads_tensor_of(ret.value, derived) for ret in returns)

    def _passed_to_function(
        self, call: ast.Call, modes: list[tuple[tuple[int, int], str, str]], position: tuple[int, int]
    ) -> tuple[str, str, ast.Call] | None:
        """``evaluate(model, loader)`` after ``model.eval()``, where ``evaluate`` (a function of this module) runs
        its parameter's forward without ``no_grad``: (the module passed, the function, the forward there)."""
        if not isinstance(call.func, ast.Name) or not self.all_full:
            return None
        evaluated = [
            key
            for arg in call.args
            if (key := _dotted(arg)) is not None
            and (last := _last_mode(modes, key, position)) is not None
            and last[1] == "eval"
        ]
        if not evaluated:
            return None  # nothing in evaluation is handed over: no need to look the function up
        candidates = [node for node in self.tree.body if isinstance(node, _FUNCTIONS) and node.name == call.func.id]
        if len(candidates) != 1:
            return None
        node = candidates[0]
        if any(self._grad_of(d, as_decorator=True) != _FREE for d in node.decorator_list) or is_lightning_evaluation(
            node.name
        ):
            return None
        positional = [arg.arg for arg in [*node.args.posonlyargs, *node.args.args]]
        for index, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                return None
            key = _dotted(arg)
            if key is None or index >= len(positional):
                continue
            last = _last_mode(modes, key, position)
            if last is None or last[1] != "eval":
                continue
            inner = self._runs_forward_of(node, positional[index])
            if inner is not None:
                return key, node.name, inner
        return None

    def _runs_forward_of(self, node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> ast.Call | None:
        """The first call of ``name``'s forward in a function outside ``no_grad``, where the function neither
        computes gradients nor sets the module's mode itself."""
        found: ast.Call | None = None
        stack: list[tuple[ast.AST, int]] = [(stmt, _FREE) for stmt in reversed(node.body)]
        while stack:
            sub, grad = stack.pop()
            if isinstance(sub, (*_FUNCTIONS, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(sub, (ast.With, ast.AsyncWith)):
                for item in sub.items:
                    grad = self._grad_of(item.context_expr) or grad
            if isinstance(sub, ast.Call):
                func = sub.func
                qualname = self.imports.qualname(func)
                if qualname in names.AUTOGRAD_GRAD or qualname in names.AUTOGRAD_BACKWARD:
                    return None
                if isinstance(func, ast.Attribute) and func.attr in ("backward", "train", "eval", "requires_grad_"):
                    return None
                if found is None and grad == _FREE and self._forward_of(func) == name:
                    found = sub
            children = list(ast.iter_child_nodes(sub))
            stack.extend((child, grad) for child in reversed(children))
        return found

    def _called_where_grad_is_wanted(self, scope: _Scope) -> bool:
        """Whether a function of this module calls this one and computes gradients itself (an attack's
        ``_forward_and_gradient`` calling ``_forward``): the forward's graph is what it differentiates."""
        definition = self._definition(scope)
        return definition is not None and any(
            caller is not None and self._wants_grad_at(caller, call)
            for caller, _, call in self.index().callers(definition)
        )

    def _wants_grad_at(self, definition: Def, call: ast.Call | None) -> bool:
        """Whether a function computes gradients after it makes ``call`` (the call's output is differentiated; a
        training step before an evaluation call says nothing of it)."""
        node = definition.node
        position = (call.lineno, call.col_offset) if call is not None else (0, 0)
        return any(
            at[0] == 0 or at > position
            for scope in self.scopes
            if getattr(scope.node, "lineno", None) == node.lineno and scope.name == node.name
            for _, at in scope.grad_paths
        )

    def _decide_classes(self) -> None:
        """``self.vocoder.eval()`` in one method (``__init__``), ``self.vocoder(x)`` in another that runs without
        ``no_grad``: the module is in evaluation wherever the class runs it, unless it is put back in training."""
        by_class: dict[int, list[_Scope]] = {}
        for scope in self.scopes:
            if (
                scope.cls is not None
                and isinstance(scope.node, _FUNCTIONS)
                and scope.cls.methods.get(scope.name) is scope.node
            ):
                by_class.setdefault(id(scope.cls), []).append(scope)
        for methods in by_class.values():
            evaluated: dict[str, tuple[int, str]] = {}
            trained: set[str] = set()
            for method in methods:
                for at, key, mode in method.mode_calls:
                    if not key.startswith("self."):
                        continue
                    if mode == "eval":
                        evaluated.setdefault(key, (at[0], method.name))
                    else:
                        trained.add(key)
            keys = {key: where for key, where in evaluated.items() if key not in trained}
            if not keys:
                continue
            for method in methods:
                self._decide_class_method(method, keys)

    def _decide_class_method(self, method: _Scope, keys: dict[str, tuple[int, str]]) -> None:
        name = method.name.lower()
        if (
            method.lightning
            or method.wants_grad
            or method.decorator_grad != _FREE
            or method.grad_off_statement
            or method.name in ("forward", "__call__", "__init__")
            or any(word in name for word in ("train", "loss", "fit", "backward", "optim", "update"))
        ):
            return  # training code (a frozen teacher or a perceptual loss may need gradients through it)
        if self._called_where_grad_is_wanted(method):
            return  # also run where gradients are computed on purpose (an attack's forward-and-gradient)
        own = {key for _, key, _ in method.mode_calls}
        reported: set[str] = set()
        for call, grad, path in method.model_calls:
            key = self._forward_of(call.func, method.cls)
            if grad != _FREE or key not in keys or key in own or key in reported:
                continue
            if (method.cls is not None and key in method.cls.frozen) or self._returned(call, path, method):
                continue
            if self.effective_grad(method) != _FREE:
                return
            reported.add(key)
            line, where = keys[key]
            self.report(
                call,
                "GM501",
                RULES_BY_CODE["GM501"].message(
                    "class", call=_written(call.func), module=key, where=where, line=line, method=method.name
                ),
                method,
            )

    def _decide_thread(
        self, call: ast.Call, worker: ast.expr, starter: str, scope: _Scope, if_callers_off: bool
    ) -> None:
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
            if not self._may_run_torch(function):
                return  # only library calls on plain data (numpy, a codec): grad mode changes nothing there
        if if_callers_off and self.effective_grad(scope) != _OFF:
            return
        where = scope.where() if scope.eval_name is not None else f"`{scope.name}` (under `no_grad`)"
        self.report(
            call,
            "GM801",
            RULES_BY_CODE["GM801"].message(starter=starter, worker=_written(worker), where=where),
            scope,
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

    def _may_run_torch(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether a worker may compute with tensors: it calls torch, or a method of something not imported (a
        model, a tensor it is given)."""
        for node in ast.walk(function):
            if not isinstance(node, ast.Call):
                continue
            qualname = self.imports.qualname(node.func)
            if qualname is not None:
                if qualname.startswith("torch"):
                    return True
                continue
            root = node.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(node.func, ast.Attribute) and isinstance(root, ast.Name):
                return True
            if isinstance(node.func, ast.Name) and node.func.id not in _BUILTINS:
                return True
        return False

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


def _in_test(scope: _Scope | None) -> bool:
    """Whether code is in a test function (``test_*``), or a function nested in one."""
    while scope is not None:
        if is_test_function(scope.name):
            return True
        scope = scope.parent
    return False


def _excused(
    path: tuple[int, ...],
    after: tuple[int, int],
    until: tuple[int, int] | None,
    grad_paths: list[tuple[tuple[int, ...], tuple[int, int]]],
) -> bool:
    """Whether a forward at ``path`` is excused by code that computes gradients on purpose in the same block (or
    one inside the other), after the ``eval()`` at ``after`` and before the ``train()`` at ``until``: a
    ``backward()`` in the ``train`` branch or loop says nothing of the ``valid`` one, nor one before the ``eval()``
    (or after the module is trained again) of the forward in between."""
    return any(
        (path[: len(wanted)] == wanted or wanted[: len(path)] == path)
        and ((at > after and (until is None or at < until)) or not at[0])
        for wanted, at in grad_paths
    )


def _last_mode(
    modes: list[tuple[tuple[int, int], str, str]], key: str, position: tuple[int, int]
) -> tuple[tuple[int, int], str] | None:
    last = None
    for at, other, mode in modes:
        if at >= position:
            break
        if other == key:
            last = (at, mode)
    return last


def _contains(node: ast.AST, target: ast.AST) -> bool:
    return any(sub is target for sub in ast.walk(node))


#: What turns a tensor into a plain value (no graph is handed on through it).
_DETACHING: Final = frozenset({"item", "tolist", "numpy", "detach", "float", "int", "bool"})


def _reads_tensor_of(node: ast.AST, names: set[str]) -> bool:
    """Whether an expression hands on one of ``names`` as a tensor (not through ``.item()``, ``float(...)``)."""
    if not names:
        return False
    stack: list[ast.AST] = [node]
    while stack:
        sub = stack.pop()
        if isinstance(sub, ast.Call):
            func = sub.func
            if (isinstance(func, ast.Attribute) and func.attr in _DETACHING) or (
                isinstance(func, ast.Name) and func.id in _DETACHING
            ):
                continue
        if isinstance(sub, ast.Name) and sub.id in names:
            return True
        stack.extend(ast.iter_child_nodes(sub))
    return False


def _reads_self_training(node: ast.expr) -> bool:
    return any(
        isinstance(sub, ast.Attribute)
        and sub.attr == "training"
        and isinstance(sub.value, ast.Name)
        and sub.value.id == "self"
        for sub in ast.walk(node)
    )


def _reads_grad(node: ast.expr) -> bool:
    return any(isinstance(sub, ast.Attribute) and sub.attr == "grad" for sub in ast.walk(node))


def _is_false(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def _is_zero(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and not isinstance(node.value, bool) and node.value == 0


def _zero_default(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> bool:
    """Whether a parameter defaults to 0 (or None)."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults = dict(zip([arg.arg for arg in positional[len(positional) - len(args.defaults) :]], args.defaults))
    defaults.update(
        {arg.arg: default for arg, default in zip(args.kwonlyargs, args.kw_defaults) if default is not None}
    )
    value = defaults.get(name)
    return value is not None and (_is_zero(value) or (isinstance(value, ast.Constant) and value.value is None))


def _chain_has(node: ast.expr, attr: str, check) -> bool:  # type: ignore[no-untyped-def]
    """Whether a chain of calls (``m.eval().requires_grad_(False).to(d)``) has a call of ``attr`` passing
    ``check``."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == attr and check(node):
            return True
        node = node.func.value
    return False


def _chain_base(node: ast.expr) -> str | None:
    """The module a chain of calls starts from: ``m`` for ``m.named_parameters()``, ``self.m`` for
    ``self.m.eval().requires_grad_(False)``."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node = node.func.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:  # `list(m.parameters())`
        return _chain_base(node.args[-1])
    return _dotted(node)


def _dotted_base(node: ast.expr) -> str | None:
    return _chain_base(node)


def _loop_sources(target: ast.expr, iterable: ast.expr) -> dict[str, str | None]:
    """Loop variable -> the module whose parameters it walks: ``for p_ema, p in zip(ema.parameters(),
    model.parameters())`` gives ``{"p_ema": "ema", "p": "model"}``."""
    if isinstance(target, ast.Name):
        return {target.id: _chain_base(iterable)}
    if not isinstance(target, ast.Tuple) or not isinstance(iterable, ast.Call):
        return {}
    func = iterable.func
    if isinstance(func, ast.Name) and func.id == "zip":
        found: dict[str, str | None] = {}
        for elt, arg in zip(target.elts, iterable.args):
            found.update(_loop_sources(elt, arg))
        return found
    if isinstance(func, ast.Name) and func.id == "enumerate" and len(target.elts) == 2 and iterable.args:
        return _loop_sources(target.elts[1], iterable.args[0])
    if isinstance(func, ast.Attribute) and func.attr == "named_parameters" and len(target.elts) == 2:
        return _loop_sources(target.elts[1], func.value)
    return {}


def check_source(
    source: str | bytes, path: str, eval_functions: tuple[str, ...] = (), tests: bool = False
) -> list[Finding]:
    """Every finding in a module's source, sorted by position (``noqa`` not applied).

    Raises:
        SyntaxError: the source does not parse (also for null bytes).
    """
    data = source.encode() if isinstance(source, str) else source
    triggers = Triggers(data)
    try:
        # threads: a worker may be any function of the module; an aliased trigger name: the alias is found in
        # the imports, once parsed
        # `.eval()`: the module may be run in any function, and followed into the functions it is passed to
        whole = b"Thread" in data or aliased_import(data) or triggers.any_eval()
        tree = parse_relevant(data, triggers, whole, path)
    except ValueError as err:  # null bytes
        raise SyntaxError(str(err)) from err
    return _Analysis(tree, data, triggers, path, eval_functions, tests, whole).run()
