"""The report: counts, JSON, checkpoint state, bounded memory; it alone writes into itself."""

from __future__ import annotations

import json

from gradmode_plugin import HINTS, KINDS, Report, StageSummary, Violation
from gradmode_plugin.report import MAX_STORED_VIOLATIONS, Finding, group_findings


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


def test_findings_group_violations_by_kind_module_and_line() -> None:
    """One bug found in every batch is one finding with its count; another line, module or kind is another."""
    step = "model.py:12 in validation_step: self.net.train() <- test_x.py:5 in test_x: trainer.validate(model)"
    found = []
    for batch in range(4):
        # The effect (statistics updated) is found before its cause (the module in training mode) in each batch.
        found.append(Violation("running_stats_updated", "validation", batch, module="net.1", where="model.py:13 in f"))
        found.append(Violation("train_mode", "validation", batch, module="net", where=step))
    found.append(Violation("train_mode", "validation", None, module="net", where=step.replace("<- test_x", "<- y")))
    found.append(Violation("train_mode", "test", 2, module="net", where="model.py:20 in test_step: x"))
    findings = group_findings(found)
    assert [(f.kind, f.module, f.count) for f in findings] == [
        ("train_mode", "net", 5),
        ("running_stats_updated", "net.1", 4),
        ("train_mode", "net", 1),
    ]
    assert findings[0].line == "model.py:12 in validation_step: self.net.train()"
    assert findings[0].seen() == "5 times: validation batches 0-3 and outside any batch"
    assert findings[2].seen() == "once: test batch 2"
    text = findings[0].describe()
    assert text.count("[train_mode]") == 1 and "\n  found 5 times: validation batches 0-3" in text
    assert Finding(found[1], 0, {"validation": [0, 1, 3, 7, 8]}).seen().endswith("batches 0-1, 3, 7-8")


def test_summary_lists_each_distinct_finding_once() -> None:
    report = Report()
    for batch in range(3):
        report.record(violation(batch_idx=batch))
    report.record(Violation("train_mode", "test", None, module="", where="m.py:3 in f: x <- m.py:9 in g: f()"))
    assert report.summary().splitlines()[-3:] == [
        "distinct findings: 2",
        "  [graph_built] 3 times: validation batches 0-2",
        "  [train_mode] once: test outside any batch; module <root>; at m.py:3 in f: x",
    ]
    assert [f.count for f in report.findings(since=1)] == [2, 1]
