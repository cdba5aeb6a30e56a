"""The module-mode rules: ``.train()`` in evaluation code (GM201), and a module put in ``eval()`` then run with
gradients on (GM501), in the same function, in a function it is passed to, or in another method of its class.

The walk hands over every ``.eval()``/``.train()`` and records every call that may run a module's forward; all is
decided once the whole module is walked, when the grad mode each function's callers set is known.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Collection
from typing import Final

from gradmode_plugin.lint import names
from gradmode_plugin.lint.calls import Def, eval_returned_at, given_for, passed_to
from gradmode_plugin.lint.freezing import bindings
from gradmode_plugin.lint.grad import INFERENCE_FUNCTIONS, grad_off_when_run, turns_grad_back_on
from gradmode_plugin.lint.loops import is_evaluation_name
from gradmode_plugin.lint.nodes import built_call
from gradmode_plugin.lint.rules import RULES_BY_CODE
from gradmode_plugin.lint.walk import (
    CHOSEN,
    COMPREHENSIONS,
    DETACHING_CALLS,
    DETACHING_METHODS,
    FREE,
    FUNCTIONS,
    LIGHTNING_EVAL_STEPS,
    OFF,
    ClassScope,
    Scope,
    Walk,
    argument,
    dotted,
    is_lightning_evaluation,
    is_true,
    matches,
    written,
)

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
#: Lightning's hooks that run after an evaluation's last batch: a ``.train()`` there changes no evaluated batch
#: (Lightning puts the modules back in the modes they had before the evaluation right after them).
_AFTER_LAST_BATCH: Final = frozenset(
    {
        f"{prefix}{stage}{suffix}"
        for stage in ("validation", "test", "predict")
        for prefix, suffix in (("on_", "_end"), ("on_", "_epoch_end"), ("", "_epoch_end"))
    }
)
#: Lightning's evaluation steps: called by hand on a model (``model.predict_step(batch, i)``), outside a Trainer,
#: they run its forward in the caller's grad mode (Lightning is not there to turn gradients off). ``self.*_step``
#: is a module's own step calling another, run by Lightning.
_STEPS_BY_HAND: Final = frozenset(name for name in LIGHTNING_EVAL_STEPS if name.endswith("_step"))
#: An agent's methods that act in its environment: what a test run of a loaded policy calls.
_ACTING: Final = frozenset({"act", "choose_action", "select_action", "get_action", "take_action"})
#: Words in a function's name that say it trains (a frozen teacher or a perceptual loss may need gradients through
#: a module in ``eval()``).
_TRAINING_WORDS: Final = ("train", "loss", "fit", "backward", "optim", "update")
#: Words holding a training word that name no training: a ``get_fitness`` scores candidates, it fits nothing.
_NOT_TRAINING_WORDS: Final = ("fitness",)
#: What turns a tensor into a plain value (no graph is handed on through it).
_DETACHING: Final = frozenset({"item", "tolist", "numpy", "detach", "float", "int", "bool"})


class ModeRules(Walk):
    """Module modes in evaluation: ``.train()`` where evaluation runs, and ``.eval()`` taken for ``no_grad``."""

    def _mode_statement(self, node: ast.Expr, call: ast.Call, scope: Scope) -> None:
        if isinstance(call.func, ast.Name) and call.func.id == "print" and len(call.args) == 1:
            printed = call.args[0]  # `print(net.eval())`: the module is switched all the same (a notebook's demo)
            if isinstance(printed, ast.Call):
                call = printed
        base, mode = _mode_chain(call)
        if mode is not None and base is not None and not self.imports.is_import(base.partition(".")[0]):
            scope.mode_calls.append(((node.lineno, node.col_offset), base, mode))

    def _mode_assignment(self, node: ast.Assign | ast.AnnAssign, name: str, value: ast.Call, scope: Scope) -> None:
        base, mode = _mode_chain(value)
        loader = _unmoved(value)
        if (
            mode is None
            and self.all_full
            and isinstance(loader.func, ast.Name)
            and loader.func.id in self._eval_returners
        ):
            base, mode = None, "eval"  # `model = load_model().to(device)`, which returns it in `eval()`
        if mode is not None:  # `model = build().to(device).eval()`: the name holds a module in that mode
            position = (node.lineno, node.col_offset)
            scope.mode_calls.append((position, name, mode))
            if base is not None and base != name and not self.imports.is_import(base.partition(".")[0]):
                scope.mode_calls.append((position, base, mode))

    def _mode_attribute_assignment(
        self, node: ast.Assign | ast.AnnAssign, target: ast.Attribute, value: ast.Call, scope: Scope
    ) -> None:
        func = value.func
        if not (
            self.all_full
            and scope.cls is not None
            and isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and (scope.cls.name, func.attr) in self._eval_returning_methods
        ):
            return
        key = dotted(target)
        if key is not None and key.startswith("self."):  # the class's own loader returns the module in `eval()`
            scope.mode_calls.append(((node.lineno, node.col_offset), key, "eval"))

    @functools.cached_property
    def _eval_returning_methods(self) -> frozenset[tuple[str, str]]:
        """(class, method) of the module's methods that put a module in ``eval()`` and return it."""
        return frozenset(
            (cls.name, node.name)
            for cls in self.tree.body
            if isinstance(cls, ast.ClassDef)
            for node in cls.body
            if self._eval_returned_at(node) == -1
        )

    def _eval_returned_at(self, node: ast.stmt) -> int | None:
        """Where a function returns a module it put in ``eval()`` (``eval_returned_at``); only functions whose lines
        name ``.eval`` are looked into."""
        if not isinstance(node, FUNCTIONS) or not self.lines.eval_in_lines(node.lineno, node.end_lineno or node.lineno):
            return None
        return eval_returned_at(node)

    def _mode_unpacked(self, node: ast.Assign, target: ast.Tuple, value: ast.Call, scope: Scope) -> None:
        if not (self.all_full and isinstance(value.func, ast.Name)):
            return
        index = self._eval_tuple_returners.get(value.func.id)
        if index is not None and index < len(target.elts) and isinstance(target.elts[index], ast.Name):
            scope.mode_calls.append(((node.lineno, node.col_offset), target.elts[index].id, "eval"))

    @functools.cached_property
    def _eval_tuple_returners(self) -> dict[str, int]:
        """The module's functions that put a module in ``eval()`` and return it in a tuple, with its index."""
        return {
            node.name: index
            for node in self.tree.body
            if (index := self._eval_returned_at(node)) is not None and index >= 0
        }

    def _train_call(self, call: ast.Call, key: str, scope: Scope) -> None:
        if _mode_set(call) == "train" and scope.eval_name is not None and scope.eval_name not in _AFTER_LAST_BATCH:
            scope.train_calls.append((call, key))

    @functools.cached_property
    def _eval_returners(self) -> frozenset[str]:
        """The module's functions that put a module in ``eval()`` and return it (``load_model()``)."""
        return frozenset(node.name for node in self.tree.body if self._eval_returned_at(node) == -1)

    # -- decisions at a scope's end ------------------------------------------------------------------------------

    def _decide_modes(self, scope: Scope) -> None:
        self._decide_train_calls(scope)
        self._decide_eval_loop(scope)

    def _decide_train_calls(self, scope: Scope) -> None:
        for call, key in scope.train_calls:
            position = (call.lineno, call.col_offset)
            if _only_if_it_was_training(call, key, scope):
                continue  # `if was_training: model.train()`: gives back the mode the function found
            if not _put_in_eval_by_lightning(key, scope) and any(
                mode == "eval" and other == key and at < position for at, other, mode in scope.mode_calls
            ):
                continue  # restores the mode it switched off earlier in the same function
            self.report(
                call,
                "GM201",
                RULES_BY_CODE["GM201"].message(module=key, where=scope.where()),
            )

    def _decide_eval_loop(self, scope: Scope) -> None:
        if scope.lightning or scope.grad_off_statement or scope.decorator_grad != FREE:
            return
        if self._runs_in_callers_mode(scope):
            return
        held = self._held_in_eval(scope)
        if not held and not any(mode == "eval" for _, _, mode in scope.mode_calls):
            return
        if self._forward_needs_grad:
            return
        # once per `eval()` and block: a later `eval()`, or another loop or branch after it, is another pass
        reported: set[tuple[str, tuple[int, int], tuple[int, ...]]] = set()
        modes = sorted([*(((0, 0), key, "eval") for key in held), *scope.mode_calls])
        effective: int | None = None
        imported: int | None = None
        for call, grad, path in sorted(scope.model_calls, key=lambda item: (item[0].lineno, item[0].col_offset)):
            if grad != FREE:
                continue
            position = (call.lineno, call.col_offset)
            if scope.grad_chosen_at is not None and position > scope.grad_chosen_at:
                continue  # after `torch.set_grad_enabled(is_train)`: the mode its caller chose
            passed = self._passed_to_function(call, modes, position) or self._run_by_method(
                call, modes, position, scope.cls
            )
            if passed is not None:
                key, callee, inner = passed
            else:
                key = self._forward_of(call, scope.cls, scope)
            if key is None or self._frozen(key, scope):
                continue
            tests = scope.call_tests.get(id(call), ())
            reaching = [
                m
                for m in modes
                if not _exclusive(scope.mode_paths.get(m[0], ()), path)
                and not any(_contradict(one, two) for one in scope.mode_tests.get(m[0], ()) for two in tests)
            ]
            last = _last_mode(reaching, key, position)
            if last is None or last[1] != "eval" or (key, last[0], path) in reported:
                continue
            if any(
                other == key
                and last[0] < at < position
                and path[: len(where)] == where
                and not any(dotted(sub) == key for sub in ast.walk(value))
                for at, other, where, value in scope.rebound
            ):
                # `model = Net()` (or an onnxruntime session) since the `eval()`, in a block the call is in: not the
                # module put in `eval()`
                continue
            until = min(
                (at for at, other, mode in reaching if other == key and at > last[0] and mode == "train"), default=None
            )
            # a block that computes gradients may differentiate this graph, unless it detaches the output at once (a
            # frozen backbone under a linear probe): then the graph is recorded for nothing
            in_training = _excused(path, last[0], until, scope)
            if (
                not in_training
                and _excused(path, last[0], until, scope, tests=False)
                and self._chosen_by_unseen_caller(scope, last[0])
            ):
                continue  # `run_epoch(model, loader, train)` that nothing here calls: its caller sets the grad mode
            if in_training and not self.output_detached(call, scope.node):
                continue
            if any(_together(scope, last[0], at) for at in self.output_differentiated(call, scope.node)):
                continue  # its graph is differentiated (after the module is trained again: a critic's loss)
            if effective is None:
                effective = self.effective_grad(scope)
                if effective == FREE and self._called_where_grad_is_wanted(scope):
                    effective = CHOSEN
                elif effective == FREE and (
                    self._called_elsewhere_without_grad(scope) or self._grad_off_for_process(scope)
                ):
                    effective = OFF
                elif effective == OFF and self._called_with_grad_by_importers(scope):
                    effective = imported = FREE
            if effective != FREE:
                return
            if self._evaluated_only_without_grad(scope, last[0]) and not self._called_with_grad_by_importers(scope):
                continue
            if passed is None and self._returned(call, path, scope):
                continue
            if self._built_frozen(key, scope) or self._handed_frozen(key, scope, 0):
                continue  # last: it may read the run's other files for the class
            if (
                last[0] == (0, 0)
                and isinstance(scope.node, FUNCTIONS)
                and not any(line in scope.loop_lines for line in path)
                and _hands_back(scope.node, call)
            ):
                continue  # a global model's output handed back: its caller decides (a perceptual loss)
            if passed is None and self._forward_turns_grad_off(call):
                continue  # last too: it may read the run's other files
            reported.add((key, last[0], path))
            line = held[key] if last[0] == (0, 0) else last[0][0]
            if passed is None:
                message = RULES_BY_CODE["GM501"].message(
                    "detached" if in_training else "default", call=written(call.func), module=key, line=line
                )
            else:
                message = RULES_BY_CODE["GM501"].message(
                    "method" if callee.startswith("self.") else "passed",
                    call=written(call.func),
                    module=key,
                    line=line,
                    forward=written(inner.func),
                    callee=callee,
                    forward_line=inner.lineno,
                )
            self.report(call, "GM501", message, scope)
            if imported is not None:
                return  # run with gradients on only by another file's call: its first forward says it, once

    def _evaluated_only_without_grad(self, scope: Scope, at: tuple[int, int]) -> bool:
        """Whether the ``eval()`` at ``at`` sits in a branch a parameter of the function chooses (``if train:
        model.train() else: model.eval()``, one epoch function for both), and every call of the function in its file
        that may take that branch runs under ``no_grad``/``inference_mode``: the calls passing a constant that
        chooses the other branch (``run_epoch(model, loader, True, opt)``) train, and say nothing of it."""
        definition = self._definition(scope)
        if definition is None:
            return False
        flags = (_flag(test, failed) for test, failed in scope.mode_tests.get(at, ()))
        # a flag the function sets itself (`train = train and not args.eval_only`) is not the caller's choice
        wanted = [flag for flag in flags if flag is not None and flag[0] in scope.params - scope.assigned.keys()]
        if not wanted:
            return False
        index = self.index()
        reaching = [
            (caller, grad)
            for caller, grad, call in index.callers(definition)
            if call is None or not any(_chooses_against(given_for(call, definition, n), t) for n, t in wanted)
        ]
        return bool(reaching) and all(
            (grad if grad != FREE else index.effective(caller)) == OFF
            or (grad == FREE and self.run_elsewhere_without_grad(caller))
            for caller, grad in reaching
        )

    def _chosen_by_unseen_caller(self, scope: Scope, at: tuple[int, int]) -> bool:
        """Whether the ``eval()`` at ``at`` sits in a branch a parameter of the function chooses, and no call of the
        function is seen, in its file or the run's other files: whoever calls it with the evaluation's value sets
        the grad mode."""
        definition = self._definition(scope)
        if definition is None or self.index().callers(definition):
            return False
        flags = (_flag(test, failed) for test, failed in scope.mode_tests.get(at, ()))
        if not any(flag is not None and flag[0] in scope.params - scope.assigned.keys() for flag in flags):
            return False
        return self.project is None or not self.project.called_elsewhere(definition.name, self.path)

    def _grad_off_for_process(self, scope: Scope) -> bool:
        """Whether gradients are off for the whole process wherever a function of this file runs, and nothing in the
        file turns them back on: the file's top level turns them off (``torch.set_grad_enabled(False)`` as a
        statement), or a module of the project it imports at its top level does (``Project.imports_grad_off``), or,
        for a method, its class's ``__init__`` does (nothing of an instance runs before it). Asked only where a
        finding would otherwise be reported (it may read the run's other files)."""
        if self._grad_off_in_file:
            return True
        cls = scope.cls
        if cls is None or self._grad_back_on_in_file:
            return False
        init = cls.methods.get("__init__")
        return init is not None and grad_off_when_run(init.body, self.imports, imported=False)

    @functools.cached_property
    def _grad_back_on_in_file(self) -> bool:
        return turns_grad_back_on(self.full_tree(), self.imports)

    @functools.cached_property
    def _grad_off_in_file(self) -> bool:
        tree = self.full_tree()
        if self._grad_back_on_in_file:
            return False
        if grad_off_when_run(tree.body, self.imports, imported=False):
            return True
        project = self.project
        return project is not None and any(
            project.imports_grad_off(self.path, node) for node in names.top_level_imports(tree.body)
        )

    def _forward_turns_grad_off(self, call: ast.Call) -> bool:
        """Whether a forward called with keyword arguments on a module the call cannot name the class of
        (``policy.forward(obs, deterministic=True)``, ``policy(obs, deterministic=True)``) can only be a
        ``forward`` of the project that runs its submodules under its own ``no_grad`` (``Project.
        forwards_without_grad``): an agent's policy acting in its environment returns arrays and records nothing.
        Asked only where a finding would otherwise be reported (it reads the project's files)."""
        func = call.func
        keywords = frozenset(kw.arg for kw in call.keywords if kw.arg is not None)
        return (
            bool(keywords)
            and self.project is not None
            and (isinstance(func, ast.Name) or (isinstance(func, ast.Attribute) and func.attr == "forward"))
            and dotted(func) not in ("self", "self.forward")
            and self.project.forwards_without_grad(keywords)
        )

    def _runs_in_callers_mode(self, scope: Scope) -> bool:
        """Whether a function is a module's ``forward`` (or a module class's ``__call__``): it runs in the grad mode
        of whoever calls the module, so a submodule it puts in ``eval()`` and runs is judged where the module is
        called, never in it (a layer that keeps its own BatchNorm in ``eval()`` is trained through it)."""
        cls = scope.cls
        return (
            cls is not None
            and isinstance(scope.node, FUNCTIONS)
            and cls.methods.get(scope.name) is scope.node
            and (
                (scope.name == "forward" and cls.based)
                or (scope.name == "__call__" and cls.name in self.module_classes)
            )
        )

    def _held_in_eval(self, scope: Scope) -> dict[str, int]:
        """The module-level names that module-level code puts in ``eval()`` (and no code of the file in training)
        which a top-level function reads as globals, setting no mode of theirs itself: name -> the ``eval()`` line.
        A script's ``encoder.eval()`` at the top and ``def evaluate(): encoder(image)`` below."""
        if scope.parent is not self.module or not isinstance(scope.node, FUNCTIONS) or not self.all_full:
            return {}
        name = scope.name.lower()
        if _names_training(name):
            return {}
        module_modes = [
            (at, key, mode) for at, key, mode in self.module.mode_calls if "." not in key and key not in scope.params
        ]
        if not module_modes:
            return {}
        own = {key for _, key, _ in scope.mode_calls}
        return {
            key: at[0]
            for at, key, mode in module_modes
            if mode == "eval" and key not in own and key not in self._trained_anywhere and key not in scope.assigned
        }

    @functools.cached_property
    def _trained_anywhere(self) -> frozenset[str]:
        """Every name some code of the file puts in training mode."""
        return frozenset(key for where in self.scopes for _, key, mode in where.mode_calls if mode == "train")

    def _forward_of(self, call: ast.Call, cls: ClassScope | None = None, scope: Scope | None = None) -> str | None:
        """The module a call runs the forward of: ``m`` for ``m(x)`` and ``m.forward(x)``, and for
        ``m.encode_image(x)`` where this file defines a plain ``encode_image`` (see ``FORWARD_METHODS``) other than
        the calling class's own (a wrapper's ``decode`` calling its wrapped model's), or, where it defines none and
        ``scope`` is given, where ``m`` is built from a class imported from a file of the run whose method of that
        name runs a submodule with gradients on (``model = Model()`` from ``model.RIFE``, then
        ``model.inference(...)``)."""
        func = call.func
        if isinstance(func, ast.Attribute):
            if func.attr == "forward":
                return dotted(func.value)
            if func.attr in _STEPS_BY_HAND and not (isinstance(func.value, ast.Name) and func.value.id == "self"):
                if self.project is not None and self.project.runs_without_grad(func.attr):
                    return None  # every step of that name turns gradients off itself (Chemformer's `test_step`)
                return dotted(func.value)
            if func.attr in FORWARD_METHODS and self.all_full:
                own = cls.name if cls is not None and isinstance(func.value, ast.Attribute) else None
                defined = [d for d in self.index().by_name.get(func.attr, ()) if own is None or d.cls != own]
                if defined and all(d.decorator_grad == FREE for d in defined):
                    return dotted(func.value)
                if not defined and scope is not None and self._imported_method_runs(func, scope):
                    return dotted(func.value)
        return dotted(func)

    def _imported_method_runs(self, func: ast.Attribute, scope: Scope) -> bool:
        """Whether ``name.method`` calls a method that runs a submodule with gradients on, ``name`` being given only
        values built by one class imported by name from a file of the run (``Project.imported_method_runs_with_grad``),
        or that same module moved (``model = model.cuda()``). Reads the run's other files: asked only for methods
        named in ``FORWARD_METHODS``."""
        if self.project is None or not isinstance(func.value, ast.Name):
            return False
        name = func.value.id
        where: Scope | None = scope
        while where is not None and name not in where.assigned:
            where = where.parent
        if where is None:
            return False
        built = {
            value.func.id if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) else None
            for value, _, _ in where.assigned[name]
            if not _moved(value, name)
        }
        if len(built) != 1 or None in built:
            return False
        (cls,) = built
        for node in names.top_level_imports(self.full_tree().body):
            if not isinstance(node, ast.ImportFrom):
                continue
            for alias in node.names:
                if (alias.asname or alias.name) == cls:
                    return self.project.imported_method_runs_with_grad(self.path, node, alias.name, func.attr)
        return False

    def _returned(self, call: ast.Call, path: tuple[int, ...], scope: Scope) -> bool:
        """Whether a function hands one forward's output (not one per batch of a loop) back to its caller, who
        decides whether it is differentiated, and so is judged where it is called: a model's own API (``self.eval()``,
        ``mvn = self(X)``, ..., ``return posterior``) that gradients flow through (an acquisition function optimised
        through a model's posterior); a module's ``forward`` (it runs in its caller's mode), a function only a
        ``forward`` calls and returns (a differentiable ``get_descriptors``), and a module class's method returning
        its submodule's output (a codec's ``encode``: whoever uses the module sets its modes). A framework's steps
        hand theirs to the framework, not to a caller that differentiates (skorch's)."""
        node = scope.node
        if not isinstance(node, FUNCTIONS) or any(line in scope.loop_lines for line in path):
            return False
        if scope.cls is not None and scope.cls.steps_keep_grad:
            return False
        if (
            self._forward_of(call, scope.cls) != "self"
            and not self._judged_where_called(scope)
            and (scope.cls is None or scope.cls.name not in self.module_classes)
        ):
            return False
        if matches(scope.name, INFERENCE_FUNCTIONS):
            return False  # `infer()`, `predict()`: named for inference, whose output no caller differentiates
        if any(isinstance(sub, COMPREHENSIONS) and _contains(sub, call) for sub in ast.walk(node)):
            return False  # one forward per item
        return _hands_back(node, call)

    def _judged_where_called(self, scope: Scope) -> bool:
        """Whether a function's forwards run in the mode its caller chooses (see ``_caller_decides``)."""
        if scope.eval_name is not None:
            return False
        definition = self._definition(scope)
        return definition is not None and self._caller_decides(definition, 0)

    def _caller_decides(self, definition: Def, depth: int) -> bool:
        """Whether whoever calls a function chooses the mode its forwards run in: a module's ``forward`` or a
        class's ``__call__`` (judged where it is called; a ``forward`` of a class on no base is not a module's), or
        a function (not an evaluation step) whose every call in its file is returned by such a function (a
        descriptor's ``forward`` returning ``get_descriptors(...)``). A function nothing in its file calls is judged
        where it is: an inference API (``synthesize``) and a differentiable library function look alike."""
        if definition.cls is not None and (
            definition.name == "__call__" or (definition.name == "forward" and definition.cls in self.module_classes)
        ):
            return True
        name = definition.name
        if depth > 3 or is_lightning_evaluation(name) or matches(name, self.eval_functions):
            return False
        sites = self.index().callers(definition)
        return bool(sites) and all(
            call is not None
            and caller is not None
            and _hands_back(caller.node, call)
            and self._caller_decides(caller, depth + 1)
            for caller, _, call in sites
        )

    def _passed_to_function(
        self, call: ast.Call, modes: list[tuple[tuple[int, int], str, str]], position: tuple[int, int]
    ) -> tuple[str, str, ast.Call] | None:
        """``evaluate(model, loader)`` after ``model.eval()``, where ``evaluate`` (a function of this module) runs
        its parameter's forward without ``no_grad``: (the module passed, the function, the forward there)."""
        if not isinstance(call.func, ast.Name) or not self.all_full:
            return None
        evaluated = [key for arg in call.args if (key := dotted(arg)) is not None and _in_eval(modes, key, position)]
        if not evaluated:
            return None  # nothing in evaluation is handed over: no need to look the function up
        candidates = [node for node in self.tree.body if isinstance(node, FUNCTIONS) and node.name == call.func.id]
        if len(candidates) != 1:
            return None
        node = candidates[0]
        if self._runs_in_own_mode(node):
            return None
        positional = [arg.arg for arg in [*node.args.posonlyargs, *node.args.args]]
        for index, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                return None
            key = dotted(arg)
            if key is None or index >= len(positional) or not _in_eval(modes, key, position):
                continue
            inner = self._runs_forward_of(node, positional[index], call)
            if inner is not None:
                return key, node.name, inner
        return None

    def _run_by_method(
        self,
        call: ast.Call,
        modes: list[tuple[tuple[int, int], str, str]],
        position: tuple[int, int],
        cls: ClassScope | None,
    ) -> tuple[str, str, ast.Call] | None:
        """``self._process_one_batch(x)`` after ``self.model.eval()``, where that method of the class runs
        ``self.model``'s forward without ``no_grad`` (and computes no gradients itself: training calls the same
        helper, then ``backward()``): (the module, the method, the forward there)."""
        func = call.func
        if (
            cls is None
            or not self.all_full
            or not isinstance(func, ast.Attribute)
            or not isinstance(func.value, ast.Name)
            or func.value.id != "self"
            or func.attr not in cls.methods
        ):
            return None
        evaluated = sorted({key for _, key, _ in modes if key.startswith("self.") and _in_eval(modes, key, position)})
        if not evaluated:
            return None
        node = cls.methods[func.attr]
        if self._runs_in_own_mode(node):
            return None
        for key in evaluated:
            inner = self._runs_forward_of(node, key, call, cls.name)
            if inner is not None:
                return key, f"self.{node.name}", inner
        return None

    def _runs_in_own_mode(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether a function sets its grad mode by a decorator, or is a Lightning evaluation step (run under
        ``no_grad``/``inference_mode``): a module handed to it is not run with gradients on there."""
        return any(self._grad_of(d, as_decorator=True) != FREE for d in node.decorator_list) or is_lightning_evaluation(
            node.name
        )

    def _runs_forward_of(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        name: str,
        call: ast.Call | None = None,
        cls: str | None = None,
    ) -> ast.Call | None:
        """The first call of ``name``'s forward in a function outside ``no_grad``, where the function neither
        computes gradients nor sets the module's mode itself. Given the ``call`` that runs it (of a method of
        ``cls``), a branch the call's constant arguments rule out is not walked: ``backprop(..., training=False)``
        and ``_run_one_epoch(epoch, cross_valid=True)`` never reach their ``backward()``."""
        definition = Def(node, cls, None, FREE, FREE) if call is not None else None
        assigned = bindings(node).keys() if call is not None else set()
        found: ast.Call | None = None
        stack: list[tuple[ast.AST, int]] = [(stmt, FREE) for stmt in reversed(node.body)]
        while stack:
            sub, grad = stack.pop()
            if isinstance(sub, (*FUNCTIONS, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(sub, ast.If) and (branch := _branch_in_eval(sub, name)) is not None:
                # `if model.training: model(x) else: with torch.no_grad(): model(x)`: handed a module in eval(),
                # the function takes the other branch
                stack.extend((child, grad) for child in reversed([sub.test, *branch]))
                continue
            if isinstance(sub, ast.If) and definition is not None and call is not None:
                chosen = _branch_chosen(sub, call, definition, assigned)
                if chosen is not None:
                    stack.extend((child, grad) for child in reversed([sub.test, *chosen]))
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
                if found is None and grad == FREE and self._forward_of(sub) == name:
                    found = sub
            children = list(ast.iter_child_nodes(sub))
            stack.extend((child, grad) for child in reversed(children))
        return found

    def _called_where_grad_is_wanted(self, scope: Scope) -> bool:
        """Whether a function of this module calls this one and computes gradients itself (an attack's
        ``_forward_and_gradient`` calling ``_forward``): the forward's graph is what it differentiates."""
        definition = self._definition(scope)
        return definition is not None and any(
            caller is not None and not _mode_switch(call) and self._wants_grad_at(caller, call)
            for caller, _, call in self.index().callers(definition)
        )

    def _called_with_grad_by_importers(self, scope: Scope) -> bool:
        """Whether a function (not one nested in another) that its own file calls only with gradients off is called
        with gradients on by another file of the run that imports its module (a GAN's ``visualize_results``, wrapped
        in ``no_grad`` by its class's training loop and called once more by ``main.py`` after training)."""
        definition = self._definition(scope)
        return (
            self.project is not None
            and definition is not None
            and definition.parent is None
            and self.project.called_with_grad_by_importers(definition.name, self.path, definition.cls is None)
        )

    def _wants_grad_at(self, definition: Def, call: ast.Call | None) -> bool:
        """Whether a function computes gradients after it makes ``call`` (the call's output is differentiated; a
        training step before an evaluation call says nothing of it)."""
        scope = self._scope_of.get(id(definition.node))
        position = (call.lineno, call.col_offset) if call is not None else (0, 0)
        return scope is not None and any(at[0] == 0 or at > position for _, at in scope.grad_paths)

    @functools.cached_property
    def _forward_needs_grad(self) -> bool:
        """Whether a module of this file computes gradients in its own ``forward`` (an energy model that takes
        gradient steps on its output, a network differentiated w.r.t. its inputs): its evaluation must run with
        gradients on, and ``no_grad`` would break it, so GM501 says nothing in the file. A ``forward`` that calls
        ``autograd.grad``, ``backward()`` or ``enable_grad``, or makes a local tensor require grad, counts; one that
        creates a parameter lazily (``self.pos = torch.zeros(..., requires_grad=True)``) does not."""
        return any(
            scope.cls is not None
            and scope.name == "forward"
            and isinstance(scope.node, FUNCTIONS)
            and scope.wants_grad
            and (
                any("." not in key and not self._made_by_factories(key, scope) for key in scope.leaf_tensors)
                or self._computes_gradients(scope.node)
            )
            for scope in self.scopes
        )

    def _computes_gradients(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether a function calls ``autograd.grad``, ``backward()``, ``requires_grad_()`` (not on a tensor a torch
        factory just made) or ``enable_grad``."""
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                qualname = self.imports.qualname(sub.func)
                if (
                    qualname in names.AUTOGRAD_GRAD
                    or qualname in names.AUTOGRAD_BACKWARD
                    or qualname == names.ENABLE_GRAD
                ):
                    return True
                if isinstance(sub.func, ast.Attribute) and (
                    sub.func.attr == "backward"
                    or (sub.func.attr == "requires_grad_" and not self._factory_made(sub.func.value))
                ):
                    return True
        return False

    def _factory_made(self, value: ast.expr) -> bool:
        """``torch.zeros(n, b, h)`` (``.to(device)``...): a new tensor from shapes alone."""
        return isinstance(value, ast.Call) and self.imports.qualname(built_call(value).func) in names.TENSOR_FACTORIES

    def _made_by_factories(self, name: str, scope: Scope) -> bool:
        """Whether every value the function gives ``name`` is a torch factory's new tensor (``h0 =
        torch.zeros(...).requires_grad_()``)."""
        values = scope.assigned.get(name, [])
        return bool(values) and all(self._factory_made(value) for value, _, _ in values)

    def _decide_classes(self) -> None:
        """``self.vocoder.eval()`` in one method (``__init__``), ``self.vocoder(x)`` in another that runs without
        ``no_grad``: the module is in evaluation wherever the class runs it, unless it is put back in training."""
        by_class: dict[int, list[Scope]] = {}
        for scope in self.scopes:
            if (
                scope.cls is not None
                and isinstance(scope.node, FUNCTIONS)
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
            # a class that also trains (a method computes gradients) and puts a module in `eval()` outside
            # `__init__` (`load_model` for a test run) is used in phases: that `eval()` holds for its evaluation
            # methods, not for the helpers its training runs (an agent's `get_v`, `cal_adv`)
            phased = (
                {key for key, (_, where) in keys.items() if where != "__init__"}
                if any(method.wants_grad for method in methods)
                else set()
            )
            for method in methods:
                self._decide_class_method(method, keys, phased)

    def _decide_class_method(self, method: Scope, keys: dict[str, tuple[int, str]], phased: set[str]) -> None:
        name = method.name.lower()
        if (
            self._forward_needs_grad
            or method.lightning
            or method.wants_grad
            or method.decorator_grad != FREE
            or method.grad_off_statement
            or method.name in ("__call__", "__init__")
            or "forward" in name
            or _names_training(name)
        ):
            # training code (a frozen teacher or a perceptual loss may need gradients through it), or a forward
            # pass under another name (a GAN trainer's `gen_forward`), run in the mode its caller sets
            return
        if self._called_where_grad_is_wanted(method):
            return  # also run where gradients are computed on purpose (an attack's forward-and-gradient)
        own = {key for _, key, _ in method.mode_calls}
        reported: set[str] = set()
        for call, grad, path in method.model_calls:
            key = self._forward_of(call, method.cls)
            if grad != FREE or key not in keys or key in own or key in reported:
                continue
            if key in phased and not (is_evaluation_name(method.name, self.eval_functions) or method.name in _ACTING):
                continue
            if (method.cls is not None and key in method.cls.frozen) or self._returned(call, path, method):
                continue
            if self._callers_set_mode(method, key):
                continue  # judged where it is called, after the caller's own `eval()` (`_run_by_method`)
            if self.effective_grad(method) != FREE:
                return
            if self._grad_off_for_process(method) or self._called_elsewhere_without_grad(method):
                return
            if self._forward_turns_grad_off(call):
                continue
            reported.add(key)
            line, where = keys[key]
            self.report(
                call,
                "GM501",
                RULES_BY_CODE["GM501"].message(
                    "class", call=written(call.func), module=key, where=where, line=line, method=method.name
                ),
                method,
            )

    def _handed_frozen(self, key: str, scope: Scope, depth: int) -> bool:
        """Whether a function's parameter ``key`` is given a self-freezing module at every call: the function is
        called only in this file (no other non-test file of the run names it), never passed around, and each call
        passes, at the parameter's place, a name built frozen where it is called, or handed frozen there (three calls
        deep). FID's ``get_activations(files, model)``, reached from ``model = InceptionV3([block_idx])`` through
        ``calculate_activation_statistics(files, model)``."""
        definition = self._definition(scope)
        if (
            depth > 3
            or key not in scope.params
            or definition is None
            or definition.cls is not None
            or self.project is None
        ):
            return False
        sites = self.index().callers(definition)
        if not sites or self.project.called_elsewhere(definition.name, self.path):
            return False  # the run's other files are read last, and only for a function its own file calls
        for caller, _, call in sites:
            given = passed_to(call, definition.node, key, 0) if call is not None else None
            where = self.module if caller is None else self._scope_of.get(id(caller.node))
            if not isinstance(given, ast.Name) or where is None:
                return False
            if not (self._built_frozen(given.id, where) or self._handed_frozen(given.id, where, depth + 1)):
                return False
        return True

    @functools.cached_property
    def _scope_of(self) -> dict[int, Scope]:
        """The walked scope of each function node, by the node's id (a ``Def`` of the call index names the node)."""
        return {id(scope.node): scope for scope in self.scopes}

    def _callers_set_mode(self, method: Scope, key: str) -> bool:
        """Whether a method is called in its file, and only by methods that set ``key``'s mode themselves."""
        definition = self._definition(method)
        if definition is None:
            return False
        sites = self.index().callers(definition)
        return bool(sites) and all(
            caller is not None
            and (scope := self._scope_of.get(id(caller.node))) is not None
            and any(other == key for _, other, _ in scope.mode_calls)
            for caller, _, _ in sites
        )


