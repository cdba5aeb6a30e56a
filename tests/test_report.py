"""The report: counts, JSON, checkpoint state, bounded memory; it alone writes into itself."""

from __future__ import annotations

import json

from gradmode_plugin import HINTS, KINDS, Report, StageSummary, Violation
from gradmode_plugin.report import MAX_STORED_VIOLATIONS


def violation(kind: str = "graph_built", stage: str = "validation", batch_idx: int = 0) -> Violation:
    return Violation(kind=kind, stage=stage, batch_idx=batch_idx, hint=HINTS[kind], detail="seen")


def test_counts_per_stage_and_kind() -> None:
    report = Report()
    report.record(violation())
    report.record(violation("train_mode", "test"))
    report.record(violation(batch_idx=1))
    assert report.total == 3
    assert report.count("graph_built") == 2 and report.count(stage="test") == 1
    assert report.counts["validation"]["graph_built"] == 2 and report.counts["validation"]["train_mode"] == 0


def test_runs_contexts_bytes_and_allowed_regions() -> None:
    report = Report()
    assert report.begin_run("test", "inference_mode", "stand-alone", ["head"]) is True
    assert report.begin_run("test", "inference_mode", "stand-alone", ["head"]) is False
    report.add_saved_bytes("test", 64)
    report.count_allowed("test", "saliency")
    report.end_run("test", batches=3, peak_allocated_bytes=10)
    report.end_run("test", batches=2, peak_allocated_bytes=5)
    summary = report.stage("test")
    assert (summary.runs, summary.batches, summary.saved_bytes, summary.peak_allocated_bytes) == (2, 5, 64, 10)
    assert summary.allowed == {"saliency": 1} and summary.train_allowed == ["head"]
    assert "test" not in Report().stages and Report().stage("test").runs == 0, "reading does not create a stage"


def test_rank_counts_join_the_totals_of_other_ranks_only() -> None:
    report = Report()
    report.record(violation())
    table = [dict.fromkeys(KINDS, 0) for _ in range(2)]
    table[0]["graph_built"], table[1]["train_mode"] = 1, 2
    report.add_rank_counts("validation", own_rank=0, table=table)
    summary = report.stage("validation")
    assert summary.counts["graph_built"] == 1 and summary.counts["train_mode"] == 2
    assert summary.rank_counts[1]["train_mode"] == 2


def test_to_dict_is_json_and_lists_violations() -> None:
    report = Report()
    report.record(violation())
    data = json.loads(report.to_json())
    assert data["total"] == 1 and data["violations"][0]["kind"] == "graph_built"
    assert data["stages"]["validation"]["violations"] == 1


def test_state_dict_round_trip_keeps_counts() -> None:
    report = Report()
    report.record(violation())
    report.add_rank_counts("validation", 0, [dict.fromkeys(KINDS, 0), {"graph_built": 2}])
    restored = Report()
    restored.load_state_dict(json.loads(json.dumps(report.state_dict())))
    assert restored.counts == report.counts
    assert restored.stage("validation").rank_counts[1]["graph_built"] == 2


def test_a_checkpoint_that_lacks_a_kind_restores_and_counts_on() -> None:
    """A report saved by a version with fewer kinds (or none in rank_counts) must not break the next stage."""
    old = {"stages": {"validation": {"runs": 1, "counts": {"graph_built": 1}, "rank_counts": {"1": {}}}}}
    report = Report()
    report.load_state_dict(old)
    assert set(report.stage("validation").counts) == set(KINDS)
    report.record(violation("params_changed"))
    report.add_rank_counts("validation", 0, [{"params_changed": 1}, {"train_mode": 1}])
    assert report.count("params_changed") == 1 and report.stage("validation").rank_counts[1]["train_mode"] == 1
    assert StageSummary.from_dict({"unknown_field": 3}).runs == 0


def test_stored_violations_are_bounded_but_counts_are_not() -> None:
    report = Report()
    for i in range(MAX_STORED_VIOLATIONS + 5):
        report.record(violation(batch_idx=i))
    assert len(report.violations) == MAX_STORED_VIOLATIONS and report.dropped == 5
    assert report.total == MAX_STORED_VIOLATIONS + 5


def test_first_of_each_kind() -> None:
    report = Report()
    for kind, batch in [("graph_built", 0), ("train_mode", 0), ("graph_built", 1)]:
        report.record(violation(kind, batch_idx=batch))
    assert [(v.kind, v.batch_idx) for v in report.first_of_each_kind()] == [("graph_built", 0), ("train_mode", 0)]
    assert [(v.kind, v.batch_idx) for v in report.first_of_each_kind(since=2)] == [("graph_built", 1)]


def test_summary_names_each_stage_and_kind() -> None:
    report = Report()
    assert "no evaluation stage" in report.summary()
    report.record(violation())
    assert "validation" in report.summary() and "graph_built=1" in report.summary()


def test_violation_describe_is_actionable() -> None:
    text = violation().describe()
    assert "[graph_built]" in text and "batch 0" in text and "fix:" in text
    assert "outside any batch" in Violation(kind="train_mode", stage="validation", batch_idx=None).describe()


def test_reset_forgets_everything() -> None:
    report = Report()
    report.record(violation())
    report.reset()
    assert report.total == 0 and report.violations == [] and report.stages == {}
