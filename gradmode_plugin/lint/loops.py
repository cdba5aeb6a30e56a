"""The evaluation-loop rules, the other half of GM501: an evaluation that turns gradients off but never puts the model
in ``eval()`` (GM502), and a training loop that goes on after an evaluation left the model in ``eval()`` (GM503).

Both are decided once the whole module is walked, on the whole file's tree, and only on evidence the file shows:

- GM502: a function named for evaluation (``evaluate``, ``validate``, ``test``, ``predict*``, ``infer*``, or a
  configured name; not a framework's ``*_step``) runs a module under ``no_grad``/``inference_mode``; nothing in the file
  puts a module of that name in ``eval()`` (or ``train(False)``), the function sets no mode at all, and the file shows
  the module in training mode: it calls ``<name>.train()`` elsewhere, or builds it from a class and never sets its
  mode. A module whose class, defined in the file, has no mode-dependent layer is left alone.
- GM503: a loop that trains (an optimizer's ``step()`` in its body, or a function of the file it calls that trains)
  runs a module, and calls a function of this file (or a method of its class) that puts that module in ``eval()``
  and never back in training, or puts it in ``eval()`` itself; and nothing in the loop puts anything back in
  training (no ``.train(`` call, no call of a function of the file that makes one, no call named for training).
  In a module class's own method (an sklearn-like ``fit``) the module is ``self``: ``self(x)``, or ``model(x)``
  after ``model = self.train()``, and ``self.eval()`` in the method it calls.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from typing import Final

from gradmode_plugin.lint.grad import INFERENCE_FUNCTIONS
from gradmode_plugin.lint.names import class_name, classes_built, last_name
from gradmode_plugin.lint.nodes import built_call, child_nodes, parameters, subnodes
from gradmode_plugin.lint.rules import RULES_BY_CODE
from gradmode_plugin.lint.testcode import is_test_function
from gradmode_plugin.lint.walk import (
    FUNCTIONS,
    OFF,
    Walk,
    argument,
    dotted,
    is_false,
    is_true,
    matches,
)

#: Names of evaluation functions (``fnmatch`` patterns, lower case, leading underscores dropped).
EVALUATION_FUNCTIONS: Final = (
    "evaluate",
    "evaluate_*",
    "*_evaluate",
    "evaluation",
    "eval_model",
    "eval_epoch",
    "run_eval",
    "validate",
    "validate_model",
    "validate_epoch",
    "*_validate",
    "validation",
    "valid",
    "val",
    "test",
    "test_model",
    "run_test",
    *INFERENCE_FUNCTIONS,
)
#: Layers whose output does not depend on the training flag (the ``nn.`` name); a class of the file built only
#: from these (and such classes) is mode-free.
_MODE_FREE_LAYERS: Final = frozenset(
    {
        "Linear", "Bilinear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
        "ReLU", "LeakyReLU", "GELU", "SiLU", "ELU", "Tanh", "Sigmoid", "Softmax", "LogSoftmax", "Softplus", "Mish",
        "Identity", "Flatten", "Unflatten", "Sequential", "ModuleList", "ModuleDict", "Embedding", "LayerNorm",
        "GroupNorm", "RMSNorm", "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
        "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d", "AdaptiveMaxPool2d", "Upsample", "Parameter",
        "PixelShuffle", "ZeroPad2d", "ConstantPad2d",
        # PyTorch Geometric's graph convolutions that hold no dropout (GATConv, GINConv's MLP and others may)
        "GCNConv", "ChebConv", "SAGEConv", "GraphConv",
        # losses (a model that builds its loss in `forward`)
        "CrossEntropyLoss", "NLLLoss", "MSELoss", "L1Loss", "SmoothL1Loss", "HuberLoss", "BCELoss",
        "BCEWithLogitsLoss", "KLDivLoss", "CTCLoss",
    }
)  # fmt: skip
#: Where classes come from that a module may build and that are no layer (``torch.optim.Adam(self.parameters())``).
_NO_LAYERS: Final = ("torch.optim.", "torch.utils.data.")
_MODE_WORDS: Final = re.compile(r"[Dd]ropout|BatchNorm|batch_norm|InstanceNorm|\.training\b|RNN|LSTM|GRU|Drop")
#: A call named for training (``train_one_epoch``, ``run_training``, ``trainEpoch``, ``pretrain``), which may put
#: the model back in training; not ``save_pretrained``/``from_pretrained`` or ``constrain``, which name no training.
_TRAINING_CALL: Final = re.compile(r"(?:^|_)(?:pre)?[tT]rain(?!ed)|(?<=[a-z])Train(?!ed)")
#: Words of a module path that say it holds models (``models.resnet``, ``unet``, ``arch``): a whole word of the
#: path, not a part of one (``beam_search`` names no architecture).
_MODEL_WORDS: Final = frozenset({"network", "networks", "arch", "archs", "architecture", "architectures", "modeling"})


class LoopRules(Walk):
    """Evaluation with gradients off and the model left training (GM502); training resumed in ``eval()``
    (GM503)."""

    def _decide_loops(self) -> None:
        # GM502 needs an evaluation function; GM503 an `eval()` and a loop that trains (most model files have
        # neither: the analysis walks the whole tree again)
        trains = b"backward" in self.source or b".step(" in self.source
        if (self.all_full and trains) or self._may_evaluate_without_eval():
            _LoopAnalysis(self).run()

    def _may_evaluate_without_eval(self) -> bool:
        """Whether the file turns gradients off and defines a function named for evaluation (in the parsed part,
        which holds every definition naming GM502's words)."""
        if not any(word in self.source for word in (b"no_grad", b"inference_mode", b"evaluating")):
            return False
        for node in self.tree.body:
            body = node.body if isinstance(node, ast.ClassDef) else [node]
            if any(isinstance(item, FUNCTIONS) and is_evaluation_name(item.name, self.eval_functions) for item in body):
                return True
        return False


class _LoopAnalysis:
    """One file's evaluation and training loops, on its whole tree."""

    def __init__(self, walk: Walk) -> None:
        self.walk = walk
        self.tree = walk.full_tree()
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {
            node.name: node for node in self.tree.body if isinstance(node, FUNCTIONS)
        }
        every = subnodes(self.tree)  # one walk of the whole tree for what follows
        self.classes: dict[str, ast.ClassDef] = {node.name: node for node in every if isinstance(node, ast.ClassDef)}
        #: name -> lines where a module of that name (last component: `model` for `self.model`) is set to a mode
        self.eval_lines: dict[str, int] = {}
        self.train_lines: dict[str, int] = {}
        self.built: dict[str, tuple[int, str]] = {}  # name -> (line, class) of `name = Class(...)`
        #: whether a call of the file trains (`loss.backward()`, `optimizer.step()`): without one no loop trains
        #: (GM503; a loop trains where it calls one, or calls a function of the file that does), and none is walked
        self.trains = any(isinstance(node, ast.Call) and _trains(node) for node in every)
        for node in every:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                name = last_name(node.func.value)
                if name is None:
                    continue
                if node.func.attr == "eval" and not node.args:
                    self.eval_lines.setdefault(name, node.lineno)
                elif node.func.attr == "train":
                    flag = node.args[0] if node.args else next((k.value for k in node.keywords), None)
                    if flag is None or is_true(flag):
                        self.train_lines.setdefault(name, node.lineno)
                    else:  # train(False), or a mode chosen at run time: the file sets the mode itself
                        self.eval_lines.setdefault(name, node.lineno)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                targets = [name for name in map(last_name, node.targets) if name is not None]
                cls = class_name(node.value.func)
                if cls is not None and self._is_module_class(node.value.func, cls):
                    for name in targets:
                        self.built.setdefault(name, (node.lineno, cls))
        #: name -> the class it is built from, also through a chain (`name = Class(...).to(device)`)
        self.built_from = classes_built(every)

    def _is_module_class(self, func: ast.expr, cls: str) -> bool:
        """A class the file shows to be a module: defined here on a ``*Module`` base, or imported from a module
        whose path names a model or a net (``from unet import UNet``, ``from models.resnet import ResNet``)."""
        node = self.classes.get(cls)
        if node is not None:
            return any((dotted(base) or "").endswith("Module") for base in node.bases)
        qualname = self.walk.imports.qualname(func) or ""
        where = qualname.rpartition(".")[0].lower()
        if where.startswith("torch"):
            return False
        return any(
            word in _MODEL_WORDS or word.endswith(("net", "model", "models")) for word in re.split(r"[._]", where)
        )

    def run(self) -> None:
        for owner, node in self._functions():
            self._evaluation_without_eval(owner, node)
            self._training_resumed_in_eval(owner, node)

    def _functions(self) -> Iterator[tuple[ast.ClassDef | None, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for node in self.tree.body:
            if isinstance(node, FUNCTIONS):
                yield None, node
            elif isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, FUNCTIONS):
                        yield node, item

    # -- GM502 ---------------------------------------------------------------------------------------------------

    def _is_evaluation(self, name: str) -> bool:
        return is_evaluation_name(name, self.walk.eval_functions)

    def _evaluation_without_eval(
        self, owner: ast.ClassDef | None, node: ast.FunctionDef | ast.AsyncFunctionDef
    ) -> None:
        if not self._is_evaluation(node.name) or _sets_a_mode(node):
            return
        decorated = any(self._grad_off(d, True) for d in node.decorator_list)
        for call in _calls_under_no_grad(node, self._grad_off, decorated):
            key = dotted(call.func.value) if _is_forward(call.func) else dotted(call.func)
            if key is None or key.startswith(("torch.", "F.", "np.")):
                continue
            name = key.rpartition(".")[2]
            if name in self.eval_lines or name == "self":
                continue
            if self._rebound_before(node, key, call.lineno):
                continue  # the function gives the name another value first: what the file builds elsewhere is not it
            evidence = self._training_evidence(name)
            if evidence is None:
                continue
            if key.startswith("self.") and owner is not None and owner.name in self.walk.module_classes:
                # a module's own submodule (`self.head` in a policy's `predict_action`) is in the module's mode,
                # which whoever uses it sets (`policy.eval()`, `from_pretrained`)
                continue
            message = RULES_BY_CODE["GM502"].message(call=f"{key}(...)", module=key, function=node.name, why=evidence)
            self.walk.report(call, "GM502", message)
            return  # once per function

    def _rebound_before(self, node: ast.FunctionDef | ast.AsyncFunctionDef, key: str, line: int) -> bool:
        """Whether the function's last assignment of ``key`` before ``line`` gives it a value other than a module the
        file builds (``conv = conv1x1(3, 8)`` before its run, where ``conv = ConvBlock(...)`` comes later)."""
        last: ast.Assign | None = None
        for sub in _own_walk(node):
            if (
                isinstance(sub, ast.Assign)
                and sub.lineno < line
                and any(dotted(target) == key for target in sub.targets)
                and (last is None or sub.lineno > last.lineno)
            ):
                last = sub
        if last is None or not isinstance(last.value, ast.Call):
            return last is not None
        func = built_call(last.value).func
        cls = class_name(func)
        return cls is None or not self._is_module_class(func, cls)

    def _training_evidence(self, name: str) -> str | None:
        """Why a module of this name is in training mode where the evaluation runs it, if the file shows it."""
        if name in self.train_lines:
            return f"`{name}.train()` at line {self.train_lines[name]} puts it in training mode"
        if name in self.built:
            line, cls = self.built[name]
            if self._mode_free(cls, set()):
                return None
            return f"built at line {line} (`{cls}(...)`), a module starts in training mode"
        return None

    def _mode_free(self, cls: str, seen: set[str]) -> bool:
        """Whether a class of this file, or the one class of that name in the run's files, has no layer that depends
        on the training flag (as far as it shows)."""
        node = self.classes.get(cls) or self.walk.class_named(cls)
        if node is None or cls in seen:
            return False
        seen.add(cls)
        if _MODE_WORDS.search(_layer_text(node)) or _runs_what_it_is_given(node):
            return False
        for sub in subnodes(node):
            if isinstance(sub, ast.Call):
                called = class_name(sub.func)
                if called is None or called in _MODE_FREE_LAYERS or called == "super":
                    continue
                if (self.walk.imports.qualname(sub.func) or "").startswith(_NO_LAYERS):
                    continue  # an optimizer or a data loader its `fit` builds computes nothing of the model
                if not self._mode_free(called, seen):
                    return False
        return True

    def _built_mode_free(self, name: str) -> bool:
        """Whether the file builds the module of this name (``model = Net(...)``) from a class with no mode-dependent
        layer."""
        cls = self.built_from.get(name.rpartition(".")[2])
        return cls is not None and self._mode_free(cls, set())

    def _grad_off(self, node: ast.expr, as_decorator: bool = False) -> bool:
        return self.walk._grad_of(node, as_decorator) == OFF or (dotted(_func(node)) or "").endswith("evaluating")

    # -- GM503 ---------------------------------------------------------------------------------------------------

    def _training_resumed_in_eval(
        self, owner: ast.ClassDef | None, node: ast.FunctionDef | ast.AsyncFunctionDef
    ) -> None:
        if self._is_evaluation(node.name):
            return
        if not self.trains:
            return
        reported: set[int] = set()  # a call in nested loops that both train is one finding, on the outer loop
        for loop in _loops(node):
            nodes = [sub for stmt in loop.body for sub in _own_walk(stmt)]
            calls = [sub for sub in nodes if isinstance(sub, ast.Call)]
            helper_runs: set[str] = set()
            if not any(_steps(call) for call in calls):
                # `backward()` with no optimizer step differentiates the inputs (Langevin sampling, an attack on a
                # frozen model), or leaves the step to a helper of the file
                found = self._trained_in_helpers(calls, owner)
                if found is None:
                    continue
                helper_runs = found
            # a module the loop runs only under `no_grad` (an EMA copy sampled now and then) is not trained there
            guarded = {
                id(sub)
                for block in nodes
                if isinstance(block, (ast.With, ast.AsyncWith))
                and any(self._grad_off(item.context_expr) for item in block.items)
                for sub in _own_walk(block)
            }
            # nor one whose output is detached at once (a frozen backbone under a linear probe): kept in `eval()`
            run = {
                key
                for call in calls
                if id(call) not in guarded
                and (key := _forward_key(call)) is not None
                and not self.walk.output_detached(call, node)
            }
            run |= helper_runs | _differentiated_through_methods(nodes)
            if self._own_module(owner) and not run.isdisjoint(_aliases_of_self(node)):
                run.add("self")  # a module's own `fit` runs `self(x)`, or `model(x)` after `model = self.train()`
            if not run or any(self._puts_back(call, owner) for call in calls):
                continue
            for call in calls:
                found = self._leaves_in_eval(call, owner, run, node)
                if found is not None and (
                    self._built_mode_free(found[0]) or (found[0] == "self" and self._mode_free(owner.name, set()))  # type: ignore[union-attr]
                ):
                    continue  # `eval()` changes nothing such a module computes
                if found is not None:
                    if id(call) not in reported:
                        reported.add(id(call))
                        module, line = found
                        message = RULES_BY_CODE["GM503"].message(
                            call=_written_call(call), module=module, line=line, loop=loop.lineno
                        )
                        self.walk.report(call, "GM503", message)
                    break

    def _own_module(self, owner: ast.ClassDef | None) -> bool:
        """Whether ``owner`` is a module class (on a ``*Module`` base), whose methods run and set ``self``'s mode."""
        return owner is not None and any((dotted(base) or "").endswith("Module") for base in owner.bases)

    def _trained_in_helpers(self, calls: list[ast.Call], owner: ast.ClassDef | None) -> set[str] | None:
        """The modules run by the functions of the file the loop calls that train (``self._train_step(batch)``,
        ``train_step(model, batch, optimizer)``: a ``backward()`` or an optimizer's ``step()`` in them), as the
        loop names them; None where no function it calls trains."""
        runs: set[str] | None = None
        for call in calls:
            callee = self._callee(dotted(call.func) or "", owner)
            if callee is None:
                continue
            inner = [sub for sub in subnodes(callee) if isinstance(sub, ast.Call)]  # one walk for both questions
            if not any(_trains(sub) for sub in inner):
                continue
            runs = runs or set()
            params = _params(callee, owner)
            for sub in inner:
                key = _forward_key(sub)
                if key in params:  # `train_step(model, ...)`: the argument passed for it
                    passed = argument(call, key, params.index(key))
                    key = dotted(passed) if passed is not None else None
                if key is not None:
                    runs.add(key)
        return runs

    def _puts_back(self, call: ast.Call, owner: ast.ClassDef | None) -> bool:
        """Whether a call in the loop may put a module back in training: ``.train(...)``, a function of the file
        that calls ``.train(`` (itself or through the file's functions it calls), or, where the function is not
        in the file, a call named for training."""
        name = dotted(call.func) or ""
        if isinstance(call.func, ast.Attribute) and call.func.attr == "train":
            return True
        callee = self._callee(name, owner)
        if callee is not None:  # what it does is in the file: read it rather than its name
            if _sets_a_mode(callee) and _trains_inside(callee):
                return True  # a training step that sets the mode it trains in itself (eval() in a linear probe)
            return self._reaches_train(callee, owner, depth=3)
        return _named_for_training(name)

    def _reaches_train(
        self, function: ast.FunctionDef | ast.AsyncFunctionDef, owner: ast.ClassDef | None, depth: int
    ) -> bool:
        if _calls_train(function):
            return True
        if depth == 0:
            return False
        for sub in subnodes(function):
            if isinstance(sub, ast.Call):
                name = dotted(sub.func) or ""
                callee = self._callee(name, owner)
                if callee is None:
                    if _named_for_training(name):
                        return True  # a training helper from elsewhere, trusted by its name as in the loop
                    continue
                if callee is not function and self._reaches_train(callee, owner, depth - 1):
                    return True
        return False

    def _leaves_in_eval(
        self,
        call: ast.Call,
        owner: ast.ClassDef | None,
        run: set[str],
        loop_function: ast.FunctionDef | ast.AsyncFunctionDef,
    ) -> tuple[str, int] | None:
        """The module a call leaves in ``eval()`` and the line where, if it is one the loop runs: the argument passed
        for the callee's parameter, ``self``'s own module, an attribute of ``self``, or a name of the module's that
        neither the callee nor the function of the loop binds (``model`` of a script's top level)."""
        if isinstance(call.func, ast.Attribute) and call.func.attr == "eval" and not call.args:
            key = dotted(call.func.value)
            return (key, call.lineno) if key in run and (key != "self" or self._own_module(owner)) else None
        callee = self._callee(dotted(call.func) or "", owner)
        if callee is None or _calls_train(callee):
            return None
        params = _params(callee, owner)
        for sub in subnodes(callee):
            if not (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "eval"):
                continue
            if sub.args:
                continue
            inner = dotted(sub.func.value)
            if inner is None:
                continue
            if inner in params:  # `evaluate(model)`: the argument passed for it
                passed = argument(call, inner, params.index(inner))
                key = dotted(passed) if passed is not None else None
            elif inner == "self":
                key = inner if self._own_module(owner) else None  # `self.eval()` in the module's own method
            elif inner.startswith("self."):
                key = inner
            else:
                key = inner if self._same_global(inner, callee, loop_function) else None
            if key in run:
                return key, sub.lineno
        return None

    @staticmethod
    def _same_global(name: str, *functions: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether a plain name is one object of the module's in these functions: none of them binds it (a
        parameter, an assignment, a loop or ``with`` target, an import, a ``global`` it may rebind)."""
        return "." not in name and not any(name in _bound_names(function) for function in functions)

    def _callee(self, name: str, owner: ast.ClassDef | None) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        if name.startswith("self.") and name.count(".") == 1 and owner is not None:
            return next((m for m in owner.body if isinstance(m, FUNCTIONS) and m.name == name[5:]), None)
        return self.functions.get(name)


# -- helpers ---------------------------------------------------------------------------------------------------------


def is_evaluation_name(name: str, configured: tuple[str, ...] = ()) -> bool:
    """Whether a function of this name evaluates (GM502): not a framework's step, whose framework sets the modes,
    nor a test."""
    plain = name.lstrip("_").lower()
    if plain.endswith("_step") or is_test_function(name):
        return False
    return matches(plain, EVALUATION_FUNCTIONS) or matches(name, configured)


def _bound_names(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The names a function binds itself: its parameters, and what it assigns, imports or declares ``global`` (a
    ``global`` name is the module's, but the function may rebind it)."""
    bound = set(parameters(function))
    for node in _own_walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.Global):
            bound.update(node.names)
    return bound


def _func(node: ast.expr) -> ast.expr:
    return node.func if isinstance(node, ast.Call) else node


def _is_forward(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == "forward"


def _forward_key(call: ast.Call) -> str | None:
    func = call.func
    return dotted(func.value) if isinstance(func, ast.Attribute) and func.attr == "forward" else dotted(func)


def _differentiated_through_methods(nodes: list[ast.AST]) -> set[str]:
    """The modules a loop (its body's ``nodes``) trains through a method of theirs: ``loss = model.p_losses(x)`` and
    then ``loss.backward()`` (a diffusion model's loss, a VAE's ``loss_function``). Not ``self``:
    ``self.compute_loss(b)`` is a trainer's own helper, and its ``self.eval()`` may be its own evaluation method."""
    computed: dict[str, str] = {}
    differentiated: set[str] = set()
    for sub in nodes:
        if (
            isinstance(sub, ast.Assign)
            and len(sub.targets) == 1
            and isinstance(sub.targets[0], ast.Name)
            and isinstance(sub.value, ast.Call)
            and isinstance(sub.value.func, ast.Attribute)
            and (key := dotted(sub.value.func.value)) not in (None, "self")
        ):
            computed[sub.targets[0].id] = key
        elif (
            isinstance(sub, ast.Call)
            and isinstance(sub.func, ast.Attribute)
            and sub.func.attr == "backward"
            and isinstance(sub.func.value, ast.Name)
        ):
            differentiated.add(sub.func.value.id)
    return {computed[name] for name in differentiated if name in computed}


def _aliases_of_self(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """``self`` and the names a method binds to it (``model = self.train()``, ``model = self``)."""
    names = {"self"}
    for sub in subnodes(function):
        if isinstance(sub, ast.Assign) and len(sub.targets) == 1 and isinstance(sub.targets[0], ast.Name):
            value = sub.value
            if (
                isinstance(value, ast.Call)
                and isinstance(value.func, ast.Attribute)
                and value.func.attr == "train"
                and (not value.args or is_true(value.args[0]))
            ):
                value = value.func.value
            if isinstance(value, ast.Name) and value.id == "self":
                names.add(sub.targets[0].id)
    return names


def _written_call(call: ast.Call) -> str:
    return f"{ast.unparse(call.func)}(...)"


def _sets_a_mode(node: ast.AST) -> bool:
    return any(
        isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr in ("eval", "train")
        for sub in subnodes(node)
    )


def _trains_inside(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether a function trains: a ``backward()`` or an optimizer's ``step()`` in it."""
    return any(isinstance(sub, ast.Call) and _trains(sub) for sub in subnodes(function))


def _named_for_training(name: str) -> bool:
    """A call whose name says it trains (``train_one_epoch``, ``utils.set_training_mode``), not an event announcing
    training (``callbacks.on_train_end``, ``on_train_batch_start``), whose hooks log and stop rather than train."""
    last = name.rpartition(".")[2]
    return not last.startswith("on_") and bool(_TRAINING_CALL.search(last))


def _params(function: ast.FunctionDef | ast.AsyncFunctionDef, owner: ast.ClassDef | None) -> list[str]:
    """A function's positional parameters, less a method's ``self``."""
    params = [a.arg for a in function.args.args]
    if params and params[0] == "self" and owner is not None:
        params = params[1:]
    return params


def _calls_train(node: ast.AST) -> bool:
    return any(
        isinstance(sub, ast.Call)
        and isinstance(sub.func, ast.Attribute)
        and sub.func.attr == "train"
        and not (sub.args and is_false(sub.args[0]))
        for sub in subnodes(node)
    )


def _steps(call: ast.Call) -> bool:
    """``optimizer.step()``, ``scaler.step(optimizer)``: the call that changes the parameters."""
    return isinstance(call.func, ast.Attribute) and call.func.attr == "step" and "opt" in ast.unparse(call).lower()


def _trains(call: ast.Call) -> bool:
    """``loss.backward()``, ``optimizer.step()``, ``scaler.step(optimizer)``, ``accelerator.backward(loss)``."""
    if not isinstance(call.func, ast.Attribute):
        return False
    return call.func.attr in ("backward", "manual_backward") or _steps(call)


_NESTED: Final = (*FUNCTIONS, ast.ClassDef)


def _own_walk(node: ast.AST) -> Iterator[ast.AST]:
    """Every node under ``node``, less nested functions and classes."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack += [child for child in child_nodes(current) if not isinstance(child, _NESTED)]


def _loops(node: ast.AST) -> Iterator[ast.For | ast.AsyncFor | ast.While]:
    """The loops of a function, each before the loops inside it (an epoch loop, then its step loop: either may run
    training and evaluation in turn)."""
    for sub in _own_walk(node):
        if isinstance(sub, (ast.For, ast.AsyncFor, ast.While)):
            yield sub


def _calls_under_no_grad(node: ast.AST, grad_off: Callable[[ast.expr], bool], decorated: bool) -> Iterator[ast.Call]:
    """The calls of a function that run with gradients off by its own ``with`` blocks or decorator."""

    def visit(current: ast.AST, off: bool) -> Iterator[ast.Call]:
        for child in ast.iter_child_nodes(current):
            if isinstance(child, (*FUNCTIONS, ast.ClassDef, ast.Lambda)):
                continue
            inner = off
            if isinstance(child, (ast.With, ast.AsyncWith)):
                inner = off or any(grad_off(item.context_expr) for item in child.items)
            if inner and isinstance(child, ast.Call):
                yield child
            yield from visit(child, inner)

    yield from visit(node, decorated)


def _layer_text(node: ast.ClassDef) -> str:
    """A class's bases and body as source, less its own name where the class names itself (``class RNN`` over
    ``nn.Linear`` layers, ``super(RNN, self)``): a mode word in its name is not a layer."""
    text = "\n".join(ast.unparse(part) for part in (*node.bases, *node.body))
    return re.sub(rf"(?<![\w.]){re.escape(node.name)}\b", "", text)


def _runs_what_it_is_given(node: ast.ClassDef) -> bool:
    """Whether a class stores an argument of its ``__init__`` on ``self`` and calls it (``self.encoder = encoder``,
    then ``self.encoder(x)``): a module handed in, whose layers the class does not show."""
    init = next((stmt for stmt in node.body if isinstance(stmt, FUNCTIONS) and stmt.name == "__init__"), None)
    if init is None:
        return False
    arguments = {arg.arg for arg in (*init.args.posonlyargs, *init.args.args[1:], *init.args.kwonlyargs)}
    stored = {
        target.attr
        for stmt in ast.walk(init)
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Name) and stmt.value.id in arguments
        for target in stmt.targets
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self"
    }
    return any(
        isinstance(sub, ast.Call)
        and isinstance(sub.func, ast.Attribute)
        and isinstance(sub.func.value, ast.Name)
        and sub.func.value.id == "self"
        and sub.func.attr in stored
        for sub in ast.walk(node)
    )