def _put_in_eval_by_lightning(key: str, scope: Scope) -> bool:
    """Whether Lightning itself put the module named ``key`` in ``eval()`` before the evaluation code of ``scope``
    runs: the module's own ``self`` (and its submodules) in a ``LightningModule``'s step or hook, and a callback
    hook's ``pl_module`` (``trainer.lightning_module``, ``trainer.model``). There, ``m.eval(); ...; m.train()``
    does not restore the mode it found: it leaves training mode on for the rest of the evaluation."""
    if not scope.lightning or scope.cls is None:
        return False
    root = key.partition(".")[0]
    if not scope.cls.callback:
        return root == "self"
    if key.startswith(("trainer.lightning_module", "trainer.model")):
        return True
    node = scope.node
    if not isinstance(node, FUNCTIONS):
        return False
    positional = [*node.args.posonlyargs, *node.args.args]
    # a callback hook's arguments: (self, trainer, pl_module, ...)
    return len(positional) > 2 and root == positional[2].arg


def _mode_set(call: ast.Call) -> str | None:
    """``"eval"`` or ``"train"`` for a call of ``.eval()``/``.train(...)`` with a known mode, else None."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    if func.attr == "eval" and not call.args and not call.keywords:
        return "eval"
    if func.attr == "train":
        mode = argument(call, "mode", 0)
        if mode is None or is_true(mode):
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
        mode = mode or _mode_set(node) or _restored(node)  # the outermost call runs last
        node = node.func.value
    return dotted(node), mode


def _only_if_it_was_training(call: ast.Call, key: str, scope: Scope) -> bool:
    """Whether ``key.train()`` runs only under ``if flag:`` where the function only assigns ``flag = key.training``
    (the mode it found, saved before an ``eval()``): under an evaluation it was not training, so nothing trains."""
    flags = {
        name
        for name, values in scope.assigned.items()
        if values
        and all(
            isinstance(value, ast.Attribute) and value.attr == "training" and dotted(value.value) == key
            for value, _, _ in values
        )
    }
    if not flags:
        return False
    return any(
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and node.test.id in flags
        and any(call in ast.walk(statement) for statement in node.body)
        for node in ast.walk(scope.node)
    )


def _restored(call: ast.Call) -> str | None:
    """``"restore"`` for ``.train(was_training)``: a mode chosen at run time, most often the one saved before an
    ``eval()``; the module is no longer known to be in ``eval()`` after it."""
    if isinstance(call.func, ast.Attribute) and call.func.attr == "train":
        mode = argument(call, "mode", 0)
        if mode is not None and not isinstance(mode, ast.Constant):
            return "restore"
    return None


def _mode_switch(call: ast.Call | None) -> bool:
    """Whether a call is a module's mode switch (``self.model.train()``, ``net.eval()``, ``m.train(False)``), not a
    call of a project method that shares the name (a trainer's own ``train``): no output to differentiate."""
    return (
        call is not None
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in ("train", "eval")
        and len(call.args) + len(call.keywords) <= 1
        and all(keyword.arg == "mode" for keyword in call.keywords)
        and (call.func.attr == "train" or not (call.args or call.keywords))
    )


def _excused(
    path: tuple[int, ...], after: tuple[int, int], until: tuple[int, int] | None, scope: Scope, tests: bool = True
) -> bool:
    """Whether a forward at ``path`` is excused by code that computes gradients on purpose in the same block (or
    one inside the other), after the ``eval()`` at ``after`` and before the ``train()`` at ``until``: a
    ``backward()`` in the ``train`` branch or loop says nothing of the ``valid`` one, nor one before the ``eval()``
    (or after the module is trained again) of the forward in between, nor one under a test that the ``eval()``'s
    branch has failed (``if phase == "train": loss.backward()`` in a loop shared by both phases; ``tests``: False
    to read no tests)."""
    return any(
        (path[: len(wanted)] == wanted or wanted[: len(path)] == path)
        and ((at > after and (until is None or at < until)) or not at[0])
        and (not tests or _together(scope, after, at))
        for wanted, at in scope.grad_paths
    )


def _together(scope: Scope, evaluated: tuple[int, int], differentiated: tuple[int, int]) -> bool:
    """Whether the code that computes gradients ending at ``differentiated`` can run in the same pass as the
    ``eval()`` at ``evaluated``: no test around one contradicts a test around the other."""
    return not any(
        _contradict(test, other)
        for test in scope.mode_tests.get(evaluated, ())
        for other in scope.grad_tests.get(differentiated, ())
    )


def _contradict(first: tuple[ast.expr, bool], second: tuple[ast.expr, bool]) -> bool:
    """Whether two ``if`` tests, each with whether it failed where the code runs, cannot both hold: the same test
    passed at one and failed at the other (``if train:`` and its ``else``, or ``if not train:``), or two
    comparisons of one name with different constants that both passed (``phase == "val"``, ``phase == "train"``).

    >>> def test(source, failed=False):
    ...     return ast.parse(source, mode="eval").body, failed
    >>> _contradict(test("phase == 'train'", True), test("phase == 'train'"))
    True
    >>> _contradict(test("phase == 'val'"), test("phase == 'train'")), _contradict(test("not train"), test("train"))
    (True, True)
    >>> _contradict(test("phase == 'val'"), test("epoch == 'train'")), _contradict(test("a"), test("b", True))
    (False, False)
    """
    (one, failed_one), (two, failed_two) = _truth(*first), _truth(*second)
    if ast.dump(one) == ast.dump(two):
        return failed_one != failed_two
    if failed_one or failed_two:
        return False
    compared = [_compared_to_constant(test) for test in (one, two)]
    return (
        compared[0] is not None
        and compared[1] is not None
        and compared[0][0] == compared[1][0]
        and compared[0][1] != compared[1][1]
    )


def _truth(test: ast.expr, failed: bool) -> tuple[ast.expr, bool]:
    """A test without its ``not``s, and whether it failed where the code runs."""
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, failed = test.operand, not failed
    return test, failed


def _compared_to_constant(test: ast.expr) -> tuple[str, object] | None:
    """``(name, value)`` for ``name == value`` (either way round) with a constant value, else None."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return None
    left, right = test.left, test.comparators[0]
    if isinstance(left, ast.Constant):
        left, right = right, left
    name = dotted(left)
    if name is None or not isinstance(right, ast.Constant):
        return None
    return name, right.value


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


def _exclusive(one: tuple[int, ...], other: tuple[int, ...]) -> bool:
    """Whether two block paths are in different branches of one ``if`` (one runs, never both): a path holds an
    ``if``'s line for its body and minus it for its ``else`` (an ``elif`` is an ``if`` in the ``else``)."""
    return bool(one) and bool(other) and any(-step in other for step in one)


def _in_eval(modes: list[tuple[tuple[int, int], str, str]], key: str, position: tuple[int, int]) -> bool:
    """Whether the last mode ``key`` was put in before ``position`` is ``eval()``."""
    last = _last_mode(modes, key, position)
    return last is not None and last[1] == "eval"


def _names_training(name: str) -> bool:
    """Whether a function's (lower-case) name says it trains (``train_epoch``, ``compute_loss``, ``fit``,
    ``update_policy``), a word such as ``fitness`` aside."""
    for word in _NOT_TRAINING_WORDS:
        name = name.replace(word, "")
    return any(word in name for word in _TRAINING_WORDS)


def _hands_back(node: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call) -> bool:
    """Whether a function returns what a call in it computed, as a tensor: ``return f(x)``, or through names
    (``mvn = self(X)``, ``posterior = Posterior(mvn)``, ``return posterior``), not through ``.item()``."""
    returns = [sub for sub in ast.walk(node) if isinstance(sub, ast.Return) and sub.value is not None]
    if any(_holds(ret.value, call) for ret in returns):
        return True
    derived: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Assign) and _holds(sub.value, call):
            derived.update(t.id for target in sub.targets for t in ast.walk(target) if isinstance(t, ast.Name))
    for _ in range(3):
        for sub in ast.walk(node):
            if isinstance(sub, ast.Assign) and _reads_tensor_of(sub.value, derived):
                derived.update(t.id for target in sub.targets for t in ast.walk(target) if isinstance(t, ast.Name))
    return any(_reads_tensor_of(ret.value, derived) for ret in returns)


