"""``running_stats_updated``: a normalisation layer's running statistics were updated during evaluation.

Seen when it happens, not after: a ``BatchNorm``/``InstanceNorm``-style module (``track_running_stats=True``)
running in training mode (the forward probe in any thread when it is installed, else its call of ``F.batch_norm``),
and ``F.batch_norm(..., training=True)`` or ``F.instance_norm(..., use_input_stats=True)`` given running statistics
(functional layers that hold their statistics as plain tensors or parameters), in the evaluating thread or inside
the model in another one, or a batch-norm kernel reached another way (the operator audit of each stage's first
batch). A copy into the statistics (``load_state_dict``, an EMA swap) is not a forward pass and is not reported.
"""

from __future__ import annotations

from torch import nn

from gradmode_plugin._torch_internals import NormBase
from gradmode_plugin.checks.base import Check


class RunningStats(Check):
    kind = "running_stats_updated"
    summary = "a normalisation layer's running statistics were updated by a forward pass in training mode"
    hint = (
        "a normalisation layer ran in training mode during evaluation; keep it in eval mode (and pass "
        "training=self.training to F.batch_norm), or allow it explicitly with allow_train if updating statistics is "
        "intended (test-time adaptation)"
    )

    def start(self) -> None:
        norms = frozenset(
            id(m)
            for _, m in self.scope.modes.checked
            if isinstance(m, NormBase) and m.track_running_stats and m.running_mean is not None
        )
        self.scope.forward.norms.update(norms)
        self.scope.forward.norm_train_listeners.append(self._norm_forward)
        self.scope.listen_functional(self.kind, self._functional)

    def _norm_forward(self, name: str, module: nn.Module) -> None:
        if self.scope.wants(self.kind):
            detail = f"{type(module).__name__} ran in training mode: its running statistics were updated"
            self.scope.found(self.kind, module=name, where=self.scope.where(), detail=detail)

    def _functional(self, call: str, hint: str | None) -> None:
        caller = self.scope.calling_module()
        if caller is not None and self.scope.modes.is_covered(caller[0]):
            return
        # A normalisation module in training mode is the forward probe's finding where it is installed (a stage with
        # other threads); without it, the module's call of F.batch_norm is the one sign, reported the same way.
        if caller is not None and caller[1].training and isinstance(caller[1], NormBase):
            if not self.scope.forward.active and caller[1].track_running_stats:
                self._norm_forward(*caller)
            return
        if not self.scope.wants(self.kind):
            return
        name = caller[0] if caller is not None else None
        state = "training" if caller is not None and caller[1].training else "eval"
        inside = f" in module '{name or '<root>'}' ({state} mode)" if name is not None else ""
        detail = f"{call} ran during evaluation{inside}: the statistics it was given were updated"
        self.scope.found(self.kind, module=name, where=self.scope.where(), detail=detail, hint=hint)
