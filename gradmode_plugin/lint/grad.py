"""The grad-mode rules: gradients turned on in evaluation code by a ``with`` (GM301) or a decorator (GM302), a
``backward()`` there (GM303), ``torch.set_grad_enabled(...)`` as a statement, which leaks out of its function
(GM401), and ``torch.no_grad()`` as a statement, which changes nothing (GM402)."""

from __future__ import annotations

import ast
import os
from typing import Final

from gradmode_plugin.lint import names
from gradmode_plugin.lint.calls import Def
from gradmode_plugin.lint.nodes import is_main_guard, own_nodes, subnodes
from gradmode_plugin.lint.rules import RULES_BY_CODE
from gradmode_plugin.lint.walk import (
    FREE,
    FUNCTIONS,
    LIGHTNING_EVAL_STEPS,
    OFF,
    ON,
    Ctx,
    Scope,
    Walk,
    is_false,
    is_true,
    matches,
    written,
)

#: Names of functions that run inference: ``@torch.enable_grad()`` on one of them is GM302 whatever
#: ``eval-functions`` says (a saliency or attack function is free to turn gradients on; a `predict` is not).
INFERENCE_FUNCTIONS: Final = ("predict", "predict_*", "inference", "inference_*", "*_inference", "infer", "infer_*")
_CONTEXT_METHODS: Final = frozenset({"__enter__", "__exit__", "__aenter__", "__aexit__"})


class GradRules(Walk):
    """Grad mode in evaluation code: turned on there, ``backward()`` there, and set past the end of a function."""

    def _enable_grad_decorator(self, node: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        if scope.eval_name is None and not matches(node.name, INFERENCE_FUNCTIONS):
            return
        decorator = next(d for d in node.decorator_list if self._grad_of(d, as_decorator=True) == ON)
        what = "evaluation, which Lightning and `evaluating()` run" if scope.eval_name is not None else "inference, run"
        self.report(
            decorator,
            "GM302",
            RULES_BY_CODE["GM302"].message(decorator=written(decorator), where=scope.where(), what=what),
        )

    def _enable_grad_block(self, context: ast.expr, scope: Scope) -> None:
        self.report(
            context,
            "GM301",
            RULES_BY_CODE["GM301"].message(context=written(context), where=scope.where()),
        )

    def _backward(self, call: ast.Call, ctx: Ctx) -> None:
        scope = ctx.scope
        self._wants_grad(ctx, call)
        if scope.eval_name is not None and not ctx.allow:
            self.report(
                call,
                "GM303",
                RULES_BY_CODE["GM303"].message(call=written(call.func), where=scope.where()),
            )

    # -- decisions at a scope's end ------------------------------------------------------------------------------

    def _decide_grad(self, scope: Scope) -> None:
        for call in scope.inert_grad_calls:
            self.report(call, "GM402", RULES_BY_CODE["GM402"].message(call=written(call)))
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
                        RULES_BY_CODE["GM401"].message("import", call=written(call)),
                    )
            return  # a script's top-level switch
        definition = self._definition(scope)
        if definition is not None and definition.parent is None and self.index().only_from_main(definition):
            return  # a script's `main()`: the mode it sets ends with the program
        modes = {bool(call.args[0].value) for call in statements if isinstance(call.args[0], ast.Constant)}
        if _lightning_runs_step_so(scope, modes):
            return  # the mode Lightning runs the step in already: nothing changes
        if modes == {False} and definition is not None and self._mode_set_again_by_every_caller(definition):
            return  # each caller's loop sets the mode again at every step: the leak ends at the next one
        if definition is not None and self._gives_gradients_back(definition, statements):
            return  # off, then on again before it returns: only a caller running without gradients would notice
        for call in statements:
            self.report(
                call,
                "GM401",
                RULES_BY_CODE["GM401"].message(call=written(call), function=scope.name),
            )

    def _mode_set_again_by_every_caller(self, definition: Def) -> bool:
        """Whether every call of a function in the file is inside a loop whose body sets the grad mode by a statement
        at every step (``torch.set_grad_enabled(True)`` before each training step), or at the file's top level
        (where the mode it leaves ends with the script, as for ``main()``): an evaluation
        that leaves gradients off between two training steps (a competition template's ``run_eval``)."""
        sites = self.index().callers(definition)
        return bool(sites) and all(
            call is not None and (caller is None or self._loop_sets_grad_mode(caller.node, call))
            for caller, _, call in sites
        )

    def _gives_gradients_back(self, definition: Def, statements: list[ast.Call]) -> bool:
        """Whether a function gives its callers back the mode they all run in: its first grad statement sets one
        mode and its last, at its body's top level with no ``return`` or ``yield`` between, sets the other; every
        call of it in the file runs in that other mode (gradients on for a function that turns them off and back on,
        off, under ``no_grad`` or in a caller run so, for one that turns them on and back off), outside any ``try``
        (an exception in between would leave the first mode in a handler), and no other file of the run calls it in
        the first mode (a handler in another file is not looked for); not where no file of the run calls it."""
        ordered = sorted(statements, key=lambda call: (call.lineno, call.col_offset))
        first, last = ordered[0], ordered[-1]
        if is_false(first.args[0]) and is_true(last.args[0]):
            callers_mode = FREE
        elif is_true(first.args[0]) and is_false(last.args[0]):
            callers_mode = OFF
        else:
            return False
        function = definition.node
        where = (last.lineno, last.col_offset)  # the walk's tree and the index's may be two parses of one source
        if not any(
            isinstance(stmt, ast.Expr) and (stmt.value.lineno, stmt.value.col_offset) == where for stmt in function.body
        ):
            return False  # set back only on some paths
        if any(
            isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)) and first.lineno <= node.lineno <= last.lineno
            for node in own_nodes(function)
        ):
            return False  # a way out in the first mode
        index = self.index()
        sites = index.callers(definition)
        project = self.project
        if not sites and not (project is not None and project.called_elsewhere(definition.name, self.path)):
            return False  # nothing shows who calls it: a hook a framework may call in either mode
        for caller, grad, call in sites:
            if call is None:
                return False  # passed around: where it runs is not known
            if callers_mode == FREE and (grad != FREE or index.effective(caller) != FREE):
                return False  # called with gradients off: on again would leak into the caller
            if callers_mode == OFF and OFF not in (grad, index.effective(caller)):
                return False  # called with gradients on: off again would leak into the caller
            body = self.full_tree().body if caller is None else caller.node.body
            if any(call in subnodes(stmt) for node in body for stmt in _try_bodies(node)):
                return False
        if project is None:
            return True
        name, function_only = definition.name, definition.cls is None
        if callers_mode == FREE:
            return not project.called_without_grad_elsewhere(name, self.path, function_only)
        return not project.called_with_grad_elsewhere(name, self.path, function_only)

    def _loop_sets_grad_mode(self, function: ast.FunctionDef | ast.AsyncFunctionDef, call: ast.Call) -> bool:
        for loop in own_nodes(function):
            if not isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) or call not in subnodes(loop):
                continue
            for node in (node for stmt in loop.body for node in subnodes(stmt)):
                statement = _set_grad_statement(node, self.imports) if isinstance(node, ast.Expr) else None
                if statement is not None:
                    return True
        return False

    def _library_module(self) -> bool:
        """Whether a module is imported rather than run: a module of a package (an ``__init__.py`` beside it) whose
        top level only imports, defines and assigns (no call other than setting grad mode, no loop, no ``__main__``
        block)."""
        folder = os.path.dirname(self.path) or "."
        if os.path.basename(self.path) == "__main__.py" or not os.path.isfile(os.path.join(folder, "__init__.py")):
            return False
        tree = self.tree if self.whole else ast.parse(self.source, filename=self.path)
        for stmt in tree.body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom, *FUNCTIONS, ast.ClassDef, ast.Assign, ast.AnnAssign)):
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


