"""The thread rule (GM801): a worker thread started in evaluation code (or under ``no_grad``) that does not enter
``no_grad`` itself: grad mode is thread-local, so the worker runs with gradients on.

A graph needs a tensor that requires grad: in evaluation that is a module's parameters, as the inputs were made
where gradients were off. So a worker is reported only where it shows it runs a module: it calls something named
as one (``model``, ``self.net``, ``encoder``, ``*_model``...), a ``forward``, ``self`` inside a class, or a function
of the file that does. A worker that formats, writes or decodes what it is handed computes nothing that records.

Workers are judged once the whole module is walked: a worker may be any function of the module, and a thread
started where the callers' grad mode holds is reported only where every caller turns gradients off.
"""

from __future__ import annotations

import ast
from typing import Final

from gradmode_plugin.lint import names
from gradmode_plugin.lint.rules import RULES_BY_CODE
from gradmode_plugin.lint.walk import FREE, OFF, THREAD_POOLS, Ctx, Scope, Walk, argument, dotted, written

#: Methods that wait, hand over, move or copy, and compute nothing: ``model.to(device)`` in a worker runs no forward.
_NON_COMPUTING_METHODS: Final = frozenset(
    {
        "synchronize", "wait", "wait_stream", "wait_event", "record", "record_event", "query",
        "put", "put_nowait", "get", "get_nowait", "task_done", "join", "set", "clear", "is_set",
        "acquire", "release", "notify", "notify_all", "write", "flush", "close",
        "to", "cpu", "cuda", "eval", "train", "parameters", "named_parameters", "state_dict", "load_state_dict",
    }
)  # fmt: skip
#: How deep a worker's calls of the file's own functions are followed, looking for a module run.
_DEPTH: Final = 2


class ThreadRules(Walk):
    """Threads started where gradients are off, whose worker runs with them on."""

    def _thread_call(self, call: ast.Call, ctx: Ctx) -> None:
        worker = next((kw.value for kw in call.keywords if kw.arg == "target"), None)
        if worker is not None:
            self._thread(call, worker, "`threading.Thread`", ctx)

    def _pool_call(self, call: ast.Call, func: ast.Attribute, ctx: Ctx) -> bool:
        if not self._is_pool_expr(func.value, ctx):
            return False
        self._thread(call, call.args[0], f"`{written(func.value)}.{func.attr}`", ctx)
        return True

    def _thread(self, call: ast.Call, worker: ast.expr, starter: str, ctx: Ctx) -> None:
        ctx.scope.threads.append((call, worker, starter, ctx.grad))

    def _is_pool_expr(self, receiver: ast.expr, ctx: Ctx) -> bool:
        """A thread pool: a local name or ``self.x`` bound to one, or one made inline
        (``ThreadPoolExecutor(4).map(...)``)."""
        if isinstance(receiver, ast.Call):
            return self.imports.qualname(receiver.func) in THREAD_POOLS
        key = dotted(receiver)
        if key is None:
            return False
        where: Scope | None = ctx.scope
        while where is not None:
            if key in where.pools:
                return True
            where = where.parent
        return (ctx.cls is not None and key in ctx.cls.pools) or (
            ctx.scope.cls is not None and key in ctx.scope.cls.pools
        )

    # -- decisions at a scope's end ------------------------------------------------------------------------------

    def _decide_threads(self, scope: Scope) -> None:
        for call, worker, starter, grad in scope.threads:
            if scope.eval_name is not None or grad == OFF or scope.grad_off_statement:
                self._decide_thread(call, worker, starter, scope, False)
            elif grad == FREE:  # started where the callers' grad mode holds: known once the worker is judged
                self._decide_thread(call, worker, starter, scope, True)

    def _decide_thread(
        self, call: ast.Call, worker: ast.expr, starter: str, scope: Scope, if_callers_off: bool
    ) -> None:
        target = worker
        if isinstance(target, ast.Call) and self.imports.qualname(target.func) == names.PARTIAL and target.args:
            target = target.args[0]
        if isinstance(target, ast.Call) and self._grad_of(target.func) == OFF:
            return  # torch.no_grad()(fn)
        if isinstance(target, ast.Lambda):
            body = target.body
            inner = self._resolve_function(body.func, scope) if isinstance(body, ast.Call) else None
            if inner is not None and self._enters_no_grad(inner):
                return
            if not self._runs_a_module(target, scope, _DEPTH):
                return
        else:
            function = self._resolve_function(target, scope)
            if function is None or self._enters_no_grad(function):
                return  # a worker we cannot see is given the benefit of the doubt
            if not self._runs_a_module(function, scope, _DEPTH):
                return  # it formats, writes or moves what it is handed: nothing it computes records a graph
        if if_callers_off and self.effective_grad(scope) != OFF:
            return
        where = scope.where() if scope.eval_name is not None else f"`{scope.name}` (under `no_grad`)"
        self.report(
            call,
            "GM801",
            RULES_BY_CODE["GM801"].message(starter=starter, worker=written(worker), where=where),
            scope,
        )

    def _resolve_function(self, node: ast.expr, scope: Scope) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        if isinstance(node, ast.Name):
            where: Scope | None = scope
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

    def _runs_a_module(
        self, function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, scope: Scope, depth: int
    ) -> bool:
        """Whether a worker shows it runs a module with gradients on: a call of something named as a module (or of
        its methods), of a ``forward``, of ``self`` in a class, or of a function of the file that does so (up to
        ``depth`` calls deep), none of them decorated ``no_grad``."""
        for node in ast.walk(function):
            if not isinstance(node, ast.Call) or self._decorated_no_grad(node.func):
                continue
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _NON_COMPUTING_METHODS:
                continue
            if self.imports.qualname(func) is not None:
                continue  # a library's function: its inputs were made where gradients were off
            if isinstance(func, ast.Attribute) and func.attr == "forward":
                return True
            if isinstance(func, ast.Name) and func.id == "self" and scope.cls is not None:
                return True
            key = dotted(func)
            if key is not None and names.names_a_module(key):
                return True
            if depth > 1:
                inner = self._resolve_function(func, scope)
                if (
                    inner is not None
                    and inner is not function
                    and not self._enters_no_grad(inner)
                    and self._runs_a_module(inner, scope, depth - 1)
                ):
                    return True
        return False

    def _decorated_no_grad(self, func: ast.expr) -> bool:
        """Whether a call runs a function of this file (``f(...)``, ``self.f(...)``) every definition of which is
        decorated with ``no_grad``/``inference_mode``: the worker's torch work in it is gradient-free."""
        if isinstance(func, ast.Name):
            name = func.id
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            name = func.attr
        else:
            return False
        definitions = self.index().by_name.get(name, ())
        return bool(definitions) and all(d.decorator_grad == OFF for d in definitions)

    def _enters_no_grad(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        if any(self._grad_of(decorator, as_decorator=True) == OFF for decorator in function.decorator_list):
            return True
        for node in ast.walk(function):
            if isinstance(node, (ast.With, ast.AsyncWith)):
                if any(self._grad_of(item.context_expr) == OFF for item in node.items):
                    return True
            elif isinstance(node, ast.Call) and self.imports.qualname(node.func) == names.SET_GRAD_ENABLED:
                mode = argument(node, "mode", 0)
                if isinstance(mode, ast.Constant) and mode.value is False:
                    return True
        return False
