"""The Lightning adapter: ``GradModeGuard``, a thin callback over :class:`~gradmode_plugin.scope.EvaluationScope`.

How it attaches, and what it never touches:

- For the length of a ``fit``/``validate``/``test``/``predict`` call, each evaluation loop's ``run`` is wrapped
  (on the loop object), so one *lexical* scope spans each stage and unwinds in order, even when a step raises.
- Inside a stage, Lightning's own objects report to the scope: the loop's batch bookkeeping (a batch starts before
  its first hook and ends after its last) and the strategy's step method (the step runs in the guard's context and
  is checked when it returns). The modes are the model's own: Lightning's ``on_*_model_eval`` hook (its default
  calls ``eval()``; an override runs instead) sets them; the guard's ``on_*_start`` hook, which Lightning calls
  right after it, puts the ``allow_train`` modules in training mode and reports every other module still
  training. During ``fit`` the precision plugin's clipping runs under ``no_grad``. (Values passed to ``self.log``
  need no check: Lightning stores a detached copy, and the graph that computed one is ``graph_built``.)
- Nothing is written onto the LightningModule, its submodules, methods or hparams: a model can be copied,
  pickled, saved or scripted in the middle of a stage, and the copy carries nothing of the guard.
- Lightning's choices stand: ``grad_mode="auto"`` follows ``Trainer(inference_mode=...)`` and Lightning's own
  fallbacks; a module the user's hook or code leaves training is reported, never switched.

Every Lightning internal used lives in :mod:`gradmode_plugin.lightning._internals`.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from typing_extensions import override

from gradmode_plugin import distributed
from gradmode_plugin.blame import code_location
from gradmode_plugin.checks.inference_tensor import explain_training_failure
from gradmode_plugin.distributed import Ranks
from gradmode_plugin.lightning import _internals as internals
from gradmode_plugin.modes import resolve_grad_mode
from gradmode_plugin.options import GuardOptions, validate_flag, validate_keywords
from gradmode_plugin.policy import Policy
from gradmode_plugin.report import Report, checked_line
from gradmode_plugin.scope import EvaluationScope
from gradmode_plugin.violations import GradModeViolation

if TYPE_CHECKING:  # either namespace's classes at run time; these for type checkers
    from lightning.pytorch import LightningModule, Trainer

log = logging.getLogger("gradmode_plugin")
#: At most this many distinct findings are described in the end-of-run warning (the report holds all).
_WARNED_FINDINGS: Final[int] = 5


#: The evaluation stage each entry runs (named in the clean-run line when it checked nothing).
_ENTRY_STAGES: Final[dict[str, str]] = {
    "fit": "validation",
    "validate": "validation",
    "test": "test",
    "predict": "predict",
}

_BASES = internals.callback_bases()


class _NamesItsArguments(type(_BASES[0])):  # type: ignore[misc]
    """The guard's metaclass: a misspelt keyword gets the closest argument named ("did you mean"), before Python's own
    TypeError. Not a ``__new__``, which LightningCLI (jsonargparse) would read the arguments from instead of
    ``__init__``; the class's signature stays its ``__init__``'s."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        accepted = _keywords(cls)
        if accepted is not None:
            validate_keywords(cls.__name__, kwargs, accepted)
        return super().__call__(*args, **kwargs)

    @property
    def __signature__(cls) -> inspect.Signature:
        init = inspect.signature(cls.__init__)  # type: ignore[misc]
        return init.replace(parameters=list(init.parameters.values())[1:])


@functools.cache
def _keywords(cls: type) -> tuple[str, ...] | None:
    """The keywords ``cls.__init__`` takes (a subclass's own included); None when it takes any (``**kwargs``)."""
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]  # type: ignore[misc]
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return tuple(p.name for p in parameters if p.kind is not inspect.Parameter.VAR_POSITIONAL)


