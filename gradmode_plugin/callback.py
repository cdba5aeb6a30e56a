"""The Lightning adapter: ``GradModeGuard``, a thin callback over :class:`~gradmode_plugin.scope.EvaluationScope`.

How it hooks in, and why:

- Each evaluation loop's ``run`` is wrapped (from ``setup`` to ``teardown``), so one *lexical* scope spans the
  whole stage: module flags are recorded before Lightning's own ``eval()`` and everything is restored in
  order, even when a step raises.
- Inside that scope the step method (``validation_step`` ...) and ``log`` are wrapped, again lexically, so
  each batch runs under the guard's grad context and is checked when it ends; nothing stays on the module
  after the stage.
- During ``fit``, ``configure_gradient_clipping`` and ``clip_gradients`` run under ``torch.no_grad()``.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import logging
from collections.abc import Callable, Iterator
from typing import Any

import torch

from gradmode_plugin.detectors import code_location, find_grad_tensor, user_frame
from gradmode_plugin.distributed import all_reduce_sum
from gradmode_plugin.report import Report
from gradmode_plugin.scope import EvaluationScope, validate_options
from gradmode_plugin.violations import KINDS

log = logging.getLogger("gradmode_plugin")

_STEP_METHODS = {
    "validation": "validation_step",
    "sanity_check": "validation_step",
    "test": "test_step",
    "predict": "predict_step",
}


def _callback_bases() -> tuple[type, ...]:
    """Lightning's ``Callback`` from every installed namespace, so both kinds of Trainer accept the guard."""
    bases = []
    for name in ("pytorch_lightning", "lightning.pytorch"):
        try:
            bases.append(importlib.import_module(name).Callback)
        except ImportError:
            continue
    if not bases:
        raise ImportError("GradModeGuard needs PyTorch Lightning: pip install pytorch-lightning")
    return tuple(bases)


def _has_class(obj: object, name: str) -> bool:
    # By name, so the check holds for classes from either namespace.
    return any(cls.__name__ == name for cls in type(obj).__mro__)


@contextlib.contextmanager
def _replaced(obj: object, name: str, wrapper: Callable[..., Any]) -> Iterator[None]:
    """Set ``obj.name = wrapper`` for the block, then put back exactly what was there."""
    had_own = name in vars(obj)
    own = vars(obj).get(name)
    setattr(obj, name, wrapper)
    try:
        yield
    finally:
        if had_own:
            setattr(obj, name, own)
        else:
            delattr(obj, name)


