"""The core: one evaluation scope that sets the correct modes, installs the probes, runs every kind's check and
applies the policy. The Lightning callback and the plain-PyTorch ``evaluating(...)`` are both built on it.
"""

from __future__ import annotations

import contextlib
import inspect
import logging
import sys
import threading
import weakref
from collections.abc import Callable, Iterable, Iterator
from types import CodeType, FrameType, TracebackType
from typing import Any, TypeVar

import torch
from torch import nn

from gradmode_plugin._state import active_scope, live_scopes
from gradmode_plugin.audit import OpAudit
from gradmode_plugin.blame import StepLocator
from gradmode_plugin.blame import where as blame_where
from gradmode_plugin.checks.base import Check
from gradmode_plugin.distributed import Ranks, agree, describe_offenders, offenders
from gradmode_plugin.kinds import BEFORE_THE_RUN, HINTS, KINDS, REGISTRY
from gradmode_plugin.memory import CudaPeak
from gradmode_plugin.modes import (
    GradContextChoice,
    ModuleModes,
    explain_inference_error,
    grad_context,
    inference_error_note,
    resolve_grad_mode,
    within_callers_context,
)
from gradmode_plugin.options import GuardOptions
from gradmode_plugin.policy import Policy
from gradmode_plugin.probes import HOOK_REFUSALS, TRAIN_CALLS, TRAINING_CALLS, ForwardProbe, SavedTensorProbe
from gradmode_plugin.report import Report
from gradmode_plugin.violations import GradModeContextError, GradModeViolation, Violation
from gradmode_plugin.wrappers import user_module

log = logging.getLogger("gradmode_plugin")
_T = TypeVar("_T")


