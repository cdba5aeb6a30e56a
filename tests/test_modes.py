"""Module flags and grad contexts."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from gradmode_plugin import ModuleModes, grad_context
from tests.helpers.models import flags


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(2, 2), nn.BatchNorm1d(2))
        self.head = nn.Sequential(nn.Dropout(), nn.Linear(2, 2))
        self.aux = nn.Dropout()


def test_eval_everywhere_but_allowed_modules_and_their_children() -> None:
    model = Net()
    modes = ModuleModes(model, allow_train=("head",))
    model.eval()
    modes.train_allowed_modules()
    assert modes.train_allowed == ["head"]
    assert model.head.training and model.head[0].training and model.head[1].training
    assert not model.training and not model.backbone[1].training and not model.aux.training
    assert not modes.any_training()


def test_globs_match_names_from_named_modules() -> None:
    model = Net()
    modes = ModuleModes(model, allow_train=("*.0", "aux"))
    model.eval()
    modes.train_allowed_modules()
    assert sorted(modes.train_allowed) == ["aux", "backbone.0", "head.0"]
    assert model.aux.training and model.backbone[0].training and not model.backbone[1].training


def test_restore_puts_back_every_flag_exactly() -> None:
    model = Net()
    model.backbone.eval()  # a frozen backbone
    before = flags(model)
    modes = ModuleModes(model)
    model.eval()
    model.head.train()
    assert modes.training_modules() == ["head"]
    modes.restore()
    assert flags(model) == before


def test_unknown_pattern_is_an_error_that_lists_names() -> None:
    with pytest.raises(ValueError, match=r"(?s)\['head.dropot'\] match no module of Net.*backbone, backbone.0"):
        ModuleModes(Net(), allow_train=("head.dropot",))


class WithNamedDropouts(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.head = nn.ModuleDict({"mc_dropout": nn.Dropout(), "fc": nn.Linear(2, 2)})
        self.body_dropout = nn.Dropout()


@pytest.mark.parametrize(
    ("pattern", "similar"),
    [
        ("head.mc_dropot", "head.mc_dropout"),  # a typo
        ("*.dropout", "head.mc_dropout, body_dropout"),  # the right word, the wrong glob
    ],
)
def test_unknown_pattern_names_similar_modules(pattern: str, similar: str) -> None:
    with pytest.raises(ValueError) as info:
        ModuleModes(WithNamedDropouts(), allow_train=(pattern,))
    assert f"similar to {pattern!r}: {similar}" in str(info.value)


def test_recording_assigns_nothing_and_allowed_modules_train_through_their_own_method() -> None:
    calls: list[tuple[str, bool]] = []

    class Recorded(nn.Dropout):
        def train(self, mode: bool = True) -> Recorded:
            calls.append((type(self).__name__, mode))
            return super().train(mode)

    model = Net()
    model.aux = Recorded()
    before = flags(model)
    modes = ModuleModes(model, allow_train=("aux",))
    assert flags(model) == before and calls == []  # recording changes no mode
    model.eval()
    modes.train_allowed_modules()
    assert calls == [("Recorded", False), ("Recorded", True)]
    assert not model.training and model.aux.training


def test_no_grad_context_never_leaves_an_outer_inference_mode() -> None:
    with torch.inference_mode(), grad_context("no_grad"):
        assert torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
        made = torch.ones(1)
    assert made.is_inference()
    with grad_context("inference"):
        assert torch.is_inference_mode_enabled()
    with grad_context("no_grad"):
        assert not torch.is_inference_mode_enabled() and not torch.is_grad_enabled()


class ReplacesItsAttention(nn.Module):
    """A forward that swaps a submodule for a new one (BigBird's short-sequence path does this with
    ``attention.self``); the new one starts in training mode and its forward runs in eval."""

    def __init__(self) -> None:
        super().__init__()
        self.attention = nn.Sequential(nn.Linear(2, 2), nn.Dropout(0.1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if isinstance(self.attention[1], nn.Dropout):
            replacement = nn.Sequential(nn.Linear(2, 2), nn.Identity())
            replacement.train(self.training)  # as set_attention_type does: the new module takes the current mode
            self.attention = replacement
        return self.attention(x)


def test_a_module_a_forward_created_in_anothers_place_is_restored_by_name() -> None:
    from gradmode_plugin import evaluating

    model = ReplacesItsAttention()
    frozen = ReplacesItsAttention().eval()  # recorded in eval: stays in eval whatever stands in its place
    outer = nn.ModuleDict({"model": model, "frozen": frozen})
    before = flags(outer)
    with evaluating(outer) as scope, scope.batch(0):
        outer["model"](torch.randn(3, 2))
        outer["frozen"](torch.randn(3, 2))
    assert not isinstance(model.attention[1], nn.Dropout)  # replaced during the stage
    assert flags(outer) == before  # the new modules in the mode their names had on entry