def _under_no_grad(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with torch.no_grad():
            return fn(*args, **kwargs)

    return wrapper


class GradModeGuard(*_callback_bases()):  # type: ignore[misc]
    """Runs validation, test and predict under ``eval()`` and ``no_grad``/``inference_mode`` and asserts, batch by
    batch, that no autograd graph is built and no module trains; runs gradient clipping under ``no_grad``.

    Args:
        grad_mode: ``"auto"`` (``inference_mode`` for stand-alone validate/test/predict; ``no_grad`` for
            validation inside ``fit`` and for gloo, FSDP and XLA), ``"inference"`` or ``"no_grad"``.
        on_violation: ``"raise"`` (at the first offending batch), ``"warn"`` (once per kind, stage and module)
            or ``"record"`` (only collect). All three fill :attr:`report`.
        allow_train: glob patterns over ``model.named_modules()`` names kept in training mode on purpose
            (e.g. ``"head.mc_dropout"``); their children are kept too.
        check_params: also assert that evaluation changed no parameter or buffer (keeps a copy of each).

    Example::

        trainer = Trainer(callbacks=[GradModeGuard(allow_train=("head.mc_dropout",))])
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
    ) -> None:
        super().__init__()
        self.grad_mode, self.on_violation, self.allow_train = validate_options(
            grad_mode, on_violation, allow_train, check_params
        )
        self.check_params = check_params
        self.report = Report()
        self._scope: EvaluationScope | None = None
        self._installed: contextlib.ExitStack | None = None
        self._batch: tuple[int, int] = (0, 0)

    # -- install / uninstall -------------------------------------------------------------------------------
    def setup(self, trainer: Any, pl_module: Any, stage: str) -> None:
        self._uninstall()
        stack = contextlib.ExitStack()
        loops = [trainer.fit_loop.epoch_loop.val_loop, trainer.validate_loop, trainer.test_loop, trainer.predict_loop]
        for loop in loops:
            stack.enter_context(_replaced(loop, "run", self._wrap_run(trainer, loop, loop.run)))
        if stage == "fit":
            for name in ("configure_gradient_clipping", "clip_gradients"):
                stack.enter_context(_replaced(pl_module, name, _under_no_grad(getattr(pl_module, name))))
        self._installed = stack

    def teardown(self, trainer: Any, pl_module: Any, stage: str) -> None:
        self._uninstall()

    def on_exception(self, trainer: Any, pl_module: Any, exception: BaseException) -> None:
        self._uninstall()

    def _uninstall(self) -> None:
        if self._installed is not None:
            self._installed.close()
            self._installed = None

    # -- one stage -----------------------------------------------------------------------------------------
    def _stage_name(self, trainer: Any) -> str:
        if trainer.sanity_checking:
            return "sanity_check"
        if trainer.testing:
            return "test"
        if trainer.predicting:
            return "predict"
        return "validation"

    def _new_scope(self, trainer: Any, stage: str) -> EvaluationScope:
        no_inference_reason = None
        if _has_class(trainer.strategy, "FSDPStrategy"):
            no_inference_reason = "FSDP strategy: inference tensors break FSDP's parameter handling"
        elif _has_class(trainer.accelerator, "XLAAccelerator"):
            no_inference_reason = "XLA accelerator: inference mode is not supported there"
        distributed = trainer.world_size > 1 and torch.distributed.is_available() and torch.distributed.is_initialized()
        return EvaluationScope(
            trainer.lightning_module,
            stage=stage,
            grad_mode=self.grad_mode,
            allow_train=self.allow_train,
            on_violation=self.on_violation,
            check_params=self.check_params,
            report=self.report,
            inside_training=trainer.state.fn == "fit",
            no_inference_reason=no_inference_reason,
            rank=trainer.global_rank,
            world_size=trainer.world_size,
            reduce=all_reduce_sum if distributed else None,
            reduce_device=trainer.strategy.root_device,
            final_mode_check=False,
        )

    def _wrap_run(self, trainer: Any, loop: Any, run: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(run)
        def guarded_run(*args: Any, **kwargs: Any) -> Any:
            stage = self._stage_name(trainer)
            scope = self._new_scope(trainer, stage)
            module = trainer.lightning_module
            step = _STEP_METHODS[stage]
            with contextlib.ExitStack() as stack:
                stack.enter_context(_replaced(loop, "inference_mode", scope.mode == "inference"))
                stack.enter_context(scope)
                stack.enter_context(_replaced(module, step, self._wrap_step(scope, getattr(module, step))))
                stack.enter_context(_replaced(module, "log", self._wrap_log(scope, module.log)))
                self._scope = scope
                stack.callback(setattr, self, "_scope", None)
                result = run(*args, **kwargs)
            self._log_counts(trainer, stage)
            return result

        return guarded_run

    def _wrap_step(self, scope: EvaluationScope, step: Callable[..., Any]) -> Callable[..., Any]:
        where = code_location(step)

        @functools.wraps(step)
        def guarded_step(*args: Any, **kwargs: Any) -> Any:
            batch_idx, dataloader_idx = self._batch
            with scope.batch(batch_idx, dataloader_idx):
                output = step(*args, **kwargs)
                scope.check_output(output, f"{step.__name__} output", where=where)
            return output

        return guarded_step

    def _wrap_log(self, scope: EvaluationScope, log_fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(log_fn)
        def guarded_log(name: str, value: Any, *args: Any, **kwargs: Any) -> Any:
            # Walking the stack to name the caller costs more than the check itself: only on a finding.
            if find_grad_tensor(value) is not None:
                scope.check_output(value, f"self.log({name!r}) value", where=user_frame(2))
            return log_fn(name, value, *args, **kwargs)

        # Lightning's logging is opaque to torch.compile already; keep this frame-walking check out of a compiled
        # step too, instead of adding graph breaks (and a warning) at every call site.
        return torch.compiler.disable(guarded_log)

    def _log_counts(self, trainer: Any, stage: str) -> None:
        if stage == "sanity_check" or not trainer.loggers:
            return
        counts = self.report.stage(stage).counts
        metrics = {f"gradmode/{stage}/{kind}": float(counts[kind]) for kind in KINDS}
        metrics[f"gradmode/{stage}/violations"] = float(sum(counts.values()))
        for logger in trainer.loggers:
            logger.log_metrics(metrics, step=trainer.global_step)

    # -- hooks ---------------------------------------------------------------------------------------------
    def _stage_start(self) -> None:
        # Lightning's own eval() ran just before this hook; put allow_train modules back in training mode.
        if self._scope is not None:
            self._scope.apply_modes()

    def _batch_start(self, batch_idx: int, dataloader_idx: int) -> None:
        self._batch = (batch_idx, dataloader_idx)

    def _boundary(self, when: str) -> None:
        if self._scope is not None:
            self._scope.check_grad_enabled(when)
            self._scope.raise_pending()

    def on_validation_start(self, trainer: Any, pl_module: Any) -> None:
        self._stage_start()

    def on_test_start(self, trainer: Any, pl_module: Any) -> None:
        self._stage_start()

    def on_predict_start(self, trainer: Any, pl_module: Any) -> None:
        self._stage_start()

    def on_validation_batch_start(
        self, trainer: Any, pl_module: Any, batch: Any, batch_idx: int, dataloader_idx: int = 0
    ) -> None:
        self._batch_start(batch_idx, dataloader_idx)

    def on_test_batch_start(
        self, trainer: Any, pl_module: Any, batch: Any, batch_idx: int, dataloader_idx: int = 0
    ) -> None:
        self._batch_start(batch_idx, dataloader_idx)

    def on_predict_batch_start(
        self, trainer: Any, pl_module: Any, batch: Any, batch_idx: int, dataloader_idx: int = 0
    ) -> None:
        self._batch_start(batch_idx, dataloader_idx)

    def on_validation_batch_end(
        self, trainer: Any, pl_module: Any, outputs: Any, batch: Any, batch_idx: int, dataloader_idx: int = 0
    ) -> None:
        self._boundary("after the batch's hooks")

    def on_test_batch_end(
        self, trainer: Any, pl_module: Any, outputs: Any, batch: Any, batch_idx: int, dataloader_idx: int = 0
    ) -> None:
        self._boundary("after the batch's hooks")

    def on_predict_batch_end(
        self, trainer: Any, pl_module: Any, outputs: Any, batch: Any, batch_idx: int, dataloader_idx: int = 0
    ) -> None:
        self._boundary("after the batch's hooks")

    def on_validation_end(self, trainer: Any, pl_module: Any) -> None:
        self._boundary("at the end of the stage")

    def on_test_end(self, trainer: Any, pl_module: Any) -> None:
        self._boundary("at the end of the stage")

    def on_predict_end(self, trainer: Any, pl_module: Any) -> None:
        self._boundary("at the end of the stage")

    # -- checkpointing -------------------------------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        return {"report": self.report.state_dict()}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        # Resuming into a fresh guard restores the counts. A guard that already counted (e.g. validate(ckpt_path=)
        # after fit) keeps its own, newer history instead of rewinding to the checkpoint's.
        if self.report.stages:
            log.info("gradmode: keeping this guard's report; the checkpoint's counts are older")
            return
        self.report.load_state_dict(state_dict.get("report", {}))
