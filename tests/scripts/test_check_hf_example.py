"""The parts of ``scripts/check_hf_example.py`` that decide its verdict: what counts as the same metrics, and what
the guarded run's spool says was checked. (The recipe itself runs transformers' ``run_clm.py``, outside CI.)"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

import check_hf_example as recipe

from gradmode_plugin import spool


def _save(folder: Path, eval_loss: float, runtime: float) -> Path:
    folder.mkdir()
    results = {"eval_loss": eval_loss, "eval_accuracy": 0.25, "eval_runtime": runtime, "train_samples_per_second": 9.0}
    (folder / "all_results.json").write_text(json.dumps(results))
    history = [{"loss": 3.5, "step": 5, "epoch": 0.1}, {"eval_loss": eval_loss, "eval_runtime": runtime, "step": 10}]
    (folder / "trainer_state.json").write_text(json.dumps({"log_history": history}))
    return folder


def test_only_timings_may_differ_between_the_runs(tmp_path: Path) -> None:
    plain = recipe.saved_metrics(_save(tmp_path / "plain", 2.5, 1.0))
    guarded = recipe.saved_metrics(_save(tmp_path / "guarded", 2.5, 7.0))
    assert "eval_runtime" not in plain["all_results"] and "train_samples_per_second" not in plain["all_results"]
    assert recipe.same(plain, guarded)
    off_by_one_ulp = recipe.saved_metrics(_save(tmp_path / "other", math.nextafter(2.5, 3.0), 1.0))
    assert not recipe.same(plain, off_by_one_ulp)
    assert recipe.same({"x": [float("nan")]}, {"x": [float("nan")]})
    assert not recipe.same({"x": 0.0}, {"x": -0.0})
    assert not recipe.same({"x": 1.0}, {"x": 1.0, "y": 2.0})


@pytest.mark.parametrize("found", [False, True])
def test_the_spool_tells_checked_evaluations_and_violations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, found: bool
) -> None:
    monkeypatch.setenv(spool.SPOOL_VARIABLE, str(tmp_path))
    spool.write({"event": "end_run", "stage": "validation", "batches": 3})
    spool.write({"event": "end_run", "stage": "validation", "batches": 2})
    if found:
        spool.write({"event": "violation", "violation": {"kind": "train_mode"}})
    runs, batches, violations = recipe.spooled(tmp_path)
    assert (runs, batches, len(violations)) == (2, 5, int(found))
