"""The guard's report: every violation found, counts per stage and kind, and what each stage ran under."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from typing import Any, Final

from gradmode_plugin.violations import KINDS, Violation

#: At most this many violations are kept with all their details; counts go on counting past it.
MAX_STORED_VIOLATIONS: Final[int] = 1000


def _zero_counts() -> dict[str, int]:
    return dict.fromkeys(KINDS, 0)


@dataclasses.dataclass
class StageSummary:
    """What one stage (e.g. ``validation``) ran under and found, over all its runs.

    ``peak_allocated_bytes`` (CUDA only) is the highest peak of any run; to measure it the guard resets
    PyTorch's process-wide peak statistics at the start of each run. ``counts`` include every rank's
    violations after a multi-rank stage; ``rank_counts`` splits them per rank.
    """

    runs: int = 0
    batches: int = 0
    grad_context: str | None = None
    reason: str = ""
    grad_contexts: dict[str, str] = dataclasses.field(default_factory=dict)
    train_allowed: list[str] = dataclasses.field(default_factory=list)
    counts: dict[str, int] = dataclasses.field(default_factory=_zero_counts)
    allowed: dict[str, int] = dataclasses.field(default_factory=dict)
    saved_bytes: int = 0
    allowed_saved_bytes: int = 0
    peak_allocated_bytes: int | None = None
    rank_counts: dict[int, dict[str, int]] = dataclasses.field(default_factory=dict)

    @property
    def violations(self) -> int:
        return sum(self.counts.values())

    def to_dict(self) -> dict[str, Any]:
        out = dataclasses.asdict(self)
        out["violations"] = self.violations
        out["rank_counts"] = {str(rank): counts for rank, counts in self.rank_counts.items()}
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> StageSummary:
        fields = {f.name for f in dataclasses.fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in fields}
        summary = cls(**kwargs)
        summary.counts = {**_zero_counts(), **summary.counts}
        summary.rank_counts = {int(rank): dict(c) for rank, c in summary.rank_counts.items()}
        return summary


class Report:
    """Violations and per-stage summaries collected by a guard.

    Example:
        >>> report = Report()
        >>> report.total
        0
        >>> report.to_dict()["total"]
        0
    """

    def __init__(self) -> None:
        self.violations: list[Violation] = []
        self.stages: dict[str, StageSummary] = {}
        self.dropped: int = 0

    # -- reading -------------------------------------------------------------------------------------------
    @property
    def counts(self) -> dict[str, dict[str, int]]:
        """``{stage: {kind: count}}`` for every stage seen."""
        return {stage: dict(summary.counts) for stage, summary in self.stages.items()}

    @property
    def total(self) -> int:
        return sum(summary.violations for summary in self.stages.values())

    def count(self, kind: str | None = None, stage: str | None = None) -> int:
        """Number of violations, optionally of one kind and/or in one stage."""
        stages: Iterable[StageSummary] = (
            self.stages.values() if stage is None else [self.stages.get(stage, StageSummary())]
        )
        return sum(s.counts.get(kind, 0) if kind else s.violations for s in stages)

    def stage(self, name: str) -> StageSummary:
        """The summary for ``name``, created empty on first use."""
        if name not in self.stages:
            self.stages[name] = StageSummary()
        return self.stages[name]

    # -- writing -------------------------------------------------------------------------------------------
    def add(self, violation: Violation) -> None:
        self.stage(violation.stage).counts[violation.kind] += 1
        if len(self.violations) < MAX_STORED_VIOLATIONS:
            self.violations.append(violation)
        else:
            self.dropped += 1

    def reset(self) -> None:
        """Forget every violation, count and summary."""
        self.violations.clear()
        self.stages.clear()
        self.dropped = 0

    # -- output --------------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable view: totals, per-stage summaries and every stored violation."""
        return {
            "total": self.total,
            "counts": self.counts,
            "stages": {name: summary.to_dict() for name, summary in self.stages.items()},
            "violations": [v.to_dict() for v in self.violations],
            "dropped_violations": self.dropped,
        }

    def to_json(self, indent: int = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def summary(self) -> str:
        """A short, human-readable table: one block per stage."""
        if not self.stages:
            return "gradmode: no evaluation stage ran"
        lines = []
        for name, s in self.stages.items():
            kinds = ", ".join(f"{k}={n}" for k, n in s.counts.items() if n) or "none"
            contexts = "; ".join(f"{c} ({why})" for c, why in s.grad_contexts.items()) or str(s.grad_context)
            lines.append(f"{name}: {s.runs} run(s), {s.batches} batch(es) under {contexts}")
            lines.append(f"  violations: {s.violations} ({kinds})")
            lines.append(f"  kept in train mode by allow_train: {', '.join(s.train_allowed) or 'none'}")
            if s.allowed:
                allowed = ", ".join(f"{reason}={n}" for reason, n in s.allowed.items())
                lines.append(f"  allow_grad regions: {allowed}")
            lines.append(f"  bytes saved for backward: {s.saved_bytes}")
            if s.peak_allocated_bytes is not None:
                lines.append(f"  peak CUDA memory allocated: {s.peak_allocated_bytes / 2**20:.1f} MiB")
            if len(s.rank_counts) > 1:
                per_rank = "; ".join(f"rank {r}: {sum(c.values())}" for r, c in sorted(s.rank_counts.items()))
                lines.append(f"  per rank: {per_rank}")
        return "\n".join(lines)

    # -- checkpointing -------------------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """Counts and summaries (not the stored violations) for checkpoints."""
        return {
            "stages": {name: summary.to_dict() for name, summary in self.stages.items()},
            "dropped": self.dropped,
        }

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.stages = {name: StageSummary.from_dict(data) for name, data in state.get("stages", {}).items()}
        self.dropped = int(state.get("dropped", 0))