def _branch_in_eval(node: ast.If, name: str) -> list[ast.stmt] | None:
    """The statements an ``if <name>.training:`` (or ``if not <name>.training:``) runs when ``name`` is in
    ``eval()``; None for any other test."""
    test, negated = node.test, False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negated = test.operand, True
    if isinstance(test, ast.Attribute) and test.attr == "training" and dotted(test.value) == name:
        return node.body if negated else node.orelse
    return None


def _flag(test: ast.expr, failed: bool) -> tuple[str, tuple[bool, object]] | None:
    """The name an ``if`` tests and what holds of it where the block runs: ``if train:`` gives ``("train", (True,
    True))`` in its body and ``("train", (True, False))`` in its ``else``; ``if not train:`` the reverse;
    ``if partition == "train":`` gives ``("partition", (False, "train"))`` in its ``else`` (it is not ``"train"``)
    and ``("partition", (True, "train"))`` in its body. None for any other test."""
    test, failed = _truth(test, failed)
    if isinstance(test, ast.Name):
        return test.id, (True, not failed)
    compared = _compared_to_constant(test)
    if compared is None or "." in compared[0]:
        return None
    return compared[0], (False, (not failed, compared[1]))


def _branch_chosen(
    test_node: ast.If, call: ast.Call, definition: Def, assigned: Collection[str]
) -> list[ast.stmt] | None:
    """The one branch of an ``if`` on a parameter that a call's constant argument leaves (``if training:`` with
    ``training=False`` given: its ``else``), or None where both may run."""
    for failed, other in ((False, test_node.orelse), (True, test_node.body)):
        flag = _flag(test_node.test, failed)
        if flag is None or flag[0] in assigned:
            return None
        if _chooses_against(given_for(call, definition, flag[0]), flag[1]):
            return other  # the branch needing `failed` cannot run: only the other one can
    return None


