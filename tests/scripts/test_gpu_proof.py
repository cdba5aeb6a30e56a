"""The GPU proof script's CPU dry run: every step runs on its CPU fallback (the GPU tests skip, saying why; the
benchmarks take their quick CPU settings), each writes its log, and everything is packed into one archive, so the
script cannot rot where no GPU is."""

from __future__ import annotations

import re
import subprocess
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


def test_the_dry_run_runs_every_step_and_packs_one_archive(gpu_proof_dry_run: Path) -> None:
    tmp_path = gpu_proof_dry_run
    returncode, output = (tmp_path / "returncode").read_text(), (tmp_path / "output.txt").read_text()
    assert returncode == "0", output[-6000:]
    summary = (tmp_path / "summary.txt").read_text()
    for step in ("pytest_gpu: ok", "bench_memory: ok", "bench_overhead: ok", "device: cpu"):
        assert step in summary, summary
    # each GPU test's outcome, read from the JUnit file, which outlives a process that fails after its tests
    assert re.search(r"tests \(pytest_gpu\.xml\): 0 passed, 0 failed, 0 errors, [1-9]\d* skipped", summary), summary
    with tarfile.open(tmp_path / "gpu_proof.tar.gz") as archive:
        names = {Path(n).name for n in archive.getnames()}
    assert {
        "environment.txt",
        "pytest_gpu.log",
        "pytest_gpu.xml",
        "bench_memory.log",
        "bench_overhead.log",
        "summary.txt",
    } <= names
    assert any(n.startswith("memory_cpu") for n in names) and any(n.startswith("overhead_cpu") for n in names)
    assert "no CUDA device" in (tmp_path / "work" / "pytest_gpu.log").read_text()


def test_an_unknown_argument_is_refused_naming_the_allowed_ones(tmp_path: Path) -> None:
    proc = subprocess.run(
        ["bash", str(ROOT / "scripts" / "gpu_proof.sh"), "--dryrun"], cwd=ROOT, capture_output=True, text=True
    )
    assert proc.returncode == 2 and "--dry-run, --wheel DIR, --out DIR" in proc.stderr
