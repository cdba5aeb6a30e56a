"""The example app's progress bar counts epochs from one: ``Epoch 2/2`` in the last of two epochs."""

from __future__ import annotations

from pathlib import Path

import pytest

from gradmode_plugin.example._lightning import pl
from gradmode_plugin.example.progress import RichEpochProgressBar, TQDMEpochProgressBar, progress_bar


def _fit_two_epochs(bar: pl.callbacks.ProgressBar, tmp_path: Path) -> pl.Trainer:
    from importlib import import_module

    boring = import_module(f"{pl.__name__}.demos.boring_classes").BoringModel
    trainer = pl.Trainer(
        max_epochs=2,
        limit_train_batches=1,
        limit_val_batches=0,
        callbacks=[bar],
        logger=False,
        enable_checkpointing=False,
        enable_model_summary=False,
        default_root_dir=tmp_path,
    )
    trainer.fit(boring())
    return trainer


def test_the_tqdm_bar_shows_the_last_epoch_as_2_of_2(tmp_path: Path) -> None:
    bar = TQDMEpochProgressBar()
    _fit_two_epochs(bar, tmp_path)
    assert bar.train_progress_bar.desc.rstrip(": ") == "Epoch 2/2"


def test_the_rich_bar_shows_the_last_epoch_as_2_of_2(tmp_path: Path) -> None:
    pytest.importorskip("rich")
    # The method overridden is the one Lightning's rich bar takes its epoch line from.
    assert "_get_train_description" in vars(pl.callbacks.RichProgressBar)
    bar = RichEpochProgressBar()
    trainer = _fit_two_epochs(bar, tmp_path)
    assert bar._get_train_description(trainer.current_epoch - 1).strip() == "Epoch 2/2"
    assert isinstance(progress_bar(), RichEpochProgressBar)
