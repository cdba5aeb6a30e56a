"""Why a CUDA test skips, said right on every machine (these tests need no GPU)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from tests.gpu._gpu_support import bf16_missing, cuda_missing


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


@pytest.mark.slow  # reads the pytest session of the GPU proof's dry run, which no CUDA device is visible to
def test_without_a_cuda_device_every_gpu_test_says_so(gpu_proof_dry_run: Path) -> None:
    log = (gpu_proof_dry_run / "work" / "pytest_gpu.log").read_text()
    reasons = set(re.findall(r"^SKIPPED \[\d+\] [^:]+:\d+: (.*)$", log, re.MULTILINE))
    assert "pytest_gpu: ok" in (gpu_proof_dry_run / "summary.txt").read_text(), log[-3000:]
    assert reasons == {"no CUDA device"} and re.search(r"^\d+ skipped", log, re.MULTILINE), log[-3000:]
    assert " passed" not in log.splitlines()[-1], "every test of the GPU proof skips without a device"
