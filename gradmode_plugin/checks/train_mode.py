"""``train_mode``: training-mode computation during evaluation, outside ``allow_train``.

Two ways it happens, one kind:

- a module whose ``training`` flag is on: after the model's own eval hook (Lightning's ``on_*_model_eval``, or
  ``model.eval()`` for a plain scope: a ``train()`` override that skips a child, a hook that never calls ``eval()``),
  and at every batch (read once per batch; with the line that switched it, when it was switched by ``train()``
  during the stage);
- a call that trains whatever the module flags say: a dropout kernel with ``train=True`` (``F.dropout(x)``, whose
  ``training`` defaults to True, ``F.dropout(..., training=True)`` and the other dropout functions, ``torch.dropout``,
  ``torch._VF`` and ``torch.ops.aten`` calls), and attention given ``dropout_p > 0``
  (``F.scaled_dot_product_attention(..., dropout_p=self.dropout)``), seen by the probes in the evaluating thread and
  inside the model in other threads, and by the operator audit of each stage's first batch.
"""

from __future__ import annotations

from collections.abc import Callable

from torch import nn

from gradmode_plugin.blame import code_location
from gradmode_plugin.checks.base import Check


class TrainMode(Check):
    kind = "train_mode"
    summary = (
        "training-mode computation during evaluation: a module in training mode, or functional dropout that trains"
    )
    hint = (
        "keep the module in eval mode during evaluation: no .train() in a step or hook (Lightning restores the modes "
        "after the stage), and a train() override that passes the mode on to every child; to keep a module training on "
        "purpose (e.g. MC dropout) add its name to allow_train"
    )

    def start(self) -> None:
        self._switched: dict[int, str | None] = {}
        #: What the last read of the flags at a batch's end (or after the eval hook) found: the number of batches
        #: begun then, and the modules. A clean batch end does not call this check (see batch_end_when), so the
        #: count says whether the modules were found at the last batch.
        self._last_found: tuple[int, list[str]] | None = None
        self.scope.listen_train_calls(self._switched_to_train)
        self.scope.listen_functional(self.kind, self._functional)

    def _switched_to_train(self, module: nn.Module, where: Callable[[], str | None]) -> None:
        # Read now, while the stack holds the train() call (one walk per outermost call: `where` is cached).
        if id(module) not in self._switched:
            self._switched[id(module)] = where()

    def modes_ready(self, after: str) -> None:
        modes = self.scope.modes
        if not modes.any_training():
            return
        names = modes.training_modules()
        self._last_found = (self.scope.batches_begun, names)
        top = names[0]
        module = modes.modules[top]
        switched = self._switched.get(id(module))
        cause = (
            f"switched by train() at {switched.split(' <- ')[0]}"
            if switched
            else _why_still_training(modes.model, top, modes.modules, after)
        )
        detail = f"{len(names)} module(s) still in training mode after {after}: {_shown(names)}; {cause}"
        self.scope.found(self.kind, module=top, where=switched, detail=detail)

    def _functional(self, call: str, hint: str | None) -> None:
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
        self.scope.found(self.kind, module=name, where=self.scope.where(), detail=detail, hint=hint)

    def _check_flags(self, stage_end: bool = False, at_call: bool = False) -> None:
        modes = self.scope.modes
        found = (self.scope.batches_begun, modes.training_modules() if modes.any_training() else [])
        if stage_end and found == self._last_found:
            return  # still the modules the last batch reported
        if not at_call:  # a finding inside a step: the batch's end reads the flags again
            self._last_found = found
        names = found[1]
        if not names:
            return
        top = names[0]
        where = self._switched.get(id(modes.modules[top]))
        how = f"; switched by train() at {where.split(' <- ')[0]}" if where else ""
        if where is None and at_call:
            where = self.scope.where()  # not switched by train() during the stage: where it ran in training mode
        detail = f"{len(names)} module(s) in training mode during evaluation: {_shown(names)}{how}"
        self.scope.found(self.kind, module=top, where=where, detail=detail)

    def batch_end_when(self) -> Callable[[], bool]:
        return self.scope.modes.any_training  # read at every batch, and almost always finds nothing

    def batch_end(self) -> None:
        self._check_flags()

    def stage_end(self) -> None:
        if self.scope.final_checks:
            self._check_flags(stage_end=True)


def _shown(names: list[str]) -> str:
    return ", ".join(n or "<root>" for n in names[:5]) + (" ..." if len(names) > 5 else "")


def _why_still_training(model: nn.Module, name: str, modules: dict[str, nn.Module], after: str) -> str:
    """The likely cause of a module left training by ``eval()``: the nearest ancestor whose class overrides
    ``train()`` (it did not pass the mode on), or the stage's eval hook ``after`` (Lightning's ``on_*_model_eval``)
    overridden without calling ``eval()``."""
    parts = name.split(".") if name else []
    for depth in range(len(parts) - 1, -1, -1):
        ancestor = ".".join(parts[:depth])
        owner = modules.get(ancestor)
        override = type(owner).train if owner is not None else nn.Module.train
        if override is not nn.Module.train:
            at = code_location(override)
            return (
                f"{type(owner).__name__}.train() ({at or 'overridden'}) does not pass the mode on to "
                f"'{name}'; call super().train(mode) in it, or child.train(mode) for every child"
            )
    # The hook that ran for this stage, when the model's class replaces Lightning's default (which calls eval()).
    hook = getattr(type(model), after, None)
    if hook is not None and hook is not getattr(_lightning_module_class(model), after, None):
        at = code_location(hook)
        return f"the model overrides {after} ({at}): call self.eval() in it (and .train() only on what must train)"
    return "nothing switched it back to eval mode"


def _lightning_module_class(model: nn.Module) -> type | None:
    """The ``LightningModule`` class among ``model``'s bases (either namespace), whose eval hooks are the defaults."""
    return next((cls for cls in type(model).__mro__ if cls.__name__ == "LightningModule"), None)