def grad_off_when_run(body: list[ast.stmt], imports: names.ImportTable, imported: bool) -> bool:
    """Whether running these statements (a module's top level, or a method's body) turns gradients off for the
    whole process: ``torch.set_grad_enabled(False)`` as a statement among them, in their ``if``/``try``/``with``
    blocks too, but not in a function or class they define, nor, for a module ``imported``, in its ``__main__``
    block."""
    for stmt in body:
        if isinstance(stmt, ast.Expr):
            call = _set_grad_statement(stmt, imports)
            if call is not None and call.args and is_false(call.args[0]):
                return True
        elif isinstance(stmt, ast.If):
            if imported and is_main_guard(stmt.test):
                continue
            if grad_off_when_run(stmt.body, imports, imported) or grad_off_when_run(stmt.orelse, imports, imported):
                return True
        elif isinstance(stmt, ast.Try):
            blocks = (stmt.body, *(handler.body for handler in stmt.handlers), stmt.orelse, stmt.finalbody)
            if any(grad_off_when_run(block, imports, imported) for block in blocks):
                return True
        elif isinstance(stmt, (ast.With, ast.AsyncWith)) and grad_off_when_run(stmt.body, imports, imported):
            return True
    return False


def turns_grad_back_on(tree: ast.Module, imports: names.ImportTable) -> bool:
    """Whether a module may turn gradients on for the process: ``torch.set_grad_enabled(...)`` as a statement
    anywhere in it with anything but ``False`` (a ``with`` restores the mode it found, and counts for nothing)."""
    for stmt in ast.walk(tree):
        call = _set_grad_statement(stmt, imports) if isinstance(stmt, ast.Expr) else None
        if call is not None and not (call.args and is_false(call.args[0])):
            return True
    return False


def _try_bodies(node: ast.stmt) -> list[ast.stmt]:
    """The statements in the body of each ``try`` with a handler at or under ``node`` (not in a function it
    defines)."""
    found: list[ast.stmt] = []
    for inner in subnodes(node):
        if isinstance(inner, ast.Try) and inner.handlers:
            found += inner.body
    return found


def _set_grad_statement(stmt: ast.Expr, imports: names.ImportTable) -> ast.Call | None:
    """The ``torch.set_grad_enabled(...)`` call a statement is, else None."""
    call = stmt.value
    if isinstance(call, ast.Call) and imports.qualname(call.func) == names.SET_GRAD_ENABLED:
        return call
    return None


def _lightning_runs_step_so(scope: Scope, modes: set[bool]) -> bool:
    """Whether every mode a step's statements set is the one Lightning runs that step in: gradients off in an
    evaluation step (its evaluation loop's context puts the mode back after the last batch), on in a
    ``training_step`` of a class on a base."""
    if scope.lightning and scope.name in LIGHTNING_EVAL_STEPS:
        return modes == {False}
    return scope.name == "training_step" and scope.cls is not None and scope.cls.based and modes == {True}
