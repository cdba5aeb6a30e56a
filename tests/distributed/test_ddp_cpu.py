"""Two CPU processes under DDP (gloo): every rank agrees on violations, raises together and never hangs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gradmode_plugin.kinds import KINDS
from tests.distributed._ddp_launch import TIMEOUT_S, DDPRun, launch
from tests.helpers.once import once_per_run

pytestmark = pytest.mark.slow


#: The scenarios that finish, run one after the other by one pair of ranks.
FINISHING = ("bug_without_guard", "clean", "bug_record")


@pytest.fixture(scope="session")
def finished(tmp_path_factory: pytest.TempPathFactory) -> DDPRun:
    """``_ddp_run.py`` on two ranks, running the scenarios that finish, once per test run (also under pytest-xdist,
    whose workers each get some of these tests); ``.scenario(name)`` is what each wrote."""

    def make(folder: Path) -> Path:
        return launch(folder, "--scenarios", ",".join(FINISHING), timeout=TIMEOUT_S).save()

    return DDPRun.load(once_per_run(tmp_path_factory, "ddp_finished", make))


@pytest.fixture
def run_ddp(tmp_path: Path) -> Callable[[str], DDPRun]:
    """``run_ddp(scenario)``: ``_ddp_run.py`` on two ranks running a scenario that ends in an error, alone."""
    return lambda name: launch(tmp_path, "--scenarios", name).scenario(name)


def _assert_no_transport_error(run: DDPRun) -> None:
    errors = run.transport_errors()
    assert not errors, f"a rank lost its peer in a collective: {errors}\n{run.describe()}"


@pytest.mark.parametrize("fn", ["fit", "validate"])
def test_violation_on_one_rank_raises_on_every_rank(run_ddp: Callable[[str], DDPRun], fn: str) -> None:
    run = run_ddp(f"bug_raise_{fn}")

    _assert_no_transport_error(run)
    for r in run.ranks:
        assert r.result is not None, f"rank {r.rank} wrote no outcome\n{run.describe()}"
        assert r.result["world_size"] == 2 and r.result["global_rank"] == r.rank, run.describe()
        assert r.outcome == "error", f"rank {r.rank} did not fail\n{run.describe()}"
        assert r.result["type"] == "GradModeViolation", run.describe()
        message = r.result["message"]
        assert "rank 1: graph_built" in message, message
        assert "1 rank(s)" in message and "rank 0:" not in message, message
        assert "validation" in message, message
        assert r.returncode != 0
    # Rank 1 names its own finding; rank 0 says it found none and points at rank 1.
    assert "this rank (0) found none; see rank 1" in run.ranks[0].result["message"]
    assert "[graph_built]" in run.ranks[1].result["message"]
    assert run.rank_zero_report() is None


def test_every_finishing_scenario_ran_and_the_ranks_exited_cleanly(finished: DDPRun) -> None:
    _assert_no_transport_error(finished)
    assert [r.returncode for r in finished.ranks] == [0, 0], finished.describe()
    for name in FINISHING:
        assert [r.outcome for r in finished.scenario(name).ranks] == ["ok", "ok"], (name, finished.describe())


def test_buggy_run_without_the_guard_finishes(finished: DDPRun) -> None:
    """The planted bug is harmless to DDP itself: what stops the run above is the guard."""
    run = finished.scenario("bug_without_guard")

    _assert_no_transport_error(run)
    assert [r.outcome for r in run.ranks] == ["ok", "ok"], run.describe()


def test_same_run_without_the_bug_finishes(finished: DDPRun) -> None:
    run = finished.scenario("clean")

    _assert_no_transport_error(run)
    for r in run.ranks:
        assert r.outcome == "ok", run.describe()
        assert r.returncode == 0, run.describe()
        assert r.result["report"]["total"] == 0
    report = run.rank_zero_report()
    assert report is not None, "rank zero wrote no report"
    validation = report["stages"]["validation"]
    assert validation["grad_context"] == "no_grad"  # gloo and inside fit
    assert validation["violations"] == 0
    assert validation["batches"] == 2  # this rank's batches
    assert validation["rank_counts"] == {"0": dict.fromkeys(KINDS, 0), "1": dict.fromkeys(KINDS, 0)}
    # Only rank zero writes the aggregated report.
    assert sorted(p.name for p in run.out.glob("report*.json")) == ["report.json"]


def test_record_policy_rank_zero_report_shows_rank_one(finished: DDPRun) -> None:
    run = finished.scenario("bug_record")

    _assert_no_transport_error(run)
    for r in run.ranks:
        assert r.outcome == "ok", run.describe()
    report = run.rank_zero_report()
    assert report is not None, "rank zero wrote no report"
    validation = report["stages"]["validation"]
    rank_counts = validation["rank_counts"]
    assert rank_counts["0"] == dict.fromkeys(KINDS, 0), rank_counts
    # Two validation batches on rank 1, one graph_built each; nothing else.
    assert rank_counts["1"] == {**dict.fromkeys(KINDS, 0), "graph_built": 2}, rank_counts
    # Totals on rank zero cover every rank, though its own list of violations holds only its own (none).
    assert validation["counts"]["graph_built"] == 2
    assert report["total"] == 2
    assert report["violations"] == []
    # Rank 1 keeps the details of what it found.
    rank1 = run.ranks[1].result["report"]
    assert {v["kind"] for v in rank1["violations"]} == {"graph_built"}
    assert {v["rank"] for v in rank1["violations"]} == {1}
    assert rank1["stages"]["validation"]["rank_counts"] == rank_counts