class EvaluationScope:
    """Correct modes for one evaluation stage, asserted batch by batch.

    On entry: records every module's train flag, calls ``model.eval()`` and puts the ``allow_train`` modules in
    training mode, enters the grad context and installs the probes; a module that ``eval()`` left in training mode
    (a ``train()`` override that skips a child) is reported, never switched. On exit, normal or not, restores
    exactly the previous grad mode, inference mode, module flags and hooks. Use :meth:`batch` around each batch (or
    :meth:`iterate` over the batches) for per-batch detection (violations then name the batch and your loop's line);
    without it, checks run once at exit.

    Args:
        model: the module evaluated (its submodules are recorded and checked by qualified name).
        options: ``grad_mode``, ``on_violation``, ``allow_train`` and ``check_params``, validated
            (:class:`~gradmode_plugin.options.GuardOptions`).
        stage: the name findings and the report give the stage (``"validation"``, ``"test"``, ...).
        report: the report to fill (a new one by default); a guard passes its own, shared by its stages.
        policy: what happens to a violation (by default from ``options.on_violation``).
        context: the grad context and why, when an adapter resolved it (a framework's rule); None resolves
            ``options.grad_mode`` from the model when the scope is entered.
        ranks: this process's rank and the world (findings agree across ranks at the end of the stage).
        framework: True for a framework that sets and restores module modes itself (Lightning): the scope then
            changes no mode until :meth:`modes_ready` is called (after the framework's own eval hook), restores
            modes only after an exception, and leaves the end-of-stage flag and grad checks to the framework's
            adapter.

    Example:
        >>> model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Dropout())
        >>> with evaluating(model) as scope:
        ...     for i in range(2):
        ...         with scope.batch(i):
        ...             out = model(torch.randn(3, 4))
        >>> scope.report.total, model.training
        (0, True)
    """

    # Read at every batch: slots make each attribute a fixed offset and let CPython specialise the methods' lookups,
    # where an instance dict of this many keys is a hash table of its own (-3 % of the plain loop's time).
    __slots__ = (
        "_audited",
        "_batch_context",
        "_batch_end_calls",
        "_batch_start_checks",
        "_batches",
        "_checks",
        "_context",
        "_cuda",
        "_fetched",
        "_functional",
        "_grad_boundaries",
        "_inference",
        "_lock",
        "_other_boundaries",
        "_output_checks",
        "_pending",
        "_quick_end_flags",
        "_quick_start",
        "_restore_modes",
        "_run_counts",
        "_seen",
        "_stack",
        "_started",
        "_step_audit",
        "_step_context",
        "_train_listeners",
        "batch_idx",
        "choice",
        "dataloader_idx",
        "final_checks",
        "forward",
        "framework",
        "model",
        "modes",
        "options",
        "policy",
        "ranks",
        "report",
        "saved_tensors",
        "stage",
        "step_where",
        "steps",
        "thread_id",
    )

    def __init__(
        self,
        model: nn.Module,
        options: GuardOptions | None = None,
        *,
        stage: str = "evaluation",
        report: Report | None = None,
        policy: Policy | None = None,
        context: GradContextChoice | None = None,
        ranks: Ranks | None = None,
        framework: bool = False,
    ) -> None:
        if not isinstance(model, nn.Module):
            raise ValueError(f"model must be a torch.nn.Module, got {type(model).__name__}")
        self.model = model
        self.options = options or GuardOptions()
        self.stage = stage
        self.report = report if report is not None else Report()
        self.policy = policy or Policy(self.options.on_violation)
        self._context = context
        #: The grad context and why: the framework's, or resolved from the model when the scope is entered.
        self.choice = context or _resolve_on_entry(self.options.grad_mode, model)
        self.ranks = ranks or Ranks()
        self.framework = framework
        #: Whether the end of the scope checks module flags and grad mode (off when a framework restores them).
        self.final_checks = not framework
        self._lock = threading.Lock()
        self._stack: contextlib.ExitStack | None = None
        self._batch_context = _Batch(self)
        self.batch_idx: int | None = None
        self.dataloader_idx: int | None = None

    @property
    def mode(self) -> str:
        """The grad context this scope runs under: ``"inference"`` or ``"no_grad"``."""
        return self.choice.mode

    @property
    def reason(self) -> str:
        return self.choice.reason

    # -- stage -----------------------------------------------------------------------------------------------
    def _reset_run(self) -> None:
        self.batch_idx = None
        self.dataloader_idx = None
        self.thread_id = threading.get_ident()
        self.steps = StepLocator(self.thread_id)
        # A framework's step runs inside run_step: the user's step is the outermost user frame within it.
        self.steps.marker_code = _RUN_STEP
        self._seen: set[tuple[str, int | None, int | None]] = set()
        self._pending: Violation | None = None
        self._run_counts = dict.fromkeys(KINDS, 0)
        self._batches = 0
        self._fetched: int | None = None
        self._started = False
        self._restore_modes = True
        self._functional: dict[str, list[Callable[[str, str | None], None]]] = {}
        self._train_listeners: list[Callable[[nn.Module, Callable[[], str | None]], None]] = []
        #: Dataloaders whose first batch of this run has had the operator audit.
        self._audited: set[int | None] = set()
        self._step_context: contextlib.AbstractContextManager[None] | None = None
        self._step_audit: OpAudit | None = None
        #: Where a framework's step is defined (``file:line in name``), for findings in its output.
        self.step_where: str | None = None

    def __enter__(self) -> EvaluationScope:
        if self._stack is not None:
            raise RuntimeError("this EvaluationScope is already entered; use a new evaluating(...) for nesting")
        self._reset_run()
        if self._context is None:
            self.choice = _resolve_on_entry(self.options.grad_mode, self.model)
        self.choice = within_callers_context(self.choice)
        with contextlib.ExitStack() as stack:
            self.modes = ModuleModes(self.model, self.options.allow_train)
            stack.callback(self._restore)
            self.saved_tensors = SavedTensorProbe()
            self.forward = ForwardProbe(self.modes.names)
            self._checks = [kind.check(self) for kind in REGISTRY if kind.check.enabled(self)]
            for check in self._checks:
                stack.callback(check.stop)
                check.start()
            self._batch_end_calls = [
                (c.batch_end_when(), c.batch_end) for c in self._checks if type(c).batch_end is not Check.batch_end
            ]
            self._batch_start_checks = [c for c in self._checks if type(c).batch_start is not Check.batch_start]
            # What lets run_step decide a usual batch's end inline (see there): every check's batch-end read is one of
            # the scope's own two (grad mode, the flags in the modules' dicts).
            own_reads = (torch.is_grad_enabled, self.modes.any_training)
            quick_end = not self.modes.flag_owners and all(
                when is not None and when in own_reads for when, _ in self._batch_end_calls
            )
            self._quick_end_flags = self.modes.flag_dicts if quick_end else None
            # Listed once: boundaries come at every batch. The checks whose boundary read is grad mode are called
            # after one inline read of it (the usual batch: off, and no call); any other read is made per check.
            boundary_calls = [
                (c.boundary_when(), c.boundary) for c in self._checks if type(c).boundary is not Check.boundary
            ]
            self._grad_boundaries = tuple(call for when, call in boundary_calls if when is torch.is_grad_enabled)
            self._other_boundaries = [(w, call) for w, call in boundary_calls if w is not torch.is_grad_enabled]
            self._output_checks = [c for c in self._checks if type(c).step_output is not Check.step_output]
            # What run_step's usual batch may skip: no check with batch-start work, no boundary read but grad mode's.
            self._quick_start = not self._batch_start_checks and not self._other_boundaries
            self._inference = self.mode == "inference"
            live_scopes.append(self)
            stack.callback(live_scopes.remove, self)
            stack.enter_context(self.forward)
            stack.enter_context(self.saved_tensors)
            stack.enter_context(TRAINING_CALLS.active())
            stack.enter_context(HOOK_REFUSALS.active())
            stack.enter_context(TRAIN_CALLS.listening(self._train_called))
            stack.enter_context(grad_context(self.mode))
            token = active_scope.set(self)
            stack.callback(active_scope.reset, token)
            self._cuda = stack.enter_context(CudaPeak(self.model))
            if not self.framework:
                self.model.eval()
                self.begin()
                self.modes_ready("model.eval()")
            self._stack = stack.pop_all()
        return self

    def begin(self) -> None:
        """A run of the stage begins: counted in the report, its grad context logged once (rank zero)."""
        self._started = True
        first = self.report.begin_run(self.stage, self.choice.name, self.reason, self.modes.train_allowed)
        if first and self.ranks.rank == 0:
            log.info("gradmode: %s runs under torch.%s (%s)", self.stage, self.choice.name, self.reason)

    def modes_ready(self, after: str) -> None:
        """The model's own ``eval()`` has run (``after`` names it, e.g. Lightning's ``on_validation_model_eval``):
        put the ``allow_train`` modules in training mode, then let every check look at the modes."""
        self.modes.train_allowed_modules()
        for check in self._checks:
            check.modes_ready(after)

    def fetched(self, batches: int) -> None:
        """The run's steps fetched ``batches`` batches themselves (a framework's data iterator handed to the step):
        the report counts those as checked, and the step calls apart."""
        self._fetched = batches

    @property
    def batches_begun(self) -> int:
        """How many batches of the stage run began so far (the current one included)."""
        return self._batches

    @property
    def started(self) -> bool:
        """Whether a run of the stage began (:meth:`begin`)."""
        return self._started

    def _restore(self) -> None:
        if self._restore_modes:
            self.modes.restore()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        assert self._stack is not None, "EvaluationScope exited without being entered"
        failed = exc_type is not None
        # A framework restores modes itself after a normal stage; after an exception nobody else will.
        self._restore_modes = failed or not self.framework
        try:
            if not failed:
                self.batch_idx = self.dataloader_idx = None
                for check in self._checks:
                    check.stage_end()
        finally:
            self._stack.close()
            self._stack = None
            if self._started:
                self.report.count_steps(self.stage, self._batches)
                batches = self._batches if self._fetched is None else self._fetched
                self.report.end_run(self.stage, batches, self._cuda.peak)
        if not failed:
            try:
                self._agree_and_raise()
            except _GUARD_ERRORS as error:
                raise error.with_traceback(None) from error.__cause__

    # -- batches ---------------------------------------------------------------------------------------------
    def batch(self, batch_idx: int, dataloader_idx: int | None = None) -> _Batch:
        """Run one batch under the guard's grad context and check it when it ends (a context manager)."""
        self.batch_idx = batch_idx
        self.dataloader_idx = dataloader_idx
        # The loop that enters the batch is the evaluation step: its current line is in every `where`.
        self.steps.step_code = sys._getframe(1).f_code
        return self._batch_context

    def iterate(self, batches: Iterable[_T], start: int = 0, dataloader_idx: int | None = None) -> Iterator[_T]:
        """Yield each of ``batches`` inside :meth:`batch`, numbered from ``start``: ``for x in scope.iterate(loader):``
        is ``for i, x in enumerate(loader): with scope.batch(i):``, the loop's body being the batch.

        The next batch is fetched between batches, outside any, as in the two-line form. A batch ends when the loop
        asks for the next one (its findings raised there, at the loop's line), when the loop stops early (``break``,
        or an exception from the body: a ``for`` loop says neither to its iterator; the batch is checked, and what it
        found is recorded and raised when the scope ends, never lost in the middle), or at the latest when the scope
        ends. An exception thrown in with ``generator.throw`` is handled as ``with scope.batch(i)`` handles it.
        """
        if self._stack is None:
            raise RuntimeError("scope.iterate(...) runs inside its `with evaluating(...) as scope:` block")
        # The loop that calls iterate is the evaluation step, as for batch(): taken here, because the generator first
        # runs under whoever calls next() on it (a progress bar wrapping it).
        generator = self._iterate(batches, start, dataloader_idx, sys._getframe(1).f_code, self._stack)
        # A generator kept alive past its loop (held in a variable, or by an exception's traceback) is closed when the
        # scope ends, before the scope's own contexts: a batch still open then would otherwise leave its contexts
        # entered after the scope's.
        self._stack.callback(_close_generator, weakref.ref(generator))
        return generator

    def _iterate(
        self,
        batches: Iterable[_T],
        start: int,
        dataloader_idx: int | None,
        step_code: CodeType,
        stack: contextlib.ExitStack,
    ) -> Iterator[_T]:
        for batch_idx, batch in enumerate(batches, start):
            if self._stack is not stack:
                raise RuntimeError("scope.iterate(...) was resumed after its `with evaluating(...)` block ended")
            context = self.batch(batch_idx, dataloader_idx)
            self.steps.step_code = step_code
            try:
                context.__enter__()
            except _GUARD_ERRORS as error:
                raise error.with_traceback(None) from error.__cause__
            try:
                yield batch
            except GeneratorExit:
                # The loop stopped inside the batch. Raising here would be lost (printed as ignored by the garbage
                # collector) or would replace the body's own exception: the finding stays pending instead.
                try:
                    context.__exit__(None, None, None)
                except GradModeViolation as error:
                    self._pending = error.violation
                raise
            except BaseException as exc:  # thrown in: what `with scope.batch(i)` does with the body's exception
                try:
                    context.__exit__(type(exc), exc, exc.__traceback__)
                except _GUARD_ERRORS as error:
                    raise error.with_traceback(None) from exc
                raise
            try:
                context.__exit__(None, None, None)
            except _GUARD_ERRORS as error:
                raise error.with_traceback(None) from error.__cause__

    def run_step(self, step: Callable[..., _T], what: str, /, *args: Any, **kwargs: Any) -> _T:
        """Run a framework's step ``step(*args, **kwargs)`` for the batch announced with :meth:`begin_batch`: in the
        guard's context, its output checked (``what`` names it; :attr:`step_where` is the step's line), the batch
        checked when it returns. :meth:`batch` for a framework, installed as ``functools.partial(scope.run_step,
        step, what)``: the framework's call then enters one frame of the guard's, at every batch."""
        # The usual batch is decided here, with the reads _batch_start and _batch_end would make: inside a framework's
        # loop their two frames cost more than the reads. Any batch with something to do goes through them.
        if (
            self._quick_start
            and self._pending is None
            and not torch.is_grad_enabled()
            and torch.is_inference_mode_enabled() == self._inference
            and self.dataloader_idx in self._audited
        ):
            self._batches += 1
        else:
            try:
                self._batch_start()
            except _GUARD_ERRORS as error:
                raise error.with_traceback(None) from error.__cause__
        try:
            output = step(*args, **kwargs)
        except BaseException as exc:
            try:
                self._batch_end(exc)
            except _GUARD_ERRORS as error:
                raise error.with_traceback(None) from exc
            raise
        # The usual outputs (None, a loss that requires no grad) are decided here, without a call.
        if output is not None and (type(output) is not torch.Tensor or output.requires_grad):
            self.check_output(output, what, self.step_where)
        flags = self._quick_end_flags
        if (
            flags is not None
            and self._step_audit is None
            and self._step_context is None
            and self._pending is None
            and not torch.is_grad_enabled()
        ):
            for module_flags in flags:
                if module_flags["training"]:
                    break
            else:
                return output
        try:
            self._batch_end(None)
        except _GUARD_ERRORS as error:
            raise error.with_traceback(None) from error.__cause__
        return output

    def next_batch(
        self,
        batch_idx: int,
        step_code: CodeType | None,
        *,
        ends_one: bool,
        before: Callable[[], None] | None = None,
    ) -> None:
        """For a framework that sees only where each batch begins (transformers' loop): the open batch ends, when
        ``ends_one``, as :meth:`batch` ends it, and batch ``batch_idx`` begins as :meth:`batch` begins it, the step's
        code being ``step_code``; ``before()`` runs in between, the new batch's index set (the framework's stage
        begins at its first batch). The usual batch is decided inline, with the reads :meth:`run_step` makes."""
        if ends_one:
            flags = self._quick_end_flags
            usual = (
                flags is not None
                and self._step_audit is None
                and self._step_context is None
                and self._pending is None
                and not torch.is_grad_enabled()
            )
            if usual:
                for module_flags in flags:  # type: ignore[union-attr]
                    if module_flags["training"]:
                        usual = False
                        break
            if not usual:
                self.close_batch(None)
        self.batch_idx = batch_idx
        self.dataloader_idx = None
        self.steps.step_code = step_code
        if before is not None:
            before()
        if (
            self._quick_start
            and self._pending is None
            and not torch.is_grad_enabled()
            and torch.is_inference_mode_enabled() == self._inference
            and None in self._audited
        ):
            self._batches += 1
        else:
            self._batch_context.__enter__()

    def close_batch(self, exc: BaseException | None) -> None:
        """End the batch :meth:`next_batch` began, as :meth:`batch` ends one (``exc``: the exception that ends it)."""
        self._batch_context.__exit__(type(exc) if exc is not None else None, exc, None)

    def begin_batch(self, then: Callable[..., _T], batch: Any, batch_idx: int, dataloader_idx: int | None = None) -> _T:
        """A framework's batch begins: what is found from now on (its hooks included) belongs to it. Returns
        ``then(batch, batch_idx, dataloader_idx)``, the framework's own call made at that point (Lightning's
        ``_build_kwargs``); installed in its place as ``functools.partial(scope.begin_batch, then)``."""
        self.batch_idx = batch_idx
        self.dataloader_idx = dataloader_idx
        return then(batch, batch_idx, dataloader_idx)

    def end_batch(self, then: Callable[[], _T]) -> _T:
        """A framework's batch ends with ``then()``, its last call (after the batch's hooks): check grad mode, raise
        what is pending. Installed in the place of ``then`` as ``functools.partial(scope.end_batch, then)``."""
        result = then()
        if self._grad_boundaries and torch.is_grad_enabled():
            self._boundaries(self._grad_boundaries, "after the batch's hooks")
        if self._other_boundaries:
            self._read_boundaries("after the batch's hooks")
        if self._pending is not None:
            try:
                self.raise_pending()
            except _GUARD_ERRORS as error:
                raise error.with_traceback(None) from error.__cause__
        self.batch_idx = self.dataloader_idx = None
        return result

    def boundary(self, when: str) -> None:
        """A framework's stage boundary (e.g. "at the end of the stage"): check grad mode, raise what is pending."""
        if self._grad_boundaries and torch.is_grad_enabled():
            self._boundaries(self._grad_boundaries, when)
        if self._other_boundaries:
            self._read_boundaries(when)
        try:
            self.raise_pending()
        except _GUARD_ERRORS as error:
            raise error.with_traceback(None) from error.__cause__

    def _batch_start(self) -> None:
        # run_step and next_batch skip this and _batch_end for a batch with nothing to do, reading their conditions
        # inline: a new reason for work here or there needs its read in both (held by tests/test_scope.py's run_step
        # test and tests/hf/test_findings.py's later-batch test).
        self._batches += 1
        # Grad mode is read once here: found on, it is reported (not switched off: code that needs it keeps working);
        # off, the guard's inference mode is entered for the step where something outside it (a framework's fallback)
        # left no_grad; an inference mode found where the guard chose no_grad (a caller's) is never lowered. Entering a
        # context costs more than the rest of the per-batch work: only then.
        if self._other_boundaries:
            self._read_boundaries("at the start of the batch")
        if torch.is_grad_enabled():
            self._boundaries(self._grad_boundaries, "at the start of the batch")
        elif self._inference and not torch.is_inference_mode_enabled():
            self._step_context = grad_context(self.mode)
            self._step_context.__enter__()
        for check in self._batch_start_checks:
            check.batch_start()
        if self._pending is not None:
            self.raise_pending()
        if self.dataloader_idx not in self._audited:
            self._audited.add(self.dataloader_idx)
            self._step_audit = OpAudit()
            self._step_audit.__enter__()

    def _batch_end(self, exc: BaseException | None) -> None:
        if self._step_audit is not None:
            audit, self._step_audit = self._step_audit, None
            audit.__exit__(None, None, None)
        if self._step_context is not None:
            context, self._step_context = self._step_context, None
            context.__exit__(None, None, None)
        if exc is not None:
            explanation = explain_inference_error(exc, self.choice)
            if explanation is not None:
                raise GradModeContextError(explanation) from exc
            note = inference_error_note(exc, self.choice)
            if note is not None:
                # Not the guard's doing: PyTorch's error goes on as it is, with the guard's explanation beside it.
                if hasattr(exc, "add_note"):
                    exc.add_note(note)
                else:
                    log.error("%s", note)
            return
        for when, batch_end in self._batch_end_calls:
            if when is None or when():
                batch_end()
        if self._pending is not None:
            self.raise_pending()

    def check_output(self, obj: Any, what: str = "step output", where: str | None = None) -> None:
        """Show every check what a step returned (e.g. a tensor inside ``obj`` that requires grad keeps a graph or a
        parameter alive)."""
        for check in self._output_checks:
            check.step_output(obj, what, where)

    @staticmethod
    def _boundaries(calls: tuple[Callable[[str], None], ...], when: str) -> None:
        for boundary in calls:
            boundary(when)

    def _read_boundaries(self, when: str) -> None:
        for read, boundary in self._other_boundaries:
            if read is None or read():
                boundary(when)

    # -- what checks use -------------------------------------------------------------------------------------
    def where(self, skip: int = 1) -> str | None:
        """The user's lines behind the caller, the evaluation step's current line included."""
        return blame_where(skip + 1, step=self.steps)

    def wants(self, kind: str) -> bool:
        """False when ``kind`` was already reported for the current batch."""
        return (kind, self.dataloader_idx, self.batch_idx) not in self._seen

    def listen_functional(self, kind: str, listener: Callable[[str, str | None], None]) -> None:
        """``listener(call, hint)`` hears of every call that trains whatever the module flags say (a dropout kernel,
        attention with dropout, batch norm updating statistics) reported as ``kind``."""
        self._functional.setdefault(kind, []).append(listener)

    def functional_call(self, kind: str, call: str, hint: str | None = None) -> None:
        """A call that trains ran in this scope's thread, or in another one inside this scope's model (from the
        probes and the operator audit)."""
        for listener in self._functional.get(kind, ()):
            listener(call, hint)

    def listen_train_calls(self, listener: Callable[[nn.Module, Callable[[], str | None]], None]) -> None:
        self._train_listeners.append(listener)

    def _train_called(self, module: nn.Module, where: Callable[[], str | None]) -> None:
        if id(module) in self.modes.names:
            for listener in self._train_listeners:
                listener(module, where)

    def calling_module(self) -> tuple[str, nn.Module] | None:
        """(name, module) of the innermost watched module whose code runs further up this thread's stack, if any,
        however many helper functions lie between (the whole stack is read: this runs only for a call that trains)."""
        names = self.modes.names
        frame: FrameType | None = sys._getframe(1)
        while frame is not None:
            code = frame.f_code
            # A method's frame (a module's forward, its helper methods): only those have their locals read.
            if code.co_argcount and code.co_varnames[0] == "self":
                owner = frame.f_locals.get("self")
                if isinstance(owner, nn.Module) and id(owner) in names:
                    return names[id(owner)], owner
            frame = frame.f_back
        return None

    def graph_saved(self, nbytes: int, allowed: bool) -> None:
        if not allowed:
            self.report.add_saved_bytes(self.stage, nbytes)

    def count_allowed(self, reason: str) -> None:
        self.report.count_allowed(self.stage, reason)

    def found(
        self,
        kind: str,
        *,
        module: str | None = None,
        where: str | None = None,
        detail: str = "",
        hint: str | None = None,
    ) -> None:
        """Record one violation (at most one per kind and batch) and apply the warn policy to it. Never raises:
        under ``raise`` the first one is raised at the next check point (:meth:`raise_pending`)."""
        key = (kind, self.dataloader_idx, self.batch_idx)
        with self._lock:
            if key in self._seen:
                return
            self._seen.add(key)
            violation = self._finding(kind, module, where, detail, hint)
            self.report.record(violation)
            self._run_counts[kind] += 1
            # Only a violation that can be raised is kept: a clean batch then finds nothing pending under record/warn.
            if self.policy.raises and (self._pending is None or _raises_before(violation, self._pending)):
                self._pending = violation
        self.policy.handle(violation)

    def noted(
        self,
        kind: str,
        *,
        module: str | None = None,
        where: str | None = None,
        detail: str = "",
        hint: str | None = None,
    ) -> None:
        """Note a risk (a kind of :data:`~gradmode_plugin.kinds.RISKS`): kept in the report's ``risks`` and logged
        on rank zero; never a violation, never raised, whatever the policy."""
        risk = self._finding(kind, module, where, detail, hint)
        self.report.note(risk)
        if self.ranks.rank == 0:
            log.warning("gradmode: a risk, not a violation (nothing was stopped): %s", risk.describe())

    def _finding(self, kind: str, module: str | None, where: str | None, detail: str, hint: str | None) -> Violation:
        """A finding of ``kind`` at the current stage, batch and rank, its hint ending with the rules that find it
        before the run."""
        return Violation(
            kind=kind,
            stage=self.stage,
            batch_idx=self.batch_idx,
            module=module,
            where=where,
            rank=self.ranks.rank,
            hint=(hint or HINTS[kind]) + BEFORE_THE_RUN[kind],
            detail=detail,
            dataloader_idx=self.dataloader_idx,
        )

    def raise_pending(self) -> None:
        """Under ``raise``, raise the first violation not raised yet (with several ranks: at the stage end)."""
        if self._pending is None or not self.policy.raises or self.ranks.several:
            return
        violation, self._pending = self._pending, None
        raise GradModeViolation(violation)

    # -- many ranks ------------------------------------------------------------------------------------------
    def _agree_and_raise(self) -> None:
        """One all-reduce per stage with several ranks: every rank learns every rank's counts; under ``raise``
        all raise together."""
        table = agree(self.ranks, self._run_counts)
        self.report.add_rank_counts(self.stage, self.ranks.rank, table)
        if not self.ranks.several:
            self.raise_pending()
            return
        found = offenders(table)
        if not self.policy.raises or not found:
            return
        own, self._pending = self._pending, None
        first_rank, first_kinds = next(iter(found.items()))
        violation = own or Violation(
            kind=first_kinds[0],
            stage=self.stage,
            batch_idx=None,
            rank=first_rank,
            hint=HINTS[first_kinds[0]],
            detail=f"found on rank {first_rank}",
        )
        message = describe_offenders(self.stage, found)
        mine = own.describe() if own else f"this rank ({self.ranks.rank}) found none; see rank {first_rank}"
        message += "\n" + mine
        raise GradModeViolation(violation, message)


