"""The shared walk of ``gradmode-lint``'s analysis: one pass over a module's tree that hands each node to the rule
family that looks at it, then asks every family for its decisions at each scope's end.

The walk keeps, for every node, the function it is in (a scope), the grad mode the code around it sets (``with``
blocks and decorators), whether a test of ``self.training`` guards it, and which loop variables hold parameters; it
records what several families read (assignments, modules made not to require grad, thread pools, gradients computed
on purpose). Each family (``dropout.py``, ``modes.py``, ``grad.py``, ``params.py``, ``threads.py``,
``legacy.py``) is a mixin of :class:`Walk` that provides its abstract methods: what it does at the nodes the walk
hands it, and what it decides once the whole module is walked. :mod:`gradmode_plugin.lint.analysis` mixes them.

Example:
    >>> step = ast.parse("def validation_step(self, batch, i):\\n    pass\\n").body[0]
    >>> scope = Scope(step, None, None, "validation_step", True, FREE)
    >>> scope.where(), sorted(scope.params)
    ('`validation_step`', ['batch', 'i', 'self'])
"""

from __future__ import annotations

import abc
import ast
import dataclasses
import fnmatch
import functools
import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final, NamedTuple

from gradmode_plugin.lint import names
from gradmode_plugin.lint.calls import FREE, OFF, ON, CallIndex, Def, is_static
from gradmode_plugin.lint.freezing import (
    freezes_when_built,
    frozen_arguments,
    returns_frozen,
    returns_frozen_argument,
)
from gradmode_plugin.lint.names import ImportTable
from gradmode_plugin.lint.nodes import built_call, child_nodes, parameters, subnodes
from gradmode_plugin.lint.rules import TEST_QUIET_CODES
from gradmode_plugin.lint.testcode import is_test_function, is_test_path
from gradmode_plugin.lint.triggers import ALIASED_WORDS, Triggers
from gradmode_plugin.lint.unreachable import unreachable_lines

if TYPE_CHECKING:
    from gradmode_plugin.lint.project import Project


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


# Grad mode set around a piece of code: FREE, OFF and ON (from calls.py, which follows them through calls), and
CHOSEN: Final = 3  # set_grad_enabled(<expression>): chosen on purpose, e.g. `phase == "train"`
RAISES: Final = 4  # the body of `pytest.raises(...)`: expected to fail, nothing it records outlives it

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
#: torchmetrics runs a ``Metric``'s ``update`` with gradients off (``Metric._wrap_update``: ``set_grad_enabled`` of
#: ``_enable_grad``, False except inside the metric's own ``forward``): a subclass's ``update`` body is gradient-free.
_METRIC_PACKAGE: Final = "torchmetrics."
_METRIC_UPDATE: Final = "update"
#: Frameworks whose evaluation steps are not run under ``no_grad`` by their caller (each step sets it itself).
_STEPS_KEEP_GRAD: Final = ("skorch.",)
#: Bases (as written) that are not Lightning's nor built on it: a class with only these, or none, is no
#: ``LightningModule``, and its ``validation_step``/``test_step`` are plain methods.
_PLAIN_BASES: Final = frozenset({"object", "ABC", "abc.ABC", "Module", "nn.Module", "torch.nn.Module"})
THREAD_POOLS: Final = frozenset(
    {"concurrent.futures.ThreadPoolExecutor", "multiprocessing.pool.ThreadPool", "multiprocessing.dummy.Pool"}
)
_POOL_METHODS: Final = ("submit", "map")

_INPLACE: Final[frozenset[str]] = frozenset(
    {
        "add_", "sub_", "mul_", "div_", "true_divide_", "addcmul_", "addcdiv_", "copy_", "zero_", "fill_", "clamp_",
        "clamp_min_", "clamp_max_", "clip_", "lerp_", "uniform_", "normal_", "pow_", "sqrt_", "neg_", "masked_fill_",
        "renorm_", "set_", "exp_", "log_", "abs_", "sign_", "index_add_", "scatter_", "scatter_add_",
    }
)  # fmt: skip
FUNCTIONS: Final = (ast.FunctionDef, ast.AsyncFunctionDef)
COMPREHENSIONS: Final = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


class ClassScope:
    """A class whose methods are being walked: its methods, and those called only from evaluation code."""

    __slots__ = (
        "_init_values",
        "autograd",
        "based",
        "callback",
        "derived",
        "frozen",
        "init_training",
        "methods",
        "name",
        "pools",
        "steps_keep_grad",
    )

    def __init__(self, node: ast.ClassDef, eval_functions: tuple[str, ...]) -> None:
        self.name = node.name
        self.methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {
            stmt.name: stmt for stmt in node.body if isinstance(stmt, FUNCTIONS)
        }
        #: a custom ``torch.autograd.Function``: its ``backward`` runs in a backward pass, never in evaluation
        self.autograd = any((dotted(base) or "").endswith("Function") for base in node.bases)
        #: whether it names a base: a class on none is no module, whatever its methods are called
        self.based = has_base(node)
        #: a Lightning ``Callback`` (a base named ``*Callback``): its hooks get the module as ``pl_module``; its own
        #: ``self.x`` modules are not the ones Lightning puts in ``eval()``
        self.callback = any((dotted(base) or "").endswith("Callback") for base in node.bases)
        #: ``self.x`` attributes whose parameters are made not to require grad somewhere in the class, or that hold
        #: a module without parameters
        self.frozen: set[str] = set()
        #: ``self.x`` attributes holding a thread pool
        self.pools: set[str] = set()
        #: ``self.x = ... self.training ...`` in ``__init__``: attribute -> the assignment (always the training value)
        self.init_training: dict[str, ast.AST] = {}
        #: evaluation steps that no framework runs under ``no_grad``: a subclass of a framework whose steps set grad
        #: mode themselves (skorch's ``NeuralNet.validation_step`` enters ``no_grad`` in its own body: an override
        #: that drops it runs with gradients on), or a class that is no ``LightningModule`` (a trainer's own
        #: ``test_step``, run by its own loop)
        self.steps_keep_grad = False
        #: method -> (the evaluation function it is called from, whether that one is Lightning's)
        self.derived: dict[str, tuple[str, bool]] = {}
        self._init_values: dict[str, ast.expr] | None = None
        roots = {
            name: (name, is_lightning_evaluation(name))
            for name in self.methods
            if is_lightning_evaluation(name) or matches(name, eval_functions)
        }
        if roots:
            self._derive(roots)

    def init_value(self, key: str) -> ast.expr | None:
        """The value of ``self.x`` when ``__init__`` is its only assignment in the class (``self.flash = ... and
        self.dropout == 0.0``), else None. Read on demand: most classes never need it."""
        if self._init_values is None:
            counts: dict[str, int] = {}
            values: dict[str, ast.expr] = {}
            for name, fn in self.methods.items():
                for node in subnodes(fn):
                    if isinstance(node, ast.Assign):
                        targets = node.targets
                    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
                        targets = [node.target]
                    else:
                        continue
                    for target in targets:
                        written_key = dotted(target) if isinstance(target, ast.Attribute) else None
                        if written_key is None or not written_key.startswith("self."):
                            continue
                        counts[written_key] = counts.get(written_key, 0) + 1
                        if name == "__init__" and isinstance(node, ast.Assign):
                            values[written_key] = node.value
            self._init_values = {key: value for key, value in values.items() if counts[key] == 1}
        return self._init_values.get(key)

    def _derive(self, roots: dict[str, tuple[str, bool]]) -> None:
        """Methods called (as ``self.name(...)``) only from evaluation methods are evaluation code too (a shared
        ``_eval_step``); dunders and ``forward`` never are."""
        callers: dict[str, set[str]] = {}
        for caller, fn in self.methods.items():
            for node in subnodes(fn):
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


