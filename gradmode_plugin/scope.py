"""The core: one evaluation scope that sets the correct modes, runs every check and applies the policy.

The Lightning callback and the plain-PyTorch ``evaluating(...)`` are both built on :class:`EvaluationScope`.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import warnings
from collections.abc import Callable
from types import TracebackType
from typing import Any, Final, Literal

import torch
from torch import nn

from gradmode_plugin.allow import _active_scope, _allowed_reason
from gradmode_plugin.detectors import (
    ForwardGraphDetector,
    NormStatsWatch,
    ParamsWatch,
    SavedTensorsDetector,
    find_grad_tensor,
)
from gradmode_plugin.distributed import all_reduce_sum, collective_device, world
from gradmode_plugin.modes import (
    CONTEXT_NAMES,
    GRAD_MODES,
    ModuleModes,
    grad_context,
    validate_choice,
    validate_patterns,
)
from gradmode_plugin.report import Report
from gradmode_plugin.violations import HINTS, KINDS, GradModeViolation, GradModeWarning, Violation, ViolationKind

log = logging.getLogger("gradmode_plugin")

OnViolation = Literal["raise", "warn", "record"]
ON_VIOLATION: Final[tuple[str, ...]] = ("raise", "warn", "record")

#: ``reduce(tensor) -> tensor``: a sum over all ranks (an all-reduce); ``None`` in a single process.
Reducer = Callable[[torch.Tensor], torch.Tensor]


def validate_options(
    grad_mode: object, on_violation: object, allow_train: object, check_params: object
) -> tuple[str, str, tuple[str, ...]]:
    """Check the options every adapter shares; returns (grad_mode, on_violation, allow_train) normalised."""
    mode = validate_choice("grad_mode", grad_mode, GRAD_MODES)
    policy = validate_choice("on_violation", on_violation, ON_VIOLATION)
    if not isinstance(check_params, bool):
        raise ValueError(f"check_params={check_params!r} is not supported; allowed values: True, False")
    return mode, policy, validate_patterns("allow_train", allow_train)


def resolve_grad_mode(
    requested: str, *, inside_training: bool, no_inference_reason: str | None = None
) -> tuple[str, str]:
    """The grad context to use (``"inference"`` or ``"no_grad"``) and why."""
    if requested != "auto":
        return requested, f"grad_mode={requested!r} was requested"
    if no_inference_reason:
        return "no_grad", no_inference_reason
    if _backend() == "gloo":
        return "no_grad", "gloo process group: collectives on inference tensors are not reliable"
    if inside_training:
        return "no_grad", "evaluation inside training: inference tensors could not be reused by training code"
    return "inference", "stand-alone evaluation: inference_mode is the cheapest context"


class EvaluationScope:
    """Correct modes for one evaluation stage, asserted batch by batch.

    On entry: records every module's train flag, puts the model in eval mode (except ``allow_train``), enters
    the grad context and installs the detectors. On exit, normal or not, restores exactly the previous grad
    mode, inference mode, module flags and hooks. Use :meth:`batch` around each batch for per-batch detection
    (violations then name the batch); without it, checks run once at exit.

    Example:
        >>> model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Dropout())
        >>> with evaluating(model) as scope:
        ...     for i in range(2):
        ...         with scope.batch(i):
        ...             out = model(torch.randn(3, 4))
        >>> scope.report.total, model.training
        (0, True)
    """

    def __init__(
        self,
        model: nn.Module,
        *,
        stage: str = "evaluation",
        grad_mode: str = "auto",
        allow_train: tuple[str, ...] | list[str] | str = (),
        on_violation: str = "raise",
        check_params: bool = False,
        report: Report | None = None,
        inside_training: bool | None = None,
        no_inference_reason: str | None = None,
        rank: int = 0,
        world_size: int = 1,
        reduce: Reducer | None = None,
        reduce_device: torch.device | str = "cpu",
        final_mode_check: bool = True,
    ) -> None:
        grad_mode, on_violation, self.allow_train = validate_options(grad_mode, on_violation, allow_train, check_params)
        if not isinstance(model, nn.Module):
            raise ValueError(f"model must be a torch.nn.Module, got {type(model).__name__}")
        self.model = model
        self.stage = stage
        self.on_violation = on_violation
        self.check_params = check_params
        self.report = report if report is not None else Report()
        self.rank = rank
        self.world_size = world_size
        # Off when a framework restores module flags before the scope ends (Lightning does, per stage).
        self.final_mode_check = final_mode_check
        self._reduce = reduce
        self._reduce_device = torch.device(reduce_device)
        self._inside_training = model.training if inside_training is None else inside_training
        self.mode, self.reason = resolve_grad_mode(
            grad_mode, inside_training=self._inside_training, no_inference_reason=no_inference_reason
        )
        # Raising at the batch on one rank would leave the others waiting in their next collective: with
        # several ranks, every rank raises together at the end of the stage instead.
        self._defer_raise = world_size > 1 and reduce is not None
        self._lock = threading.Lock()
        self._warned: set[tuple[str, str, str | None]] = set()
        self._stack: contextlib.ExitStack | None = None
        self._reset_run()
        self._modes: ModuleModes | None = None
        self._norms: NormStatsWatch | None = None
        self._params: ParamsWatch | None = None
        self._cuda_device: torch.device | None = None

    def _reset_run(self) -> None:
        self.batch_idx: int | None = None
        self.dataloader_idx: int | None = None
        self._seen: set[tuple[str, int | None, int | None]] = set()
        self._pending: Violation | None = None
        self._run_counts = dict.fromkeys(KINDS, 0)
        self._batches = 0

    # -- stage -----------------------------------------------------------------------------------------------
    def __enter__(self) -> EvaluationScope:
        if self._stack is not None:
            raise RuntimeError("this EvaluationScope is already entered; use a new evaluating(...) for nesting")
        self._reset_run()
        summary = self.report.stage(self.stage)
        if CONTEXT_NAMES[self.mode] not in summary.grad_contexts and self.rank == 0:
            log.info("gradmode: %s runs under torch.%s (%s)", self.stage, CONTEXT_NAMES[self.mode], self.reason)
        with contextlib.ExitStack() as stack:
            modes = ModuleModes(self.model, self.allow_train)
            stack.callback(modes.restore)
            summary.train_allowed = modes.apply()
            self._modes = modes
            self._norms = NormStatsWatch(self.model, skip=_covered(modes))
            if self.check_params:
                self._params = ParamsWatch(self.model)
            forward = ForwardGraphDetector(self.model, self)
            stack.callback(forward.remove)
            forward.install()
            stack.enter_context(SavedTensorsDetector(self))
            stack.enter_context(grad_context(self.mode))
            token = _active_scope.set(self)
            stack.callback(_active_scope.reset, token)
            self._start_memory()
            self._stack = stack.pop_all()
        summary.runs += 1
        summary.grad_context = CONTEXT_NAMES[self.mode]
        summary.reason = self.reason
        summary.grad_contexts[summary.grad_context] = self.reason
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        assert self._stack is not None, "EvaluationScope exited without being entered"
        try:
            if exc_type is None:
                self._check_stage_end()
        finally:
            self._stack.close()
            self._stack = None
            self._finish_memory()
            self.report.stage(self.stage).batches += self._batches
        if exc_type is None:
            self._agree_and_raise()

    def _start_memory(self) -> None:
        device = next((p.device for p in self.model.parameters()), None)
        if device is not None and device.type == "cuda":
            self._cuda_device = device
            torch.cuda.reset_peak_memory_stats(device)

    def _finish_memory(self) -> None:
        if self._cuda_device is None:
            return
        summary = self.report.stage(self.stage)
        peak = torch.cuda.max_memory_allocated(self._cuda_device)
        summary.peak_allocated_bytes = max(summary.peak_allocated_bytes or 0, peak)

    # -- batches ---------------------------------------------------------------------------------------------
    def batch(self, batch_idx: int, dataloader_idx: int | None = None) -> _Batch:
        """Run one batch under the guard's grad context and check it when it ends (a context manager)."""
        self.batch_idx = batch_idx
        self.dataloader_idx = dataloader_idx
        self._batches += 1
        return _Batch(self)

    def _enter_batch(self) -> contextlib.AbstractContextManager[None] | None:
        if self.check_grad_enabled("at the start of the batch"):
            torch.set_grad_enabled(False)  # contain the leak; the stage's own context restores the outer state
        # Entering a context costs more than the rest of the per-batch work: only when the state is not right.
        if torch.is_inference_mode_enabled() == (self.mode == "inference"):
            return None
        context = grad_context(self.mode)
        context.__enter__()
        return context

    def _exit_batch(self, context: contextlib.AbstractContextManager[None] | None, failed: bool) -> None:
        if not failed and self.check_grad_enabled("at the end of the batch"):
            torch.set_grad_enabled(False)
        if context is not None:
            context.__exit__(None, None, None)
        if not failed:
            self._check_batch_end()
            self.raise_pending()

    def check_output(self, obj: Any, what: str = "step output", where: str | None = None) -> None:
        """Flag a tensor inside ``obj`` that requires grad (it keeps a graph or a parameter alive)."""
        path = find_grad_tensor(obj, what)
        if path is not None:
            self.found(
                "output_requires_grad",
                where=where,
                detail=f"{path} requires grad",
            )

    def check_grad_enabled(self, when: str) -> bool:
        """Flag grad mode found enabled at a boundary (outside ``allow_grad``); True when it was."""
        if torch.is_grad_enabled() and _allowed_reason.get() is None:
            self.found("grad_enabled", detail=f"grad mode was enabled {when}")
            return True
        return False

    def apply_modes(self) -> None:
        """Put the model in eval mode again (except ``allow_train``), e.g. after a framework's own ``eval()``."""
        assert self._modes is not None, "apply_modes() needs an entered scope"
        self._modes.apply()

    def _check_batch_end(self) -> None:
        self._check_train_mode()
        self._check_norm_stats()
        if self._params is not None:
            self._report_params(self._params.changed_versions())

    def _check_train_mode(self) -> None:
        assert self._modes is not None
        if self._modes.any_training():
            names = self._modes.training_modules()
            shown = ", ".join(n or "<root>" for n in names[:5]) + (" ..." if len(names) > 5 else "")
            self.found(
                "train_mode",
                module=names[0] if names else None,
                detail=f"{len(names)} module(s) in training mode during evaluation: {shown}",
            )

    def _check_norm_stats(self) -> None:
        assert self._norms is not None
        changed = self._norms.changed()
        if changed:
            self.found(
                "running_stats_updated",
                module=changed[0],
                detail=f"running statistics of {', '.join(changed[:5])} were updated",
            )

    def _check_stage_end(self) -> None:
        if self.final_mode_check:
            self.check_grad_enabled("at the end of the scope")
            self._check_train_mode()
        self._check_norm_stats()
        if self._params is not None:
            self._report_params(self._params.changed_versions() + self._params.changed_values())

    def _report_params(self, names: list[str]) -> None:
        if names:
            self.found(
                "params_changed",
                module=names[0].rpartition(".")[0],
                detail=f"{len(names)} parameter(s)/buffer(s) changed during evaluation: {', '.join(names[:5])}",
            )

    # -- sink for detectors ----------------------------------------------------------------------------------
    def wants(self, kind: str) -> bool:
        return (kind, self.dataloader_idx, self.batch_idx) not in self._seen

    def graph_saved(self, nbytes: int, allowed: bool) -> None:
        summary = self.report.stage(self.stage)
        if allowed:
            summary.allowed_saved_bytes += nbytes
        else:
            summary.saved_bytes += nbytes

    def count_allowed(self, reason: str) -> None:
        allowed = self.report.stage(self.stage).allowed
        allowed[reason] = allowed.get(reason, 0) + 1

    def found(
        self, kind: ViolationKind, *, module: str | None = None, where: str | None = None, detail: str = ""
    ) -> None:
        """Record one violation (at most one per kind and batch) and apply the warn policy to it."""
        key = (kind, self.dataloader_idx, self.batch_idx)
        with self._lock:
            if key in self._seen:
                return
            self._seen.add(key)
            violation = Violation(
                kind=kind,
                stage=self.stage,
                batch_idx=self.batch_idx,
                module=module,
                where=where,
                rank=self.rank,
                hint=HINTS[kind],
                detail=detail,
                dataloader_idx=self.dataloader_idx,
            )
            self.report.add(violation)
            self._run_counts[kind] += 1
            if self._pending is None:
                self._pending = violation
        if self.on_violation == "warn":
            warn_key = (kind, self.stage, module)
            if warn_key not in self._warned:
                self._warned.add(warn_key)
                warnings.warn(f"gradmode: {violation.describe()}", GradModeWarning, stacklevel=2)

    def raise_pending(self) -> None:
        """Under ``raise``, raise the first violation found so far (with several ranks: at the stage end)."""
        if self.on_violation == "raise" and self._pending is not None and not self._defer_raise:
            raise GradModeViolation(self._pending)

    # -- many ranks ------------------------------------------------------------------------------------------
    def _agree_and_raise(self) -> None:
        """One all-reduce per stage: every rank learns every rank's counts; under ``raise`` all raise."""
        summary = self.report.stage(self.stage)
        if self._reduce is None or self.world_size <= 1:
            summary.rank_counts[self.rank] = _add(summary.rank_counts.get(self.rank), self._run_counts)
            self.raise_pending()
            return
        local = torch.zeros(self.world_size, len(KINDS), dtype=torch.int64, device=self._reduce_device)
        local[self.rank] = torch.tensor([self._run_counts[k] for k in KINDS], dtype=torch.int64)
        table = self._reduce(local).cpu().tolist()
        for rank, row in enumerate(table):
            counts = dict(zip(KINDS, (int(n) for n in row)))
            summary.rank_counts[rank] = _add(summary.rank_counts.get(rank), counts)
            if rank != self.rank:
                for kind, n in counts.items():
                    summary.counts[kind] += n
        if self.on_violation != "raise" or not any(any(row) for row in table):
            return
        offenders = {rank: [k for k, n in zip(KINDS, row) if n] for rank, row in enumerate(table) if any(row)}
        described = "; ".join(f"rank {r}: {', '.join(kinds)}" for r, kinds in offenders.items())
        own = self._pending
        first_rank, first_kinds = next(iter(offenders.items()))
        violation = own or Violation(
            kind=first_kinds[0],
            stage=self.stage,
            batch_idx=None,
            rank=first_rank,
            hint=HINTS[first_kinds[0]],
            detail=f"found on rank {first_rank}",
        )
        message = f"gradmode: violations during {self.stage} on {len(offenders)} rank(s) ({described})"
        message += "\n" + (own.describe() if own else f"this rank ({self.rank}) found none; see rank {first_rank}")
        raise GradModeViolation(violation, message)


