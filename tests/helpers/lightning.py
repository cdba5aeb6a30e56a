"""A small correct LightningModule, generated data and a quiet CPU Trainer."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytorch_lightning as pl
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


class ToyModule(pl.LightningModule):
    """A correct model with BatchNorm and Dropout: the guard must find nothing in it."""

    def __init__(self, lr: float = 0.1) -> None:
        super().__init__()
        self.lr = lr
        self.net = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        x, y = batch
        loss = nn.functional.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        self.log("val_loss", nn.functional.cross_entropy(self(x), y))

    def test_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        self.log("test_loss", nn.functional.cross_entropy(self(x), y))

    def predict_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        return self(batch[0]).softmax(-1)

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.SGD(self.parameters(), lr=self.lr)


class ThreadedPredict(ToyModule):
    """The bug of pytorch#20528: a predict step that runs the model in worker threads, which start with grad mode on
    (under no_grad they build graphs; under inference mode they fail)."""

    def predict_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        chunks = batch[0].chunk(2)
        with ThreadPoolExecutor(max_workers=2) as pool:  # worker threads run with grad mode on
            outs = list(pool.map(self, chunks))
        return torch.cat(outs).detach()


def make_loader(n: int = 32, batch_size: int = 8, seed: int = 0) -> DataLoader:
    g = torch.Generator().manual_seed(seed)
    data = TensorDataset(torch.randn(n, 8, generator=g), torch.randint(0, 2, (n,), generator=g))
    return DataLoader(data, batch_size=batch_size)


def quiet_trainer(root: Any, trainer_class: type[pl.Trainer] = pl.Trainer, **kwargs: Any) -> pl.Trainer:
    """A one-device CPU Trainer (or ``trainer_class``) without logger, checkpoints, progress bar or summary;
    ``kwargs`` override."""
    options: dict[str, Any] = dict(
        accelerator="cpu",
        devices=1,
        max_epochs=1,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        default_root_dir=str(root),
    )
    options.update(kwargs)
    return trainer_class(**options)


def assert_same_weights(a: nn.Module, b: nn.Module) -> None:
    """Bitwise-identical state dicts (same keys, dtypes and values)."""
    sa, sb = a.state_dict(), b.state_dict()
    assert sa.keys() == sb.keys()
    different = [k for k in sa if sa[k].dtype != sb[k].dtype or not torch.equal(sa[k], sb[k])]
    assert not different, f"weights differ with and without the guard: {different}"


def leftovers(trainer: pl.Trainer) -> list[str]:
    """Anything the guard attaches to Lightning's own objects and must have taken off again: the loops, their
    module-mode recorder and batch progress, the strategy and the precision plugin. (The model is never touched;
    tests check that separately.)"""
    attached: list[tuple[object, str, tuple[str, ...]]] = [
        (trainer.strategy, "strategy", ("validation_step", "test_step", "predict_step")),
        (trainer.precision_plugin, "precision plugin", ("_clip_gradients", "clip_gradients")),
    ]
    for loop in (trainer.fit_loop.epoch_loop.val_loop, trainer.validate_loop, trainer.test_loop, trainer.predict_loop):
        name = type(loop).__name__
        attached.append((loop, name, ("run", "_build_kwargs")))
        attached.append((loop._module_mode, f"{name}._module_mode", ("capture",)))
        attached.append((loop.batch_progress, f"{name}.batch_progress", ("increment_completed",)))
    return [f"{where}.{attr}" for obj, where, attrs in attached for attr in attrs if attr in vars(obj)]
