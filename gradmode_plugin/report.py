"""The guard's report: every violation found, counts per stage and kind, and what each stage ran under.

Only the report writes into itself: scopes and adapters call its ``begin_run``/``record``/``end_run``... methods.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from gradmode_plugin.kinds import KINDS
from gradmode_plugin.violations import Violation

#: At most this many violations are kept with all their details; counts go on counting past it.
MAX_STORED_VIOLATIONS: Final[int] = 1000


def _zero_counts() -> dict[str, int]:
    return dict.fromkeys(KINDS, 0)


def _with_every_kind(counts: Mapping[str, int] | None) -> dict[str, int]:
    """``counts`` with a zero for every kind it lacks (e.g. restored from an older checkpoint)."""
    return {**_zero_counts(), **{k: int(n) for k, n in (counts or {}).items()}}


@dataclasses.dataclass
class StageSummary:
    """What one stage (e.g. ``validation``) ran under and found, over all its runs.

    ``peak_allocated_bytes`` (CUDA only) is PyTorch's peak of allocated memory read at the end of each run, the
    highest of them: the peak since the process started or since the last ``torch.cuda.reset_peak_memory_stats()``
    (the guard never resets it: the counter is the user's). ``counts`` include every rank's violations after a
    multi-rank stage; ``rank_counts`` splits them per rank. ``risks`` counts the risks noted (never violations).
    ``batches`` counts the batches checked, ``steps`` the step calls that checked them: fewer where a step fetches
    its own batches (Lightning's ``dataloader_iter``), 0 in a report from before steps were counted.
    """

    runs: int = 0
    batches: int = 0
    steps: int = 0
    grad_context: str | None = None
    reason: str = ""
    grad_contexts: dict[str, str] = dataclasses.field(default_factory=dict)
    train_allowed: list[str] = dataclasses.field(default_factory=list)
    counts: dict[str, int] = dataclasses.field(default_factory=_zero_counts)
    allowed: dict[str, int] = dataclasses.field(default_factory=dict)
    saved_bytes: int = 0
    risks: int = 0
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
        summary = cls(**{k: v for k, v in data.items() if k in fields})
        summary.counts = _with_every_kind(summary.counts)
        summary.rank_counts = {int(rank): _with_every_kind(c) for rank, c in summary.rank_counts.items()}
        return summary


@dataclasses.dataclass
class Finding:
    """One distinct finding: the stored violations of one kind, at one module and one source line (the first line of
    ``where``), however many batches, runs or ranks found it. One bug is one finding, said once with its count.

    Attributes:
        first: the first of its violations, described in full.
        count: how many violations it groups (at most one per batch and kind).
        batches: the batches it was found in, per stage, in the order found (``None``: outside any batch).
    """

    first: Violation
    count: int = 0
    batches: dict[str, list[int | None]] = dataclasses.field(default_factory=dict)

    @property
    def kind(self) -> str:
        return self.first.kind

    @property
    def module(self) -> str | None:
        return self.first.module

    @property
    def line(self) -> str:
        """The innermost source line of ``where`` (``""`` when none is known)."""
        return finding_line(self.first)

    def add(self, violation: Violation) -> None:
        self.count += 1
        self.batches.setdefault(violation.stage, []).append(violation.batch_idx)

    def seen(self) -> str:
        """``4 times: validation batches 0-3`` (or ``once: test batch 2``)."""
        places = "; ".join(f"{stage} {_batches(found)}" for stage, found in self.batches.items())
        return f"{'once' if self.count == 1 else f'{self.count} times'}: {places}"

    def describe(self) -> str:
        """The first violation's description, with how often and where else it was found."""
        header, *rest = self.first.describe().split("\n  ")
        return "\n  ".join([header, f"found {self.seen()}", *rest])

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "module": self.module,
            "line": self.line,
            "count": self.count,
            "batches": {stage: list(found) for stage, found in self.batches.items()},
            "first": self.first.to_dict(),
        }


def finding_line(violation: Violation) -> str:
    """The innermost source line of a violation's ``where``: with kind and module, what makes a finding distinct."""
    return (violation.where or "").split(" <- ")[0]


def group_findings(violations: Iterable[Violation]) -> list[Finding]:
    """One :class:`Finding` per distinct (kind, module, source line), in the order found; of those first found in
    the same batch, the kind earlier in the registry first (a cause, a module switched to training mode, before its
    effect, statistics updated by its forward pass, which may be found first).

    Example:
        >>> where = "model.py:3 in validation_step: self.net.train()"
        >>> found = [Violation("train_mode", "validation", i, module="net", where=where) for i in range(4)]
        >>> [(f.kind, f.count, f.seen()) for f in group_findings(found)]
        [('train_mode', 4, '4 times: validation batches 0-3')]
    """
    groups: dict[tuple[str, str | None, str], Finding] = {}
    started: dict[tuple[str, str | None, str], int] = {}
    batch: tuple[Any, ...] | None = None
    position = -1
    for violation in violations:
        place = (violation.stage, violation.rank, violation.dataloader_idx, violation.batch_idx)
        if place != batch:
            batch, position = place, position + 1
        key = (violation.kind, violation.module, finding_line(violation))
        if key not in groups:
            groups[key] = Finding(violation)
            started[key] = position
        groups[key].add(violation)
    order = {kind: i for i, kind in enumerate(KINDS)}
    return sorted(groups.values(), key=lambda f: (started[(f.kind, f.module, f.line)], order.get(f.kind, len(order))))


def _batches(found: list[int | None]) -> str:
    """``batches 0-3, 7`` / ``batch 2`` / ``outside any batch``, from batch indices in any order."""
    numbers = sorted({b for b in found if b is not None})
    spans: list[str] = []
    for n in numbers:
        if spans and spans[-1].split("-")[-1] == str(n - 1):
            spans[-1] = f"{spans[-1].split('-')[0]}-{n}"
        else:
            spans.append(str(n))
    parts = [f"{'batch' if len(numbers) == 1 else 'batches'} {', '.join(spans)}"] if numbers else []
    if None in found:
        parts.append("outside any batch")
    return " and ".join(parts)


def _batches_and_steps(batches: int, steps: int) -> str:
    """``4 batch(es)``, or ``4 batch(es) in 2 step call(s)`` where steps fetched their own batches."""
    return f"{batches} batch(es)" + (f" in {steps} step call(s)" if steps and steps != batches else "")


def checked_line(entry: str, checked: dict[str, tuple[int, int]], violations: int) -> str:
    """What a run (``entry``: fit, validate, ...) checked and found, in a line: ``{stage: (batches, steps)}``.

    Example:
        >>> checked_line("validate", {"validation": (4, 2)}, 0)
        'gradmode: validate checked validation 4 batch(es) in 2 step call(s): 0 violation(s)'
        >>> checked_line("validate", {"validation": (0, 0)}, 0)
        'gradmode: validate checked validation 0 batch(es): 0 violation(s)'
    """
    stages = ", ".join(f"{stage} {_batches_and_steps(*counts)}" for stage, counts in checked.items())
    return f"gradmode: {entry} checked {stages}: {violations} violation(s)"


class Report:
    """Violations and per-stage summaries collected by a guard.

    Attributes:
        violations: the violations found, in order (the first :data:`MAX_STORED_VIOLATIONS` with every detail).
        risks: the risks noted apart (never violations, not in :attr:`total`).
        stages: ``{stage: StageSummary}``: runs, batches, grad context and why, counts per kind.
        dropped: how many violations were counted but not stored past the limit.

    Example:
        >>> report = Report()
        >>> report.total
        0
        >>> report.to_dict()["total"]
        0
    """

    def __init__(self) -> None:
        self.violations: list[Violation] = []
        #: Risks noted (kinds in :data:`~gradmode_plugin.kinds.RISKS`): never violations, never raised, not in
        #: :attr:`total`; what code after the stage does decides whether they harm.
        self.risks: list[Violation] = []
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
        """The summary for ``name`` (an empty one, not stored, when the stage has not run)."""
        return self.stages.get(name) or StageSummary()

    def findings(self, since: int = 0) -> list[Finding]:
        """The stored violations from the ``since``-th on, one :class:`Finding` per distinct kind, module and line."""
        return group_findings(self.violations[since:])

    def first_of_each_kind(self, since: int = 0) -> list[Violation]:
        """The first stored violation of each kind, from the ``since``-th stored one on."""
        seen: dict[str, Violation] = {}
        for violation in self.violations[since:]:
            seen.setdefault(violation.kind, violation)
        return list(seen.values())

    # -- writing -------------------------------------------------------------------------------------------
    def _summary(self, stage: str) -> StageSummary:
        if stage not in self.stages:
            self.stages[stage] = StageSummary()
        return self.stages[stage]

    def begin_run(self, stage: str, context: str, reason: str, train_allowed: list[str]) -> bool:
        """A run of ``stage`` starts under ``context``; True the first time the stage runs under it."""
        summary = self._summary(stage)
        first = context not in summary.grad_contexts
        summary.runs += 1
        summary.grad_context = context
        summary.reason = reason
        summary.grad_contexts[context] = reason
        summary.train_allowed = list(train_allowed)
        return first

    def record(self, violation: Violation) -> None:
        counts = self._summary(violation.stage).counts
        counts[violation.kind] = counts.get(violation.kind, 0) + 1
        if len(self.violations) < MAX_STORED_VIOLATIONS:
            self.violations.append(violation)
        else:
            self.dropped += 1

    def note(self, risk: Violation) -> None:
        """Keep a risk (a kind of :data:`~gradmode_plugin.kinds.RISKS`): listed, counted apart, never a violation."""
        self._summary(risk.stage).risks += 1
        if len(self.risks) < MAX_STORED_VIOLATIONS:
            self.risks.append(risk)

    def add_saved_bytes(self, stage: str, nbytes: int) -> None:
        self._summary(stage).saved_bytes += nbytes

    def count_allowed(self, stage: str, reason: str) -> None:
        allowed = self._summary(stage).allowed
        allowed[reason] = allowed.get(reason, 0) + 1

    def count_steps(self, stage: str, steps: int) -> None:
        """A run of ``stage`` made ``steps`` step calls (before its :meth:`end_run`)."""
        self._summary(stage).steps += steps

    def checked(self) -> dict[str, tuple[int, int]]:
        """``{stage: (batches, steps)}`` checked so far, for :func:`checked_line` over a part of the report."""
        return {stage: (s.batches, s.steps) for stage, s in self.stages.items()}

    def end_run(self, stage: str, batches: int, peak_allocated_bytes: int | None = None) -> None:
        summary = self._summary(stage)
        summary.batches += batches
        if peak_allocated_bytes is not None:
            summary.peak_allocated_bytes = max(summary.peak_allocated_bytes or 0, peak_allocated_bytes)

    def add_rank_counts(self, stage: str, own_rank: int, table: list[dict[str, int]]) -> None:
        """Every rank's counts of one run (``table[rank]``); other ranks' also join the stage's totals."""
        summary = self._summary(stage)
        for rank, counts in enumerate(table):
            merged = _with_every_kind(summary.rank_counts.get(rank))
            for kind, n in counts.items():
                merged[kind] = merged.get(kind, 0) + n
                if rank != own_rank:
                    summary.counts[kind] = summary.counts.get(kind, 0) + n
            summary.rank_counts[rank] = merged

    def reset(self) -> None:
        """Forget every violation, count and summary."""
        self.violations.clear()
        self.risks.clear()
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
            "risks": [r.to_dict() for r in self.risks],
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
            lines.append(f"{name}: {s.runs} run(s), {_batches_and_steps(s.batches, s.steps)} under {contexts}")
            lines.append(f"  violations: {s.violations} ({kinds})")
            lines.append(f"  allowed to train (allow_train): {', '.join(s.train_allowed) or 'none'}")
            if s.allowed:
                allowed = ", ".join(f"{reason}={n}" for reason, n in s.allowed.items())
                lines.append(f"  allow_grad regions: {allowed}")
            lines.append(f"  bytes saved for backward: {s.saved_bytes}")
            if s.risks:
                lines.append(f"  risks noted (not violations): {s.risks}")
            if s.peak_allocated_bytes is not None:
                peak = s.peak_allocated_bytes / 2**20
                lines.append(f"  peak CUDA memory allocated (since start or last reset): {peak:.1f} MiB")
            if len(s.rank_counts) > 1:
                per_rank = "; ".join(f"rank {r}: {sum(c.values())}" for r, c in sorted(s.rank_counts.items()))
                lines.append(f"  per rank: {per_rank}")
        findings = self.findings()
        if findings:
            stored = f" among the first {len(self.violations)} stored" if self.dropped else ""
            lines.append(f"distinct findings{stored}: {len(findings)}")
            for f in findings:
                module = f"; module {f.module or '<root>'}" if f.module is not None else ""
                lines.append(f"  [{f.kind}] {f.seen()}{module}" + (f"; at {f.line}" if f.line else ""))
        if self.risks:
            lines.append(f"risks noted (not violations): {len(self.risks)}")
            lines.extend(f"  [{r.kind}] {r.stage}: {r.detail}" for r in self.risks)
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
