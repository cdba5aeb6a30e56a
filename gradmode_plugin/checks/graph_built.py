"""``graph_built``: autograd recorded history during evaluation, in any thread.

Two probes: the saved-tensor hook of the evaluating thread (a graph that costs memory, with the bytes it keeps)
and the module calls of the watched model (``probes.ForwardProbe``: outputs with a ``grad_fn``, whichever thread
ran the module).
"""

from __future__ import annotations

import threading

import torch

from gradmode_plugin.blame import grad_decorator
from gradmode_plugin.checks.base import Check

HINT = (
    "remove torch.enable_grad()/set_grad_enabled(True) (a with block or a decorator) from evaluation code, wrap code "
    "in worker threads with torch.no_grad(), or mark sanctioned gradients with gradmode_plugin.allow_grad('reason')"
)


class GraphBuilt(Check):
    kind = "graph_built"

    def start(self) -> None:
        self.scope.saved_tensors.listener = self._saved
        self.scope.forward.on_grad_output = self._module_output

    def _saved(self, tensor: torch.Tensor, allowed: bool) -> None:
        # Parameters saved for backward (a layer's weight) are resident anyway: count what the graph adds.
        nbytes = 0 if tensor.is_leaf and tensor.requires_grad else tensor.nelement() * tensor.element_size()
        self.scope.graph_saved(nbytes, allowed)
        if allowed or not self.scope.wants(self.kind):
            return
        dtype = str(tensor.dtype).replace("torch.", "")
        detail = f"autograd saved a {tuple(tensor.shape)} {dtype} tensor for backward"
        self.scope.found(self.kind, where=self.scope.where(), detail=_with_cause(detail))

    def _module_output(self, name: str, tensor: torch.Tensor) -> None:
        if not self.scope.wants(self.kind):
            return
        thread = threading.current_thread()
        in_thread = "" if thread.ident == self.scope.thread_id else f" in thread '{thread.name}'"
        detail = f"module output carries autograd history ({type(tensor.grad_fn).__name__}){in_thread}"
        self.scope.found(self.kind, module=name, where=self.scope.where(), detail=_with_cause(detail))


def _with_cause(detail: str) -> str:
    cause = grad_decorator(2)
    return f"{detail}; grad mode was turned on by {cause}" if cause else detail
