"""The example app's progress bar: epochs counted from one, out of ``max_epochs``.

Lightning's own bars count epochs from zero (``Epoch 1/1`` in the last of two, beside "``max_epochs=2`` reached");
this one shows ``Epoch 2/2`` there. Lightning's choice between its two bars stands: the rich bar where ``rich`` is
installed, else the tqdm one.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from gradmode_plugin.example._lightning import pl


def epoch_description(current_epoch: int, max_epochs: int | None) -> str:
    """``Epoch 2/2`` for the last of two epochs (``current_epoch`` counts from zero, as Lightning's does).

    Example:
        >>> epoch_description(1, 2), epoch_description(0, -1)
        ('Epoch 2/2', 'Epoch 1')
    """
    epoch = f"Epoch {current_epoch + 1}"
    return f"{epoch}/{max_epochs}" if max_epochs is not None and max_epochs > 0 else epoch


class RichEpochProgressBar(pl.callbacks.RichProgressBar):
    """Lightning's rich progress bar, epochs counted from one."""

    # The rich bar takes its epoch line from this method (callbacks/progress/rich_progress.py), wherever it draws it.
    def _get_train_description(self, current_epoch: int) -> str:
        description = epoch_description(current_epoch, self.trainer.max_epochs)
        # padded as Lightning pads its own, so the line does not flicker beside "Validation"
        return f"{description:{len(self.validation_description)}}"


class TQDMEpochProgressBar(pl.callbacks.TQDMProgressBar):
    """Lightning's tqdm progress bar, epochs counted from one."""

    def on_train_epoch_start(self, trainer: Any, *args: Any) -> None:
        super().on_train_epoch_start(trainer, *args)
        self.train_progress_bar.set_description(epoch_description(trainer.current_epoch, trainer.max_epochs))


def progress_bar() -> pl.callbacks.ProgressBar:
    """The bar Lightning would pick (rich when installed, else tqdm), epochs counted from one."""
    return RichEpochProgressBar() if importlib.util.find_spec("rich") else TQDMEpochProgressBar()


__all__ = ["RichEpochProgressBar", "TQDMEpochProgressBar", "epoch_description", "progress_bar"]
