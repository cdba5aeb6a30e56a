"""How fast ``gradmode-lint`` checks a tree of real code, in one process on one core: files per second.

The figure in docs/lint.md (Speed) is transformers' ``models/`` (the installed package, about 2,500 files): it must take
under 5 s. Each round runs the whole linter (walk, read, parse, analyse, noqa) as ``gradmode-lint`` does; the
best and the median of the rounds are reported (the first round also pays for reading the files from disk).

Run from the repository root::

    python scripts/bench_lint.py                                   # the installed transformers/models
    python scripts/bench_lint.py path/to/code --rounds 5 --out /tmp  # any folder; writes lint_speed.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gradmode_plugin.lint.files import python_files
from gradmode_plugin.lint.rules import select_codes
from gradmode_plugin.lint.runner import lint_files


def _default_tree() -> Path | None:
    spec = importlib.util.find_spec("transformers")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "models"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, help="folder to check (default: installed transformers/models)")
    parser.add_argument("--rounds", type=int, default=3, help="timed runs (default: 3)")
    parser.add_argument("--out", type=Path, help="folder to write lint_speed.json to")
    parser.add_argument("--quick", action="store_true", help="one round (a smoke run)")
    args = parser.parse_args(argv)
    tree = args.path or _default_tree()
    if tree is None or not tree.is_dir():
        parser.error("no folder given and transformers is not installed: name a folder to check")
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    codes = select_codes()
    rounds = 1 if args.quick else args.rounds
    seconds: list[float] = []
    for _ in range(rounds):
        start = time.perf_counter()
        result = lint_files(python_files([str(tree)]), codes)
        seconds.append(time.perf_counter() - start)
    best, median = min(seconds), statistics.median(seconds)
    figures = {
        "path": str(tree),
        "files": result.files,
        "findings": len(result.findings),
        "seconds": seconds,
        "best_s": round(best, 3),
        "median_s": round(median, 3),
        "files_per_s_best": round(result.files / best),
        "files_per_s_median": round(result.files / median),
        "python": sys.version.split()[0],
    }
    print(
        f"{tree}: {result.files} files, {len(result.findings)} findings; best {best:.2f} s "
        f"({figures['files_per_s_best']} files/s), median {median:.2f} s ({figures['files_per_s_median']} files/s) "
        f"over {rounds} round(s), one core"
    )
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "lint_speed.json").write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
