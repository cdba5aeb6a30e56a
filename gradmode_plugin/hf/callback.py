"""The Hugging Face adapter: ``HFGradModeGuard``, a ``TrainerCallback`` over
:class:`~gradmode_plugin.scope.EvaluationScope`, for ``transformers.Trainer`` and its subclasses
(``Seq2SeqTrainer``, TRL's trainers).

How it attaches, and what it never touches:

- A callback alone cannot be batch-exact (it never receives the trainer, and nothing fires before a batch): while a
  guard exists, transformers' own ``Trainer.evaluation_loop`` and its ``find_batch_size`` global are replaced
  process-wide (:mod:`gradmode_plugin.hf._internals`). A Trainer whose callbacks hold a guard then runs each
  ``evaluation_loop`` call (``evaluate()``, ``predict()``, the evaluation inside ``train()``) in one evaluation scope,
  stage ``"validation"`` or ``"predict"``; each batch is a per-batch scope from its ``find_batch_size`` (the first
  thing the loop does with a batch, before ``prediction_step``, whatever subclass overrides it) to the next batch's
  or the end of the loop. What ``prediction_step`` returned is checked at ``on_prediction_step``. Any other Trainer
  runs as it would without the guard.
- The modes are transformers': its ``model.eval()`` sets them, the guard reports a module still training after it
  (never switches it), and leaves them as transformers leaves them (in eval after ``evaluate()``; ``train()``'s
  next step calls ``model.train()``). The grad context is transformers' ``no_grad`` (``grad_mode="auto"``) or, asked
  for, ``inference_mode``, over the whole loop.
- Nothing is written onto the Trainer, its arguments, its model or the dataloader; nothing is saved in checkpoints.
"""

from __future__ import annotations

import logging
import threading
import warnings
import weakref
from types import CodeType
from typing import Any, Final

from transformers import TrainerCallback

from gradmode_plugin import dropin
from gradmode_plugin.blame import ORIGINS
from gradmode_plugin.distributed import Ranks
from gradmode_plugin.hf import _internals as internals
from gradmode_plugin.modes import resolve_grad_mode
from gradmode_plugin.options import GuardOptions
from gradmode_plugin.policy import Policy
from gradmode_plugin.report import Report
from gradmode_plugin.scope import EvaluationScope
from gradmode_plugin.violations import GradModeWarning

log = logging.getLogger("gradmode_plugin")

#: Why ``grad_mode="auto"`` is ``no_grad``: transformers' own choice.
HF_REASON: Final[str] = "transformers' Trainer runs prediction_step under torch.no_grad()"
#: What sets the modes before the first batch (named in findings about a module still training).
EVAL_CALL: Final[str] = "transformers' Trainer.evaluation_loop: model.eval()"
_WARNED_FINDINGS: Final[int] = 5


