"""``graph_built``: autograd recorded history during evaluation, in any thread.

Two probes: the saved-tensor hook of the evaluating thread (a graph that costs memory, with the bytes it keeps)
and the module calls of the watched model (``probes.ForwardProbe``: outputs with a ``grad_fn``, whichever thread
ran the module; installed while another thread is alive or once one starts). A worker thread that runs the model
with grad mode on (threads start with it on) builds graphs under ``no_grad``; under inference mode it fails inside
PyTorch instead ("Inference tensors cannot be saved for backward") and dies where the evaluating thread may never
hear of it: that failure is reported here too.
"""

from __future__ import annotations

import threading

import torch

from gradmode_plugin.blame import grad_decorator, grad_with_block, where_raised
from gradmode_plugin.checks.base import Check
from gradmode_plugin.modes import INFERENCE_WAYS_OUT, is_inference_error

#: One fix per cause, when the cause is known.
BLOCK_FIX = (
    "remove that with block from evaluation code; for gradients evaluation needs on purpose (saliency, physics "
    "losses), write `with gradmode_plugin.allow_grad('reason'):` instead"
)
DECORATOR_FIX = (
    "remove that decorator: it turns grad mode on for everything the function calls; for gradients evaluation needs "
    "on purpose, write `with gradmode_plugin.allow_grad('reason'):` inside it instead"
)
TRANSFORM_FIX = (
    "for gradients evaluation needs on purpose (Jacobians, physics losses, saliency), call the transform inside "
    "`with gradmode_plugin.allow_grad('reason'):`; otherwise take it out of evaluation code"
)
THREAD_HINT = (
    "threads do not inherit the evaluating thread's grad mode: enter torch.no_grad() or torch.inference_mode() in "
    "the worker thread's code"
)


class GraphBuilt(Check):
    kind = "graph_built"
    summary = "autograd recorded history during evaluation, in any thread"
    hint = (
        "remove torch.enable_grad()/set_grad_enabled(True) (a with block or a decorator) from evaluation code, wrap "
        "code in worker threads with torch.no_grad(), or mark sanctioned gradients with "
        "gradmode_plugin.allow_grad('reason')"
    )

    def start(self) -> None:
        self.scope.saved_tensors.listeners.append(self._saved)
        self.scope.saved_tensors.lift_listeners.append(self._transform)
        self.scope.forward.grad_output_listeners.append(self._module_output)
        self.scope.forward.error_listeners.append(self._failed_in_thread)

    def _saved(self, tensor: torch.Tensor, allowed: bool) -> None:
        # Parameters saved for backward (a layer's weight) are resident anyway: count what the graph adds.
        nbytes = 0 if tensor.is_leaf and tensor.requires_grad else tensor.nelement() * tensor.element_size()
        self.scope.graph_saved(nbytes, allowed)
        if allowed or not self.scope.wants(self.kind):
            return
        dtype = str(tensor.dtype).replace("torch.", "")
        detail, hint = _with_cause(f"autograd saved a {tuple(tensor.shape)} {dtype} tensor for backward")
        self.scope.found(self.kind, where=self.scope.where(), detail=detail, hint=hint)

    def _transform(self) -> None:
        if not self.scope.wants(self.kind):
            return
        detail = (
            "a torch.func transform that takes gradients (grad, vjp, jacrev or hessian) ran during evaluation outside "
            "allow_grad: it records an autograd graph of its own (the guard lets it run, its saved-tensor probe "
            "lifted, so what it saves is not counted)"
        )
        self.scope.found(self.kind, where=self.scope.where(), detail=detail, hint=TRANSFORM_FIX)

    def _module_output(self, name: str, tensor: torch.Tensor) -> None:
        if not self.scope.wants(self.kind):
            return
        thread = threading.current_thread()
        other = thread.ident != self.scope.thread_id
        in_thread = f" in thread '{thread.name}'" if other else ""
        history = type(tensor.grad_fn).__name__
        detail, hint = _with_cause(f"module output carries autograd history ({history}){in_thread}")
        if other and hint is None:
            hint = THREAD_HINT
        self.scope.found(self.kind, module=name, where=self.scope.where(), detail=detail, hint=hint)

    def _failed_in_thread(self, name: str, error: RuntimeError) -> None:
        # In the evaluating thread the error reaches the step, which explains it; elsewhere it may never surface.
        thread = threading.current_thread()
        if thread.ident == self.scope.thread_id:
            return
        choice = self.scope.choice
        if choice.mode != "inference" or not is_inference_error(error):
            return
        chosen = "the guard" if choice.by_guard else "the framework"
        detail = (
            f"thread '{thread.name}' died in module '{name or '<root>'}': it ran the model with grad mode on "
            "(threads do not inherit the evaluating thread's grad mode), which builds an autograd graph under "
            f"no_grad and fails under the torch.inference_mode() that {chosen} chose ({choice.reason}). PyTorch "
            f"said: {type(error).__name__}: {str(error).splitlines()[0]}"
        )
        hint = (
            "enter torch.no_grad() or torch.inference_mode() in the worker thread's code; if it needs gradients, "
            f"{INFERENCE_WAYS_OUT}"
        )
        where = where_raised(error, step=self.scope.steps)
        self.scope.found(self.kind, module=name, where=where, detail=detail, hint=hint)


def _with_cause(detail: str) -> tuple[str, str | None]:
    """The finding with what turned grad mode on, when it can be named, and the one fix for that cause."""
    decorator = grad_decorator(2)
    if decorator:
        return f"{detail}; grad mode was turned on by {decorator}", DECORATOR_FIX
    block = grad_with_block(2)
    if block:
        return f"{detail}; grad mode was turned on by {block}", BLOCK_FIX
    return detail, None
