"""The interface every kind's check implements; the evaluation scope calls it at fixed points of a stage."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from gradmode_plugin.scope import EvaluationScope


class Check:
    """Watches for one kind of violation during one stage run and reports findings with ``scope.found(...)``.

    The scope calls, in this order: ``start()`` once after the model's modes are recorded and before the probes
    are installed (subscribe to them here: each probe keeps a list of subscribers), ``modes_ready()`` once the
    model's own eval hook has run and the ``allow_train`` modules were put in training mode,
    ``batch_start()``/``batch_end()`` around every batch (``batch_end()`` when the read ``batch_end_when()`` gives
    is true), ``boundary()`` at each boundary of evaluation (when the read ``boundary_when()`` gives is true),
    ``step_output()`` for what a step returns, ``stage_end()`` once at the end of a stage that did not fail, and
    ``stop()`` always, last. A check states its kind, summary and hint once, here as class attributes: the registry
    (:mod:`gradmode_plugin.kinds`) is the tuple of check classes.
    """

    #: The kind this check reports (the registry entry's name).
    kind: ClassVar[str] = ""
    #: What happened, in a line (the kinds table's "what happened").
    summary: ClassVar[str] = ""
    #: How to fix it (a finding with a known cause may give a more specific one).
    hint: ClassVar[str] = ""
    #: A risk the guard notes (``scope.noted``), never a violation: whether it harms depends on code after the stage.
    risk: ClassVar[bool] = False

    def __init__(self, scope: EvaluationScope) -> None:
        self.scope = scope

    @classmethod
    def enabled(cls, scope: EvaluationScope) -> bool:
        """Whether this check runs for ``scope`` (e.g. only with ``check_params=True``)."""
        return True

    def start(self) -> None:
        """The stage begins."""

    def modes_ready(self, after: str) -> None:
        """The modes evaluation runs under are set: ``after`` names what set them (e.g. ``model.eval()``)."""

    def batch_start(self) -> None:
        """A batch begins (its step is about to run)."""

    def batch_end(self) -> None:
        """A batch's step returned normally (and :meth:`batch_end_when` said so)."""

    def batch_end_when(self) -> Callable[[], object] | None:
        """A cheap read the scope makes at the end of every batch, :meth:`batch_end` called only when it is true
        (None: at every batch). A check that almost always finds nothing returns the read its finding starts from,
        a C function where there is one: the scope then spends no frame of the check's at a clean batch."""
        return None

    def boundary(self, when: str) -> None:
        """A boundary of evaluation (``when``: "at the start of the batch", "after the batch's hooks", "at the end of
        the stage") where :meth:`boundary_when`'s read is true."""

    def boundary_when(self) -> Callable[[], object] | None:
        """The read the scope makes at each boundary, :meth:`boundary` called only when it is true (None: always).
        Read at every batch: a C function where there is one."""
        return None

    def step_output(self, output: Any, what: str, where: str | None) -> None:
        """A step returned ``output`` (``what`` names it, ``where`` is the step's line). Not called for the usual
        outputs, decided without a call at every batch: ``None`` and a plain tensor that requires no grad."""

    def stage_end(self) -> None:
        """The stage ends without an exception."""

    def stop(self) -> None:
        """The stage is over, normally or not."""
