"""train_mode: a module in training mode during evaluation (named with the line that switched it), and functional
dropout that trains whatever the module flags say."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, evaluating
from tests.helpers.lightning import ToyModule, make_loader

THIS_FILE = Path(__file__).name
Dropout = Callable[[torch.Tensor, bool], torch.Tensor]


class Head(nn.Module):
    """Applies ``dropout(x, self.training)`` on the batch where it is told to."""

    def __init__(self, dropout: Dropout) -> None:
        super().__init__()
        self.dropout = dropout
        self.fc = nn.Linear(8, 8)
        self.active = True

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.fc(x)
        return self.dropout(x, self.training) if self.active else x


class Net(nn.Module):
    def __init__(self, dropout: Dropout) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.body = nn.Linear(8, 8)
        self.head = Head(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


BUGGY: dict[str, Dropout] = {
    "F.dropout(x)": lambda x, training: F.dropout(x, 0.5),  # training defaults to True: the classic  # noqa: GM101
    "F.dropout(training=True)": lambda x, training: F.dropout(x, 0.5, training=True),  # noqa: GM102
    "F.alpha_dropout(training=True)": lambda x, training: F.alpha_dropout(x, 0.5, training=True),  # noqa: GM102
    "F.feature_alpha_dropout(training=True)": lambda x, training: F.feature_alpha_dropout(  # noqa: GM102
        x.reshape(2, 4, 2), 0.5, training=True
    ).reshape(2, 8),
    "F.dropout1d": lambda x, training: F.dropout1d(x.reshape(2, 4, 2), 0.5).reshape(2, 8),  # noqa: GM101
    "F.dropout2d": lambda x, training: F.dropout2d(x.reshape(2, 2, 2, 2), 0.5).reshape(2, 8),  # noqa: GM101
    "F.dropout3d": lambda x, training: F.dropout3d(x.reshape(1, 2, 2, 2, 2), 0.5).reshape(2, 8),  # noqa: GM101
}
CORRECT: dict[str, Dropout] = {
    "F.dropout(training=self.training)": lambda x, training: F.dropout(x, 0.5, training=training),
    "F.dropout2d(training=self.training)": lambda x, training: F.dropout2d(
        x.reshape(2, 2, 2, 2), 0.5, training=training
    ).reshape(2, 8),
}
BATCHES = [torch.randn(2, 8, generator=torch.Generator().manual_seed(i)) for i in range(3)]


def evaluate(model: Net, **kwargs: Any) -> tuple[Any, list[torch.Tensor]]:
    outputs = []
    with evaluating(model, **kwargs) as scope:
        for i, x in enumerate(BATCHES):
            model.head.active = i == 1 or "allow_train" in kwargs
            with scope.batch(i):
                outputs.append(model(x))
    return scope, outputs


@pytest.mark.parametrize("call", list(BUGGY))
def test_functional_dropout_that_trains_is_caught_with_module_and_line(call: str) -> None:
    with pytest.raises(GradModeViolation) as info:
        evaluate(Net(BUGGY[call]))
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module, v.stage) == ("train_mode", 1, "head", "evaluation")
    assert "ran during evaluation in module 'head'" in v.detail
    assert THIS_FILE in (v.where or "") and "lambda" in (v.where or "")
    assert "with scope.batch(i)" in (v.where or "") or "outputs.append(model(x))" in (v.where or "")


@pytest.mark.parametrize("call", list(CORRECT))
def test_correct_functional_dropout_is_silent_and_computes_the_same(call: str) -> None:
    scope, guarded = evaluate(Net(CORRECT[call]))
    assert scope.report.total == 0
    model = Net(CORRECT[call]).eval()
    with torch.no_grad():
        plain = []
        for i, x in enumerate(BATCHES):
            model.head.active = i == 1
            plain.append(model(x))
    assert all(torch.equal(a, b) for a, b in zip(guarded, plain))


def test_mc_dropout_through_allow_train_is_silent_and_stays_stochastic() -> None:
    scope, outputs = evaluate(Net(CORRECT["F.dropout(training=self.training)"]), allow_train=("head",))
    assert scope.report.total == 0
    assert not torch.equal(outputs[0], Net(CORRECT["F.dropout(training=self.training)"]).eval()(BATCHES[0]))


def test_train_call_is_named_with_its_line() -> None:
    model = Net(CORRECT["F.dropout(training=self.training)"])
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i):
                if i == 2:
                    model.body.train()  # the line to blame
                model(x)
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module) == ("train_mode", 2, "body")
    assert "model.body.train()  # the line to blame" in (v.where or "")
    assert "switched by train() at" in v.detail


class FunctionalDropoutInLightning(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x = self.net(batch[0])
        if batch_idx == 2:
            x = F.dropout(x)  # forgot training=self.training  # noqa: GM101
        self.log("val_loss", nn.functional.cross_entropy(x, batch[1]))


def test_functional_dropout_in_a_lightning_step(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()]).validate(FunctionalDropoutInLightning(), make_loader())
    v = info.value.violation
    assert (v.kind, v.stage, v.batch_idx, v.module) == ("train_mode", "validation", 2, "")
    assert "x = F.dropout(x)  # forgot training=self.training" in (v.where or "")