class Scope:
    """A function (or the module) being walked, and what the rules decided at its end need from it (the family
    that reads an attribute is named where only one does)."""

    __slots__ = (
        "assigned",
        "call_tests",
        "cls",
        "decorator_grad",
        "def_grad",
        "deferred",
        "eval_name",
        "frozen",
        "full",
        "functions",
        "grad_chosen_at",
        "grad_off_statement",
        "grad_paths",
        "grad_tests",
        "inert_grad_calls",
        "init_training_dropouts",
        "leaf_tensors",
        "lightning",
        "loop_lines",
        "maybe_zero_dropouts",
        "mode_calls",
        "mode_paths",
        "mode_tests",
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
        "rebound",
        "sdpa_calls",
        "set_grad_statements",
        "threads",
        "train_calls",
        "wants_grad",
    )

    def __init__(
        self,
        node: ast.AST,
        parent: Scope | None,
        cls: ClassScope | None,
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
        self.params: frozenset[str] = parameters(node) if isinstance(node, (*FUNCTIONS, ast.Lambda)) else frozenset()
        #: name -> [(value, assigned under a test of training, parameter loop variables there)]
        self.assigned: dict[str, list[tuple[ast.expr, bool, frozenset[str]]]] = {}
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        #: (position, receiver, "eval" | "train") (modes.py)
        self.mode_calls: list[tuple[tuple[int, int], str, str]] = []
        #: position of a mode call -> its block path (which branches of which `if` it is in)
        self.mode_paths: dict[tuple[int, int], tuple[int, ...]] = {}
        #: position of a mode call -> the tests of the `if`s around it, each with whether it failed there
        self.mode_tests: dict[tuple[int, int], tuple[tuple[ast.expr, bool], ...]] = {}
        #: (position, name, block path, value): a name given a value outside a mode call; where the value is not made
        #: from the name (`model = Net()`, `model = lambda x: session.run(...)`), whatever mode the old value was put
        #: in, the new one was not (modes.py reads the value only for a finding about to be made)
        self.rebound: list[tuple[tuple[int, int], str, tuple[int, ...], ast.expr]] = []
        self.train_calls: list[tuple[ast.Call, str]] = []
        #: (call, grad mode there, block path): every call that may run a module's forward (modes.py)
        self.model_calls: list[tuple[ast.Call, int, tuple[int, ...]]] = []
        #: the tests around each of those (by ``id``): a forward under ``if phase == "train":`` is not reached by an
        #: ``eval()`` in that test's other branch
        self.call_tests: dict[int, tuple[tuple[ast.expr, bool], ...]] = {}
        self.sdpa_calls: list[tuple[ast.Call, ast.expr, bool]] = []
        self.pending_dropouts: list[tuple[ast.Call, str, ast.Name]] = []
        #: (call, as written, code): dropouts that train in evaluation (`training` True by default or as written,
        #: `torch.dropout(x, p, True)`) unless their `p` is 0 there, decided at the end
        self.maybe_zero_dropouts: list[tuple[ast.Call, str, str]] = []
        #: dropouts with `training=self.x`, `self.x` set from `self.training` in `__init__`
        self.init_training_dropouts: list[tuple[ast.Call, str, ast.expr]] = []
        #: `torch.set_grad_enabled(...)` statements (grad.py)
        self.set_grad_statements: list[ast.Call] = []
        self.inert_grad_calls: list[ast.Call] = []  # `torch.no_grad()` as a statement: a context manager dropped
        #: (call, worker, how it is started, grad mode there) (threads.py)
        self.threads: list[tuple[ast.Call, ast.expr, str, int]] = []
        self.pools: set[str] = set()
        self.param_iterables: set[str] = set()
        self.wants_grad = False
        #: block paths (see `Ctx.path`) where the function computes gradients on purpose (a `backward()`, ...)
        self.grad_paths: list[tuple[tuple[int, ...], tuple[int, int]]] = []
        #: the tests around each of those (by where it ends): ``if phase == "train": loss.backward()`` says nothing of
        #: a forward after an ``eval()`` in that test's other branch
        self.grad_tests: dict[tuple[int, int], tuple[tuple[ast.expr, bool], ...]] = {}
        #: the grad mode of the `with` blocks around this function's `def` (a nested function inherits it)
        self.def_grad = FREE
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
        #: callers set is known: (node, code, message, the module whose parameters it updates) (params.py)
        self.deferred: list[tuple[ast.AST, str, str, str | None]] = []
        self.grad_off_statement = False
        #: where a `torch.set_grad_enabled(<not a constant>)` statement in the function's own body sets the grad mode
        #: from there on (`torch.set_grad_enabled(is_train)` at the top of a shared epoch function): chosen by the
        #: caller, as its `with` form is
        self.grad_chosen_at: tuple[int, int] | None = None
        #: every statement is walked (the function calls `.eval()`: any call in it may be the model's)
        self.full = False
        #: the function reads `torch.is_grad_enabled()`: it saves the mode (grad.py)
        self.reads_grad_mode = False

    def where(self) -> str:
        """Where this code runs in evaluation, for messages: "`validation_step`" or "`_shared` (called from ...)"."""
        if self.eval_name is None or self.eval_name == self.name:
            return f"`{self.name}`"
        return f"`{self.name}` (part of `{self.eval_name}`)"


class Ctx(NamedTuple):
    """What holds at a node: its scope, the grad mode around it, whether ``allow_grad`` sanctions gradients there,
    whether a test of training guards it, which names are parameter loop variables, the class being defined, and
    the block path: the branches and loop bodies it is in (a ``backward()`` in the ``train`` branch says nothing of
    the ``valid`` branch)."""

    scope: Scope
    grad: int
    allow: bool
    training: bool
    param_vars: frozenset[str]
    cls: ClassScope | None
    path: tuple[int, ...] = ()
    #: the tests around the node, each with whether it failed there (its ``else``): what they prove 0 is read only
    #: where a dropout asks (``dropout._zero_in_test``)
    tests: tuple[tuple[ast.expr, bool], ...] = ()


#: Nodes the walk has nothing to do at, nor under.
_LEAVES: Final = frozenset({ast.Name, ast.Constant})
#: What a handler of the walk is given besides the node: the stack of nodes still to walk.
Stack = list[tuple[ast.AST, Ctx]]


def matches(name: str, patterns: Iterable[str]) -> bool:
    """Whether a name matches one of the glob patterns (``eval-functions``, ``predict_*``)."""
    return _globs(tuple(patterns)).match(name) is not None


@functools.cache
def _globs(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """The patterns as one regular expression (``fnmatch.fnmatchcase``'s, joined): one match per name instead of
    one ``fnmatchcase`` call per pattern, for every function of every file."""
    return re.compile("|".join(fnmatch.translate(pattern) for pattern in patterns) or "(?!)")


def dotted(node: ast.expr) -> str | None:
    """``self.model`` for a chain of names and attributes, else None."""
    parts = names.dotted_parts(node)
    return ".".join(parts) if parts is not None else None


def module_classes(tree: ast.Module) -> frozenset[str]:
    """The classes a file defines that are torch modules, as far as it shows: on a base named ``*Module``
    (``nn.Module``, ``LightningModule``), on such a class of the file, or with a base and a ``forward`` of their own
    (torch's protocol for a module; their base may come from another file). A class on no base is no module,
    whatever its methods are called (a course's ``class Img2Num:`` whose ``forward(img)`` predicts)."""
    classes = [node for node in subnodes(tree) if isinstance(node, ast.ClassDef)]
    found = {
        node.name
        for node in classes
        if any((dotted(base) or "").endswith("Module") for base in node.bases)
        or (has_base(node) and any(isinstance(stmt, FUNCTIONS) and stmt.name == "forward" for stmt in node.body))
    }
    grown = True
    while grown:
        grown = False
        for node in classes:
            if node.name not in found and any((dotted(base) or "").rpartition(".")[2] in found for base in node.bases):
                found.add(node.name)
                grown = True
    return frozenset(found)


def has_base(node: ast.ClassDef) -> bool:
    """Whether a class names a base other than ``object`` (a metaclass keyword alone is none)."""
    return any(dotted(base) != "object" for base in node.bases)


def mentions_training(node: ast.expr) -> bool:
    """Whether an expression reads the training flag (``self.training``, a ``training``/``is_train`` argument)."""
    for sub in subnodes(node):
        if isinstance(sub, ast.Attribute) and "train" in sub.attr.lower():
            return True
        if isinstance(sub, ast.Name) and "train" in sub.id.lower():
            return True
    return False


def argument(call: ast.Call, keyword: str, position: int) -> ast.expr | None:
    """The argument passed as ``keyword`` or at ``position`` (not after a ``*args``), else None."""
    for kw in call.keywords:
        if kw.arg == keyword:
            return kw.value
    if len(call.args) > position and not any(isinstance(arg, ast.Starred) for arg in call.args[: position + 1]):
        return call.args[position]
    return None


def grad_set_by(node: ast.expr, imports: ImportTable, as_decorator: bool = False) -> int:
    """The grad mode a context manager (or, ``as_decorator``, a decorator) sets, its names read through ``imports``."""
    if isinstance(node, ast.IfExp):
        # `with torch.inference_mode() if no_grad else nullcontext():` sets the mode its condition picks, as
        # `torch.set_grad_enabled(flag)` does: chosen on purpose where the two branches differ
        body, orelse = (grad_set_by(branch, imports, as_decorator) for branch in (node.body, node.orelse))
        if isinstance(node.test, ast.Constant):
            return body if node.test.value else orelse
        return body if body == orelse else CHOSEN
    call = node if isinstance(node, ast.Call) else None
    target = call.func if call is not None else node
    if call is None and not as_decorator:
        return FREE
    qualname = imports.qualname(target)
    if qualname is None or not qualname.startswith(("torch.", "gradmode_plugin.")):
        # a project's own wrapper, named for what it does (yolov5's `smart_inference_mode`)
        name = (qualname or dotted(target) or "").rpartition(".")[2].replace("_", "").lower()
        return OFF if "nograd" in name or "inferencemode" in name else FREE  # also a plain `@nograd`
    if qualname in names.NO_GRAD_CONTEXTS:
        return OFF
    if qualname == names.INFERENCE_MODE:
        mode = argument(call, "mode", 0) if call is not None else None
        return FREE if isinstance(mode, ast.Constant) and mode.value is False else OFF
    if qualname == names.ENABLE_GRAD:
        return ON
    if qualname == names.SET_GRAD_ENABLED and call is not None:
        mode = argument(call, "mode", 0)
        if isinstance(mode, ast.Constant):
            return ON if mode.value else OFF
        return CHOSEN
    return FREE


def is_true(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def is_false(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def output_flows(
    function: ast.AST, qualname: Callable[[ast.expr], str | None] | None = None
) -> tuple[frozenset[int], dict[int, frozenset[tuple[int, int]]]]:
    """Two sets of calls (by ``id``). First, those all of whose output a function only detaches (a frozen feature
    extractor whose graph is dropped at once): ``model(x).detach()``, or ``_, aux = model(x)`` and then only
    ``aux["penultimate"].detach()``, or only hands on, through arithmetic, tensor methods and calls, to names whose
    values are so (a target actor's ``a = actor_(s)`` read only by ``q = critic_(s, a)`` and ``q.detach()``; a TD
    target ``y = r + gamma * q.squeeze(1)`` copied with ``torch.tensor(y)``, or appended to a list ``ys = []``
    that ``torch.tensor(ys)`` copies). Detached means ``.detach()``,
    ``.data``, ``.item()``/``.tolist()``/``.numpy()``, ``float(...)``/``int(...)``/``bool(...)`` or
    ``torch.tensor(...)`` (``qualname`` resolves an alias such as ``T.tensor``). An output read any other way
    (returned, stored, passed to a statement's call), or not read at all, is not. Second, those whose output it
    differentiates (``.backward()``, ``torch.autograd.grad``), through the same ways (their graph is used), each with
    where the calls that differentiate it end. One walk of the function, whatever the number of calls asked about.

    >>> def detached(source):
    ...     module = ast.parse(source)
    ...     return id(module.body[0].value) in output_flows(module)[0]
    >>> detached("_, aux = net(x)\\nfeat = aux['penultimate'].detach()"), detached("out = net(y)\\nprint(out)")
    (True, False)
    >>> detached("f, self.cache = net(x)\\nf = f.detach()"), detached("f = self.cache = net(x)\\nf = f.detach()")
    (False, False)
    >>> detached("features = net(x)")
    False
    >>> fed = "a = actor(s)\\nq = critic(s, a)\\n"
    >>> detached(fed + "y = q.detach()"), detached(fed + "q.sum()")
    (True, False)
    >>> detached("q = critic(s).squeeze(1)\\ny = r + g * torch.mul(q, done)\\ny = torch.tensor(y)\\nl = f(y, p)")
    True
    >>> detached("q = critic(s).squeeze(1)\\ny = r + g * q\\nloss = f(y, p)\\nloss.backward()")
    False
    >>> detached("e = net(pos).sum()\\nf = torch.autograd.grad(e, pos)[0]\\nout = f.tolist()")
    False
    >>> appended = "q = critic(s)\\nys = []\\nfor j in b:\\n    ys.append(r[j] + g * q[j])\\n"
    >>> detached(appended + "ys = torch.tensor(ys)\\nl = f(ys, p)"), detached(appended + "l = f(torch.stack(ys), p)")
    (True, False)
    >>> module = ast.parse("q = critic(s)\\nnet.train()\\nloss = mse(y, q)\\nloss.backward()")
    >>> output_flows(module)[1][id(module.body[0].value)]
    frozenset({(4, 15)})

    A name bound again in the same block (``t = teacher(x)``, then ``t = t.detach()``) holds the new value from
    there on: its later reads are not the call's. A rebinding in a branch (``if c: t = t.detach()``) cuts nothing.

    >>> detached("t = teacher(x)\\nt = t.detach()\\nloss = kd(s, t)")
    True
    >>> detached("t = teacher(x)\\nif c:\\n    t = t.detach()\\nloss = kd(s, t)")
    False
    """
    parents: dict[int, ast.AST] = {}
    reads: dict[str, list[ast.Name]] = {}
    bound: dict[int, list[str]] = {}  # an assignment to names only -> those names
    stores: dict[str, list[tuple[int, int]]] = {}  # where each name is bound
    ends: dict[int, tuple[int, int]] = {}  # an assignment to names only -> where it ends
    calls: list[ast.Call] = []
    lists: dict[str, list[tuple[tuple[int, int], int]]] = {}  # a name -> where `name = []` binds it, that assignment
    appending: set[int] = set()  # the names read only to append to them (`ys` of `ys.append(v)`)
    for sub in subnodes(function):
        for child in child_nodes(sub):
            parents[id(child)] = sub
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
            reads.setdefault(sub.id, []).append(sub)
        elif isinstance(sub, ast.Name):
            stores.setdefault(sub.id, []).append((sub.lineno, sub.col_offset))
        if isinstance(sub, ast.Assign):
            names = [
                elt for target in sub.targets for elt in (target.elts if isinstance(target, ast.Tuple) else [target])
            ]
            if all(isinstance(elt, ast.Name) for elt in names):
                bound[id(sub)] = [elt.id for elt in names if isinstance(elt, ast.Name)]
                ends[id(sub)] = (sub.end_lineno or sub.lineno, sub.end_col_offset or 0)
                if len(names) == 1 and isinstance(sub.value, ast.List) and not sub.value.elts:
                    lists.setdefault(names[0].id, []).append(((sub.lineno, sub.col_offset), id(sub)))  # type: ignore[union-attr]
        elif isinstance(sub, ast.Call):
            calls.append(sub)
            if _appends_to(sub) is not None:
                appending.add(id(sub.func.value))  # type: ignore[attr-defined]
    cuts = _rebinding_cuts(function)

    differentiating: dict[int, tuple[int, int]] = {}  # a value differentiated -> where the call that does it ends

    def fate(start: ast.AST) -> int | None:
        """Where a value goes: ``_DROPPED`` (detached), ``_DIFFERENTIATED`` (``backward()``, ``autograd.grad``:
        where that call ends is kept in ``differentiating``), the ``id`` of the assignment to names that takes it, or
        None (anywhere else)."""
        node = start
        while True:
            parent = parents.get(id(node))
            if parent is None:
                return None
            if isinstance(parent, ast.Attribute):
                if parent.attr == "data":
                    return _DROPPED
                grand = parents.get(id(parent))
                if not (isinstance(grand, ast.Call) and grand.func is parent):
                    return None  # an attribute read (`x.shape`) or stored
                if parent.attr in DETACHING_METHODS:
                    return _DROPPED
                if parent.attr == "backward":
                    differentiating[id(start)] = (grand.end_lineno or grand.lineno, grand.end_col_offset or 0)
                    return _DIFFERENTIATED
                node = grand  # a tensor method: `q.squeeze(1)`
                continue
            if isinstance(parent, ast.keyword):
                node, parent = parent, parents.get(id(parent))
            if isinstance(parent, ast.Call):
                if parent.func is node:
                    return None
                holder = _appends_to(parent)
                if holder is not None:  # `ys.append(v)`: v goes where the list `ys = []` above goes
                    return max(
                        (where for where in lists.get(holder.id, ()) if where[0] < (holder.lineno, holder.col_offset)),
                        default=(None, None),
                    )[1]
                name = (qualname(parent.func) if qualname else None) or dotted(parent.func) or ""
                if name in DETACHING_CALLS:
                    return _DROPPED
                if name.rpartition(".")[2] in _DIFFERENTIATING:  # `autograd.grad(energy, pos)`: the graph is used
                    differentiating[id(start)] = (parent.end_lineno or parent.lineno, parent.end_col_offset or 0)
                    return _DIFFERENTIATED
                node = parent  # its output is computed from the argument
                continue
            if isinstance(parent, (ast.BinOp, ast.UnaryOp, ast.IfExp, ast.Tuple, ast.List, ast.Starred)) or (
                isinstance(parent, ast.Subscript) and parent.value is node
            ):
                node = parent
                continue
            if isinstance(parent, ast.Assign) and parent.value is node and id(parent) in bound:
                return id(parent)
            return None

    def used(assignment: int) -> list[ast.Name]:
        """The reads of what an assignment binds, up to a rebinding of the name."""
        return [
            read
            for name in bound[assignment]
            for read in reads.get(name, ())
            if id(read) not in appending
            and ((assignment, name) not in cuts or (read.lineno, read.col_offset) < cuts[assignment, name])
        ]

    dead: dict[int, bool] = {}
    live: dict[int, frozenset[tuple[int, int]]] = {}

    def dropped(assignment: int) -> bool:
        """Whether every read of what an assignment binds ends detached. Depth first with a stack of its own, not
        recursion: a generated model's ``forward`` chains hundreds of assignments, one name per layer."""
        if assignment in dead:
            return dead[assignment]
        dead[assignment] = False  # a cycle: not known to be dropped
        frames: list[tuple[int, list[ast.Name], list[int]]] = [(assignment, used(assignment), [0])]
        while frames:
            current, reads_of, at = frames[-1]
            verdict, pending = bool(reads_of), None
            while at[0] < len(reads_of):
                where = fate(reads_of[at[0]])
                if where is not None and where >= 0 and where not in dead:
                    pending = where  # decided by an assignment not yet judged: judge it first
                    break
                if not (where == _DROPPED or (where is not None and where >= 0 and dead[where])):
                    verdict = False
                    break
                at[0] += 1
            if pending is not None:
                dead[pending] = False  # a cycle: not known to be dropped
                frames.append((pending, used(pending), [0]))
            else:
                dead[current] = verdict
                frames.pop()
        return dead[assignment]

    def read_next(assignment: int) -> list[ast.Name]:
        """The reads of what an assignment binds that follow it in the text before the name is bound again anywhere
        (a `loss` of the training block differentiated says nothing of the validation block's `loss`)."""
        end = ends[assignment]
        found = []
        for name in bound[assignment]:
            later = [at for at in stores.get(name, ()) if at > end]
            until = min(later, default=None)
            found += [
                read
                for read in reads.get(name, ())
                if id(read) not in appending
                and (read.lineno, read.col_offset) > end
                and (until is None or (read.lineno, read.col_offset) < until)
            ]
        return found

    def sites(node: ast.AST) -> frozenset[tuple[int, int]]:
        """Where the calls that differentiate a value end (none: it is not differentiated)."""
        where = fate(node)
        if where == _DIFFERENTIATED:
            return frozenset({differentiating[id(node)]})
        return differentiated(where) if where is not None and where >= 0 else frozenset()

    def differentiated(assignment: int) -> frozenset[tuple[int, int]]:
        """Where the calls end that differentiate a read of what an assignment binds, before it is bound again.
        Depth first with a stack of its own, as ``dropped``."""
        if assignment in live:
            return live[assignment]
        live[assignment] = frozenset()  # a cycle: not known to be differentiated
        frames: list[tuple[int, list[ast.Name], list[int], set[tuple[int, int]]]] = [
            (assignment, read_next(assignment), [0], set())
        ]
        while frames:
            current, reads_of, at, found = frames[-1]
            while at[0] < len(reads_of):
                where = fate(reads_of[at[0]])
                if where == _DIFFERENTIATED:
                    found.add(differentiating[id(reads_of[at[0]])])
                elif where is not None and where >= 0:
                    if where not in live:
                        live[where] = frozenset()  # a cycle: not known to be differentiated
                        frames.append((where, read_next(where), [0], set()))
                        break  # judge that assignment first, then come back to this read
                    found.update(live[where])
                at[0] += 1
            else:
                live[current] = frozenset(found)
                frames.pop()
        return live[assignment]

    detached: set[int] = set()
    backpropagated: dict[int, frozenset[tuple[int, int]]] = {}
    for call in calls:
        where = fate(call)
        if where == _DROPPED or (where is not None and where >= 0 and dropped(where)):
            detached.add(id(call))
        elif found := sites(call):
            backpropagated[id(call)] = found
    return frozenset(detached), backpropagated


def _appends_to(call: ast.Call) -> ast.Name | None:
    """The list a call appends its one argument to (``ys`` of ``ys.append(v)``), else None."""
    func = call.func
    appends = isinstance(func, ast.Attribute) and func.attr == "append" and len(call.args) == 1 and not call.keywords
    return func.value if appends and isinstance(func.value, ast.Name) else None  # type: ignore[attr-defined]


#: ``fate`` of a value that is detached, and of one that is differentiated
_DROPPED: Final = -1
_DIFFERENTIATED: Final = -2
#: Tensor methods whose result no gradient flows back through (``.float()`` is a cast that keeps the graph).
DETACHING_METHODS: Final = frozenset({"detach", "item", "tolist", "numpy"})
#: Calls whose result holds a tensor's value, not its graph: a copy, or a Python number.
DETACHING_CALLS: Final = frozenset({"torch.tensor", "float", "int", "bool"})
#: calls that differentiate what they are given (``torch.autograd.grad``, ``autograd.backward``, ``jacobian``)
_DIFFERENTIATING: Final = frozenset({"grad", "backward", "jacobian", "hessian", "vjp", "jvp", "hvp", "vhp"})


def _rebinding_cuts(function: ast.AST) -> dict[tuple[int, str], tuple[int, int]]:
    """(an assignment to a name, by ``id``; that name) -> where the statement that next binds the name again in the
    same block ends: from there on the name holds another value (``t = t.detach()`` after ``t = teacher(x)``)."""
    cuts: dict[tuple[int, str], tuple[int, int]] = {}
    for node in subnodes(function):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            open_bindings: dict[str, int] = {}  # name -> the assignment above that bound it, not yet rebound
            for stmt in block:
                if not (
                    isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                ):
                    continue
                name = stmt.targets[0].id
                end = (stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0)
                if name in open_bindings:
                    cuts[open_bindings[name], name] = end
                open_bindings[name] = id(stmt)
    return cuts


def written(node: ast.expr) -> str:
    """An expression as the source writes it, for messages."""
    return ast.unparse(node)


_COMPOUND: Final = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While,
    ast.If, ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()), ast.Match,
)  # fmt: skip


class Walk(abc.ABC):
    """One walk over a module's tree, then the decisions at every scope's end. The abstract methods are the rule
    families': each is named with the family module that provides it."""

    def __init__(
        self,
        tree: ast.Module,
        source: bytes,
        triggers: Triggers,
        path: str,
        eval_functions: tuple[str, ...],
        tests: bool = False,
        whole: bool = False,
        project: Project | None = None,
    ) -> None:
        self.tree = tree
        #: the other files of the run, where a function this file never calls may be called
        self.project = project
        self.source = source
        self.whole = whole
        self.path = path
        #: test code is not checked for the rules whose bug only costs the test (`TEST_QUIET_CODES`)
        self.quiet_tests = not tests
        self.test_file = is_test_path(path)
        self._index: CallIndex | None = None
        self._full_tree: ast.Module | None = None
        self._flows_by_function: dict[int, tuple[frozenset[int], dict[int, frozenset[tuple[int, int]]]]] = {}
        self.eval_functions = eval_functions
        self.imports = ImportTable()
        self.imports.bound_in(tree, None if project is None else lambda star: project.star_names(path, star))
        aliases = self.imports.aliases(ALIASED_WORDS)
        self.lines = triggers if not aliases else Triggers(source, aliases)
        self.findings: list[Finding] = []
        self.module = Scope(tree, None, None, None, False, FREE)
        self.scopes: list[Scope] = [self.module]
        #: a module that puts something in `eval()` is walked whole: the model may be run in any function
        self.all_full = self.lines.any_eval()
        #: and one that names threads: a pool's `submit`/`map` names no trigger word
        self.walk_all = self.all_full or b"Thread" in source
        self.module.full = self.walk_all

    # -- results -------------------------------------------------------------------------------------------------

    def report(self, node: ast.AST, code: str, message: str, scope: Scope | None = None) -> None:
        if code in TEST_QUIET_CODES and self.quiet_tests and (self.test_file or _in_test(scope)):
            return  # a graph recorded in a test costs that test alone
        self.findings.append(Finding(self.path, node.lineno, node.col_offset + 1, code, message))  # type: ignore[attr-defined]

    def run(self) -> list[Finding]:
        ctx = Ctx(self.module, FREE, False, False, frozenset(), None)
        self._walk(self.tree.body, ctx)
        # `net.eval()` in a PaddlePaddle file is paddle's, and torch's `no_grad` would not turn its gradients off
        torch_modes = not self.imports.another_framework()
        for scope in self.scopes:
            self._decide_dropouts(scope)
            if torch_modes:
                self._decide_modes(scope)
            self._decide_grad(scope)
            self._decide_params(scope)
            self._decide_threads(scope)
        if torch_modes:
            self._decide_classes()
            self._decide_loops()
        unreachable = self._unreachable()
        return sorted({finding for finding in self.findings if finding.line not in unreachable})

    def _unreachable(self) -> set[int]:
        """unreachable.py: the lines after a statement that raises each time it runs (a wrong unpack of a call's
        result, ``loss.data[0]``) or a call of a function that does, and the functions only they mention, read only
        in a file with findings; none where the rest of a file only partly parsed does not parse (the compiled
        cache's piece is what is checked, as Python's import trusts it)."""
        if not self.findings:
            return set()
        try:
            return unreachable_lines(
                self.full_tree(),
                self.class_named,
                self.imports.qualname,
                self._named_elsewhere,
                self._written_elsewhere,
            )
        except (SyntaxError, RecursionError):
            return set()

    def _named_elsewhere(self, name: str) -> bool:
        """Whether another file of the run names a function of this file (none where the run is this file alone)."""
        return self.project is not None and self.project.called_elsewhere(name, self.path)

    def _written_elsewhere(self, name: str) -> bool:
        """Whether the word is in another file of the project, test files and files that do not parse included (any,
        where the run knows no project)."""
        return self.project is None or self.project.written_elsewhere(name, self.path)

    # -- what the families do where the walk finds their nodes, and decide at a scope's end ----------------------

    @abc.abstractmethod
    def _dropout_call(self, call: ast.Call, qualname: str, ctx: Ctx) -> None:
        """dropout.py: a call of a dropout function or of ``scaled_dot_product_attention``."""

    @abc.abstractmethod
    def _decide_dropouts(self, scope: Scope) -> None:
        """dropout.py: the dropouts of a scope that need the whole module (GM101, GM102, GM104)."""

    @abc.abstractmethod
    def _mode_statement(self, node: ast.Expr, call: ast.Call, scope: Scope) -> None:
        """modes.py: a call as a statement (``model.eval()``)."""

    @abc.abstractmethod
    def _mode_assignment(self, node: ast.Assign | ast.AnnAssign, name: str, value: ast.Call, scope: Scope) -> None:
        """modes.py: a call assigned to a name (``model = build().eval()``)."""

    @abc.abstractmethod
    def _mode_attribute_assignment(
        self, node: ast.Assign | ast.AnnAssign, target: ast.Attribute, value: ast.Call, scope: Scope
    ) -> None:
        """modes.py: a call assigned to an attribute (``self.model = self._load(path)``)."""

    @abc.abstractmethod
    def _mode_unpacked(self, node: ast.Assign, target: ast.Tuple, value: ast.Call, scope: Scope) -> None:
        """modes.py: a call unpacked into names (``model, tokenizer = load_model()``)."""

    @abc.abstractmethod
    def _train_call(self, call: ast.Call, key: str, scope: Scope) -> None:
        """modes.py: ``key.train(...)``."""

    @abc.abstractmethod
    def _decide_modes(self, scope: Scope) -> None:
        """modes.py: ``.train()`` in evaluation (GM201), a forward after ``.eval()`` with gradients on (GM501)."""

    @abc.abstractmethod
    def _decide_classes(self) -> None:
        """modes.py: a module put in ``eval()`` in one method and run in another (GM501), once every scope is
        decided."""

    @abc.abstractmethod
    def _enable_grad_decorator(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        """grad.py: a function decorated to run with gradients on."""

    @abc.abstractmethod
    def _enable_grad_block(self, context: ast.expr, scope: Scope) -> None:
        """grad.py: a ``with`` that turns gradients on in evaluation code, outside ``allow_grad``."""

    @abc.abstractmethod
    def _backward(self, call: ast.Call, ctx: Ctx) -> None:
        """grad.py: a ``backward()`` call."""

    @abc.abstractmethod
    def _decide_grad(self, scope: Scope) -> None:
        """grad.py: the ``torch.set_grad_enabled(...)`` statements of a scope (GM401)."""

    @abc.abstractmethod
    def _augassign(self, node: ast.AugAssign, ctx: Ctx, stack: Stack) -> bool:
        """params.py: an augmented assignment (``p -= lr * p.grad``), a handler of the walk."""

    @abc.abstractmethod
    def _parameter_rebound(self, node: ast.Assign | ast.AnnAssign, name: str, value: ast.expr, ctx: Ctx) -> None:
        """params.py: a parameter loop variable assigned."""

    @abc.abstractmethod
    def _grad_scaling(self, call: ast.Call, receiver: ast.expr, ctx: Ctx) -> None:
        """params.py: an in-place method of a parameter's ``.grad``."""

    @abc.abstractmethod
    def _inplace_call(self, call: ast.Call, receiver: ast.expr, ctx: Ctx) -> None:
        """params.py: an in-place method (``add_``, ``copy_``, ...) of anything else."""

    @abc.abstractmethod
    def _decide_params(self, scope: Scope) -> None:
        """params.py: the parameter updates of a scope, where it runs with gradients on (GM701, GM702, GM703)."""

    @abc.abstractmethod
    def _thread_call(self, call: ast.Call, ctx: Ctx) -> None:
        """threads.py: ``threading.Thread(...)``."""

    @abc.abstractmethod
    def _pool_call(self, call: ast.Call, func: ast.Attribute, ctx: Ctx) -> bool:
        """threads.py: ``x.submit(...)``/``x.map(...)``; whether ``x`` is a thread pool."""

    @abc.abstractmethod
    def _decide_threads(self, scope: Scope) -> None:
        """threads.py: the threads a scope starts (GM801)."""

    @abc.abstractmethod
    def _variable_call(self, call: ast.Call, ctx: Ctx) -> None:
        """legacy.py: ``torch.autograd.Variable(...)``."""

    @abc.abstractmethod
    def _decide_loops(self) -> None:
        """loops.py: evaluation without ``eval()`` (GM502), training resumed in ``eval()`` (GM503), once the whole
        module is walked."""

    # -- calls within the module ---------------------------------------------------------------------------------

    def index(self) -> CallIndex:
        """The module's calls (the whole module, parsed again if only a part was), built once when asked."""
        if self._index is None:
            metrics = self._metric_classes
            self._index = CallIndex(
                self.full_tree(),
                self._grad_of,
                (lambda d: d.name == _METRIC_UPDATE and d.cls in metrics) if metrics else None,
            )
        return self._index

    def full_tree(self) -> ast.Module:
        """The whole module's tree (parsed again, once, if only a part was)."""
        if self._full_tree is None:
            self._full_tree = self.tree if self.whole else ast.parse(self.source, filename=self.path)
        return self._full_tree

    @functools.cached_property
    def _metric_classes(self) -> frozenset[str]:
        """The file's classes built on a torchmetrics class (``_METRIC_PACKAGE``): their ``update`` runs with
        gradients off."""
        return frozenset(
            node.name
            for node in ast.walk(self.full_tree())
            if isinstance(node, ast.ClassDef)
            and any((self.imports.qualname(base) or "").startswith(_METRIC_PACKAGE) for base in node.bases)
        )

    @functools.cached_property
    def module_classes(self) -> frozenset[str]:
        """The file's classes that are torch modules (``module_classes``): their methods hand what they compute to
        whoever uses the module, who sets its mode."""
        return module_classes(self.full_tree())

    def output_detached(self, call: ast.Call, function: ast.AST) -> bool:
        """Whether ``function`` only ever detaches what ``call`` returns (``output_flows``, read once per
        function)."""
        return id(call) in self._flows(function)[0]

    def output_differentiated(self, call: ast.Call, function: ast.AST) -> frozenset[tuple[int, int]]:
        """Where the calls end by which ``function`` differentiates what ``call`` returns (``output_flows``): none
        where its graph is not used that way."""
        return self._flows(function)[1].get(id(call), frozenset())

    def _flows(self, function: ast.AST) -> tuple[frozenset[int], dict[int, frozenset[tuple[int, int]]]]:
        found = self._flows_by_function.get(id(function))
        if found is None:
            found = self._flows_by_function[id(function)] = output_flows(function, self.imports.qualname)
        return found

    def _definition(self, scope: Scope) -> Def | None:
        node = scope.node
        if not isinstance(node, FUNCTIONS):
            return None
        return self.index().find(node.lineno, node.name)

    def _called_elsewhere_without_grad(self, scope: Scope) -> bool:
        """Whether nothing in this file calls a function or method (not one nested in a function), and the other files
        of the run call it, each time with gradients off (``Project.grad_where_called``): a validation step run by a
        training script under ``no_grad``, a metric's ``eval_model.get_outputs(x)`` called only inside ``no_grad``, an
        EMA update every caller runs under ``no_grad``. Asked only where a finding would otherwise be reported (it
        reads the run's other files)."""
        return self.run_elsewhere_without_grad(self._definition(scope))

    def run_elsewhere_without_grad(self, definition: Def | None) -> bool:
        """Whether a function or method (not one nested in a function) that nothing in this file calls is called by
        the run's other files, each time with gradients off (``_called_elsewhere_without_grad``)."""
        return (
            self.project is not None
            and definition is not None
            and definition.parent is None
            and not definition.name.startswith("__")
            and not self.index().callers(definition)
            and self.project.grad_where_called(definition.name, self.path, definition.cls is None) == OFF
        )

    def effective_grad(self, scope: Scope) -> int:
        """The grad mode a function runs in: its decorator's, else the one its ``def`` is nested in, else off where
        the module calls it only under ``no_grad``/``inference_mode``."""
        if scope.decorator_grad != FREE or scope is self.module:
            return scope.decorator_grad
        if scope.def_grad != FREE:
            return scope.def_grad
        return self.index().effective(self._definition(scope))

    def _frozen(self, key: str | None, scope: Scope) -> bool:
        """Whether nothing of ``key`` requires grad: made ``requires_grad_(False)`` (or a copy of one that is) here,
        in a function around, at module level, or anywhere in the class for ``self.x``; or a module without
        parameters. (One built by a class that freezes itself is ``_built_frozen``: it may read other files.)"""
        if key is None:
            return False
        where: Scope | None = scope
        while where is not None:
            if key in where.frozen or key in where.param_free:
                return True
            where = where.parent
        return scope.cls is not None and key in scope.cls.frozen

    def _built_frozen(self, key: str, scope: Scope) -> bool:
        """Whether every value ``key`` is given (a name in this function or one around it, ``self.x`` in
        ``__init__`` alone) is built by a class of this file, or the one class of that name in the run's files, that
        freezes itself when built so (``InceptionV3([block])`` for FID)."""
        if key.startswith("self."):
            value = scope.cls.init_value(key) if scope.cls is not None else None
            values = [value] if value is not None else []
        else:
            where: Scope | None = scope
            while where is not None and key not in where.assigned and key not in where.params:
                where = where.parent
            # a parameter holds whatever the caller passes
            values = [] if where is None or key in where.params else [value for value, _, _ in where.assigned[key]]
        return bool(values) and all(self._builds_frozen(value) for value in values)

    def _builds_frozen(self, value: ast.expr) -> bool:
        if not isinstance(value, ast.Call):
            return False
        value = built_call(value)  # `InceptionV3([block]).to(device).eval()`: the call that builds it
        if not isinstance(value.func, (ast.Name, ast.Attribute)):
            return False
        cls = self.class_named(value.func.id if isinstance(value.func, ast.Name) else value.func.attr)
        return cls is not None and freezes_when_built(cls, value)

    def _plain_class(self, node: ast.ClassDef, depth: int) -> bool:
        """Whether a class is provably no ``LightningModule``: no base, or only plain ones (``_PLAIN_BASES``) and
        classes of the project that are plain themselves (three levels deep). A base from another package may be
        built on Lightning: unknown, so False."""
        if depth > 3:
            return False
        for base in node.bases:
            name = dotted(base)
            if name in _PLAIN_BASES:
                continue
            if name is None or "." in name:
                return False
            parent = self.class_named(name)
            if parent is None or parent is node or not self._plain_class(parent, depth + 1):
                return False
        return True

    def class_named(self, name: str) -> ast.ClassDef | None:
        """The class of this name defined at the top level of this file, else the one of the run's files, else,
        where the run's files define several, the one this file imports by name from a file of the run (None where
        none of these decides)."""
        body = self.full_tree().body
        cls = next((node for node in body if isinstance(node, ast.ClassDef) and node.name == name), None)
        if cls is None and self.project is not None:
            cls = self.project.class_named(name)
            if cls is None:
                cls = self._imported_class(body, name)
        return cls

    def _imported_class(self, body: list[ast.stmt], name: str) -> ast.ClassDef | None:
        assert self.project is not None
        for node in body:
            if isinstance(node, ast.ImportFrom) and node.module is not None:
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        return self.project.imported_class(self.path, node, alias.name)
        return None

    # -- the walk ------------------------------------------------------------------------------------------------

    def _walk(self, body: list[ast.stmt], ctx: Ctx) -> None:
        stack: Stack = []
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
                # names and constants (a third of the nodes) have no handler and no child: not pushed
                stack += [(child, ctx) for child in reversed(child_nodes(node)) if type(child) not in _LEAVES]

    @staticmethod
    def _push_body(stack: Stack, body: list[ast.stmt], ctx: Ctx) -> None:
        """Push a block's statements; after ``if not self.training: return ...`` the rest of it runs in training."""
        items: Stack = []
        for stmt in body:
            items.append((stmt, ctx))
            if (
                not ctx.training
                and isinstance(stmt, ast.If)
                and stmt.body
                and isinstance(stmt.body[-1], (ast.Return, ast.Raise))
                and mentions_training(stmt.test)
            ):
                ctx = ctx._replace(training=True)
        items.reverse()
        stack.extend(items)

    # Each handler returns whether the walk should go on into all the node's children itself.

    def _import(self, node: ast.Import | ast.ImportFrom, ctx: Ctx, stack: Stack) -> bool:
        if ctx.scope is not self.module or ctx.cls is not None:
            self.imports.add(node)  # the module's own imports are read up front (`ImportTable.bound_in`)
        if any(alias.asname for alias in node.names) and ctx.scope is not self.module:
            ctx.scope.full = True  # an alias bound here is not among the module's trigger words
        return False

    def _expr(self, node: ast.Expr, ctx: Ctx, stack: Stack) -> bool:
        call = node.value
        if isinstance(call, ast.Call):
            self._frozen_by_helper(call, ctx.scope)
            qualname = self.imports.qualname(call.func)
            if qualname in names.GRAD_OFF_CONTEXTS and not (call.args and not is_true(call.args[0])):
                ctx.scope.inert_grad_calls.append(call)  # `inference_mode(False)` would turn nothing off anyway
            if qualname == names.SET_GRAD_ENABLED:
                # one inside a grad-mode `with` (or under such a decorator) leaks nothing: the exit puts the mode back
                if ctx.grad not in (OFF, ON, CHOSEN):
                    ctx.scope.set_grad_statements.append(call)
                if call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is False:
                    ctx.scope.grad_off_statement = True
                function = ctx.scope.node
                if (
                    ctx.scope.grad_chosen_at is None
                    and self._grad_of(call) == CHOSEN
                    and isinstance(function, FUNCTIONS)
                    and any(stmt is node for stmt in function.body)
                ):
                    ctx.scope.grad_chosen_at = (node.lineno, node.col_offset)
            before = len(ctx.scope.mode_calls)
            self._mode_statement(node, call, ctx.scope)
            if len(ctx.scope.mode_calls) > before:
                ctx.scope.mode_paths[(node.lineno, node.col_offset)] = ctx.path
                ctx.scope.mode_tests[(node.lineno, node.col_offset)] = ctx.tests
        return True

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, ctx: Ctx, stack: Stack) -> bool:
        parent = ctx.scope
        decorator_grad = FREE
        for decorator in node.decorator_list:
            decorator_grad = self._grad_of(decorator, as_decorator=True) or decorator_grad
        if ctx.cls is not None and node.name in ctx.cls.derived:
            eval_name, lightning = ctx.cls.derived[node.name]
        elif is_lightning_evaluation(node.name) and not (
            self.test_file and ctx.cls is not None and ctx.cls.name.startswith("Test")
        ):  # a test class's `test_step` tests a `step`
            eval_name, lightning = node.name, not (ctx.cls is not None and ctx.cls.steps_keep_grad)
        elif matches(node.name, self.eval_functions):
            eval_name, lightning = node.name, False
        else:
            eval_name, lightning = parent.eval_name, parent.lightning
        cls = ctx.cls if ctx.cls is not None else parent.cls
        scope = Scope(node, parent, cls, eval_name, lightning, decorator_grad)
        self.scopes.append(scope)
        scope.full = self.walk_all or self.lines.eval_in_lines(node.lineno, node.end_lineno or node.lineno)
        scope.def_grad = ctx.grad if ctx.grad in (OFF, ON) else FREE
        if parent is not self.module and scope.def_grad == FREE and parent.decorator_grad in (OFF, ON):
            scope.def_grad = parent.decorator_grad  # a nested function runs where its enclosing one does
        if ctx.cls is None:
            parent.functions[node.name] = node
        if decorator_grad == ON:
            self._enable_grad_decorator(node, scope)
        # a custom autograd Function's backward runs in a backward pass: gradients on, never evaluation code
        backward_pass = ctx.cls is not None and ctx.cls.autograd and node.name in ("backward", "jvp", "vjp")
        if backward_pass:
            scope.wants_grad = True
            scope.grad_paths.append(((), (0, 0)))
        body_ctx = Ctx(scope, decorator_grad, False, backward_pass, frozenset(), None)
        self._push_body(stack, node.body, body_ctx)
        stack.extend((item, ctx) for item in reversed(node.decorator_list))
        return False

    def _class(self, node: ast.ClassDef, ctx: Ctx, stack: Stack) -> bool:
        cls = ClassScope(node, self.eval_functions)
        cls.steps_keep_grad = any(
            (self.imports.qualname(base) or "").startswith(_STEPS_KEEP_GRAD) for base in node.bases
        ) or (any(name in LIGHTNING_EVAL_STEPS for name in cls.methods) and self._plain_class(node, 0))
        self._push_body(stack, node.body, ctx._replace(cls=cls))
        around = [*node.decorator_list, *node.bases, *node.keywords]
        stack.extend((item, ctx) for item in reversed(around))
        return False

    def _with(self, node: ast.With | ast.AsyncWith, ctx: Ctx, stack: Stack) -> bool:
        grad, allow = ctx.grad, ctx.allow
        for item in node.items:
            state = self._grad_of(item.context_expr)
            if state == FREE and self._chosen_by_caller(item.context_expr, ctx.scope):
                state = CHOSEN
            if state == FREE and self._expects_raise(item.context_expr):
                state = RAISES
            if state == ON and not allow:
                # gradients turned on for a block: the function expects to run under `no_grad`, and its other
                # forwards run in whatever mode its caller chose
                ctx.scope.wants_grad = True
                ctx.scope.grad_paths.append(((), (0, 0)))
            if self._is_allow_grad(item.context_expr):
                allow = True
            if state == ON and ctx.scope.eval_name is not None and not allow:
                self._enable_grad_block(item.context_expr, ctx.scope)
            if state != FREE:
                grad = state
            if (
                isinstance(item.optional_vars, ast.Name)
                and isinstance(item.context_expr, ast.Call)
                and self.imports.qualname(item.context_expr.func) in THREAD_POOLS
            ):
                ctx.scope.pools.add(item.optional_vars.id)
        self._push_body(stack, node.body, ctx._replace(grad=grad, allow=allow))
        for item in reversed(node.items):
            if item.optional_vars is not None:
                stack.append((item.optional_vars, ctx))
            stack.append((item.context_expr, ctx))
        return False

    def _if(self, node: ast.If, ctx: Ctx, stack: Stack) -> bool:
        inner = ctx._replace(training=True) if not ctx.training and mentions_training(node.test) else ctx
        orelse = inner._replace(path=(*ctx.path, -node.lineno), tests=(*ctx.tests, (node.test, True)))
        self._push_body(stack, node.orelse, orelse)
        self._push_body(
            stack, node.body, inner._replace(path=(*ctx.path, node.lineno), tests=(*ctx.tests, (node.test, False)))
        )
        stack.append((node.test, ctx))
        return False

    def _while(self, node: ast.While, ctx: Ctx, stack: Stack) -> bool:
        ctx.scope.loop_lines.add(node.lineno)
        self._push_body(stack, node.orelse, ctx)
        self._push_body(stack, node.body, ctx._replace(path=(*ctx.path, node.lineno)))
        stack.append((node.test, ctx))
        return False

    def _ifexp(self, node: ast.IfExp, ctx: Ctx, stack: Stack) -> bool:
        inner = ctx._replace(training=True) if not ctx.training and mentions_training(node.test) else ctx
        stack.extend([(node.orelse, inner), (node.body, inner), (node.test, ctx)])
        return False

    def _for(self, node: ast.For | ast.AsyncFor, ctx: Ctx, stack: Stack) -> bool:
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

    def _comprehension(self, node: ast.expr, ctx: Ctx, stack: Stack) -> bool:
        bound: frozenset[str] = frozenset()
        for generator in node.generators:  # type: ignore[attr-defined]
            bound |= self._parameter_targets(generator.target, generator.iter, ctx.scope)
        inner = ctx._replace(param_vars=ctx.param_vars | bound) if bound else ctx
        stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(node))))
        return False

    def _assign(self, node: ast.Assign | ast.AnnAssign, ctx: Ctx, stack: Stack) -> bool:
        value = node.value
        if value is None:
            return True
        self._record_assignment(node, ctx)
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        scope = ctx.scope
        before = len(scope.mode_calls)
        for target in targets:
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Call):
                self._mode_unpacked(node, target, value, scope)  # `model, tokenizer = load()`
            if isinstance(target, ast.Attribute) and isinstance(value, ast.Call):
                self._mode_attribute_assignment(node, target, value, scope)  # `self.model = self._load(path)`
            if not isinstance(target, ast.Name):
                continue
            name = target.id
            if isinstance(value, ast.Call):
                if self._parameter_source(value, scope):
                    scope.param_iterables.add(name)
                self._mode_assignment(node, name, value, scope)
            if name in ctx.param_vars:
                self._parameter_rebound(node, name, value, ctx)
        if len(scope.mode_calls) > before:
            scope.mode_paths[(node.lineno, node.col_offset)] = ctx.path
            scope.mode_tests[(node.lineno, node.col_offset)] = ctx.tests
        else:
            for target in targets:
                key = dotted(target)
                if key is not None:
                    scope.rebound.append(((node.lineno, node.col_offset), key, ctx.path, value))
        return True

    # -- what an assignment or a statement says ------------------------------------------------------------------

    def _record_assignment(self, node: ast.Assign | ast.AnnAssign, ctx: Ctx) -> None:
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
                key = dotted(target)
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
                if scope.cls is not None and key.startswith("self."):
                    scope.cls.frozen.add(key)  # `self.drop = nn.Dropout(p)` in `__init__`: none in any method
            elif qualname in THREAD_POOLS:
                scope.pools.add(key)
                if scope.cls is not None and key.startswith("self."):
                    scope.cls.pools.add(key)
            if any(kw.arg == "requires_grad" and is_true(kw.value) for kw in value.keywords) or _chain_has(
                value, "requires_grad_", lambda call: not call.args or is_true(call.args[0])
            ):
                scope.leaf_tensors.add(key)

    def _made_frozen(self, value: ast.Call, scope: Scope) -> bool:
        """``X(...).requires_grad_(False)`` (anywhere in a chain), ``copy.deepcopy(m)`` of a frozen ``m``, a call
        of a function of this file that returns the module it froze (``enet = create_enet().cuda()``), or one of
        a function of this file or a method of the class that freezes the module it is handed and gives it back
        (``self.old_fc = self.freeze(copy.deepcopy(self.fc))``)."""
        if _chain_has(value, "requires_grad_", lambda call: bool(call.args) and is_false(call.args[0])):
            return True
        node: ast.expr = value
        while isinstance(node, ast.Call):
            if (dotted(node.func) or "").endswith("deepcopy") and node.args:
                return self._frozen(dotted(node.args[0]), scope)
            if self._returns_what_it_froze(node, scope):
                return True
            if not isinstance(node.func, ast.Attribute):
                break
            node = node.func.value
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in self._freezing_helpers
            and returns_frozen(self._freezing_helpers[node.func.id])
        )

    def _returns_what_it_froze(self, call: ast.Call, scope: Scope) -> bool:
        """``freeze(m)`` or ``self.freeze(m)`` where the file's function or the class's method of that name
        freezes the module it is given and returns it (``returns_frozen_argument``)."""
        helper = self._freezing_helper(call, scope)
        return helper is not None and returns_frozen_argument(helper[0], call, bound=helper[1])

    def _freezing_helper(
        self, call: ast.Call, scope: Scope
    ) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, int] | None:
        """The function a call runs that may freeze what it is handed, with how many leading parameters the call
        does not pass: the file's ``toggle_grad`` (0), or the class's own ``self.fix_network`` (1; 0 if static)."""
        func = call.func
        if isinstance(func, ast.Name) and func.id in self._freezing_helpers:
            return self._freezing_helpers[func.id], 0
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and scope.cls is not None
            and (method := scope.cls.methods.get(func.attr)) is not None
            and b"requires_grad" in self.source
        ):
            return method, 0 if is_static(method) else 1
        return None

    @functools.cached_property
    def _freezing_helpers(self) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
        """The module-level functions of this file (one of each name) that touch ``requires_grad``: those that may
        freeze a module handed to them, or return one they froze. Parsed in full only for a file naming it."""
        if b"requires_grad" not in self.source:
            return {}
        found: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        twice: set[str] = set()
        stack: list[ast.stmt] = list(self.full_tree().body)
        while stack:  # also those defined under a module-level `if`/`try` (another definition may run instead)
            node = stack.pop()
            if isinstance(node, FUNCTIONS):
                if node.name in found:
                    twice.add(node.name)
                found[node.name] = node
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                stack += [*node.body, *getattr(node, "orelse", ()), *getattr(node, "finalbody", ())]
                stack += [stmt for handler in getattr(node, "handlers", ()) for stmt in handler.body]
        return {
            name: node
            for name, node in found.items()
            if name not in twice
            and not self.imports.is_import(name)
            and any(isinstance(sub, ast.Attribute) and sub.attr.startswith("requires_grad") for sub in subnodes(node))
        }

    def _frozen_by_helper(self, call: ast.Call, scope: Scope) -> None:
        """``toggle_grad(model, False)`` as a statement, where the file's ``toggle_grad`` surely freezes what it is
        given, or ``self.fix_network(self.vit)``, where the class's own method does: each module so given is
        frozen."""
        helper = self._freezing_helper(call, scope)
        if helper is None:
            return
        function, bound = helper
        for argument in frozen_arguments(function, call, bound):
            self._freeze(dotted(argument), scope)

    def _freeze_chain(self, receiver: ast.expr, scope: Scope) -> None:
        """The module a freezing call's chain starts from (``m.eval().requires_grad_(False)``, ``m.freeze()``), or
        the one a parameter loop variable walks, is frozen."""
        base = _chain_base(receiver)
        self._freeze(scope.param_sources.get(base, base) if base else None, scope)

    @staticmethod
    def _freeze(key: str | None, scope: Scope) -> None:
        if key is None:
            return
        scope.frozen.add(key)
        if scope.cls is not None and key.startswith("self."):
            scope.cls.frozen.add(key)

    def _quiet_expr(self, node: ast.Expr, ctx: Ctx) -> None:
        """A statement with no trigger word: only ``m.requires_grad_(False)`` or ``freeze(m)`` matters."""
        value = node.value
        if not isinstance(value, ast.Call):
            return
        if _chain_has(value, "requires_grad_", lambda call: bool(call.args) and is_false(call.args[0])):
            self._freeze(_chain_base(value), ctx.scope)
        else:
            self._frozen_by_helper(value, ctx.scope)

    def _wants_grad(self, ctx: Ctx, node: ast.expr) -> None:
        """The code at ``ctx`` computes gradients on purpose: evaluation-without-no_grad says nothing of its
        block (nor of the blocks around and inside it)."""
        ctx.scope.wants_grad = True
        end = (node.end_lineno or node.lineno, node.end_col_offset or node.col_offset)
        ctx.scope.grad_paths.append((ctx.path, end))  # where it ends: `autograd.grad(model(x), x)` is after the call
        ctx.scope.grad_tests[end] = ctx.tests

    @staticmethod
    def _leaf_tensor(name: str, scope: Scope) -> bool:
        where: Scope | None = scope
        while where is not None:
            if name in where.leaf_tensors:
                return True
            where = where.parent
        return False

    # -- calls ---------------------------------------------------------------------------------------------------

    def _call(self, call: ast.Call, ctx: Ctx, stack: Stack) -> bool:
        func = call.func
        scope = ctx.scope
        qualname = self.imports.qualname(func)
        if qualname is not None:
            self._qualified_call(call, qualname, ctx)
        if isinstance(func, ast.Attribute) and qualname is None:
            self._method_call(call, func, ctx)
        elif isinstance(func, ast.Name) and not self.imports.is_import(func.id):
            scope.model_calls.append((call, ctx.grad, ctx.path))
            scope.call_tests[id(call)] = ctx.tests
        if any(kw.arg == "requires_grad" and is_true(kw.value) for kw in call.keywords):
            self._wants_grad(ctx, call)
        return True

    def _qualified_call(self, call: ast.Call, qualname: str, ctx: Ctx) -> None:
        if qualname in names.DROPOUT_FUNCTIONAL or qualname in names.DROPOUT_TORCH or qualname == names.SDPA:
            self._dropout_call(call, qualname, ctx)
        elif qualname == names.VARIABLE:
            self._variable_call(call, ctx)
        elif qualname in names.AUTOGRAD_BACKWARD:
            self._backward(call, ctx)
        elif qualname in names.AUTOGRAD_GRAD:
            self._wants_grad(ctx, call)
        elif qualname == names.IS_GRAD_ENABLED:
            ctx.scope.reads_grad_mode = True
        elif qualname == names.THREAD:
            self._thread_call(call, ctx)

    def _method_call(self, call: ast.Call, func: ast.Attribute, ctx: Ctx) -> None:
        scope = ctx.scope
        attr = func.attr
        receiver = func.value
        if attr in ("backward", "manual_backward"):
            self._backward(call, ctx)
            return
        if attr == "requires_grad_":
            if not call.args or is_true(call.args[0]):
                self._wants_grad(ctx, call)
            elif is_false(call.args[0]):
                self._freeze_chain(receiver, scope)
            return
        if attr == "freeze" and _lightning_freeze(call):
            self._freeze_chain(receiver, scope)
            return
        if attr == "detach_" and isinstance(receiver, ast.Name) and receiver.id in ctx.param_vars:
            self._freeze(scope.param_sources.get(receiver.id), scope)  # `for p in m.parameters(): p.detach_()`
            return
        if attr in _INPLACE and self._is_grad_of_parameter(receiver, ctx):
            self._grad_scaling(call, receiver, ctx)
            return
        if attr in _POOL_METHODS and call.args and self._pool_call(call, func, ctx):
            return
        key = dotted(receiver)
        if key is None or (isinstance(receiver, ast.Name) and self.imports.is_import(receiver.id)):
            return
        if attr == "train":
            self._train_call(call, key, scope)
        elif attr in _INPLACE:
            self._inplace_call(call, receiver, ctx)
        # `self.model(x)` calls the attribute `model`; `m.forward(x)` calls `m`: both may be a module's forward.
        scope.model_calls.append((call, ctx.grad, ctx.path))
        scope.call_tests[id(call)] = ctx.tests

    # -- what an expression is -----------------------------------------------------------------------------------

    def _grad_of(self, node: ast.expr, as_decorator: bool = False) -> int:
        """The grad mode a context manager (or decorator) sets."""
        return grad_set_by(node, self.imports, as_decorator)

    @staticmethod
    def _chosen_by_caller(node: ast.expr, scope: Scope) -> bool:
        """``with context():`` where ``context`` is an argument (of this function or one around it), or a variable
        assigned there (``context = torch.no_grad if ... else torch.inference_mode``): chosen elsewhere, unknown
        here, so not reported; also one picked from a table (``with contexts[mode]():``, the table mapping each mode
        to ``torch.no_grad`` or a null context)."""
        if not isinstance(node, ast.Call):
            return False
        func = node.func.value if isinstance(node.func, ast.Subscript) else node.func
        if not isinstance(func, ast.Name):
            return False
        where: Scope | None = scope
        while where is not None:
            if func.id in where.params or func.id in where.assigned:
                return True
            where = where.parent
        return False

    def _expects_raise(self, node: ast.expr) -> bool:
        if not isinstance(node, ast.Call):
            return False
        qualname = self.imports.qualname(node.func) or dotted(node.func) or ""
        return qualname in ("pytest.raises", "self.assertRaises", "self.assertRaisesRegex")

    def _is_allow_grad(self, node: ast.expr) -> bool:
        if not isinstance(node, ast.Call):
            return False
        qualname = self.imports.qualname(node.func)
        return qualname == names.ALLOW_GRAD or (qualname is None and dotted(node.func) == "allow_grad")

    def _parameter_source(self, node: ast.expr, scope: Scope) -> bool:
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

    def _parameter_targets(self, target: ast.expr, iterable: ast.expr, scope: Scope) -> frozenset[str]:
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
    def _is_grad_of_parameter(node: ast.expr, ctx: Ctx) -> bool:
        return (
            isinstance(node, ast.Attribute)
            and node.attr == "grad"
            and isinstance(node.value, ast.Name)
            and node.value.id in ctx.param_vars
        )


