"""How fast ``gradmode-lint`` checks a tree of real code: on one core in one process, and as the command runs by
default, one process per usable CPU (``--jobs auto``); files per second and wall-clock seconds.

The figure in docs/lint.md (Speed) is transformers' ``models/`` (the installed package, about 2,600 files): it must take
under 5 s. Each round runs the whole linter (walk, read, parse, analyse, noqa) as ``gradmode-lint`` does, the ways
alternating, so that all see the same machine; the best and the median of the rounds are reported (the first round
also pays for reading the files from disk). Each way also runs on a copy of the folder without its bytecode caches
(``__pycache__``): a file this Python compiled needs no syntax check of the pieces no rule looks at, so a fresh
checkout, which has none, is the slower case, and both are reported.

Run from the repository root::

    python scripts/bench_lint.py                                   # the installed transformers/models
    python scripts/bench_lint.py path/to/code --rounds 5 --out /tmp  # any folder; writes lint_speed.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gradmode_plugin.lint.bytecode import compiled_by_this_python
from gradmode_plugin.lint.files import python_files
from gradmode_plugin.lint.rules import select_codes
from gradmode_plugin.lint.runner import LintResult, lint_files, usable_cpus


def _compiled(path: str) -> bool:
    with open(path, "rb") as file:
        stat = os.fstat(file.fileno())
        return compiled_by_this_python(path, file.read(), stat)


def _located(result: LintResult, root: Path) -> list[tuple[str, int, str]]:
    return [(os.path.relpath(f.path, root), f.line, f.code) for f in result.findings]


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
    codes = select_codes()
    rounds = 1 if args.quick else args.rounds
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    jobs = usable_cpus()

    def one_core(folder: Path) -> LintResult:
        if cpus is not None:
            os.sched_setaffinity(0, cpus[:1])
        try:
            return lint_files(python_files([str(folder)]), codes)
        finally:
            if cpus is not None:
                os.sched_setaffinity(0, cpus)

    def every_core(folder: Path) -> LintResult:
        return lint_files(python_files([str(folder)]), codes, jobs=jobs)

    with tempfile.TemporaryDirectory() as scratch:
        bare = Path(scratch) / tree.name
        shutil.copytree(tree, bare, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        ways = {
            "one_core": lambda: one_core(tree),
            "jobs_auto": lambda: every_core(tree),
            "one_core_without_caches": lambda: one_core(bare),
            "jobs_auto_without_caches": lambda: every_core(bare),
        }
        seconds: dict[str, list[float]] = {way: [] for way in ways}
        results: dict[str, LintResult] = {}
        for _ in range(rounds):
            for way, run in ways.items():
                start = time.perf_counter()
                results[way] = run()
                seconds[way].append(time.perf_counter() - start)
    result = results["one_core"]
    for way, other in results.items():
        root = bare if way.endswith("without_caches") else tree
        if _located(other, root) != _located(result, tree):
            raise SystemExit(f"bench_lint: {way} found other findings than one process did")
    figures: dict[str, object] = {
        "path": str(tree),
        "files": result.files,
        "findings": len(result.findings),
        "usable_cpus": jobs,
        "python": sys.version.split()[0],
        "files_with_caches": sum(1 for path in python_files([str(tree)]) if _compiled(path)),
    }
    for way, times in seconds.items():
        best, median = min(times), statistics.median(times)
        figures[way] = {
            "seconds": [round(t, 3) for t in times],
            "best_s": round(best, 3),
            "median_s": round(median, 3),
            "files_per_s_best": round(result.files / best),
            "files_per_s_median": round(result.files / median),
        }
        print(
            f"{tree}: {result.files} files, {len(result.findings)} findings; {way.replace('_', ' ')}"
            f"{f' ({jobs} processes)' if way.startswith('jobs_auto') else ''}: best {best:.2f} s, "
            f"median {median:.2f} s ({round(result.files / median)} files/s) over {rounds} round(s)"
        )
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "lint_speed.json").write_text(json.dumps(figures, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