_ORDER = {kind: i for i, kind in enumerate(KINDS)}
#: The guard's own errors: raised again at the outermost frame of the guard's in a call with their traceback cut
#: there, so the user's traceback ends at one frame of the guard's, not at the several that found the problem.
_GUARD_ERRORS = (GradModeViolation, GradModeContextError)
#: The code of the frame that calls a framework's step (see StepLocator.marker_code).
_RUN_STEP = EvaluationScope.run_step.__code__


def _resolve_on_entry(grad_mode: str, model: nn.Module) -> GradContextChoice:
    """``grad_mode`` for a plain scope, from what the model is when the scope is entered: ``no_grad`` for a model
    in training mode (evaluation inside a training loop, where inference tensors could not be reused)."""
    why = (
        f"the model ({type(user_module(model)).__name__}) was in training mode when the scope was entered, as inside a "
        "training loop: no_grad keeps what evaluation makes usable by training code"
        if model.training
        else None
    )
    return resolve_grad_mode(grad_mode, inside_training=False, no_inference_reason=why)


def _raises_before(new: Violation, pending: Violation) -> bool:
    """Of two findings in the same batch, the one earlier in the registry is raised: the cause (a module switched
    to training mode) before its effect (statistics updated by its forward pass, found first)."""
    same_batch = (new.batch_idx, new.dataloader_idx) == (pending.batch_idx, pending.dataloader_idx)
    return same_batch and _ORDER.get(new.kind, 99) < _ORDER.get(pending.kind, 99)


