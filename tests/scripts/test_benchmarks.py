"""Smoke tests of the benchmark scripts: each runs with ``--quick`` and writes the JSON the performance page
(docs/performance.md) is built from.

Timings are not asserted: only that the scripts run end to end and report every figure.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "scripts"

pytestmark = pytest.mark.slow


def run_script(name: str, out: Path, *extra: str) -> dict[str, Any]:
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    proc = subprocess.run(
        [sys.executable, str(SCRIPTS / name), "--quick", "--out", str(out), *extra],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0, f"{name} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return {"stdout": proc.stdout}


def test_bench_overhead_quick(tmp_path: Path) -> None:
    run = run_script("bench_overhead.py", tmp_path)
    data = json.loads((tmp_path / "overhead_cpu_quick.json").read_text())
    expected = {"env", "settings", "targets", "validate", "worst_case", "train", "plain", "micro_us", "profile"}
    assert expected <= set(data)
    assert data["env"]["torch"] and data["env"]["pytorch_lightning"]
    assert set(data["validate"]) == {"resnet18", "tiny_mlp"}
    for result in data["validate"].values():
        assert set(result["arms"]) == {"baseline", "guard", "guard_all"}
        assert set(result["ratios"]) == {"guard", "guard_all"}
        for ratio in result["ratios"].values():
            assert ratio["median"] > 0 and ratio["cpu_median"] > 0
            assert len(ratio["per_round"]) >= 2
            assert "added_us_per_batch" in ratio
        assert result["violations"] == 0  # correct evaluation code: the guard finds nothing
    worst = data["worst_case"]
    assert set(worst["arms"]) == {"no_callback", "empty_callback", "guard", "no_callback_again"}
    assert worst["violations"] == 0
    assert "cpu_added_us_per_batch" in worst["ratios"]["guard"] and worst["target"] == 1.05
    assert "worst case, per batch: the guard adds" in run["stdout"]
    assert set(data["train"]["arms"]) == {"baseline", "guard"}
    assert "added_us_per_step" in data["train"]["ratios"]["guard"]
    assert {"guard_no_grad", "guard_no_grad_all", "guard_inference"} <= set(data["plain"]["ratios"])
    assert {"tiny_mlp", "resnet50", "lightning_step"} <= set(data["micro_us"])
    assert data["micro_us"]["tiny_mlp"]["batch_empty_default"] > 0
    assert data["micro_us"]["lightning_step"]["self_log_with_guard"] > 0
    assert data["profile"]["functions"], "the profile lists the guard's functions"
    assert "ratio (wall)" in run["stdout"]


def test_bench_memory_quick(tmp_path: Path) -> None:
    run_script("bench_memory.py", tmp_path)
    data = json.loads((tmp_path / "memory_cpu_quick.json").read_text())
    assert {"env", "settings", "ways", "results", "ratios", "reference_cpu", "plot"} <= set(data)
    ways = {"inference", "no_grad", "grad_on", "grad_on_recorded"}
    assert set(data["ways"]) == ways
    rows = {(r["way"], r["batch_size"]) for r in data["results"]}
    assert rows == {(w, b) for w in ways for b in data["settings"]["batch_sizes"]}
    for row in data["results"]:
        assert {"peak_mb", "baseline_mb", "delta_mb", "ms_per_image"} <= set(row)
        assert row["peak_mb"] >= row["baseline_mb"] > 0
    by = {(r["way"], r["batch_size"]): r for r in data["results"]}
    bs = data["settings"]["batch_sizes"][-1]
    # The bug saves activations for backward and the guard's record mode sees them; the guarded ways save none.
    bug, recorded = by["grad_on", bs], by["grad_on_recorded", bs]
    assert 0 < bug["saved_activations_mb"] <= bug["saved_unique_mb"] <= bug["saved_mb"] * 1.001
    assert bug["saved_activations_mb"] <= recorded["guard_saved_mb"] <= bug["saved_mb"] * 1.001
    assert by["grad_on_recorded", bs]["violations"] > 0
    assert by["no_grad", bs]["guard_saved_mb"] == 0 and by["inference", bs]["guard_saved_mb"] == 0
    assert str(bs) in data["ratios"]
    if importlib.util.find_spec("matplotlib") is not None:
        assert data["plot"] == "memory_cpu_quick.png"
        assert (tmp_path / "memory_cpu_quick.png").stat().st_size > 0


def test_bench_ddp_quick(tmp_path: Path) -> None:
    run = run_script("bench_ddp.py", tmp_path)
    data = json.loads((tmp_path / "ddp_cpu_quick.json").read_text())
    assert {"env", "settings", "ranks"} <= set(data) and data["settings"]["world_size"] == 2
    assert [r["rank"] for r in data["ranks"]] == [0, 1]
    for rank in data["ranks"]:
        assert rank["all_reduce_s"] > 0 and rank["validate_plain_s"] > 0 and rank["validate_guard_s"] > 0
    assert run["stdout"].count("agreement all_reduce") == 2


def test_bench_side_by_side_compares_two_revisions_in_one_process(tmp_path: Path) -> None:
    out = tmp_path / "side_by_side.json"
    proc = subprocess.run(
        [sys.executable, str(SCRIPTS / "bench_side_by_side.py"), "--revision", "HEAD", "--rounds", "1", "--out", out],
        cwd=ROOT,
        env={**os.environ, "PYTHONWARNINGS": "ignore"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads(out.read_text())
    assert set(data["worst_case"]["arms"]) == {"no_callback", "empty_callback", "other", "this", "no_callback_again"}
    assert set(data["plain"]["arms"]) == {"bare", "other", "this"}
    assert set(data["worst_this_over_other"]["ratios"]) == {"this"} and data["settings"]["revision"] == "HEAD"
    assert "worst case, this/other" in proc.stdout and "plain loop, this/other" in proc.stdout
