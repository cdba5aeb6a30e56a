"""Smoke test of scripts/bench_lint.py: it runs and writes its figures (timings are not asserted)."""

from __future__ import annotations

import json
import py_compile
import sys
from pathlib import Path

import pytest

from tests.helpers.process import REPO, run_process

pytestmark = pytest.mark.slow  # runs the script in a child process


def test_bench_lint_quick(tmp_path: Path) -> None:
    code = tmp_path / "code"
    code.mkdir()
    (code / "m.py").write_text("import torch.nn.functional as F\n\n\ndef f(x):\n    return F.dropout(x)\n")
    (code / "quiet.py").write_text("x = 1\n")
    py_compile.compile(str(code / "m.py"), doraise=True)
    proc = run_process(
        [sys.executable, str(REPO / "scripts" / "bench_lint.py"), str(code), "--quick", "--out", str(tmp_path)],
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    figures = json.loads((tmp_path / "lint_speed.json").read_text())
    assert figures["files"] == 2 and figures["findings"] == 1 and figures["usable_cpus"] >= 1
    assert figures["files_with_caches"] == 1
    for way in ("one_core", "jobs_auto", "one_core_without_caches", "jobs_auto_without_caches"):
        assert figures[way]["files_per_s_best"] > 0 and len(figures[way]["seconds"]) == 1
