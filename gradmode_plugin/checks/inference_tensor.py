"""``inference_tensor_stored``: evaluation under inference mode left an *inference tensor* on the model.

A module that caches a tensor while it evaluates (a rotary cos/sin table, a positional cache, a buffer filled
lazily, a lazy module's parameters) keeps, under ``torch.inference_mode()``, a tensor autograd can never save: the
next training step that uses it fails with PyTorch's "Inference tensors cannot be saved for backward", far from the
evaluation that stored it. At the end of each stage every module's parameters, buffers and tensor attributes are
compared with what they held when the stage began; each inference tensor that is new there is named with its module
and attribute. Not looked at: tensors inside list and dict attributes, where models keep caches for evaluation only
(timm's LeViT keeps its attention biases in a dict keyed by device, cleared by ``train()``), and the states of
metrics (torchmetrics), which reset them themselves.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.parameter import is_lazy

from gradmode_plugin._torch_internals import parameter_stores
from gradmode_plugin.checks.base import Check

HINT = (
    "a tensor made under torch.inference_mode() and kept on the model breaks the next training step that uses it "
    "('Inference tensors cannot be saved for backward'); build the cache under torch.inference_mode(False) (or clone "
    "it there), or evaluate this model under no_grad (grad_mode='no_grad', or Trainer(inference_mode=False))"
)

#: What every ``nn.Module`` keeps in its instance dict (flags, hook dicts, its parameters, buffers and children):
#: no tensor of the module's own among them but through ``_parameters`` and ``_buffers``, read separately.
_STANDARD = frozenset(vars(nn.Module()))


def _resettable_states(module: nn.Module) -> frozenset[str]:
    """The tensors a module declares as state it resets itself (torchmetrics' ``Metric``: its ``_defaults``, put back
    by ``reset()``): the module manages them, in evaluation as in training."""
    defaults = vars(module).get("_defaults")
    if isinstance(defaults, dict) and callable(getattr(type(module), "reset", None)):
        return frozenset(defaults)
    return frozenset()


def _inference_tensors(modules: tuple[tuple[str, nn.Module], ...]) -> dict[tuple[str, str], torch.Tensor]:
    """``(module name, attribute) -> tensor`` for every inference tensor the modules hold themselves: parameters,
    buffers, tensor attributes (but state a module resets itself). Runs twice a stage over every module."""
    found: dict[tuple[str, str], torch.Tensor] = {}
    for name, module in modules:
        for store in parameter_stores(module):
            for attr, value in store.items():
                if isinstance(value, torch.Tensor) and not is_lazy(value) and value.is_inference():
                    found[name, attr] = value
        own = vars(module)
        extra = own.keys() - _STANDARD  # most modules hold a few plain values here (sizes, flags), rarely a tensor
        held = [a for a in extra if isinstance(own[a], torch.Tensor)]
        if held:
            resettable = _resettable_states(module)
            for attr in sorted(held, key=list(own).index):
                value = own[attr]
                if attr not in resettable and not is_lazy(value) and value.is_inference():
                    found[name, attr] = value
    return found


class InferenceTensorStored(Check):
    kind = "inference_tensor_stored"

    def start(self) -> None:
        self._before = _inference_tensors(self.scope.modes.checked)

    def stage_end(self) -> None:
        now = _inference_tensors(self.scope.modes.checked)
        new = [key for key, tensor in now.items() if self._before.get(key) is not tensor]
        if not new:
            return
        shown = ", ".join(f"{name}.{attr}" if name else attr for name, attr in new[:5])
        more = f" and {len(new) - 5} more" if len(new) > 5 else ""
        detail = (
            f"evaluation under torch.inference_mode() left {len(new)} inference tensor(s) on the model: "
            f"{shown}{more}; training that uses them later fails"
        )
        self.scope.found(self.kind, module=new[0][0], detail=detail)
