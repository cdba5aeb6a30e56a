"""The report: counts, JSON, checkpoint state, bounded memory."""

from __future__ import annotations

import json

from gradmode_plugin import HINTS, Report, Violation
from gradmode_plugin.report import MAX_STORED_VIOLATIONS


def violation(kind: str = "graph_built", stage: str = "validation", batch_idx: int = 0) -> Violation:
    return Violation(kind=kind, stage=stage, batch_idx=batch_idx, hint=HINTS[kind], detail="seen")  # type: ignore[arg-type]


def test_counts_per_stage_and_kind() -> None:
    report = Report()
    report.add(violation())
    report.add(violation("train_mode", "test"))
    report.add(violation(batch_idx=1))
    assert report.total == 3
    assert report.count("graph_built") == 2 and report.count(stage="test") == 1
    assert report.counts["validation"]["graph_built"] == 2 and report.counts["validation"]["train_mode"] == 0


def test_to_dict_is_json_and_lists_violations() -> None:
    report = Report()
    report.add(violation())
    data = json.loads(report.to_json())
    assert data["total"] == 1 and data["violations"][0]["kind"] == "graph_built"
    assert data["stages"]["validation"]["violations"] == 1


def test_state_dict_round_trip_keeps_counts() -> None:
    report = Report()
    report.add(violation())
    report.stage("validation").rank_counts[1] = {"graph_built": 2}
    restored = Report()
    restored.load_state_dict(json.loads(json.dumps(report.state_dict())))
    assert restored.counts == report.counts
    assert restored.stage("validation").rank_counts[1]["graph_built"] == 2


def test_stored_violations_are_bounded_but_counts_are_not() -> None:
    report = Report()
    for i in range(MAX_STORED_VIOLATIONS + 5):
        report.add(violation(batch_idx=i))
    assert len(report.violations) == MAX_STORED_VIOLATIONS and report.dropped == 5
    assert report.total == MAX_STORED_VIOLATIONS + 5


def test_summary_names_each_stage_and_kind() -> None:
    report = Report()
    assert "no evaluation stage" in report.summary()
    report.add(violation())
    assert "validation" in report.summary() and "graph_built=1" in report.summary()


def test_violation_describe_is_actionable() -> None:
    text = violation().describe()
    assert "[graph_built]" in text and "batch 0" in text and "fix:" in text


def test_reset_forgets_everything() -> None:
    report = Report()
    report.add(violation())
    report.reset()
    assert report.total == 0 and report.violations == [] and report.stages == {}
