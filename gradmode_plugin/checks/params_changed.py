"""``params_changed`` (only with ``check_params=True``): a parameter or buffer was written or replaced during
evaluation.

Keeps a copy of every parameter and buffer (but normalisation statistics, which ``running_stats_updated`` covers,
lazy parameters until they are materialised, and the modules ``allow_train`` covers). Per batch: version counters
(in-place writes, optimizer steps, ``copy_``), confirmed by value so a same-value write is no change, and whether
each one is still the tensor its module holds (``module.weight = nn.Parameter(...)`` replaces it). At the stage
end every copy is compared by value, catching writes through ``.data``, which bump no version.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import torch
from torch import nn
from torch.nn.parameter import is_lazy

from gradmode_plugin._torch_internals import NORM_STATISTICS, NormBase, parameter_stores, version
from gradmode_plugin.checks.base import Check

if TYPE_CHECKING:
    from gradmode_plugin.scope import EvaluationScope


@dataclasses.dataclass
class _Watched:
    name: str
    store: dict[str, torch.Tensor | None]  # the module's _parameters or _buffers
    attr: str
    tensor: torch.Tensor
    copy: torch.Tensor
    version: int

    def replaced(self) -> bool:
        return self.store.get(self.attr) is not self.tensor

    def changed_in_place(self) -> bool:
        """Written in place since the last look, and really different (a same-value write is no change)."""
        now = version(self.tensor)
        if now == self.version:
            return False
        self.version = now
        return self.differs()

    def differs(self) -> bool:
        with torch.no_grad():
            return not torch.equal(self.tensor.detach(), self.copy)


def _norm_statistics(module: nn.Module) -> frozenset[str]:
    return NORM_STATISTICS if isinstance(module, NormBase) else frozenset()


class ParamsChanged(Check):
    kind = "params_changed"
    summary = "(check_params=True) a parameter or buffer was written or replaced during evaluation"
    hint = "evaluation must not write to parameters or buffers; move the update to training code, or work on a copy"

    @classmethod
    def enabled(cls, scope: EvaluationScope) -> bool:
        return scope.options.check_params

    def start(self) -> None:
        self._items: list[_Watched] = []
        # Lazy parameters are watched from the end of the batch that materialised them.
        self._lazy: list[tuple[str, dict[str, torch.Tensor | None], str]] = []
        self._flagged: set[str] = set()
        for module_name, module in self.scope.modes.model.named_modules():
            if self.scope.modes.is_covered(module_name):
                continue
            skip = _norm_statistics(module)
            for store in parameter_stores(module):
                for attr, tensor in store.items():
                    if tensor is not None and attr not in skip:
                        self._lazy.append((f"{module_name}.{attr}" if module_name else attr, store, attr))
        self._watch_materialised()

    def _watch_materialised(self) -> None:
        waiting = []
        with torch.no_grad():
            for name, store, attr in self._lazy:
                tensor = store.get(attr)
                if tensor is None or is_lazy(tensor):
                    waiting.append((name, store, attr))
                else:
                    self._items.append(_Watched(name, store, attr, tensor, tensor.detach().clone(), version(tensor)))
        self._lazy = waiting

    def _look(self, by_value: bool) -> None:
        fresh = [w for w in self._items if w.name not in self._flagged]
        replaced = [w.name for w in fresh if w.replaced()]
        changed = [w.name for w in fresh if w.changed_in_place() or (by_value and w.differs())]
        names = list(dict.fromkeys(changed + replaced))
        if not names:
            return
        self._flagged.update(names)
        what = []
        if changed:
            what.append(f"{len(changed)} changed in value: {', '.join(changed[:5])}")
        if replaced:
            what.append(f"{len(replaced)} replaced by another tensor: {', '.join(replaced[:5])}")
        self.scope.found(
            self.kind,
            module=names[0].rpartition(".")[0],
            where=self.scope.where(),
            detail=f"parameter(s)/buffer(s) during evaluation: {'; '.join(what)}",
        )

    def batch_end(self) -> None:
        self._look(by_value=False)
        if self._lazy:
            self._watch_materialised()

    def stage_end(self) -> None:
        self._look(by_value=True)
