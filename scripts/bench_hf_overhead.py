"""What ``HFGradModeGuard`` costs on ``transformers.Trainer.evaluate()``, side by side with the unguarded run in one
process: a tiny BERT (2 layers, width 32) at batch 1, many batches (the worst case: the guard's per-batch work
against the smallest step).

Arms, alternating in one process (each round runs every arm once, the order rotating):

- ``plain``: ``evaluate()`` with no guard alive (transformers' own functions in place);
- ``guarded``: the same Trainer with an ``HFGradModeGuard()`` added for the call (made and removed outside the
  timing; the process-wide patches live while it does);
- ``empty_callback``: a ``TrainerCallback`` that does nothing, the floor of any callback;
- ``plain_again``: ``plain`` on a second, identical Trainer (A/A: the resolution of the method).

Usage::

    python scripts/bench_hf_overhead.py                    # writes docs/overhead_hf_cpu.json
    python scripts/bench_hf_overhead.py --rounds 5 --batches 32 --out /tmp/quick.json
"""

from __future__ import annotations

import argparse
import gc
import logging
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import transformers
from _bench_common import DOCS, alternate, environment, median, median_ci, ratios, set_threads, table, write_json
from transformers import PrinterCallback, TrainerCallback

from gradmode_plugin import HFGradModeGuard
from tests.helpers.hf import TokenData, make_trainer


class _Empty(TrainerCallback):
    pass


def _timed(trainer: Any, callback: Any = None) -> tuple[float, float]:
    if callback is not None:
        trainer.add_callback(callback)
    gc.collect()
    wall, cpu = time.perf_counter(), time.process_time()
    trainer.evaluate()
    result = time.perf_counter() - wall, time.process_time() - cpu
    if callback is not None:
        trainer.pop_callback(callback)
    return result


def run(args: argparse.Namespace) -> dict[str, Any]:
    set_threads(None, "cpu")
    logging.getLogger("gradmode_plugin").setLevel(logging.WARNING)
    out = Path(tempfile.mkdtemp(prefix="bench-hf-"))
    trainers = []
    for name in ("a", "b"):
        trainer = make_trainer("bert", out / name, per_device_eval_batch_size=1)
        trainer.eval_dataset = TokenData(n=args.batches, seed=1)
        trainer.pop_callback(PrinterCallback)  # the metrics printed at each evaluate() are not what is measured
        trainers.append(trainer)
    first, second = trainers

    def guarded() -> tuple[float, float]:
        guard = HFGradModeGuard()
        try:
            return _timed(first, guard)
        finally:
            del guard  # the patches go with the last guard: the plain arms run transformers' own functions

    arms = {
        "plain": lambda: _timed(first),
        "guarded": guarded,
        "empty_callback": lambda: _timed(first, _Empty()),
        "plain_again": lambda: _timed(second),
    }
    wall, cpu = alternate(arms, rounds=args.rounds, warmup=2, self_timed=True)
    rows = []
    result: dict[str, Any] = {"environment": environment(), "transformers": transformers.__version__}
    result.update(batches=args.batches, rounds=args.rounds, arms={})
    for arm, base in (("guarded", "plain"), ("empty_callback", "plain"), ("plain_again", "plain")):
        per_round = ratios(wall, arm, base)
        low, high = median_ci(per_round)
        result["arms"][arm] = {
            "median_s": median(wall[arm]),
            "base_median_s": median(wall[base]),
            "ratio": median(per_round),
            "ci95": [low, high],
            "cpu_ratio": median(ratios(cpu, arm, base)),
        }
        rows.append([arm, median(wall[base]), median(wall[arm]), f"{median(per_round):.3f} ({low:.3f}-{high:.3f})"])
    print(table(["arm", "plain (s)", "arm (s)", "ratio (95% interval)"], rows))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--batches", type=int, default=256, help="evaluation batches of one example each")
    parser.add_argument("--out", type=Path, default=DOCS / "overhead_hf_cpu.json")
    args = parser.parse_args(argv)
    torch.manual_seed(0)
    result = run(args)
    write_json(args.out, result)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