class GradModeGuard(*_BASES, metaclass=_NamesItsArguments):  # type: ignore[misc]
    """Runs validation, test and predict under ``eval()`` and ``no_grad``/``inference_mode`` and asserts, batch by
    batch, that no autograd graph is built and no module trains; runs gradient clipping under ``no_grad``.

    Args:
        grad_mode: ``"auto"`` (what Lightning chooses: ``inference_mode`` for stand-alone validate/test/predict,
            ``no_grad`` for validation inside ``fit``, with ``Trainer(inference_mode=False)``, and for gloo, FSDP and
            XLA), ``"inference"`` or ``"no_grad"`` (the guard's choice, which then overrides Lightning's).
        on_violation: ``"raise"`` (at the first offending batch), ``"warn"`` (once per kind, stage and module) or
            ``"record"`` (only collect). All three fill :attr:`report`.
        allow_train: glob patterns over ``model.named_modules()`` names allowed to train during evaluation (e.g.
            ``"head.mc_dropout"``), with their children: put in training mode (their ``train()``) right after the
            model's ``on_*_model_eval`` hook, and never reported.
        check_params: also assert that evaluation changed or replaced no parameter or buffer (keeps a copy of each).
        log_metrics: log the violation counts of every stage run to the Trainer's loggers
            (``gradmode/<stage>/violations``, and ``gradmode/<stage>/<kind>`` for each kind found).

    Example::

        guard = GradModeGuard(allow_train=("head.mc_dropout",))
        trainer = Trainer(callbacks=[guard])
        trainer.fit(model)
        print(guard.report.summary())
    """

    def __init__(
        self,
        *,
        grad_mode: str = "auto",
        on_violation: str = "raise",
        allow_train: tuple[str, ...] | list[str] | str = (),
        check_params: bool = False,
        log_metrics: bool = False,
    ) -> None:
        super().__init__()
        self.options = GuardOptions(grad_mode, on_violation, allow_train, check_params)
        self.log_metrics = validate_flag("log_metrics", log_metrics)
        self.report = Report()
        self.policy = Policy(self.options.on_violation)
        #: Set by the environment-variable factories (gradmode_plugin.dropin): such a guard stands aside for a
        #: guard the user passed, and keeps nothing in checkpoints.
        self.from_environment = False
        #: Whether the end of a fit/validate/test/predict that recorded violations warns about them; off for the
        #: guards of ``pytest --gradmode``, whose findings the plugin reports.
        self.warn_at_end = True
        self._attached: contextlib.ExitStack | None = None
        self._scope: EvaluationScope | None = None
        self._start: tuple[int, dict[str, dict[str, int]], dict[str, tuple[int, int]]] = (0, {}, {})

    def __getstate__(self) -> dict[str, Any]:
        # A copy or pickle (of the Trainer, mid-stage) is a guard attached to nothing: the stage's scope and the
        # touchpoints stay with the guard that entered them.
        state = dict(self.__dict__)
        state["_attached"] = state["_scope"] = None
        return state

    @property
    def grad_mode(self) -> str:
        return self.options.grad_mode

    @property
    def on_violation(self) -> str:
        return self.options.on_violation

    @property
    def allow_train(self) -> tuple[str, ...]:
        return self.options.allow_train

    @property
    def check_params(self) -> bool:
        return self.options.check_params

    @property
    @override
    def state_key(self) -> str:
        # A guard from GRADMODE_GUARD may sit beside the user's own: Lightning wants distinct keys.
        return "GradModeGuard[GRADMODE_GUARD]" if self.from_environment else "GradModeGuard"

    # -- attach / detach for one fit, validate, test or predict ----------------------------------------------
    @override
    def setup(self, trainer: Trainer, pl_module: LightningModule, stage: str) -> None:
        self._detach()
        if self._stands_aside(trainer):
            return
        internals.require_support(trainer)
        stack = contextlib.ExitStack()
        try:
            for loop in internals.evaluation_loops(trainer):
                stack.enter_context(internals.wrapped_run(loop, self._run_wrapper(trainer, loop)))
            if stage == "fit":
                stack.enter_context(internals.clipping_under_no_grad(trainer))
        except BaseException:
            stack.close()
            raise
        self._attached = stack
        self._start = (len(self.report.violations), self.report.counts, self.report.checked())

    @override
    def teardown(self, trainer: Trainer, pl_module: LightningModule, stage: str) -> None:
        if self._attached is not None:
            self._warn_unseen(trainer, str(getattr(stage, "value", stage)))
        self._detach()

    @override
    def on_exception(self, trainer: Trainer, pl_module: LightningModule, exception: BaseException) -> None:
        self._detach()
        explanation = explain_training_failure(exception, self.report.risks)
        if explanation is not None:
            # Lightning re-raises the exception after this hook: the explanation travels with it as a note
            # (Python >= 3.11) and is logged, so it is seen where the error is.
            if hasattr(exception, "add_note"):
                exception.add_note(explanation)
            if trainer.global_rank == 0:
                log.error("%s", explanation)

    def _detach(self) -> None:
        if self._attached is not None:
            self._attached.close()
            self._attached = None

    def _stands_aside(self, trainer: Any) -> bool:
        if not self.from_environment:
            return False
        own = [c for c in trainer.callbacks if isinstance(c, GradModeGuard) and not c.from_environment]
        if own:
            log.info("gradmode: the GradModeGuard in the callbacks runs; the one from GRADMODE_GUARD stands aside")
        return bool(own)

    # -- one stage -------------------------------------------------------------------------------------------
    def _new_scope(self, trainer: Any, loop: Any, stage: str) -> EvaluationScope:
        framework_mode, no_inference_reason = internals.framework_context(trainer, loop)
        choice = resolve_grad_mode(
            self.grad_mode,
            inside_training=internals.inside_fit(trainer),
            no_inference_reason=no_inference_reason,
            framework_mode=framework_mode,
        )
        several = trainer.world_size > 1 and distributed.initialized()
        ranks = Ranks(
            trainer.global_rank,
            trainer.world_size,
            internals.strategy_sum(trainer) if several else None,
            trainer.strategy.root_device,
        )
        return EvaluationScope(
            trainer.lightning_module,
            self.options,
            stage=stage,
            report=self.report,
            policy=self.policy,
            context=choice,
            ranks=ranks,
            framework=True,
        )

    def _run_wrapper(self, trainer: Any, loop: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        def make(run: Callable[..., Any]) -> Callable[..., Any]:
            def guarded_run(*args: Any, **kwargs: Any) -> Any:
                stage = internals.stage_name(trainer)
                scope = self._new_scope(trainer, loop, stage)
                explicit = None if self.grad_mode == "auto" else scope.mode == "inference"
                with contextlib.ExitStack() as stack:
                    stack.enter_context(scope)
                    hooks = _Hooks(scope, internals.user_step(trainer, stage))
                    stack.enter_context(internals.stage_touchpoints(trainer, loop, stage, hooks, explicit))
                    self._scope = scope
                    stack.callback(setattr, self, "_scope", None)
                    result = run(*args, **kwargs)
                    fetched = internals.batches_fetched(loop)
                    if fetched is not None:
                        scope.fetched(fetched)
                self._log_counts(trainer, stage, scope)
                return result

            return guarded_run

        return make

    def _log_counts(self, trainer: Any, stage: str, scope: EvaluationScope) -> None:
        if not self.log_metrics or stage == "sanity_check" or not trainer.loggers or not scope.started:
            return
        counts = self.report.stage(stage).counts
        metrics = {f"gradmode/{stage}/violations": float(sum(counts.values()))}
        metrics.update({f"gradmode/{stage}/{kind}": float(n) for kind, n in counts.items() if n})
        for logger in trainer.loggers:
            logger.log_metrics(metrics, step=trainer.global_step)

    def _warn_unseen(self, trainer: Any, entry: str) -> None:
        """At the end of a fit/validate/test/predict with recorded or warned violations: one warning on rank
        zero, so they are seen even without a logger."""
        since, before, batches_before = self._start
        self._log_checked(trainer, entry, batches_before)
        found = {
            stage: {kind: n - before.get(stage, {}).get(kind, 0) for kind, n in counts.items()}
            for stage, counts in self.report.counts.items()
        }
        found = {stage: {k: n for k, n in counts.items() if n} for stage, counts in found.items()}
        found = {stage: counts for stage, counts in found.items() if counts}
        if not found or self.policy.raises or not self.warn_at_end:
            return
        lines = [f"gradmode: violations during {entry} (on_violation={self.on_violation!r}):"]
        for stage, counts in found.items():
            lines.append(f"  {stage}: " + ", ".join(f"{kind}={n}" for kind, n in counts.items()))
        findings = self.report.findings(since)
        for finding in findings[:_WARNED_FINDINGS]:
            lines.append(finding.describe().replace("\n", "\n  "))
        if len(findings) > _WARNED_FINDINGS:
            lines.append(f"and {len(findings) - _WARNED_FINDINGS} more distinct finding(s)")
        lines.append("all of them: guard.report (summary(), to_json())")
        internals.rank_zero_warn(trainer, "\n".join(lines))

    def _log_checked(self, trainer: Any, entry: str, batches_before: dict[str, tuple[int, int]]) -> None:
        """One INFO line on rank zero after a fit/validate/test/predict: stages, batches checked (and step calls, where
        steps fetched their own batches) and violations, so a clean run says what its silence covers; a run that
        checked nothing (``limit_val_batches=0``) says 0 batches of its stage."""
        if trainer.global_rank != 0:
            return
        checked = {
            stage: (batches - batches_before.get(stage, (0, 0))[0], steps - batches_before.get(stage, (0, 0))[1])
            for stage, (batches, steps) in self.report.checked().items()
            if (batches, steps) != batches_before.get(stage, (0, 0))
        }
        violations = self.report.total - sum(sum(c.values()) for c in self._start[1].values())
        # Through Lightning's own rank-zero logging: a user who sees Lightning's INFO lines sees this one.
        line = checked_line(entry, checked or {_ENTRY_STAGES.get(entry, entry): (0, 0)}, violations)
        internals.rank_zero_info(trainer, line)

    def _stage_start(self, trainer: Any) -> None:
        """Lightning ran the model's eval hook: the guard must be inside that stage, or the run is unguarded. The
        run begins; the allowed modules train; a module the hook left training is reported."""
        if self._attached is None:
            return
        scope = self._scope
        if scope is None:
            raise internals.not_entered(trainer, "the guard's wrapper of the evaluation loop's run()")
        scope.begin()
        scope.modes_ready(internals.EVAL_HOOKS[scope.stage])
        try:
            scope.raise_pending()
        except GradModeViolation as error:
            raise error.with_traceback(None) from error.__cause__

    def _stage_end(self) -> None:
        if self._scope is not None:
            self._scope.boundary("at the end of the stage")

    @override
    def on_validation_start(self, trainer: Trainer, pl_module: LightningModule) -> None:
        self._stage_start(trainer)

    @override
    def on_test_start(self, trainer: Trainer, pl_module: LightningModule) -> None:
        self._stage_start(trainer)

    @override
    def on_predict_start(self, trainer: Trainer, pl_module: LightningModule) -> None:
        self._stage_start(trainer)

    @override
    def on_validation_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        self._stage_end()

    @override
    def on_test_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        self._stage_end()

    @override
    def on_predict_end(self, trainer: Trainer, pl_module: LightningModule) -> None:
        self._stage_end()

    # -- checkpointing ---------------------------------------------------------------------------------------
    @override
    def state_dict(self) -> dict[str, Any]:
        # A guard the user did not put in the callbacks leaves the user's checkpoints as they would be without it.
        return {} if self.from_environment else {"report": self.report.state_dict()}

    @override
    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        # Resuming into a fresh guard restores the counts. A guard that already counted (e.g. validate(ckpt_path=)
        # after fit) keeps its own, newer history instead of rewinding to the checkpoint's.
        if self.report.stages:
            log.info("gradmode: keeping this guard's report; the checkpoint's counts are older")
            return
        self.report.load_state_dict(state_dict.get("report", {}))


# Lightning calls a callback's hook only when it is callable (lightning/_internals.py UNUSED_BATCH_HOOKS): the
# per-batch hooks the guard does not use are None, so their dispatch costs nothing at each batch.
for _hook in internals.UNUSED_BATCH_HOOKS:
    setattr(GradModeGuard, _hook, None)
del _hook


class _Hooks:
    """What the Lightning touchpoints of one stage tell the scope. The per-batch ones are the scope's own methods,
    bound: they run at every batch, and a forwarding frame each would cost more than the work."""

    def __init__(self, scope: EvaluationScope, step: Any) -> None:
        self.scope = scope
        scope.step_where = code_location(inspect.unwrap(getattr(step, "func", step))) if step is not None else None
        self.batch_begins = scope.begin_batch
        self.batch_completed = scope.end_batch
        self.run_step = scope.run_step
