"""Mixed precision on CPU (``bf16-mixed``): the guard changes no number that training computes.

Same seed, same data, same model with and without the guard: every tensor of the final ``state_dict`` must be
bitwise equal, with gradient clipping by norm and by value (which the guard runs under ``no_grad``), and with
validation between training steps (whose no-grad forward under autocast must not leak into training).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import pytorch_lightning as pl
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from gradmode_plugin import GradModeGuard, evaluating
from tests.helpers.lightning import assert_same_weights, quiet_trainer


@pytest.fixture(autouse=True)
def _restore_determinism() -> Iterator[None]:
    """``deterministic=True`` switches process-wide flags on; later tests get back the ones they had."""
    enabled = torch.are_deterministic_algorithms_enabled()
    warn_only = torch.is_deterministic_algorithms_warn_only_enabled()
    benchmark = torch.backends.cudnn.benchmark
    yield
    torch.use_deterministic_algorithms(enabled, warn_only=warn_only)
    torch.backends.cudnn.benchmark = benchmark


class MixedNet(pl.LightningModule):
    """BatchNorm and Dropout; records what autocast and grad mode were during training and clipping."""

    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(8, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.3), nn.Linear(32, 32), nn.ReLU()
        )
        self.head = nn.Linear(32, 2)
        self.train_dtypes: set[torch.dtype] = set()
        self.clip_grad_enabled: list[bool] = []
        self.val_losses: list[float] = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.net(x))

    def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        x, y = batch
        out = self(x)
        self.train_dtypes.add(out.dtype)
        return nn.functional.cross_entropy(out, y)

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        loss = nn.functional.cross_entropy(self(x), y)
        self.val_losses.append(loss.item())
        self.log("val_loss", loss)

    def configure_gradient_clipping(
        self, optimizer: torch.optim.Optimizer, gradient_clip_val: float | None = None, **kwargs: Any
    ) -> None:
        self.clip_grad_enabled.append(torch.is_grad_enabled())
        super().configure_gradient_clipping(optimizer, gradient_clip_val, **kwargs)

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.SGD(self.parameters(), lr=0.5, momentum=0.9)


def _loader(seed: int, n: int = 64) -> DataLoader:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g) * 3
    y = (x[:, 0] + x[:, 1] > 0).long()
    return DataLoader(TensorDataset(x, y), batch_size=16, num_workers=0)


def _fit(guard: GradModeGuard | None, tmp_path: Any, **trainer_kwargs: Any) -> MixedNet:
    torch.manual_seed(1234)
    model = MixedNet()
    options: dict[str, Any] = dict(
        precision="bf16-mixed", max_epochs=2, deterministic=True, callbacks=[guard] if guard is not None else []
    )
    options.update(trainer_kwargs)
    trainer = quiet_trainer(tmp_path, **options)
    trainer.fit(model, train_dataloaders=_loader(0), val_dataloaders=_loader(1, n=32))
    return model


@pytest.mark.parametrize("algorithm", ["norm", "value"])
def test_bf16_clipping_gives_identical_weights(algorithm: str, tmp_path: Any) -> None:
    clip = dict(gradient_clip_val=0.05, gradient_clip_algorithm=algorithm, limit_val_batches=0)
    guard = GradModeGuard()
    guarded = _fit(guard, tmp_path, **clip)
    plain = _fit(None, tmp_path, **clip)

    assert_same_weights(guarded, plain)
    # Autocast was on, clipping ran under no_grad with the guard only, and it did clip.
    assert guarded.train_dtypes == plain.train_dtypes == {torch.bfloat16}
    assert guarded.clip_grad_enabled and not any(guarded.clip_grad_enabled)
    assert plain.clip_grad_enabled and all(plain.clip_grad_enabled)
    unclipped = _fit(None, tmp_path, limit_val_batches=0)
    assert not torch.equal(unclipped.head.weight, plain.head.weight), "clipping changed nothing: test is void"
    assert guard.report.total == 0


def test_bf16_validation_between_steps_gives_identical_weights(tmp_path: Any) -> None:
    between = dict(val_check_interval=0.5, gradient_clip_val=0.05, num_sanity_val_steps=2)
    guard = GradModeGuard()
    guarded = _fit(guard, tmp_path, **between)
    plain = _fit(None, tmp_path, **between)

    assert_same_weights(guarded, plain)
    assert guarded.val_losses == plain.val_losses
    summary = guard.report.stage("validation")
    # 2 epochs x 2 validations x 2 batches, each under no_grad (inside fit), and nothing found.
    assert summary.runs == 4 and summary.batches == 8
    assert summary.grad_context == "no_grad"
    assert guard.report.total == 0
    assert guarded.train_dtypes == {torch.bfloat16}


def test_bf16_validation_under_inference_mode_between_steps(tmp_path: Any) -> None:
    """Even under ``inference_mode`` for in-fit validation, no inference tensor reaches training code."""
    between = dict(val_check_interval=0.5, num_sanity_val_steps=0)
    guard = GradModeGuard(grad_mode="inference")
    guarded = _fit(guard, tmp_path, **between)
    plain = _fit(None, tmp_path, **between)

    assert_same_weights(guarded, plain)
    assert guard.report.stage("validation").grad_context == "inference_mode"
    assert guard.report.total == 0


@pytest.mark.parametrize("grad_mode", ["no_grad", "inference"])
def test_evaluation_inside_one_autocast_region_leaves_training_alone(grad_mode: str) -> None:
    """Plain API: an evaluation and a training step in the same autocast region (one weight-cast cache). The guarded
    evaluation runs in eval mode under the guard's context (no dropout mask drawn, no statistics moved, no weight
    cast without grad handed to training) and gives training its modes back: the training step then computes
    exactly what it computes without the evaluation. (A bare ``torch.no_grad()`` in place of the guard leaves the
    model training: its dropout draws a mask and its statistics move, and the gradients differ.)"""

    def train_step(evaluate_first: bool) -> tuple[list[torch.Tensor], dict[str, torch.Tensor]]:
        torch.manual_seed(0)
        model = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 2))
        x = torch.randn(4, 8)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            if evaluate_first:
                with evaluating(model, grad_mode=grad_mode) as scope, scope.batch(0):
                    model(x)
                summary = scope.report.stage("evaluation")
                assert scope.report.total == 0 and summary.batches == 1 and model.training
                assert summary.grad_context == {"inference": "inference_mode", "no_grad": "no_grad"}[grad_mode]
            model(x).float().sum().backward()
        grads = [p.grad for p in model.parameters()]
        assert all(g is not None for g in grads), "a cached weight cast made without grad cut training off its weights"
        return grads, {name: value.clone() for name, value in model.state_dict().items()}

    reference, reference_state = train_step(evaluate_first=False)
    after_evaluation, state = train_step(evaluate_first=True)
    for a, b in zip(reference, after_evaluation):
        assert torch.equal(a, b)
    assert state.keys() == reference_state.keys()
    assert all(torch.equal(state[k], reference_state[k]) for k in state), "evaluation moved a statistic"
