"""``inference_tensor_stored`` (a risk, never a violation): a module's own code left an *inference tensor* on the model.

A module that caches a tensor while it evaluates (a rotary cos/sin table, a buffer filled lazily, a lazy module's
parameters) keeps, under ``torch.inference_mode()``, a tensor autograd can never save: a later training step that
reaches it through autograd fails with PyTorch's "Inference tensors cannot be saved for backward", far from the
evaluation that stored it. Whether one will cannot be read off the tensor: a cache read by the next training
forward fails it, a buffer the forward rebuilds before use, or a decoding state it replaces, does not. So this is
noted once per stage with the attribute and the line that stores it (a static reading of the module's source),
never raised; when training then fails on it with the guard attached, the guard explains that error.

At the end of each stage every module's parameters, buffers and tensor attributes are compared with what they held
when the stage began. Not noted: tensors the step or hook code keeps (``self.last_images = x[:4]`` in
``validation_step``: kept for logging, printing or a metric, they never reach autograd), that is attributes of the
root module stored only from a step or hook (or from no method of it: a plain loop's own code); tensors inside list
and dict attributes (timm's LeViT keeps its attention biases in a dict keyed by device, cleared by ``train()``); the
states of metrics (torchmetrics), which reset them themselves.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn.modules.lazy import LazyModuleMixin
from torch.nn.modules.module import register_module_forward_pre_hook
from torch.nn.parameter import is_lazy

from gradmode_plugin._torch_internals import parameter_stores
from gradmode_plugin.blame import assignments, stored_by_step_or_hook
from gradmode_plugin.checks.base import Check
from gradmode_plugin.violations import Violation

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


def _stored_at(module: nn.Module, attr: str, *, root: bool) -> tuple[bool, list[str]]:
    """(whether a new inference tensor is the module's own doing, the lines of its code that can store it)."""
    found = [(method, line) for method, line in assignments(type(module), attr) if method != "__init__"]
    methods = tuple(method for method, _ in found)
    if stored_by_step_or_hook(methods) or (root and not methods):
        return False, []  # kept by step or hook code, or by the caller's loop: never reaches autograd by itself
    return True, [line for _, line in found]


class InferenceTensorStored(Check):
    kind = "inference_tensor_stored"
    summary = (
        "(a risk, never a violation) a module's own code left an inference tensor on the model under inference "
        "mode (a cache, a buffer, lazy parameters): training that later reaches it through autograd fails"
    )
    hint = (
        "if training later uses it, build or clone it under `with torch.inference_mode(False):` in the code that "
        "stores it, or evaluate under no_grad (grad_mode='no_grad', or Trainer(inference_mode=False)); a tensor that "
        "is only read, or replaced before it is read, needs nothing"
    )
    risk = True

    def start(self) -> None:
        self._before = _inference_tensors(self.scope.modes.checked)
        # A lazy module changes class when its first forward materialises its parameters: known by name, and the
        # line of that first forward kept (a process-wide pre-hook, only while a lazy module waits for it).
        lazy = {id(m): name for name, m in self.scope.modes.checked if isinstance(m, LazyModuleMixin)}
        self._lazy: dict[str, str | None] = dict.fromkeys(lazy.values())
        self._waiting = lazy
        self._hook = register_module_forward_pre_hook(self._first_forward) if lazy else None

    def _first_forward(self, module: nn.Module, args: object) -> None:
        name = self._waiting.pop(id(module), None)
        if name is not None:
            self._lazy[name] = self.scope.where()
            if not self._waiting:
                self.stop()

    def stop(self) -> None:
        if self._hook is not None:
            self._hook.remove()
            self._hook = None

    def stage_end(self) -> None:
        now = _inference_tensors(self.scope.modes.checked)
        modules = self.scope.modes.modules
        noted: list[tuple[str, str, list[str]]] = []
        for (name, attr), tensor in now.items():
            if self._before.get((name, attr)) is tensor:
                continue
            if name in self._lazy:
                first_forward = self._lazy[name]
                noted.append((name, attr, [first_forward] if first_forward else []))
                continue
            own, lines = _stored_at(modules[name], attr, root=not name)
            if own:
                noted.append((name, attr, lines))
        if not noted:
            return
        shown = "; ".join(
            f"{name + '.' if name else ''}{attr}"
            + (" (a lazy module's parameter, materialised by its first forward" if name in self._lazy else " (stored")
            + (f" at {' or '.join(line.split(' in ', 1)[0] for line in lines[:3])})" if lines else ")")
            for name, attr, lines in noted[:5]
        )
        more = f" and {len(noted) - 5} more" if len(noted) > 5 else ""
        detail = (
            f"the model's own code left {len(noted)} inference tensor(s) on it under torch.inference_mode(): "
            f"{shown}{more}. Training that later reaches one through autograd fails with 'Inference tensors cannot be "
            "saved for backward' (a cache the next training forward reads, a lazy layer's weight); one that is only "
            "read, or replaced before it is read, is harmless"
        )
        first = next((lines[0] for _, _, lines in noted if lines), None)
        self.scope.noted(self.kind, module=noted[0][0], where=first, detail=detail)


#: What PyTorch says when autograd reaches an inference tensor outside inference mode.
_TRAINING_FAILURES = ("inference tensors cannot be saved for backward", "inplace update to inference tensor")


def explain_training_failure(error: BaseException, risks: list[Violation]) -> str | None:
    """When ``error`` is PyTorch refusing an inference tensor and an evaluation noted one as a risk, what to say: the
    tensors, the stage that stored them, the line and the fix. None for any other error."""
    noted = [risk for risk in risks if risk.kind == InferenceTensorStored.kind]
    text = str(error).lower()
    if not noted or not isinstance(error, RuntimeError) or not any(m in text for m in _TRAINING_FAILURES):
        return None
    lines = ["gradmode: this is likely the inference tensor an earlier evaluation left on the model:"]
    for risk in noted[-3:]:
        lines.append(f"  stage '{risk.stage}': {risk.detail}")
        if risk.where:
            lines.append(f"    stored at: {risk.where}")
    lines.append(f"  fix: {InferenceTensorStored.hint}")
    return "\n".join(lines)
