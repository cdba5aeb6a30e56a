"""Fabric and Accelerate loops on two CPU processes (gloo): the framework wraps the model in
``DistributedDataParallel``, findings name the user's module, a bug on one rank raises on both at the end of the
scope (no rank left waiting in a gather), and a correct loop gathers and trains to the same numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.distributed._ddp_launch import launch

pytestmark = pytest.mark.slow
SCRIPT = Path(__file__).with_name("_loop_run.py")


@pytest.mark.parametrize("framework", ["fabric", "accelerate"])
def test_a_loop_on_two_ranks_is_unwrapped_computes_the_same_and_raises_on_both(tmp_path: Path, framework: str) -> None:
    pytest.importorskip("accelerate" if framework == "accelerate" else "lightning.fabric")
    run = launch(tmp_path, "--framework", framework, script=SCRIPT)
    results = [r.result or {} for r in run.ranks]
    assert [r.get("outcome") for r in results] == ["violation", "violation"], run.describe()
    for r in results:
        plain, guarded = r["plain"], r["guarded"]
        assert "DistributedDataParallel" in guarded["wrapper"]
        # Each rank evaluates its 2 batches, every gather from both ranks: the same numbers with the guard.
        assert guarded["outputs"] == plain["outputs"] and len(guarded["outputs"]) == 2
        assert guarded["weights"] == plain["weights"] and guarded["training"] and r["training"]
    one = results[1]
    assert (one["kind"], one["batch_idx"], one["module"], one["found_on"]) == ("train_mode", 1, "head", 1)
    assert "the planted bug" in one["where"]
    assert "rank 1" in results[0]["message"]  # rank 0 found nothing, and says where to look