def _chooses_against(value: ast.expr | None, holds: tuple[bool, object]) -> bool:
    """Whether a value given for a flag is a constant that makes the branch impossible: ``True`` where the branch
    needs a false flag, ``"train"`` where it needs a value other than ``"train"`` (or another where it needs it)."""
    if not isinstance(value, ast.Constant):
        return False
    truth_test, wanted = holds
    if truth_test:
        return bool(value.value) != wanted
    equal, constant = wanted  # type: ignore[misc]
    return (value.value == constant) != equal


def _contains(node: ast.AST, target: ast.AST) -> bool:
    return any(sub is target for sub in ast.walk(node))


def _holds(node: ast.AST, target: ast.AST) -> bool:
    """Whether an expression holds ``target``'s value as a tensor that can be differentiated: not through a call
    that detaches it (``model(x).detach().cpu().numpy()``, ``.item()``, ``float(...)``)."""
    stack: list[ast.AST] = [node]
    while stack:
        sub = stack.pop()
        if sub is target:
            return True
        if isinstance(sub, ast.Call) and (
            (isinstance(sub.func, ast.Attribute) and sub.func.attr in DETACHING_METHODS)
            or (isinstance(sub.func, ast.Name) and sub.func.id in _CONVERTING)
        ):
            continue
        stack.extend(ast.iter_child_nodes(sub))
    return False


