"""The command-line run as a user runs it: ``scripts/train.py`` (and ``gradmode-train``) in a fresh folder."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gradmode_plugin import KINDS
from tests.hydra._support import SMALL, run_dirs, run_process

TrainCli = Callable[..., subprocess.CompletedProcess[str]]


def _only_run_dir(root: Path) -> Path:
    dirs = run_dirs(root / "outputs")
    assert len(dirs) == 1, f"expected one run directory under {root / 'outputs'}, found {dirs}"
    return dirs[0]


def _report(run_dir: Path) -> dict:
    return json.loads((run_dir / "gradmode_report.json").read_text())


@pytest.mark.slow
def test_no_argument_run(train_cli: TrainCli, tmp_path: Path) -> None:
    """The real default run, no overrides at all: a couple of epochs of ResNet-18 on generated images, then
    validate, test and predict; zero violations; config, report, logs and checkpoints in the run directory."""
    start = time.monotonic()
    proc = train_cli(timeout=240)
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    run_dir = _only_run_dir(tmp_path)
    assert run_dir.parent == tmp_path / "outputs" / "train" / "runs"

    # The printed report: every stage, its grad context and why, allow_train, violations by kind, the files.
    for stage, context in [
        ("sanity_check", "no_grad"),
        ("validation", "no_grad"),
        ("test", "inference_mode"),
        ("predict", "inference_mode"),
    ]:
        assert f"\n{stage}: " in out and context in out.split(f"\n{stage}: ")[1].splitlines()[0]
    assert "kept in train mode by allow_train: none" in out
    assert "total violations: 0 (none)" in out
    assert f"files written to {run_dir}" in out
    for name in ("gradmode_report.json", ".hydra/config.yaml", "checkpoints/last.ckpt", "csv/version_0/metrics.csv"):
        assert f"  {name}\n" in out, f"{name} not listed in the printed files"
        assert (run_dir / name).is_file(), f"{name} was not written"

    report = _report(run_dir)
    assert report["total"] == 0 and report["violations"] == []
    assert set(report["stages"]) == {"sanity_check", "validation", "test", "predict"}
    assert report["stages"]["predict"]["grad_context"] == "inference_mode"
    assert all(report["counts"][stage] == dict.fromkeys(KINDS, 0) for stage in report["counts"])
    # The guard's per-stage counts reach the CSV logger too.
    assert "gradmode/validation/graph_built" in (run_dir / "csv/version_0/metrics.csv").read_text()
    # "About two minutes on 2 CPU cores" (generous here: the test machine may be shared).
    assert elapsed < 240


def test_planted_bug_exits_non_zero_naming_the_violation(train_cli: TrainCli, tmp_path: Path) -> None:
    proc = train_cli("experiment=planted_bug", *SMALL)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "[graph_built]" in proc.stderr and "stage 'sanity_check', batch 0" in proc.stderr
    assert "the run was stopped by a violation" in proc.stdout
    report = _report(_only_run_dir(tmp_path))  # written even though the run failed
    assert report["violations"][0]["kind"] == "graph_built"
    assert report["counts"]["sanity_check"]["graph_built"] == 1


@pytest.mark.slow
def test_planted_bug_under_record_finishes_and_lists_it(train_cli: TrainCli, tmp_path: Path) -> None:
    proc = train_cli("experiment=planted_bug", "callbacks.gradmode.on_violation=record", *SMALL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = _report(_only_run_dir(tmp_path))
    assert report["total"] >= 2
    assert report["counts"]["validation"]["graph_built"] >= 1
    assert {(v["kind"], v["stage"]) for v in report["violations"]} >= {("graph_built", "validation")}
    assert "graph_built=" in proc.stdout
    assert "predict" in report["stages"]  # it went on to the end


def test_bad_guard_value_is_rejected_before_anything_runs(train_cli: TrainCli, tmp_path: Path) -> None:
    proc = train_cli("callbacks.gradmode.grad_mode=bogus")
    assert proc.returncode != 0
    assert "grad_mode" in proc.stderr and "expected one of [auto, inference, no_grad]" in proc.stderr
    assert not (tmp_path / "outputs").exists()


def test_console_script_uses_the_shipped_configs(tmp_path: Path) -> None:
    """``gradmode-train`` (installed with the package) composes from the shipped configs, as scripts/train.py
    composes from configs/ (the same files)."""
    script = Path(sys.executable).with_name("gradmode-train")
    if not script.exists():
        pytest.skip(f"{script} is not installed (pip install -e .)")
    proc = run_process([str(script), "--cfg", "job", "experiment=mc_dropout"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "allow_train:\n    - head.mc_dropout" in proc.stdout
    assert "_target_: gradmode_plugin.GradModeGuard" in proc.stdout
    assert "task_name: mc_dropout" in proc.stdout


@pytest.mark.slow
def test_ddp_on_cpu_agrees_across_ranks_and_reports_once(train_cli: TrainCli, tmp_path: Path) -> None:
    """Two processes (gloo): Lightning relaunches the Hydra app per rank; rank zero alone prints and writes."""
    proc = train_cli("trainer=ddp_cpu", *SMALL, timeout=240)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.count("\ngradmode report\n") == 1
    report = _report(_only_run_dir(tmp_path))
    assert report["total"] == 0
    assert set(report["stages"]["validation"]["rank_counts"]) == {"0", "1"}
    assert "gloo" in report["stages"]["test"]["reason"]


def test_multirun_sweeps_experiments_and_fails_when_one_job_did(train_cli: TrainCli, tmp_path: Path) -> None:
    proc = train_cli("-m", "experiment=mc_dropout,planted_bug", "debug=fdr", "data.batch_size=4")
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    first, second = run_dirs(tmp_path / "outputs")
    assert _report(first)["total"] == 0
    assert _report(second)["violations"][0]["kind"] == "graph_built"
