"""Agreement across ranks: the one collective the guard makes, at the end of each evaluation stage.

Raising at the offending batch on one rank would leave the other ranks waiting in their next collective until a
transport error kills them. With several ranks the guard therefore raises at the end of the stage, on every rank
together, after one ``all_reduce`` of a ``[world_size, len(KINDS)]`` table of counts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import torch
import torch.distributed as dist

#: ``reduce(tensor) -> tensor``: a sum over all ranks (an all-reduce).
Reducer = Callable[[torch.Tensor], torch.Tensor]


def initialized() -> bool:
    """Whether this process is in an initialised default process group (the one place that asks)."""
    return dist.is_available() and dist.is_initialized()


def backend() -> str | None:
    """The default process group's backend (``"gloo"``, ``"nccl"`` ...), or None without one."""
    return str(dist.get_backend()) if initialized() else None


def world() -> tuple[int, int]:
    """(global rank, world size); (0, 1) without an initialised process group."""
    if initialized():
        return dist.get_rank(), dist.get_world_size()
    return 0, 1


def collective_device() -> torch.device:
    """Where the backend wants tensors: the current CUDA device for NCCL, else the CPU."""
    if backend() == "nccl":
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device("cpu")


def all_reduce_sum(tensor: torch.Tensor) -> torch.Tensor:
    """Sum ``tensor`` over every rank in place (blocking) and return it."""
    dist.all_reduce(tensor, op=dist.ReduceOp.SUM)
    return tensor


@dataclasses.dataclass(frozen=True)
class Ranks:
    """Where this process stands among the ranks, and how to reach the others (``reduce=None``: alone)."""

    rank: int = 0
    world_size: int = 1
    reduce: Reducer | None = None
    device: torch.device | str = "cpu"

    @property
    def several(self) -> bool:
        """True when raising must wait for the end of the stage (every rank raises together)."""
        return self.world_size > 1 and self.reduce is not None

    @classmethod
    def current(cls) -> Ranks:
        """This process in the initialised default process group, if any."""
        rank, world_size = world()
        if world_size == 1:
            return cls()
        return cls(rank, world_size, all_reduce_sum, collective_device())


def agree(ranks: Ranks, counts: dict[str, int]) -> list[dict[str, int]]:
    """Every rank's ``counts`` of this run (one collective with several ranks), indexed by rank. ``counts`` holds
    every kind, in the same order on every rank (the registry's)."""
    kinds = list(counts)
    if not ranks.several:
        return [dict(counts) if r == ranks.rank else dict.fromkeys(kinds, 0) for r in range(ranks.world_size)]
    assert ranks.reduce is not None
    local = torch.zeros(ranks.world_size, len(kinds), dtype=torch.int64, device=ranks.device)
    local[ranks.rank] = torch.tensor([counts[k] for k in kinds], dtype=torch.int64)
    table = ranks.reduce(local).cpu().tolist()
    return [dict(zip(kinds, (int(n) for n in row))) for row in table]


def offenders(table: list[dict[str, int]]) -> dict[int, list[str]]:
    """``{rank: [kinds it found]}`` for every rank that found something."""
    return {rank: [k for k, n in row.items() if n] for rank, row in enumerate(table) if any(row.values())}


def describe_offenders(stage: str, found: dict[int, list[str]]) -> str:
    described = "; ".join(f"rank {r}: {', '.join(kinds)}" for r, kinds in found.items())
    return f"gradmode: violations during {stage} on {len(found)} rank(s) ({described})"