class HFGradModeGuard(TrainerCallback):
    """Runs every evaluation of a ``transformers.Trainer`` (``evaluate()``, ``predict()`` and the evaluation inside
    ``train()``) under the guard, batch by batch: no autograd graph built, no module training, no dropout or
    statistics update, each finding naming the stage, the batch and your line.

    Args:
        grad_mode: ``"auto"`` (transformers' own ``no_grad``), ``"inference"`` or ``"no_grad"``.
        on_violation: ``"raise"`` (at the first offending batch), ``"warn"`` or ``"record"``; all fill
            :attr:`report`.
        allow_train: glob patterns over ``model.named_modules()`` names allowed to train during evaluation (put in
            training mode right after transformers' ``model.eval()``), never reported.
        check_params: also assert that evaluation changed or replaced no parameter or buffer.

    Example::

        guard = HFGradModeGuard()
        trainer = Trainer(model, args, train_dataset=train, eval_dataset=val, callbacks=[guard])
        trainer.train()
        print(guard.report.summary())
    """

    def __init__(
        self,
        *,
        grad_mode: str = "auto",
        on_violation: str = "raise",
        allow_train: tuple[str, ...] | list[str] | str = (),
        check_params: bool = False,
    ) -> None:
        self.options = GuardOptions(grad_mode, on_violation, allow_train, check_params)  # type: ignore[arg-type]
        self.report = Report()
        self.policy = Policy(self.options.on_violation)
        #: Set for the guard ``GRADMODE_GUARD`` gives every Trainer: it stands aside for a guard the user passed.
        self.from_environment = False
        #: Whether a stage that recorded violations warns about them at its end (off under ``pytest --gradmode``).
        self.warn_at_end = True
        #: How many evaluation_loop calls of its Trainer this guard saw (run or stood aside), and at the last event.
        self._stages_run = 0
        self._stages_at_event = 0
        self._inert = False
        # The process-wide patches live while a guard does: released when this guard is collected.
        weakref.finalize(self, internals.acquire(_run_loop, _batch_starts))

    @property
    def grad_mode(self) -> str:
        return self.options.grad_mode

    @property
    def on_violation(self) -> str:
        return self.options.on_violation

    # -- one evaluation_loop call ----------------------------------------------------------------------------
    def _run_stage(self, original: Any, trainer: Any, dataloader: Any, description: str, args: Any, kwargs: Any) -> Any:
        stage = "predict" if description == "Prediction" else "validation"
        choice = resolve_grad_mode(
            self.options.grad_mode,
            inside_training=internals.inside_training(trainer),
            no_inference_reason=HF_REASON,
            framework_mode="no_grad",
        )
        scope = EvaluationScope(
            trainer.model,
            self.options,
            stage=stage,
            report=self.report,
            policy=self.policy,
            context=choice,
            ranks=Ranks.current(),
            framework=True,
        )
        total_before, since = self.report.total, len(self.report.violations)
        stack = _stages()
        with scope:
            run = _Stage(self, scope, _step_code(trainer))  # once the scope is entered (entering resets it)
            stack.append(run)
            try:
                result = original(trainer, dataloader, description, *args, **kwargs)
            except BaseException as exc:
                run.close_batch(exc)
                raise
            finally:
                stack.pop()
                run.loop_frame = None
            run.close_batch(None)
            run.begin()  # a loop of no batch still counts as a run
            scope.boundary("at the end of the stage")
        self._after_stage(scope, run.batches, total_before, since)
        return result

    def _after_stage(self, scope: EvaluationScope, batches: int, total_before: int, since: int) -> None:
        """One INFO line (rank zero) saying what the silence covers; under ``record``, one warning listing what the
        stage found (``warn`` warned as it went, ``raise`` raised)."""
        new = self.report.total - total_before
        if scope.ranks.rank != 0:
            return
        log.info("gradmode: %s checked %d batch(es): %d violation(s)", scope.stage, batches, new)
        if not new or self.policy.on_violation != "record" or not self.warn_at_end:
            return
        findings = self.report.findings(since)
        lines = [f"gradmode: {new} violation(s) during {scope.stage} (on_violation='record'):"]
        lines += [f.describe().replace("\n", "\n  ") for f in findings[:_WARNED_FINDINGS]]
        if len(findings) > _WARNED_FINDINGS:
            lines.append(f"and {len(findings) - _WARNED_FINDINGS} more distinct finding(s)")
        lines.append("all of them: guard.report (summary(), to_json())")
        warnings.warn("\n".join(lines), GradModeWarning, stacklevel=2)

    # -- TrainerCallback events ------------------------------------------------------------------------------
    def on_prediction_step(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        stack = _stages()
        if stack and stack[-1].guard is self:
            stack[-1].check_step_output()

    def on_evaluate(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self._stage_seen("evaluate()")

    def on_predict(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
        self._stage_seen("predict()")

    def _stage_seen(self, call: str) -> None:
        """An evaluate()/predict() ended: it must have run through transformers' evaluation_loop, or nothing was
        checked (a subclass whose evaluation_loop does not call super()), which is said, never passed over."""
        if self._stages_run == self._stages_at_event and not self._inert:
            log.warning(
                "gradmode: %s ended without running transformers' Trainer.evaluation_loop (a subclass overrides it "
                "without calling super().evaluation_loop): nothing of it was checked",
                call,
            )
        self._stages_at_event = self._stages_run


class _Stage:
    """One guarded ``evaluation_loop`` call: its scope and its open batch."""

    def __init__(self, guard: HFGradModeGuard, scope: EvaluationScope, step_code: Any) -> None:
        self.guard = guard
        self.scope = scope
        self.step_code = step_code
        scope.step_where = _location(step_code) if step_code is not None else None
        self.batches = 0
        #: Whether a batch is open (begun, not yet ended).
        self._open = False
        #: transformers' evaluation_loop frame of this stage, found at its first step output (the same frame for the
        #: whole loop); dropped when the stage ends.
        self.loop_frame: Any = None

    def begin(self) -> None:
        """transformers' ``model.eval()`` has run: the stage's run begins, modules still training are reported."""
        if not self.scope.started:
            self.scope.begin()
            self.scope.modes_ready(EVAL_CALL)

    def next_batch(self) -> None:
        index = self.batches
        self.batches += 1
        # The step's frame (the user's prediction_step or compute_loss) is the step line of every finding.
        ends_one, self._open = self._open, True
        self.scope.next_batch(
            index, self.step_code, ends_one=ends_one, before=None if self.scope.started else self.begin
        )

    def close_batch(self, exc: BaseException | None) -> None:
        if self._open:
            self._open = False
            self.scope.close_batch(exc)

    def check_step_output(self) -> None:
        frame = self.loop_frame
        if frame is None:
            frame = self.loop_frame = internals.loop_frame()
            if frame is None:
                return
        outputs = tuple(map(frame.f_locals.get, internals.STEP_OUTPUT_LOCALS))
        for value in outputs:
            if isinstance(value, (tuple, list, dict)) or getattr(value, "requires_grad", False):
                self.scope.check_output(outputs, "prediction_step output", self.scope.step_where)
                return


_local = threading.local()


def _stages() -> list[_Stage]:
    stages = getattr(_local, "stages", None)
    if stages is None:
        stages = _local.stages = []
    return stages


def _guard_of(trainer: Any) -> HFGradModeGuard | None:
    """The guard that runs for ``trainer``: the first the user passed, else the one ``GRADMODE_GUARD`` gave it."""
    guards = [c for c in internals.callbacks_of(trainer) if isinstance(c, HFGradModeGuard) and not c._inert]
    for guard in guards:
        guard._stages_run += 1
    own = [g for g in guards if not g.from_environment]
    return (own or guards or [None])[0]


def _run_loop(original: Any, trainer: Any, dataloader: Any, description: str, args: Any, kwargs: Any) -> Any:
    guard = _guard_of(trainer)
    if guard is None:
        return original(trainer, dataloader, description, *args, **kwargs)
    return guard._run_stage(original, trainer, dataloader, description, args, kwargs)


def _batch_starts() -> None:
    stack = _stages()
    if stack:
        stack[-1].next_batch()


def _location(code: CodeType) -> str:
    return f"{code.co_filename}:{code.co_firstlineno} in {code.co_name}"


def _step_code(trainer: Any) -> CodeType | None:
    """The code of the user's own step: their ``prediction_step`` override, else their ``compute_loss``; None when
    both are transformers' (findings then name the user's model code only)."""
    for name in ("prediction_step", "compute_loss"):
        function = getattr(type(trainer), name, None)
        code = getattr(function, "__code__", None)
        if code is not None and ORIGINS.of(code.co_filename) == "own":
            return code
    return None


class EnvironmentGuard(HFGradModeGuard):
    """The guard ``GRADMODE_GUARD`` gives every Trainer (through transformers' ``DEFAULT_CALLBACKS``): options from
    the environment; it stands aside for a guard the user passed."""

    def __init__(self) -> None:
        options = dropin.options_from_environment()
        inert = options is None  # GRADMODE_GUARD off when this Trainer was built: it runs unguarded
        options = options or GuardOptions(on_violation="record")
        super().__init__(
            grad_mode=options.grad_mode,
            on_violation=options.on_violation,
            allow_train=options.allow_train,
            check_params=options.check_params,
        )
        self.from_environment = True
        self._inert = inert
        if not inert:
            dropin._collect(self)  # type: ignore[arg-type]


def register_environment_guard() -> Any:
    """Every Trainer built from now on gets an :class:`EnvironmentGuard`; returns the removal (exact)."""
    return internals.register_default_callback(EnvironmentGuard)
