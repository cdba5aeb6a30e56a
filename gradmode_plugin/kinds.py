"""The registry of violation kinds: one entry each, with its summary, its hint and the check that finds it.

Adding a kind is adding an entry here and a :class:`~gradmode_plugin.checks.base.Check` subclass in
``gradmode_plugin/checks/`` (see the README, "Adding a kind"). The rules of ``gradmode-lint`` that find a kind's bug
before the run name the kind in their own registry (:mod:`gradmode_plugin.lint.rules`); :attr:`Kind.rules` reads
them from there, and every finding's hint names them.
"""

from __future__ import annotations

import dataclasses
from typing import Final

from gradmode_plugin.checks import (
    grad_enabled,
    graph_built,
    inference_tensor,
    output_requires_grad,
    params_changed,
    running_stats,
)
from gradmode_plugin.checks import train_mode as train_mode_check
from gradmode_plugin.checks.base import Check
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


#: Every kind, in the order of reports and of the per-rank count table. The order matters: of two findings in one
#: batch the earlier kind is raised first (a cause, a module switched to training, before its effect, statistics
#: updated by its forward pass, which may be found first).
REGISTRY: Final[tuple[Kind, ...]] = (
    Kind(
        "graph_built",
        "autograd recorded history during evaluation, in any thread",
        graph_built.HINT,
        graph_built.GraphBuilt,
    ),
    Kind(
        "train_mode",
        "training-mode computation during evaluation: a module in training mode, or functional dropout that trains",
        train_mode_check.HINT,
        train_mode_check.TrainMode,
    ),
    Kind(
        "running_stats_updated",
        "a normalisation layer's running statistics were updated by a forward pass in training mode",
        running_stats.HINT,
        running_stats.RunningStats,
    ),
    Kind(
        "grad_enabled",
        "grad mode found enabled at a boundary of evaluation",
        grad_enabled.HINT,
        grad_enabled.GradEnabled,
    ),
    Kind(
        "output_requires_grad",
        "a step output requires grad",
        output_requires_grad.HINT,
        output_requires_grad.OutputRequiresGrad,
    ),
    Kind(
        "params_changed",
        "(check_params=True) a parameter or buffer was written or replaced during evaluation",
        params_changed.HINT,
        params_changed.ParamsChanged,
    ),
    Kind(
        "inference_tensor_stored",
        "(a risk, never a violation) a module's own code left an inference tensor on the model under inference mode "
        "(a cache, a buffer, lazy parameters): training that later reaches it through autograd fails",
        inference_tensor.HINT,
        inference_tensor.InferenceTensorStored,
        risk=True,
    ),
)

KINDS_BY_NAME: Final[dict[str, Kind]] = {kind.name: kind for kind in REGISTRY}
#: The names of every violation kind (what reports count; the risks are noted apart).
KINDS: Final[tuple[str, ...]] = tuple(kind.name for kind in REGISTRY if not kind.risk)
#: The names of the kinds that are risks, noted and never raised.
RISKS: Final[tuple[str, ...]] = tuple(kind.name for kind in REGISTRY if kind.risk)
#: ``{kind: hint}``.
HINTS: Final[dict[str, str]] = {kind.name: kind.hint for kind in REGISTRY}
#: ``{kind: what every hint of the kind ends with}``: the ``gradmode-lint`` rules that find it before the run.
BEFORE_THE_RUN: Final[dict[str, str]] = {kind.name: kind.before_the_run for kind in REGISTRY}
