"""This checkout's guard beside another revision's, arms alternating in one process: the worst case of
``bench_overhead.py`` (the tiny MLP at batch 1 whose step does not log, with no callback, an empty ``Callback`` and
a second Trainer without callback for the A/A) and its plain loop (``evaluating(model, "no_grad")``).

The other revision's package is taken from git (``git archive``), renamed ``gradmode_plugin_other`` in a temporary
folder and imported beside this checkout's: both guards run in the same process, on the same model and data, so the
ratio of the two is measured on the same machine at the same time. Ratios are medians of per-round ratios with 95%
bootstrap intervals (``_bench_common``).

Usage (from the repository root, with the project's environment)::

    .venv/bin/python scripts/bench_side_by_side.py --revision d4562b0 --rounds 200   # about 6 minutes on 2 cores
"""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

import _bench_common as common
import bench_overhead as overhead
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

ROOT = Path(__file__).resolve().parents[1]
OTHER = "gradmode_plugin_other"


def import_other(revision: str, folder: Path) -> Any:
    """The package ``gradmode_plugin`` of ``revision``, importable as :data:`OTHER`."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", revision, "gradmode_plugin"], check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    package = folder / OTHER
    (folder / "gradmode_plugin").rename(package)
    for source in package.rglob("*.py"):
        source.write_text(re.sub(r"\bgradmode_plugin\b", OTHER, source.read_text()))
    sys.path.insert(0, str(folder))
    return __import__(OTHER)


def side_by_side(other: Any, rounds: int) -> dict[str, Any]:
    import pytorch_lightning as pl

    from gradmode_plugin import GradModeGuard, evaluating

    work = overhead.Workload("tiny_mlp", 1, 512, None)
    torch.manual_seed(0)
    model = overhead.lightning_module(overhead.build_net(work.name), log=False)
    loader = DataLoader(overhead.make_data(work), batch_size=1)
    callbacks = {
        "no_callback": [],
        "empty_callback": [pl.Callback()],
        "other": [other.GradModeGuard()],
        "this": [GradModeGuard()],
        "no_callback_again": [],
    }
    trainers = {arm: overhead.trainer("cpu", cbs) for arm, cbs in callbacks.items()}
    wall, cpu = common.alternate(
        {arm: (lambda t=t: t.validate(model, dataloaders=loader, verbose=False)) for arm, t in trainers.items()},
        rounds=rounds,
        warmup=2,
        device="cpu",
    )
    pair = ("other", "this")
    worst = overhead.summarise(wall, cpu, "no_callback", work.batches, "batch")
    worst_pair = overhead.summarise({k: wall[k] for k in pair}, {k: cpu[k] for k in pair}, "other", 512, "batch")

    tiny = overhead.TinyMLP()
    batches = [(x[None], y[None]) for x, y in overhead.make_data(overhead.Workload("tiny_mlp", 1, 512, None))]

    def bare() -> None:
        tiny.eval()
        with torch.no_grad():
            for x, y in batches:
                F.cross_entropy(tiny(x), y)
        tiny.train()

    def guarded(scope_of: Any) -> Any:
        def loop() -> None:
            with scope_of(tiny, grad_mode="no_grad") as scope:
                for i, (x, y) in enumerate(batches):
                    with scope.batch(i):
                        F.cross_entropy(tiny(x), y)

        return loop

    arms = {"bare": bare, "other": guarded(other.evaluating), "this": guarded(evaluating)}
    wall2, cpu2 = common.alternate(arms, rounds=rounds, warmup=2, device="cpu")
    plain = overhead.summarise(wall2, cpu2, "bare", 512, "batch")
    plain_pair = overhead.summarise({k: wall2[k] for k in pair}, {k: cpu2[k] for k in pair}, "other", 512, "batch")
    return {
        "worst_case": worst,
        "worst_this_over_other": worst_pair,
        "plain": plain,
        "plain_this_over_other": plain_pair,
    }


def _show(label: str, result: dict[str, Any]) -> None:
    for arm, ratio in result["ratios"].items():
        low, high = ratio["median_ci95"]
        print(f"{label:<28} {arm:<18} {ratio['median']:.3f} ({low:.3f}-{high:.3f})")


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--revision", required=True, help="the git revision to compare with (e.g. a release's commit)")
    parser.add_argument("--rounds", type=int, default=200, help="alternating rounds (default 200)")
    parser.add_argument("--out", type=Path, default=None, help="a JSON file for every figure")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    with tempfile.TemporaryDirectory() as folder:
        results = side_by_side(import_other(args.revision, Path(folder)), args.rounds)
    results["settings"] = {"revision": args.revision, "rounds": args.rounds, "env": common.environment()}
    _show("worst case, to no callback", results["worst_case"])
    _show("worst case, this/other", results["worst_this_over_other"])
    _show("plain loop, to bare", results["plain"])
    _show("plain loop, this/other", results["plain_this_over_other"])
    if args.out is not None:
        args.out.write_text(json.dumps(results, indent=1, default=str))
    return results


if __name__ == "__main__":
    main()
