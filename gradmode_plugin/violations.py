"""What a violation is: its kinds, the record of one, and the exception and warning that carry it."""

from __future__ import annotations

import dataclasses
from typing import Any, Final, Literal, get_args

ViolationKind = Literal[
    "graph_built",
    "train_mode",
    "running_stats_updated",
    "grad_enabled",
    "output_requires_grad",
    "params_changed",
]

KINDS: Final[tuple[ViolationKind, ...]] = get_args(ViolationKind)

HINTS: Final[dict[str, str]] = {
    "graph_built": (
        "remove torch.enable_grad()/set_grad_enabled(True) from evaluation code, wrap code in worker threads "
        "with torch.no_grad(), or mark sanctioned gradients with gradmode_plugin.allow_grad('reason')"
    ),
    "train_mode": (
        "do not call .train() during evaluation; to keep a module training on purpose (e.g. MC dropout) "
        "add its name to allow_train"
    ),
    "running_stats_updated": (
        "a normalisation layer ran in training mode during evaluation; keep it in eval mode, or allow it "
        "explicitly with allow_train if updating statistics is intended (test-time adaptation)"
    ),
    "grad_enabled": (
        "something called torch.set_grad_enabled(True) and did not restore it; use it as a context manager "
        "(with torch.set_grad_enabled(...):) so it is undone on exit"
    ),
    "output_requires_grad": (
        "detach step outputs and logged values (tensor.detach()) so they do not keep a graph or parameters alive"
    ),
    "params_changed": (
        "evaluation must not write to parameters or buffers; move the update to training code, or work on a copy"
    ),
}


@dataclasses.dataclass(frozen=True)
class Violation:
    """One finding of the guard.

    Attributes:
        kind: one of :data:`KINDS`.
        stage: ``validation``, ``test``, ``predict``, ``sanity_check`` or the plain-API scope name.
        batch_idx: the batch it was found in; ``None`` when found outside a batch (e.g. in an epoch-end hook).
        module: dotted module path from ``named_modules()``, where known (``""`` is the root module).
        where: ``file:line in function`` of the user code that caused it, where it can be known.
        rank: global rank of the process that found it.
        hint: one line on how to fix it.
        detail: what exactly was seen.
        dataloader_idx: index of the evaluation dataloader, where known.
    """

    kind: ViolationKind
    stage: str
    batch_idx: int | None
    module: str | None = None
    where: str | None = None
    rank: int = 0
    hint: str = ""
    detail: str = ""
    dataloader_idx: int | None = None

    def describe(self) -> str:
        """A one-paragraph, human-readable description."""
        place = f"stage '{self.stage}'"
        if self.dataloader_idx:
            place += f", dataloader {self.dataloader_idx}"
        place += f", batch {self.batch_idx}" if self.batch_idx is not None else ", outside any batch"
        if self.rank:
            place += f", rank {self.rank}"
        parts = [f"[{self.kind}] {self.detail or self.kind} ({place})"]
        if self.module is not None:
            parts.append(f"module: {self.module or '<root>'}")
        if self.where:
            parts.append(f"at: {self.where}")
        parts.append(f"fix: {self.hint}")
        return "\n  ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class GradModeViolation(RuntimeError):
    """Raised under ``on_violation="raise"``; carries the first violation found."""

    def __init__(self, violation: Violation, message: str | None = None) -> None:
        super().__init__(message or violation.describe())
        self.violation = violation
        self.kind: ViolationKind = violation.kind


class GradModeWarning(UserWarning):
    """Issued under ``on_violation="warn"``, once per (kind, stage, module)."""
