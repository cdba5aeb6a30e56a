"""The environment of one rank of a run on this machine, for the processes a benchmark or a test starts itself.

Each process gets its rank through the environment (``LOCAL_RANK`` makes Lightning treat the processes as created
externally, so it re-launches nothing), on the loopback interface, with every variable of another launcher (SLURM,
torchelastic, Lightning's, MPI's) left out: they would make Lightning read the world from them instead. Shared by
``scripts/bench_ddp.py`` and ``tests/distributed/_ddp_launch.py``; standard library only.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Mapping

#: Variables of other launchers, left out of a rank's environment.
LAUNCHER_PREFIXES = ("SLURM_", "TORCHELASTIC_", "PL_", "LT_", "OMPI_", "PMI_")
LAUNCHER_NAMES = ("GROUP_RANK", "LOCAL_WORLD_SIZE", "JSM_NAMESPACE_RANK")


def free_port() -> int:
    """A TCP port free on the loopback interface now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rank_env(
    rank: int,
    world_size: int,
    port: int,
    *,
    drop: tuple[str, ...] = (),
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """This process's environment for rank ``rank`` of ``world_size`` on this machine, CPU only, one thread, without
    other launchers' variables (nor those starting with a prefix in ``drop``), with ``extra`` on top."""
    prefixes = LAUNCHER_PREFIXES + drop
    env = {k: v for k, v in os.environ.items() if not k.startswith(prefixes) and k not in LAUNCHER_NAMES}
    env.update(
        MASTER_ADDR="127.0.0.1",
        MASTER_PORT=str(port),
        WORLD_SIZE=str(world_size),
        NODE_RANK="0",
        LOCAL_RANK=str(rank),
        RANK=str(rank),
        OMP_NUM_THREADS="1",
        PYTHONUNBUFFERED="1",
        CUDA_VISIBLE_DEVICES="",
    )
    if sys.platform.startswith("linux"):
        env.setdefault("GLOO_SOCKET_IFNAME", "lo")
    env.update(extra or {})
    return env
