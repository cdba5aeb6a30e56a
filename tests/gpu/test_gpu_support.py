"""Why a CUDA test skips, said right on every machine (these tests need no GPU)."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
import torch

from tests.gpu._gpu_support import bf16_missing, cuda_missing
from tests.helpers.process import REPO, run_process

THIS = Path(__file__).relative_to(REPO).as_posix()


def _no_bf16_question() -> bool:
    raise AssertionError("asked a machine without a CUDA device whether its GPU computes in bf16")


@pytest.mark.parametrize(
    ("available", "bf16", "cuda_reason", "bf16_reason"),
    [
        (False, None, "no CUDA device", "no CUDA device"),
        (True, False, None, "GPU without bf16"),
        (True, True, None, None),
    ],
)
def test_skip_reasons_say_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, available: bool, bf16: bool | None, cuda_reason: str, bf16_reason: str
) -> None:
    monkeypatch.setattr(torch.cuda, "is_available", lambda: available)
    monkeypatch.setattr(torch.cuda, "is_bf16_supported", _no_bf16_question if bf16 is None else lambda: bf16)
    assert (cuda_missing(), bf16_missing()) == (cuda_reason, bf16_reason)


@pytest.mark.slow  # runs a pytest session of its own
def test_without_a_cuda_device_every_gpu_test_says_so() -> None:
    proc = run_process(
        [sys.executable, "-m", "pytest", "tests/gpu", f"--ignore={THIS}", "-q", "-rs", "-p", "no:cacheprovider"],
        cwd=REPO,
        env={"CUDA_VISIBLE_DEVICES": ""},
    )
    reasons = set(re.findall(r"^SKIPPED \[\d+\] [^:]+:\d+: (.*)$", proc.stdout, re.MULTILINE))
    assert proc.returncode == 0 and reasons == {"no CUDA device"}, proc.stdout[-3000:] + proc.stderr[-3000:]
