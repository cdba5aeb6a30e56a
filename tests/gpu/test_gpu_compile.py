"""``torch.compile``d models on CUDA: no false alarm on a clean validate/predict, and a real graph is caught."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, evaluating
from tests.gpu._gpu_support import REQUIRES_CUDA, GpuNet, make_gpu_trainer, make_loader, restored_torch_flags

pytestmark = [pytest.mark.gpu, REQUIRES_CUDA]


@pytest.fixture(autouse=True)
def _restore_flags() -> Iterator[None]:
    with restored_torch_flags():
        yield


@pytest.fixture(autouse=True)
def _fresh_dynamo() -> Iterator[None]:
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


@pytest.mark.parametrize("precision", ["32-true", "16-mixed"])
def test_compiled_lightning_module_validate_and_predict(precision: str, tmp_path: Path) -> None:
    guard = GradModeGuard()
    module = GpuNet()
    trainer = make_gpu_trainer(tmp_path, callbacks=[guard], precision=precision)

    compiled = torch.compile(module)
    trainer.validate(compiled, dataloaders=make_loader(), verbose=False)
    predictions = trainer.predict(compiled, dataloaders=make_loader())

    assert guard.report.total == 0, guard.report.summary()
    for stage in ("validation", "predict"):
        summary = guard.report.stage(stage)
        assert summary.batches == 4 and summary.grad_context == "inference_mode", guard.report.summary()
        assert summary.saved_bytes == 0
    assert predictions is not None and len(predictions) == 4
    assert not any(p.requires_grad for p in predictions)


def test_compiled_lightning_module_fit_with_validation(tmp_path: Path) -> None:
    guard = GradModeGuard()
    trainer = make_gpu_trainer(tmp_path, callbacks=[guard], max_epochs=1, val_check_interval=0.5)
    trainer.fit(torch.compile(GpuNet()), train_dataloaders=make_loader(), val_dataloaders=make_loader(1))

    assert guard.report.total == 0, guard.report.summary()
    assert guard.report.stage("validation").batches == 8
    assert guard.report.stage("validation").grad_context == "no_grad"


def test_compiled_plain_module_clean_and_planted() -> None:
    model = nn.Sequential(nn.Linear(8, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 2)).cuda()
    compiled = torch.compile(model)
    x = torch.randn(16, 8, device="cuda")
    with torch.no_grad():
        expected = model.eval()(x)
    model.train()

    with evaluating(compiled) as scope:
        for i in range(3):
            with scope.batch(i):
                out = compiled(x)
    assert scope.report.total == 0, scope.report.summary()
    torch.testing.assert_close(out, expected)

    with (
        evaluating(compiled, grad_mode="no_grad", on_violation="record") as scope,
        scope.batch(0),
        torch.enable_grad(),
    ):
        compiled(x)
    assert scope.report.count("graph_built") == 1
    assert scope.report.stage("evaluation").saved_bytes > 0
