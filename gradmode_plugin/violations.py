"""What a finding is: the record of one violation, and the exceptions and warning that carry it."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeAlias

#: A violation kind: one of :data:`gradmode_plugin.KINDS` (``"graph_built"``, ``"train_mode"`` ...).
ViolationKind: TypeAlias = str


@dataclasses.dataclass(frozen=True)
class Violation:
    """One finding of the guard.

    Attributes:
        kind: one of :data:`~gradmode_plugin.KINDS`.
        stage: ``validation``, ``test``, ``predict``, ``sanity_check`` or the plain-API scope name.
        batch_idx: the batch it was found in; ``None`` when found outside any batch (a stage or epoch hook).
        module: dotted module path from ``named_modules()``, where known (``""`` is the root module).
        where: the user's source lines that caused it, innermost first (``file:line in function: code``), always
            including the evaluation step's own current line where there is one.
        rank: global rank of the process that found it.
        hint: how to fix it.
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

    def place(self) -> str:
        """``stage 'validation', dataloader 1, batch 3, rank 1`` (the parts that are known)."""
        place = f"stage '{self.stage}'"
        if self.dataloader_idx:
            place += f", dataloader {self.dataloader_idx}"
        place += f", batch {self.batch_idx}" if self.batch_idx is not None else ", outside any batch"
        if self.rank:
            place += f", rank {self.rank}"
        return place

    def describe(self) -> str:
        """A one-paragraph, human-readable description."""
        parts = [f"[{self.kind}] {self.detail or self.kind} ({self.place()})"]
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


class GradModeContextError(RuntimeError):
    """A step failed inside PyTorch because of the ``inference_mode`` the guard chose.

    Raised from the original error (``__cause__``), naming the context, why the guard chose it and the ways out.
    """


class GradModeWarning(UserWarning):
    """Issued under ``on_violation="warn"``, once per (kind, stage, module) and guard."""
