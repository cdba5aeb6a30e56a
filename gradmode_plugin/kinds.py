"""The registry of violation kinds: the tuple of check classes, each stating its kind, summary, hint (and whether it is
a risk) once, as class attributes.

Adding a kind is adding a :class:`~gradmode_plugin.checks.base.Check` subclass in ``gradmode_plugin/checks/`` and
its class to :data:`CHECKS` here (see docs/contributing.md, "Adding a kind"). The rules of ``gradmode-lint`` that find a
kind's bug before the run name the kind in their own registry (:mod:`gradmode_plugin.lint.rules`); :attr:`Kind.rules`
reads them from there, and every finding's hint names them.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from gradmode_plugin.checks.base import Check
from gradmode_plugin.checks.grad_enabled import GradEnabled
from gradmode_plugin.checks.graph_built import GraphBuilt
from gradmode_plugin.checks.inference_tensor import InferenceTensorStored
from gradmode_plugin.checks.output_requires_grad import OutputRequiresGrad
from gradmode_plugin.checks.params_changed import ParamsChanged
from gradmode_plugin.checks.running_stats import RunningStats
from gradmode_plugin.checks.train_mode import TrainMode
from gradmode_plugin.lint.rules import rules_for_kind


@dataclasses.dataclass(frozen=True)
class Kind:
    """One kind of violation.

    Attributes:
        name: what violations of this kind are called (``Violation.kind``).
        summary: what happened, in a line.
        hint: how to fix it (a finding may give a more specific one).
        check: the check that finds it.
        risk: a risk the guard notes (in :attr:`Report.risks <gradmode_plugin.Report.risks>`, logged once per
            stage), never a violation: whether it harms depends on code that runs after the stage.
    """

    name: str
    summary: str
    hint: str
    check: type[Check]
    risk: bool = False

    @classmethod
    def of(cls, check: type[Check]) -> Kind:
        """The kind a check class states."""
        return cls(check.kind, check.summary, check.hint, check, risk=check.risk)

    def __post_init__(self) -> None:
        if self.check.kind != self.name:
            raise ValueError(f"kind {self.name!r}: its check {self.check.__name__} reports {self.check.kind!r}")

    @property
    def rules(self) -> tuple[str, ...]:
        """The ``gradmode-lint`` codes that find this kind's bug before the run (possibly none)."""
        return tuple(rule.code for rule in rules_for_kind(self.name))

    @property
    def before_the_run(self) -> str:
        """What a finding's hint adds: the rules that would have caught it before the run, if any."""
        return f" (before the run: gradmode-lint {', '.join(self.rules)})" if self.rules else ""


CHECKS: Final[tuple[type[Check], ...]] = (
    GraphBuilt,
    TrainMode,
    RunningStats,
    GradEnabled,
    OutputRequiresGrad,
    ParamsChanged,
    InferenceTensorStored,
)
"""Every check, in the order of reports and of the per-rank count table. The order matters: of two findings in one
batch the earlier kind is raised first (a cause, a module switched to training, before its effect, statistics
updated by its forward pass, which may be found first), and the checks run in this order at each point of a stage."""

REGISTRY: Final[tuple[Kind, ...]] = tuple(Kind.of(check) for check in CHECKS)
"""Every kind, one per check, stated by its check class (``kind``, ``summary``, ``hint``, ``risk``)."""

KINDS_BY_NAME: Final[dict[str, Kind]] = {kind.name: kind for kind in REGISTRY}
#: The names of every violation kind (what reports count; the risks are noted apart).
KINDS: Final[tuple[str, ...]] = tuple(kind.name for kind in REGISTRY if not kind.risk)
#: The names of the kinds that are risks, noted and never raised.
RISKS: Final[tuple[str, ...]] = tuple(kind.name for kind in REGISTRY if kind.risk)
#: ``{kind: hint}``.
HINTS: Final[dict[str, str]] = {kind.name: kind.hint for kind in REGISTRY}
#: ``{kind: what every hint of the kind ends with}``: the ``gradmode-lint`` rules that find it before the run.
BEFORE_THE_RUN: Final[dict[str, str]] = {kind.name: kind.before_the_run for kind in REGISTRY}
