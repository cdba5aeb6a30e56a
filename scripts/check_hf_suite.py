r"""transformers' own Trainer tests, with and without the guard on every Trainer they build.

The recipe takes a folder holding transformers' ``tests/`` (a clone, or a sparse checkout of ``tests/trainer`` and
``tests/fixtures``: nothing of transformers is copied into this project) and runs the selected tests against the
transformers installed in this environment, twice, offline (``HF_HUB_OFFLINE=1``: tests that need the Hub fail or
skip in both runs):

- plain: ``pytest`` as transformers runs it (gradmode-plugin's pytest plugin loaded but not asked for);
- guarded: ``pytest --gradmode=record --gradmode-json ...``: every Trainer the tests build gets a recording
  ``HFGradModeGuard`` (through transformers' ``DEFAULT_CALLBACKS``, in pytest's process and, by the start-up module
  ``gradmode-run`` uses, in the processes the tests start).

Then it compares the outcome of every test and lists the violations the guards recorded. It fails when a test that
passes without the guard fails, errors or is missing with it, when any violation was recorded, or when the guards
checked no evaluation batch. Tests that fail or error in both runs are listed, not counted against the guard.

Usage (from the repository root, with the project's environment)::

    git clone --filter=blob:none --sparse https://github.com/huggingface/transformers ~/src/transformers
    git -C ~/src/transformers sparse-checkout set tests/trainer tests/fixtures
    git -C ~/src/transformers checkout v5.24.0
    .venv/bin/python scripts/check_hf_suite.py --tests-dir ~/src/transformers
    .venv/bin/python scripts/check_hf_suite.py --tests-dir ~/src/transformers \
        --paths tests/trainer/test_trainer_evaluation.py

Exit status: 0 when every test that passes without the guard passes with it, no violation was recorded and the guards
checked batches; 1 otherwise; 2 when a pass wrote no report or the command line is wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

REPO = Path(__file__).resolve().parent.parent
OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "CUDA_VISIBLE_DEVICES": ""}


def outcomes(junit: Path) -> dict[str, str]:
    """Test id -> passed, failed, error or skipped, from a JUnit XML report."""
    result: dict[str, str] = {}
    for case in ElementTree.parse(junit).getroot().iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        kinds = {child.tag for child in case}
        result[name] = next((k for k in ("error", "failure", "skipped") if k in kinds), "passed").replace(
            "failure", "failed"
        )
    return result


def run_pass(tests_dir: Path, paths: list[str], work: Path, name: str, extra: list[str], timeout: int) -> float:
    junit = work / f"{name}.xml"
    command = [sys.executable, "-m", "pytest", *paths, "-q", "-p", "no:cacheprovider", f"--junitxml={junit}", *extra]
    env = {**os.environ, **OFFLINE}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    start = time.perf_counter()
    proc = subprocess.run(command, cwd=tests_dir, env=env, capture_output=True, text=True, timeout=timeout)
    (work / f"{name}.log").write_text(proc.stdout + proc.stderr)
    if not junit.is_file():
        sys.exit(f"the {name} pass wrote no report; see {work / f'{name}.log'}")
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tests-dir", type=Path, required=True, help="a folder holding transformers' tests/")
    parser.add_argument("--paths", nargs="+", default=["tests/trainer"], help="relative to --tests-dir")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/check_hf_suite"))
    parser.add_argument("--timeout", type=int, default=3600, help="seconds per pass")
    parser.add_argument("--out", type=Path, default=None, help="write the summary as JSON here")
    args = parser.parse_args(argv)
    if not (args.tests_dir / "tests").is_dir():
        parser.error(f"--tests-dir {args.tests_dir} holds no tests/ folder")
    args.workdir.mkdir(parents=True, exist_ok=True)
    found = args.workdir / "guarded.json"
    found.unlink(missing_ok=True)
    plain_s = run_pass(args.tests_dir, args.paths, args.workdir, "plain", [], args.timeout)
    guarded_s = run_pass(
        args.tests_dir,
        args.paths,
        args.workdir,
        "guarded",
        ["--gradmode=record", f"--gradmode-json={found}"],
        args.timeout,
    )
    plain, guarded = outcomes(args.workdir / "plain.xml"), outcomes(args.workdir / "guarded.xml")
    if not found.is_file():
        sys.exit("the guarded pass wrote no --gradmode-json report")
    gradmode = json.loads(found.read_text())
    worse = sorted(t for t, o in plain.items() if o == "passed" and guarded.get(t) != "passed")
    both_failing = sorted(
        t for t, o in plain.items() if o in ("failed", "error") and guarded.get(t) in ("failed", "error")
    )
    import transformers

    summary: dict[str, Any] = {
        "transformers": transformers.__version__,
        "paths": args.paths,
        "plain": dict(Counter(plain.values())),
        "guarded": dict(Counter(guarded.values())),
        "plain_seconds": round(plain_s, 1),
        "guarded_seconds": round(guarded_s, 1),
        "passing_without_failing_with": worse,
        "failing_in_both": both_failing,
        "guards": gradmode["guards"],
        "child_guards": gradmode["child_guards"],
        "batches": gradmode["batches"],
        "violations": gradmode["violations"],
        "findings": gradmode["findings"],
    }
    print(json.dumps({k: v for k, v in summary.items() if k != "findings"}, indent=2))
    for row in gradmode["findings"]:
        print(f"  {row['test']} | {row['stage']} | {row['kind']} | {row['where'].split(' <- ')[0]} | {row['seen']}")
    if args.out:
        args.out.write_text(json.dumps(summary, indent=2) + "\n")
    return 0 if not worse and not gradmode["violations"] and gradmode["batches"] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