#: The builtins among them that turn a tensor into a Python number (``float(...)``), read where a call is a plain name.
_CONVERTING: Final = frozenset(name for name in DETACHING_CALLS if "." not in name)


def _reads_tensor_of(node: ast.AST, held: set[str]) -> bool:
    """Whether an expression hands on one of ``held`` as a tensor (not through ``.item()``, ``float(...)``)."""
    if not held:
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
        if isinstance(sub, ast.Name) and sub.id in held:
            return True
        stack.extend(ast.iter_child_nodes(sub))
    return False


#: Methods that give back the module they are called on, moved or cast (``model = model.cuda()``).
_MOVING: Final = frozenset({"to", "cuda", "cpu", "float", "half", "double", "bfloat16", "eval"})


def _unmoved(call: ast.Call) -> ast.Call:
    """The call whose module a chain of methods that give it back hands on: ``load_model(cfg)`` for
    ``load_model(cfg).to(device).float()``; ``call`` itself where it is no such chain."""
    while isinstance(call.func, ast.Attribute) and call.func.attr in _MOVING and isinstance(call.func.value, ast.Call):
        call = call.func.value
    return call


def _moved(value: ast.expr, name: str) -> bool:
    """Whether ``value`` is ``name`` itself through methods that give it back (``model.to(device).eval()``)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
        return False
    node: ast.expr = value
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MOVING:
        node = node.func.value
    return isinstance(node, ast.Name) and node.id == name
