"""The spool: what a guard in a child process finds, written as JSON lines the session's process reads back."""

from __future__ import annotations

import json
import logging
import os
import pickle
from pathlib import Path

import pytest

from gradmode_plugin import HINTS, Violation
from gradmode_plugin import spool as spool_module
from gradmode_plugin.spool import SPOOL_VARIABLE, TEST_VARIABLE, SpooledReport, SpoolReader, violation_of


def _violation(batch_idx: int = 0) -> Violation:
    return Violation(
        "train_mode", "validation", batch_idx, module="net", where="m.py:3 in f: x", hint=HINTS["train_mode"]
    )


@pytest.fixture
def spool(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(SPOOL_VARIABLE, str(tmp_path))
    monkeypatch.setenv(TEST_VARIABLE, "test_user.py::test_buggy")
    return tmp_path


def test_a_child_spools_each_violation_and_stage_run_with_its_test(spool: Path) -> None:
    report = SpooledReport(collected_in=None)
    reader = SpoolReader(spool)
    report.record(_violation())
    events = reader.read()
    assert [e["event"] for e in events] == ["violation"], "written when found, not when the process ends"
    report.end_run("validation", 4)
    (end,) = reader.read()
    assert (end["event"], end["stage"], end["batches"]) == ("end_run", "validation", 4)
    for event in (*events, end):
        assert (event["test"], event["pid"], event["report"]) == ("test_user.py::test_buggy", os.getpid(), id(report))
    assert violation_of(events[0]) == _violation()
    assert report.total == 1 and report.stage("validation").batches == 4, "the report itself counts as usual"
    assert reader.read() == []


def test_the_collecting_process_does_not_spool_but_a_copy_in_another_does(
    spool: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = SpooledReport(collected_in=os.getpid())
    report.record(_violation())
    assert list(spool.iterdir()) == [], "pytest's own process holds the report in memory"
    copy = pickle.loads(pickle.dumps(report))  # what ddp_spawn hands each process
    monkeypatch.setattr(os, "getpid", lambda: 4242)
    copy.record(_violation(1))
    (line,) = (spool / "4242.jsonl").read_text().splitlines()
    assert json.loads(line)["violation"]["batch_idx"] == 1


def test_a_line_being_written_is_read_when_complete(spool: Path) -> None:
    reader = SpoolReader(spool)
    path = spool / "7.jsonl"
    path.write_text('{"event": "end_run", "batches": 1}\n{"event": "end_')
    assert [e["batches"] for e in reader.read()] == [1]
    with open(path, "a") as handle:
        handle.write('run", "batches": 2}\n')
    assert [e["batches"] for e in reader.read()] == [2]


def test_writing_never_breaks_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(SPOOL_VARIABLE, str(tmp_path / "gone"))
    monkeypatch.setattr(spool_module, "_failed_once", False)
    report = SpooledReport()
    with caplog.at_level(logging.WARNING, logger="gradmode_plugin"):
        report.record(_violation())
        report.record(_violation(1))
    assert report.total == 2
    said = [r.message for r in caplog.records if "cannot write to the spool" in r.message]
    assert len(said) == 1, caplog.text


def test_without_a_spool_nothing_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(SPOOL_VARIABLE, raising=False)
    monkeypatch.chdir(tmp_path)
    SpooledReport().record(_violation())
    assert list(tmp_path.iterdir()) == []
