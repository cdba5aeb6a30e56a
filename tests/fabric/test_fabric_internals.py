"""What the guard reads of Fabric, and what Fabric offers a callback: the facts the Fabric page states."""

from __future__ import annotations

from typing import Any

import pytest
import torch
import torch.nn.functional as F

from gradmode_plugin import GradModeViolation, evaluating
from gradmode_plugin._fabric_internals import UnsupportedFabricError
from gradmode_plugin.wrappers import user_module
from tests.helpers.lightning import make_loader
from tests.helpers.models import Net

fabric_module = pytest.importorskip("lightning.fabric")


class _Spy:
    """A callback that answers every hook name: what Fabric itself calls is recorded."""

    def __init__(self) -> None:
        self.called: list[str] = []

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return lambda *args, **kwargs: self.called.append(name)


def test_fabric_reads_a_callbacks_factory_but_calls_no_hook_around_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    groups: list[str] = []
    monkeypatch.setattr(fabric_module.fabric, "_load_external_callbacks", lambda group: groups.append(group) or [])
    spy = _Spy()
    fabric = fabric_module.Fabric(accelerator="cpu", devices=1, callbacks=[spy])
    assert groups == ["lightning.fabric.callbacks_factory"]
    net = Net()
    model, optimizer = fabric.setup(net, torch.optim.SGD(net.parameters(), lr=0.1))
    train, val = fabric.setup_dataloaders(make_loader(seed=0), make_loader(seed=1))
    for x, y in train:
        optimizer.zero_grad()
        fabric.backward(F.cross_entropy(model(x), y))
        optimizer.step()
    with evaluating(model) as scope:
        for x, _ in scope.iterate(val):
            model(x)
    assert set(spy.called) == {"on_after_setup", "on_after_optimizer_step"}


def test_a_compiled_fabric_module_is_unwrapped_to_the_users_module() -> None:
    fabric = fabric_module.Fabric(accelerator="cpu", devices=1)
    net = Net(bug=True)
    model = fabric.setup(torch.compile(net, backend="eager"))  # Fabric compiles again inside its wrapper
    assert type(model._forward_module).__name__ == "OptimizedModule" and user_module(model) is net
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        for x, _ in scope.iterate(fabric.setup_dataloaders(make_loader())):
            model(x)
    assert (info.value.violation.module, info.value.violation.batch_idx) == ("head", 0)


def test_a_fabric_module_without_what_the_guard_reads_is_refused_naming_the_way_out() -> None:
    fabric = fabric_module.Fabric(accelerator="cpu", devices=1)
    model = fabric.setup(Net())
    del model._modules["_original_module"]  # what a Fabric that renamed it would look like
    with pytest.raises(UnsupportedFabricError, match=r"pass the module you gave fabric\.setup"):
        evaluating(model).__enter__()
    assert torch.is_grad_enabled()
