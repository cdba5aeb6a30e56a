"""``train_mode``: training-mode computation during evaluation, outside ``allow_train``.

Two ways it happens, one kind: a module whose ``training`` flag is on during a batch (read once per batch; the
line that switched it, when it was switched by ``train()`` during the stage), or a functional call that trains
whatever the module flags say: ``F.dropout(x)`` (whose ``training`` defaults to True), ``F.dropout(...,
training=True)`` and the other dropout functions, ``F.scaled_dot_product_attention(dropout_p > 0)``, seen in the
evaluating thread.
"""

from __future__ import annotations

from collections.abc import Callable

from torch import nn

from gradmode_plugin.checks.base import Check

HINT = (
    "do not call .train() during evaluation, and pass training=self.training to functional dropout "
    "(F.dropout(x, p, training=self.training)); to keep a module training on purpose (e.g. MC dropout) add its name "
    "to allow_train"
)


class TrainMode(Check):
    kind = "train_mode"

    def start(self) -> None:
        self._switched: dict[int, str | None] = {}
        self._last_found: list[str] = []
        self._any_training = self.scope.modes.any_training
        self.scope.listen_train_calls(self._switched_to_train)
        self.scope.listen_functional(self.kind, self._functional)

    def _switched_to_train(self, module: nn.Module, where: Callable[[], str | None]) -> None:
        # Read now, while the stack holds the train() call (one walk per outermost call: `where` is cached).
        if id(module) not in self._switched:
            self._switched[id(module)] = where()

    def _functional(self, call: str) -> None:
        caller = self.scope.calling_module()
        if caller is not None and self.scope.modes.is_covered(caller[0]):
            return
        if caller is not None and caller[1].training:
            # A module in training mode is running dropout now: the flags' finding, made at the call, so a module
            # switched to training and back within one step is seen too.
            self._check_flags(at_call=True)
            return
        if not self.scope.wants(self.kind):
            return
        name = caller[0] if caller is not None else None
        inside = f" in module '{name or '<root>'}' (in eval mode)" if name is not None else ""
        detail = f"{call} ran during evaluation{inside}: it trains whatever the module flags say"
        self.scope.found(self.kind, module=name, where=self.scope.where(), detail=detail)

    def _check_flags(self, stage_end: bool = False, at_call: bool = False) -> None:
        modes = self.scope.modes
        if not modes.any_training():
            self._last_found = []
            return
        names = modes.training_modules()
        if stage_end and names == self._last_found:
            return  # still the modules the last batch reported
        self._last_found = names
        shown = ", ".join(n or "<root>" for n in names[:5]) + (" ..." if len(names) > 5 else "")
        top = names[0] if names else None
        where = None
        if top is not None:
            module = self.scope.model.get_submodule(top) if top else self.scope.model
            where = self._switched.get(id(module))
        how = f"; switched by train() at {where.split(' <- ')[0]}" if where else ""
        if where is None and at_call:
            where = self.scope.where()  # not switched by train() during the stage: where it ran in training mode
        detail = f"{len(names)} module(s) in training mode during evaluation: {shown}{how}"
        self.scope.found(self.kind, module=top, where=where, detail=detail)

    def batch_end(self) -> None:
        if self._any_training():  # read here first: it runs at every batch, and almost always finds nothing
            self._check_flags()
        else:
            self._last_found = []

    def stage_end(self) -> None:
        if self.scope.final_checks:
            self._check_flags(stage_end=True)