def _in_test(scope: Scope | None) -> bool:
    """Whether code is in a test function (``test_*``), or a function nested in one."""
    while scope is not None:
        if is_test_function(scope.name):
            return True
        scope = scope.parent
    return False


def _reads_self_training(node: ast.expr) -> bool:
    return any(
        isinstance(sub, ast.Attribute)
        and sub.attr == "training"
        and isinstance(sub.value, ast.Name)
        and sub.value.id == "self"
        for sub in subnodes(node)
    )


def _chain_has(node: ast.expr, attr: str, check: Callable[[ast.Call], bool]) -> bool:
    """Whether a chain of calls (``m.eval().requires_grad_(False).to(d)``) has a call of ``attr`` passing
    ``check``."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == attr and check(node):
            return True
        node = node.func.value
    return False


def _lightning_freeze(call: ast.Call) -> bool:
    """``m.freeze()`` with no argument: Lightning's ``LightningModule.freeze()`` turns ``requires_grad`` off on every
    parameter (a ``freeze(layers)`` with arguments is some other API, freezing a part)."""
    return not call.args and not call.keywords


def _chain_base(node: ast.expr) -> str | None:
    """The module a chain of calls starts from: ``m`` for ``m.named_parameters()``, ``self.m`` for
    ``self.m.eval().requires_grad_(False)``."""
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        node = node.func.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:  # `list(m.parameters())`
        return _chain_base(node.args[-1])
    return dotted(node)


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
