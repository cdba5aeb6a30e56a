"""What the guard's rank agreement costs: two CPU processes under DDP (gloo), one ``all_reduce`` per stage.

The script starts two processes of itself, one per rank, with the rank in the environment (``LOCAL_RANK`` makes
Lightning treat them as created externally, as ``tests/distributed`` does). Each rank times the guard's agreement
collective alone (an ``all_reduce`` of the ``[world_size, kinds]`` int64 table, median of ``--repeats``), then a
clean 2-batch ``Trainer.validate`` with and without ``GradModeGuard()`` (median of ``--rounds``, the arms
alternating). Prints one line per rank and writes ``ddp_cpu.json``.

Run from the repository root::

    python scripts/bench_ddp.py                     # about a minute on 2 cores
    python scripts/bench_ddp.py --quick --out /tmp  # smoke run
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bench_common as common
from _ranks import free_port, rank_env

WORLD_SIZE = 2
#: A healthy run takes seconds per rank; past this the ranks are killed (a hang).
TIMEOUT_S = 600


def launch(args: argparse.Namespace) -> int:
    """Start both ranks, wait for them, print and write what they measured."""
    port = free_port()
    results = args.out / ("ddp_cpu_quick_rank{}.json" if args.quick else "ddp_cpu_rank{}.json")
    argv = [sys.executable, __file__, "--repeats", str(args.repeats), "--rounds", str(args.rounds)]
    # The benchmark puts its own guards on: a GRADMODE_GUARD of the caller's would add one to every Trainer.
    quiet = {"PYTHONWARNINGS": "ignore"}
    envs = [rank_env(r, WORLD_SIZE, port, drop=("GRADMODE_",), extra=quiet) for r in range(WORLD_SIZE)]
    procs = [
        subprocess.Popen([*argv, "--rank-result", str(results).format(rank)], env=envs[rank])
        for rank in range(WORLD_SIZE)
    ]
    try:
        codes = [proc.wait(timeout=TIMEOUT_S) for proc in procs]
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    if any(codes):
        print(f"a rank failed: exit statuses {codes}", file=sys.stderr)
        return 1
    ranks = [json.loads(Path(str(results).format(rank)).read_text()) for rank in range(WORLD_SIZE)]
    for rank in range(WORLD_SIZE):
        Path(str(results).format(rank)).unlink()
    for rank, r in enumerate(ranks):
        print(
            f"[rank {rank}] agreement all_reduce ([{WORLD_SIZE}, {r['kinds']}] int64, gloo): "
            f"{r['all_reduce_s'] * 1e6:.0f} us; validate 2 batches (median of {args.rounds}): "
            f"{r['validate_plain_s'] * 1e3:.1f} ms without guard, {r['validate_guard_s'] * 1e3:.1f} ms with guard"
        )
    name = "ddp_cpu_quick.json" if args.quick else "ddp_cpu.json"
    settings = {"world_size": WORLD_SIZE, "repeats": args.repeats, "rounds": args.rounds}
    common.write_json(args.out / name, {"env": common.environment(), "settings": settings, "ranks": ranks})
    print(f"wrote {args.out / name}")
    return 0


def measure(args: argparse.Namespace) -> None:
    """One rank: the collective alone, then validation with and without the guard."""
    import pytorch_lightning as pl
    import torch
    from torch import nn
    from torch.utils.data import DataLoader, TensorDataset

    from gradmode_plugin import GradModeGuard
    from gradmode_plugin.distributed import all_reduce_sum
    from gradmode_plugin.kinds import KINDS

    common.quiet()

    class Net(pl.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.net = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Linear(16, 2))

        def validation_step(self, batch: Any, batch_idx: int) -> None:
            x, y = batch
            self.log("val_loss", nn.functional.cross_entropy(self.net(x), y), sync_dist=True)

    g = torch.Generator().manual_seed(0)
    data = TensorDataset(torch.randn(16, 8, generator=g), torch.randint(0, 2, (16,), generator=g))
    model = Net()

    def trainer(guarded: bool) -> pl.Trainer:
        return pl.Trainer(
            accelerator="cpu",
            devices=WORLD_SIZE,
            strategy="ddp",
            limit_val_batches=2,
            logger=False,
            enable_checkpointing=False,
            enable_progress_bar=False,
            enable_model_summary=False,
            callbacks=[GradModeGuard()] if guarded else [],
        )

    # The first validate initialises the process group, which the collective below needs.
    trainer(False).validate(model, DataLoader(data, batch_size=4), verbose=False)
    table = torch.zeros(WORLD_SIZE, len(KINDS), dtype=torch.int64)
    for _ in range(10):
        all_reduce_sum(table.zero_())
    torch.distributed.barrier()
    samples = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        all_reduce_sum(table.zero_()).cpu().tolist()
        samples.append(time.perf_counter() - start)
    validate: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(args.rounds):
        for guarded in (False, True):
            run = trainer(guarded)
            torch.distributed.barrier()
            start = time.perf_counter()
            run.validate(model, DataLoader(data, batch_size=4), verbose=False)
            validate[guarded].append(time.perf_counter() - start)
    result = {
        "rank": int(os.environ["RANK"]),
        "kinds": len(KINDS),
        "all_reduce_s": statistics.median(samples),
        "validate_plain_s": statistics.median(validate[False]),
        "validate_guard_s": statistics.median(validate[True]),
    }
    args.rank_result.write_text(json.dumps(result))
    # Leave the process group before the interpreter exits: gloo's threads torn down by the exit itself abort the
    # process now and then ("terminate called without an active exception", exit -6) after a run that went well.
    torch.distributed.barrier()
    torch.distributed.destroy_process_group()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=200, help="timings of the collective (default 200)")
    parser.add_argument("--rounds", type=int, default=10, help="validations per arm (default 10)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 5 repeats, 2 rounds")
    parser.add_argument("--out", type=Path, default=common.DOCS, help="where the JSON goes (default docs/)")
    parser.add_argument("--rank-result", type=Path, help=argparse.SUPPRESS)  # set for the two rank processes
    args = parser.parse_args(argv)
    if args.quick:
        args.repeats, args.rounds = 5, 2
    if args.rank_result is not None:
        measure(args)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    return launch(args)


if __name__ == "__main__":
    sys.exit(main())