def _close_generator(ref: weakref.ReferenceType[Iterator[Any]]) -> None:
    generator = ref()
    # Only one suspended inside a batch: one never started raises if it is started after the scope.
    if generator is not None and inspect.getgeneratorstate(generator) == inspect.GEN_SUSPENDED:  # type: ignore[arg-type]
        generator.close()  # type: ignore[attr-defined]


class _Batch:
    """The per-batch context: a small class, not a generator, because it runs once per batch."""

    __slots__ = ("_scope",)

    def __init__(self, scope: EvaluationScope) -> None:
        self._scope = scope

    def __enter__(self) -> None:
        try:
            self._scope._batch_start()
        except _GUARD_ERRORS as error:
            raise error.with_traceback(None) from error.__cause__

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        scope = self._scope
        try:
            scope._batch_end(exc)
        except _GUARD_ERRORS as error:
            raise error.with_traceback(None) from error.__cause__
        finally:
            # The batch is over: what is found before the next one (or after the loop) belongs to no batch.
            scope.batch_idx = scope.dataloader_idx = None


def evaluating(
    model: nn.Module,
    grad_mode: str = "auto",
    allow_train: tuple[str, ...] | list[str] | str = (),
    on_violation: str = "raise",
    *,
    check_params: bool = False,
    stage: str = "evaluation",
    report: Report | None = None,
) -> EvaluationScope:
    """Evaluate a plain PyTorch model under the guard.

    Args:
        model: the module to evaluate; ``eval()`` is called on entry and every flag is restored on exit.
        grad_mode: ``"auto"`` (``no_grad`` when the model was in training mode on entry, as inside a training loop
            where inference tensors could not be reused; ``inference_mode`` otherwise), ``"inference"`` or
            ``"no_grad"``.
        allow_train: glob patterns over ``model.named_modules()`` names put in training mode (with their children)
            and never checked, e.g. ``"head.mc_dropout"``.
        on_violation: ``"raise"`` (at the first offending batch), ``"warn"`` or ``"record"``.
        check_params: also assert that evaluation wrote or replaced no parameter or buffer (keeps a copy of each).
        stage: the name findings and the report give the stage.
        report: a report to fill (a new one by default, as ``scope.report``).

    A clean run prints nothing. To see what it checked, print ``scope.report.summary()`` after the block (stages,
    batches, grad context and why, violations); its INFO lines (the grad context chosen and why) go to the
    ``gradmode_plugin`` logger, shown by ``logging.basicConfig(level=logging.INFO)`` or a handler of your own.

    Example:
        >>> model = nn.Sequential(nn.Linear(4, 2), nn.Dropout())
        >>> with evaluating(model, grad_mode="no_grad") as scope:
        ...     with scope.batch(0):
        ...         y = model(torch.randn(3, 4))
        >>> y.requires_grad, scope.report.total
        (False, 0)
    """
    options = GuardOptions(grad_mode, on_violation, allow_train, check_params)  # type: ignore[arg-type]
    return EvaluationScope(model, options, stage=stage, report=report, ranks=Ranks.current())
