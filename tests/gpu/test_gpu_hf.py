"""transformers' Trainer on CUDA, in float32, fp16 and bf16: correct code trains, evaluates and predicts to bitwise
the same numbers with ``HFGradModeGuard``, and each planted evaluation bug is caught at batch 0 with its line."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("transformers")
pytest.importorskip("accelerate")

from gradmode_plugin import GradModeViolation, HFGradModeGuard
from tests.gpu._gpu_support import REQUIRES_BF16, REQUIRES_CUDA, deterministic_cuda, reset_accelerate
from tests.helpers.hf import BUGS, EVALUATING_RUN, assert_same_outcome, make_trainer, outcome, planted_lines

pytestmark = [pytest.mark.gpu, REQUIRES_CUDA]

#: transformers' own precision arguments: float32, then its two mixed precisions.
PRECISIONS = [
    pytest.param({}, id="fp32"),
    pytest.param({"fp16": True}, id="fp16"),
    pytest.param({"bf16": True}, id="bf16", marks=REQUIRES_BF16),
]
#: The CPU tests' training run with its evaluations, on the GPU.
ON_GPU: dict[str, Any] = {**EVALUATING_RUN, "use_cpu": False}


@pytest.fixture(autouse=True)
def _deterministic() -> Iterator[None]:
    reset_accelerate()
    try:
        with deterministic_cuda():
            yield
    finally:
        reset_accelerate()


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("arch", ["bert", "t5"])
def test_correct_code_computes_bitwise_the_same_on_cuda(tmp_path: Path, arch: str, precision: dict[str, Any]) -> None:
    if arch == "t5" and precision.get("fp16"):
        pytest.skip("T5 is not trained in fp16 (its activations overflow half precision)")
    plain = outcome(arch, tmp_path / "plain", False, **ON_GPU, **precision)
    reset_accelerate()
    guarded = outcome(arch, tmp_path / "guarded", True, **ON_GPU, **precision)
    assert_same_outcome(plain, guarded)
    assert all(weight.is_cuda for weight in plain["weights"].values())
    assert plain["training_after_evaluate"] is False


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("bug", list(BUGS))
def test_a_planted_bug_is_caught_on_cuda(tmp_path: Path, bug: str, precision: dict[str, Any]) -> None:
    trainer = make_trainer("bert", tmp_path, bug, callbacks=[HFGradModeGuard()], use_cpu=False, **precision)
    assert next(trainer.model.parameters()).is_cuda
    with pytest.raises(GradModeViolation) as info:
        trainer.evaluate()
    violation = info.value.violation
    assert (violation.kind, violation.stage, violation.batch_idx) == (BUGS[bug], "validation", 0), str(info.value)
    assert any(line in str(info.value) for line in planted_lines(bug)), str(info.value)