class _Batch:
    """The per-batch context: a small class, not a generator, because it runs once per batch."""

    __slots__ = ("_context", "_scope")

    def __init__(self, scope: EvaluationScope) -> None:
        self._scope = scope
        self._context: contextlib.AbstractContextManager[None] | None = None

    def __enter__(self) -> None:
        self._context = self._scope._enter_batch()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._scope._exit_batch(self._context, failed=exc_type is not None)


def _backend() -> str | None:
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        return str(torch.distributed.get_backend())
    return None


def _covered(modes: ModuleModes) -> set[str]:
    checked = {name for name, _ in modes.checked}
    return {name for name, _ in modes.model.named_modules()} - checked


def _add(base: dict[str, int] | None, extra: dict[str, int]) -> dict[str, int]:
    out = dict.fromkeys(KINDS, 0) if base is None else dict(base)
    for kind, n in extra.items():
        out[kind] += n
    return out


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

    ``grad_mode="auto"`` picks ``no_grad`` when the model was in training mode on entry (evaluation inside a
    training loop, where inference tensors could not be reused) and ``inference_mode`` otherwise.

    Example:
        >>> model = nn.Sequential(nn.Linear(4, 2), nn.Dropout())
        >>> with evaluating(model, grad_mode="no_grad") as scope:
        ...     with scope.batch(0):
        ...         y = model(torch.randn(3, 4))
        >>> y.requires_grad, scope.report.total
        (False, 0)
    """
    rank, world_size = world()
    return EvaluationScope(
        model,
        stage=stage,
        grad_mode=grad_mode,
        allow_train=allow_train,
        on_violation=on_violation,
        check_params=check_params,
        report=report,
        rank=rank,
        world_size=world_size,
        reduce=all_reduce_sum if world_size > 1 else None,
        reduce_device=collective_device() if world_size > 1 else "cpu",
    )
