"""The usual training loops of Lightning Fabric and Accelerate, each followed by an evaluation: as their docs write
it (``model.eval()``, ``torch.no_grad()``), or under ``evaluating(model)`` and ``scope.iterate(loader)``. Shared by
the CPU tests (tests/fabric, tests/accelerate) and the CUDA ones (tests/gpu)."""

from __future__ import annotations

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from gradmode_plugin import evaluating
from tests.helpers.lightning import make_loader
from tests.helpers.models import Net

#: Epochs of each loop, each followed by an evaluation of make_loader's 4 batches.
EPOCHS = 2


def fabric_fit(guarded: bool, unfreeze_at: int | None = None, **fabric: Any) -> tuple[list[torch.Tensor], nn.Module]:
    """Fabric's loop (``fabric`` are ``Fabric(...)``'s arguments): the evaluation losses and the user's module.
    ``unfreeze_at`` plants ``model.head.train()`` in the evaluation loop at that batch."""
    from lightning.fabric import Fabric

    runner = Fabric(**{"accelerator": "cpu", "devices": 1, **fabric})
    net = Net()
    model, optimizer = runner.setup(net, torch.optim.SGD(net.parameters(), lr=0.1))
    train, val = runner.setup_dataloaders(make_loader(seed=0), make_loader(seed=1))
    losses: list[torch.Tensor] = []
    for _ in range(EPOCHS):
        model.train()
        for x, y in train:
            optimizer.zero_grad()
            runner.backward(F.cross_entropy(model(x), y))
            optimizer.step()
        if guarded:
            with evaluating(model) as scope:
                for x, y in scope.iterate(val):
                    if scope.batch_idx == unfreeze_at:
                        model.head.train()  # the planted bug: through Fabric's wrapper, onto the user's head
                    losses.append(F.cross_entropy(model(x), y))
            assert scope.report.total == 0 and model.training
        else:
            model.eval()
            with torch.no_grad():
                losses.extend(F.cross_entropy(model(x), y) for x, y in val)
    return losses, net


def accelerate_fit(
    guarded: bool, unfreeze_at: int | None = None, **accelerator_args: Any
) -> tuple[list[torch.Tensor], nn.Module]:
    """Accelerate's loop (``accelerator_args`` are ``Accelerator(...)``'s arguments): every gathered prediction and
    the user's module (on the CPU unless ``cpu=False``). ``unfreeze_at`` plants ``head.train()`` in the evaluation
    loop at that batch."""
    from accelerate import Accelerator

    accelerator = Accelerator(**{"cpu": True, **accelerator_args})
    net = Net()
    model, optimizer, train, val = accelerator.prepare(
        net, torch.optim.SGD(net.parameters(), lr=0.1), make_loader(seed=0), make_loader(seed=1)
    )
    predictions: list[torch.Tensor] = []
    for _ in range(EPOCHS):
        model.train()
        for x, y in train:
            optimizer.zero_grad()
            accelerator.backward(F.cross_entropy(model(x), y))
            optimizer.step()
        if guarded:
            with evaluating(model) as scope:
                for x, _ in scope.iterate(val):
                    if scope.batch_idx == unfreeze_at:
                        accelerator.unwrap_model(model).head.train()  # the planted bug
                    predictions.append(accelerator.gather_for_metrics(model(x)))
            assert scope.report.total == 0 and model.training
        else:
            model.eval()
            for x, _ in val:
                with torch.no_grad():
                    logits = model(x)
                predictions.append(accelerator.gather_for_metrics(logits))
    return predictions, net


def same(a: list[torch.Tensor], b: list[torch.Tensor]) -> bool:
    """Bitwise the same tensors, in the same order."""
    return len(a) == len(b) and all(torch.equal(x, y) for x, y in zip(a, b))
