"""A wrapped model is guarded as the user's module: findings and ``allow_train`` use the user's names, and the
wrappers' own flags are put back."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import torch
import torch.distributed as dist
from torch import nn

from gradmode_plugin import GradModeViolation, evaluating
from gradmode_plugin.wrappers import user_module
from tests.helpers.models import BATCHES, Net, flags, hook_count


@pytest.fixture
def one_rank(tmp_path: Path) -> Iterator[None]:
    """A process group of one rank (gloo), for DistributedDataParallel on the CPU."""
    dist.init_process_group("gloo", init_method=f"file://{tmp_path / 'store'}", rank=0, world_size=1)
    yield
    dist.destroy_process_group()


def _compiled(net: nn.Module) -> nn.Module:
    return torch.compile(net, backend="eager")  # type: ignore[return-value]


WRAPS: dict[str, Callable[[nn.Module], nn.Module]] = {
    "DataParallel": nn.DataParallel,
    "compile": _compiled,
    "compile(DataParallel)": lambda net: _compiled(nn.DataParallel(net)),
}


@pytest.mark.parametrize("wrap", list(WRAPS))
def test_user_module_finds_the_module_inside(wrap: str) -> None:
    net = Net()
    assert user_module(WRAPS[wrap](net)) is net
    assert user_module(net) is net


@pytest.mark.parametrize("wrap", list(WRAPS))
def test_a_finding_in_a_wrapped_model_names_the_users_module(wrap: str) -> None:
    net = Net(bug=True)
    model = WRAPS[wrap](net)
    before = flags(model)
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        for x in scope.iterate(BATCHES):
            model(x)
    violation = info.value.violation
    assert (violation.kind, violation.batch_idx, violation.module) == ("train_mode", 0, "head")
    assert "the planted bug" in (violation.where or "")
    assert flags(model) == before and hook_count(model) == 0


def test_a_wrapped_correct_model_is_silent_computes_the_same_and_takes_the_users_patterns() -> None:
    net = Net()
    model = nn.DataParallel(net)
    model.eval()
    with torch.no_grad():
        plain = [model(x) for x in BATCHES]
    model.train()
    with evaluating(model, allow_train="head.drop") as scope:  # the user's name, not "module.head.drop"
        guarded = [model(x) for x in scope.iterate(BATCHES)]
        assert net.head.drop.training and not model.training and not net.training
    assert scope.report.total == 0
    assert not all(torch.equal(a, b) for a, b in zip(plain, guarded))  # the allowed dropout drops, as asked
    with evaluating(model) as scope:
        again = [model(x) for x in scope.iterate(BATCHES)]
    assert all(torch.equal(a, b) for a, b in zip(plain, again)) and scope.report.total == 0
    assert all(flags(model)) and hook_count(model) == 0


def test_the_wrappers_flags_are_put_back_as_they_were() -> None:
    net = Net()
    model = nn.DataParallel(net)
    net.eval()  # the wrapper in training mode, the user's module not: both come back as they were
    with evaluating(model):
        pass
    assert model.training and not any(flags(net))


def test_distributed_data_parallel_is_unwrapped(one_rank: None) -> None:
    net = Net(bug=True)
    model = nn.parallel.DistributedDataParallel(net)
    before = flags(model)
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        for x in scope.iterate(BATCHES, start=3):
            model(x)
    assert (info.value.violation.module, info.value.violation.batch_idx) == ("head", 3)
    assert flags(model) == before and hook_count(model) == 0
