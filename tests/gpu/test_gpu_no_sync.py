"""The default checks never make the host wait for the GPU: no host-device synchronisation per batch.

The guard's own code (the batch context's entry and exit, the output check, the end-of-batch and stage-boundary
checks, the module-call probe's listener, the saved-tensor hook) is run with
``torch.cuda.set_sync_debug_mode("error")``, so any synchronising CUDA call made there raises; the model and
Lightning run in the default mode between.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, evaluating
from gradmode_plugin.probes import ForwardProbe, SavedTensorProbe
from gradmode_plugin.scope import EvaluationScope
from tests.gpu._gpu_support import (
    REQUIRES_CUDA,
    GpuNet,
    make_gpu_trainer,
    make_loader,
    restored_torch_flags,
    sync_debug,
)

pytestmark = [pytest.mark.gpu, REQUIRES_CUDA]


@pytest.fixture(autouse=True)
def _restore_flags() -> Iterator[None]:
    with restored_torch_flags():
        yield


def strict(fn: Callable[..., Any], calls: list[str]) -> Callable[..., Any]:
    """``fn`` run with synchronising CUDA calls turned into errors."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        calls.append(fn.__name__)
        with sync_debug("error"):
            return fn(*args, **kwargs)

    return wrapper


@pytest.fixture
def guard_is_strict(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Run every per-batch piece of the guard under sync debug mode "error"; returns the names called."""
    calls: list[str] = []
    for name in ("_batch_start", "_batch_end", "check_output", "raise_pending", "end_batch", "boundary"):
        monkeypatch.setattr(EvaluationScope, name, strict(getattr(EvaluationScope, name), calls))
    monkeypatch.setattr(SavedTensorProbe, "_pack", strict(SavedTensorProbe._pack, calls))
    make_listener = ForwardProbe._make_listener
    monkeypatch.setattr(ForwardProbe, "_make_listener", lambda self: strict(make_listener(self), calls))
    return calls


def test_sync_debug_mode_error_catches_a_sync() -> None:
    """The instrument works here: a synchronising call under "error" raises."""
    x = torch.ones(4, device="cuda")
    with pytest.raises(RuntimeError, match="synchroniz"), sync_debug("error"):
        x.sum().item()
    wrapped = strict(lambda: x.sum().item(), [])
    with pytest.raises(RuntimeError, match="synchroniz"):
        wrapped()


@pytest.mark.parametrize("grad_mode", ["auto", "no_grad"])
def test_lightning_validation_guard_work_does_not_sync(
    guard_is_strict: list[str],
    grad_mode: str,
    tmp_path: Path,
) -> None:
    guard = GradModeGuard(grad_mode=grad_mode)
    model = GpuNet(returns=True)  # a step output to check: a dict holding a CUDA tensor
    make_gpu_trainer(tmp_path, callbacks=[guard]).validate(model, dataloaders=make_loader(), verbose=False)

    assert guard.report.total == 0, guard.report.summary()
    assert guard.report.stage("validation").batches == 4
    # Every piece really ran under the strict mode: the test cannot pass by not instrumenting anything. (The
    # module-call probe's listener hears only calls in training mode or with grad on: see the violation test.)
    assert guard_is_strict.count("check_output") == 4, sorted(set(guard_is_strict))
    for name in ("_batch_start", "_batch_end", "check_output", "end_batch", "boundary"):
        assert name in guard_is_strict, (name, sorted(set(guard_is_strict)))


def test_lightning_fit_validation_guard_work_does_not_sync(
    guard_is_strict: list[str],
    tmp_path: Path,
) -> None:
    guard = GradModeGuard()
    trainer = make_gpu_trainer(tmp_path, callbacks=[guard], max_epochs=1, val_check_interval=0.5, gradient_clip_val=1.0)
    trainer.fit(GpuNet(), train_dataloaders=make_loader(), val_dataloaders=make_loader(seed=1))

    assert guard.report.total == 0, guard.report.summary()
    assert guard.report.stage("validation").batches == 8


def test_finding_a_violation_does_not_sync(
    guard_is_strict: list[str],
    tmp_path: Path,
) -> None:
    """Even the path that records a violation (saved-tensor hook, module-call probe, report) stays on the host."""
    guard = GradModeGuard(grad_mode="no_grad", on_violation="record")
    make_gpu_trainer(tmp_path, callbacks=[guard]).validate(GpuNet(bug=True), dataloaders=make_loader(), verbose=False)

    assert guard.report.count("graph_built") == 4
    assert "_pack" in guard_is_strict and "called" in guard_is_strict


@pytest.mark.parametrize("grad_mode", ["inference", "no_grad"])
def test_plain_loop_is_sync_free_end_to_end(grad_mode: str) -> None:
    """Data already on the device: the whole loop (scope, batches, model) runs under "error"."""
    model = nn.Sequential(nn.Linear(8, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.2), nn.Linear(32, 2)).cuda()
    batches = [torch.randn(16, 8, device="cuda") for _ in range(5)]
    with torch.no_grad():
        model.eval()(batches[0])  # warm up kernels and handles outside the strict region
    model.train()
    torch.cuda.synchronize()

    outputs = []
    with sync_debug("error"), evaluating(model, grad_mode=grad_mode) as scope:
        for i, x in enumerate(batches):
            with scope.batch(i):
                out = model(x)
                scope.check_output(out)
            outputs.append(out)

    assert scope.report.total == 0
    assert all(not o.requires_grad for o in outputs)
    assert model.training
