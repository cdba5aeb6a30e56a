"""Plain-PyTorch models and loops for the core's tests."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from gradmode_plugin import EvaluationScope, evaluating

BATCHES = [torch.randn(4, 8, generator=torch.Generator().manual_seed(i)) for i in range(4)]

Body = Callable[[nn.Module, int, torch.Tensor], Any]


def make_model() -> nn.Module:
    """Linear, BatchNorm, ReLU, Dropout, Linear: a correct model the guard must find nothing in."""
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.5), nn.Linear(16, 2))


def run_loop(model: nn.Module, body: Body | None = None, **kwargs: Any) -> EvaluationScope:
    """A typical guarded loop over :data:`BATCHES`; ``body(model, i, x)`` replaces the forward to plant a bug."""
    with evaluating(model, **kwargs) as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i):
                out = body(model, i, x) if body else model(x)
                scope.check_output(out)
    return scope


def flags(module: nn.Module) -> list[bool]:
    return [m.training for m in module.modules()]


def hook_count(module: nn.Module) -> int:
    """Every hook of every submodule, so tests can prove none is ever put on the model."""
    total = 0
    for m in module.modules():
        for name in vars(m):
            if name.endswith("_hooks") and isinstance(getattr(m, name), dict):
                total += len(getattr(m, name))
    return total


def instance_attributes(module: nn.Module) -> dict[int, set[str]]:
    """``id(submodule) -> names in its __dict__``, to prove the guard writes nothing onto a model."""
    return {id(m): set(vars(m)) for m in module.modules()}


Attend = Callable[[nn.Module, torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]


class Attention(nn.Module):
    """Multi-head self-attention whose attention call is ``attend(self, q, k, v)`` (the bug or its fix), with a
    dropout probability, as model code keeps one: ``self.dropout_p``."""

    def __init__(self, attend: Attend, dim: int = 8, heads: int = 2, dropout_p: float = 0.3) -> None:
        super().__init__()
        self.attend = attend
        self.heads = heads
        self.dropout_p = dropout_p
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch, tokens, dim = x.shape
        q, k, v = self.qkv(x).view(batch, tokens, 3, self.heads, dim // self.heads).permute(2, 0, 3, 1, 4)
        out = self.attend(self, q, k, v)
        return self.proj(out.transpose(1, 2).reshape(batch, tokens, dim))


class AttentionNet(nn.Module):
    """An attention block and a classifier head: ``net.block`` is the attention."""

    def __init__(self, attend: Attend) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.block = Attention(attend)
        self.head = nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.block(x).mean(1))


TOKENS = [torch.randn(2, 5, 8, generator=torch.Generator().manual_seed(i)) for i in range(3)]


class Net(nn.Module):
    """A body with BatchNorm and a head (``net.head``) whose dropout is planted by ``bug``: ``F.dropout(...,
    training=True)`` in the user's own module, for wrapped models (frameworks' wrappers, Fabric, Accelerate)."""

    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.body = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU())
        self.head = Head(bug)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


class Head(nn.Module):
    def __init__(self, bug: bool) -> None:
        super().__init__()
        self.bug = bug
        self.drop = nn.Dropout(0.5)
        self.out = nn.Linear(16, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = F.dropout(x, 0.5, training=True) if self.bug else self.drop(x)  # noqa: GM102 (the planted bug)
        return self.out(x)


T = TypeVar("T")


def in_thread(work: Callable[[], T], name: str = "worker") -> list[T]:
    """``work()`` in a new thread (which starts with grad mode on), joined: ``[its result]``, or ``[]`` when the
    thread died."""
    out: list[T] = []
    worker = threading.Thread(target=lambda: out.append(work()), name=name)
    worker.start()
    worker.join()
    return out
