"""Attention dropout inside CUDA's fused attention kernels (flash and memory-efficient, bf16): the bug is caught by
every path, at the first batch and after it, and its fix is silent and computes bitwise what plain evaluation does."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn
from torch.nn import functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.nn.functional import scaled_dot_product_attention as imported_sdpa

from gradmode_plugin import GradModeViolation, evaluating
from tests.gpu._gpu_support import REQUIRES_BF16, REQUIRES_CUDA
from tests.helpers.models import Attention

pytestmark = [pytest.mark.gpu, REQUIRES_CUDA, REQUIRES_BF16]

BACKENDS = {"flash": SDPBackend.FLASH_ATTENTION, "efficient": SDPBackend.EFFICIENT_ATTENTION}


def _bug(m: nn.Module, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, dropout_p=m.dropout_p)  # noqa: GM104  the bug


def _bug_imported(m: nn.Module, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return imported_sdpa(q, k, v, dropout_p=m.dropout_p)  # noqa: GM104  the bug, by a name only the audit sees


def _fixed(m: nn.Module, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, dropout_p=m.dropout_p if m.training else 0.0)


def _model(attend: Any) -> nn.Module:
    torch.manual_seed(0)
    return Attention(attend, dim=64, heads=2).cuda().to(torch.bfloat16)  # head_dim 32: both fused kernels take it


def _tokens() -> list[torch.Tensor]:
    g = torch.Generator(device="cuda").manual_seed(0)
    return [torch.randn(2, 16, 64, device="cuda", dtype=torch.bfloat16, generator=g) for _ in range(3)]


@pytest.mark.parametrize("grad_mode", ["no_grad", "inference"])
@pytest.mark.parametrize("backend", list(BACKENDS))
@pytest.mark.parametrize(("attend", "from_batch"), [(_bug, 0), (_bug, 2), (_bug_imported, 0)])
def test_attention_dropout_in_a_fused_kernel_is_caught(
    backend: str, grad_mode: str, attend: Any, from_batch: int
) -> None:
    model = _model(_fixed)
    with (
        pytest.raises(GradModeViolation) as info,
        sdpa_kernel(BACKENDS[backend]),
        evaluating(model, grad_mode=grad_mode) as scope,
    ):
        for i, x in enumerate(_tokens()):
            model.attend = attend if i >= from_batch else _fixed
            with scope.batch(i):
                model(x)
    v = info.value.violation
    assert (v.kind, v.batch_idx) == ("train_mode", from_batch)
    assert "0.3" in v.detail and "the bug" in (v.where or "")  # dropout_p, as the path and kernel name it


@pytest.mark.parametrize("grad_mode", ["no_grad", "inference"])
@pytest.mark.parametrize("backend", list(BACKENDS))
def test_the_fix_in_a_fused_kernel_is_silent_and_bitwise_the_same(backend: str, grad_mode: str) -> None:
    model = _model(_fixed)
    context = torch.no_grad if grad_mode == "no_grad" else torch.inference_mode
    with sdpa_kernel(BACKENDS[backend]):
        with evaluating(model, grad_mode=grad_mode) as scope:
            guarded = []
            for i, x in enumerate(_tokens()):
                with scope.batch(i):
                    guarded.append(model(x))
        model.eval()
        with context():
            plain = [model(x) for x in _tokens()]
    assert scope.report.total == 0
    assert all(torch.equal(a, b) for a, b in zip(guarded, plain))
