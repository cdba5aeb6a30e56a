"""The thread rule (GM801): a worker thread started in evaluation code (or under ``no_grad``) that does not enter
``no_grad`` itself: grad mode is thread-local, so the worker runs with gradients on.

Workers are judged once the whole module is walked: a worker may be any function of the module, and a thread
started where the callers' grad mode holds is reported only where every caller turns gradients off.
"""

from __future__ import annotations

import ast
import builtins
from typing import Final

from gradmode_plugin.lint import names
from gradmode_plugin.lint.rules import RULES_BY_CODE
from gradmode_plugin.lint.walk import FREE, OFF, THREAD_POOLS, Ctx, Scope, Walk, argument, dotted, written

_BUILTINS: Final = frozenset(dir(builtins))
#: Methods that wait, hand over, lock or log, and compute nothing with tensors: a worker that calls only these (and
#: libraries on plain data) runs alike in every grad mode (a CUDA stream's ``synchronize()`` before an update).
_NON_COMPUTING_METHODS: Final = frozenset(
    {
        "synchronize", "wait", "wait_stream", "wait_event", "record", "record_event", "query",
        "put", "put_nowait", "get", "get_nowait", "task_done", "join", "set", "clear", "is_set",
        "acquire", "release", "notify", "notify_all", "write", "flush", "close",
        "debug", "info", "warning", "error", "exception",
        # moving or copying a tensor records nothing for one made where gradients were off (the caller's inputs)
        "to", "cpu", "cuda", "clone", "contiguous", "pin_memory", "detach", "numpy", "item", "tolist",
    }
)  # fmt: skip
#: torch's functions that copy or wrap data (a prefetching worker that moves input slices to the device).
_COPIES: Final = frozenset({"torch.clone", "torch.as_tensor", "torch.from_numpy", "torch.tensor"})


#: What torch's packages offer to write a tensor out (``torchaudio.save``, ``torchvision.utils.save_image``,
#: ``torchvision.io.write_png``): a worker that saves outputs made under ``no_grad`` computes nothing with them.
_WRITERS: Final = frozenset({"save", "save_image"})


def _computes_nothing(qualname: str) -> bool:
    """A torch function that writes a tensor out or copies data, computing nothing with it."""
    name = qualname.rpartition(".")[2]
    return name in _WRITERS or name.startswith("write_") or qualname in _COPIES


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
        else:
            function = self._resolve_function(target, scope)
            if function is None or self._enters_no_grad(function):
                return  # a worker we cannot see is given the benefit of the doubt
            if not self._may_run_torch(function):
                return  # only library calls on plain data (numpy, a codec): grad mode changes nothing there
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

    def _may_run_torch(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """Whether a worker may compute with tensors: it calls torch, or a method of something not imported (a
        model, a tensor it is given)."""
        for node in ast.walk(function):
            if not isinstance(node, ast.Call) or self._decorated_no_grad(node.func):
                continue
            qualname = self.imports.qualname(node.func)
            if qualname is not None:
                if qualname.startswith("torch") and not _computes_nothing(qualname):
                    return True
                continue
            root = node.func
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(node.func, ast.Attribute) and isinstance(root, ast.Name):
                if node.func.attr in _NON_COMPUTING_METHODS:
                    continue
                return True
            if isinstance(node.func, ast.Name) and node.func.id not in _BUILTINS:
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
