"""``torch.compile``d models on CPU: no false alarm on clean evaluation, and a real graph is still caught."""

from __future__ import annotations

from typing import Any

import pytest
import pytorch_lightning as pl
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from gradmode_plugin import GradModeGuard, evaluating
from tests.helpers.lightning import quiet_trainer

pytestmark = pytest.mark.skipif(not hasattr(torch, "compile"), reason="needs torch.compile")


def _net() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 2))


class CompiledLit(pl.LightningModule):
    def __init__(self) -> None:
        super().__init__()
        self.net = _net()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        self.log("val_loss", nn.functional.cross_entropy(self(x), y))

    def predict_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        return self(batch[0]).softmax(-1)


def _loader() -> DataLoader:
    g = torch.Generator().manual_seed(0)
    return DataLoader(TensorDataset(torch.randn(16, 8, generator=g), torch.randint(0, 2, (16,), generator=g)), 4)


@pytest.fixture(autouse=True)
def _fresh_dynamo() -> Any:
    torch._dynamo.reset()
    yield
    torch._dynamo.reset()


@pytest.mark.parametrize("grad_mode", ["no_grad", "inference"])
def test_compiled_module_clean_evaluation_has_no_violation(grad_mode: str) -> None:
    model = _net()
    compiled = torch.compile(model)
    x = torch.randn(4, 8)
    with torch.no_grad():
        expected = model.eval()(x)
    model.train()

    with evaluating(compiled, grad_mode=grad_mode) as scope:
        for i in range(3):
            with scope.batch(i):
                out = compiled(x)

    assert scope.report.total == 0, scope.report.summary()
    assert scope.report.stage("evaluation").saved_bytes == 0
    assert not out.requires_grad
    torch.testing.assert_close(out, expected)
    assert all(m.training for m in model.modules())


def test_compiled_module_graph_is_still_caught() -> None:
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
    compiled = torch.compile(model)

    with (
        evaluating(compiled, grad_mode="no_grad", on_violation="record") as scope,
        scope.batch(0),
        torch.enable_grad(),
    ):
        out = compiled(torch.randn(4, 8))

    assert out.requires_grad
    assert scope.report.count("graph_built") == 1
    assert scope.report.stage("evaluation").saved_bytes > 0


@pytest.mark.skipif(
    tuple(int(p) for p in pl.__version__.split(".")[:2]) < (2, 5),
    reason="Lightning < 2.5 cannot torch.compile a LightningModule under this torch, with or without the guard",
)
def test_compiled_lightning_module_validate_and_predict(tmp_path: Any) -> None:
    guard = GradModeGuard()
    trainer = quiet_trainer(tmp_path, callbacks=[guard])
    module = CompiledLit()
    compiled = torch.compile(module)

    trainer.validate(compiled, dataloaders=_loader(), verbose=False)
    predictions = trainer.predict(compiled, dataloaders=_loader())

    assert guard.report.total == 0, guard.report.summary()
    for stage in ("validation", "predict"):
        summary = guard.report.stage(stage)
        assert summary.batches == 4 and summary.grad_context == "inference_mode", guard.report.summary()
    assert predictions is not None and len(predictions) == 4
    assert not any(p.requires_grad for p in predictions)
    assert all(m.training for m in module.modules())


class Buggy(nn.Module):
    """``body(self, h)`` after a layer: the training-mode call under test, inside the compiled region."""

    def __init__(self, body: Any) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.body = body
        self.fc = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(self, self.fc(x))


def _attention_ignoring_training(m: nn.Module, h: torch.Tensor) -> torch.Tensor:
    return nn.functional.scaled_dot_product_attention(h[None, None], h[None, None], h[None, None], dropout_p=0.3)[0, 0]  # noqa: GM104


COMPILED_BUGS = {
    "F.dropout(x)": lambda m, h: nn.functional.dropout(h, 0.5),  # noqa: GM101
    "torch.dropout": lambda m, h: torch.dropout(h, 0.5, True),  # noqa: GM103
    "F.scaled_dot_product_attention(dropout_p=0.3)": _attention_ignoring_training,
}


@pytest.mark.parametrize("bug", list(COMPILED_BUGS))
def test_training_calls_inside_a_compiled_region_are_caught_at_every_batch(bug: str) -> None:
    model = Buggy(COMPILED_BUGS[bug])
    compiled = torch.compile(model)
    compiled(torch.randn(4, 8)).sum().backward()  # compiled in training first, as during a fit
    for _ in range(2):  # a second stage reuses what the first one compiled
        with evaluating(compiled, grad_mode="inference", on_violation="record") as scope:
            for i in range(3):
                with scope.batch(i):
                    compiled(torch.randn(4, 8))
        assert [v.batch_idx for v in scope.report.violations] == [0, 1, 2]
        assert {v.kind for v in scope.report.violations} == {"train_mode"}


def test_a_path_only_the_audit_sees_is_not_seen_inside_a_compiled_region() -> None:
    # The blind spot docs/kinds.md states: the audit leaves torch.compile alone, and what it fuses is not seen.
    model = Buggy(lambda m, h: torch.ops.aten.dropout(h, 0.5, True))
    compiled = torch.compile(model)
    with evaluating(compiled, grad_mode="inference", on_violation="record") as scope, scope.batch(0):
        compiled(torch.randn(4, 8))
    assert scope.report.total == 0
