"""A Lightning Fabric loop under ``evaluating(model)`` and ``scope.iterate(loader)``: what ``fabric.setup`` returns
is guarded as the user's module, a correct loop trains and evaluates to the same numbers, a bug is found at its
batch naming the user's module and line."""

from __future__ import annotations

from typing import Any

import pytest
import torch

from gradmode_plugin import GradModeViolation, evaluating
from tests.helpers.lightning import make_loader
from tests.helpers.loops import fabric_fit, same
from tests.helpers.models import Net, flags, hook_count

fabric_module = pytest.importorskip("lightning.fabric")


def _setup(bug: bool = False) -> tuple[Any, Any, Any, Any, Any]:
    fabric = fabric_module.Fabric(accelerator="cpu", devices=1)
    net = Net(bug)
    model, optimizer = fabric.setup(net, torch.optim.SGD(net.parameters(), lr=0.1))
    train, val = fabric.setup_dataloaders(make_loader(seed=0), make_loader(seed=1))
    return fabric, net, model, optimizer, (train, val)


def test_a_correct_fabric_loop_trains_and_evaluates_to_the_same_numbers() -> None:
    plain, plain_net = fabric_fit(guarded=False)
    guarded, guarded_net = fabric_fit(guarded=True)
    assert len(guarded) == 8 and same(plain, guarded)
    assert same(list(plain_net.state_dict().values()), list(guarded_net.state_dict().values()))
    assert hook_count(guarded_net) == 0


def test_a_bug_in_the_loop_is_found_at_its_batch_naming_the_users_module_and_line() -> None:
    with pytest.raises(GradModeViolation) as info:
        fabric_fit(guarded=True, unfreeze_at=2)
    violation = info.value.violation
    assert (violation.kind, violation.batch_idx, violation.module) == ("train_mode", 2, "head")
    assert "loops.py" in (violation.where or "") and "the planted bug" in (violation.where or "")


def test_a_bug_in_the_users_module_names_it_and_the_state_is_restored() -> None:
    _, net, model, _, (_, val) = _setup(bug=True)
    model.eval()
    before = flags(model)
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        for x, _ in scope.iterate(val):
            model(x)
    violation = info.value.violation
    assert (violation.kind, violation.batch_idx, violation.module) == ("train_mode", 0, "head")
    assert "the planted bug" in (violation.where or "")
    assert flags(model) == before and hook_count(net) == 0
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
