"""The operator audit: a dispatch mode over the first batch of each dataloader, which sees every aten operator by
any path, computes nothing itself, and leaves torch.compile alone."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import evaluating
from gradmode_plugin.audit import OpAudit
from gradmode_plugin.probes import TRAINING_CALLS
from tests.helpers.models import TOKENS


class Counting(OpAudit):
    seen = 0

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        type(self).seen += 1
        return super().__torch_dispatch__(func, types, args, kwargs)


@pytest.mark.parametrize("context", [torch.no_grad, torch.inference_mode])
def test_outputs_are_bitwise_those_without_it_fused_fast_paths_included(context: Any) -> None:
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(8, 2, 16, dropout=0.1, batch_first=True)
    model = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False).eval()  # the fused fast path in eval
    mask = torch.zeros(2, 5, dtype=torch.bool)
    mask[0, 3:] = True
    with context():
        plain = model(TOKENS[0], src_key_padding_mask=mask)
        with OpAudit():
            audited = model(TOKENS[0], src_key_padding_mask=mask)
    assert torch.equal(plain, audited)


@pytest.mark.parametrize("context", [torch.no_grad, torch.inference_mode])
@pytest.mark.parametrize(("batch", "time", "width"), [(2, 7, 16), (3, 33, 64), (4, 20, 32)])
def test_a_linear_layer_on_a_time_first_input_computes_bitwise_the_same(
    context: Any, batch: int, time: int, width: int
) -> None:
    # fairseq's (T, B, C) layout: a non-contiguous 3-D input whose matmul folds through a reshape. A dispatch mode
    # run as it is would compute this about 1e-7 differently under inference mode.
    torch.manual_seed(0)
    linear = nn.Linear(width, width)
    x = torch.randn(batch, time, width).transpose(0, 1)
    with context():
        plain = linear(x)
        with OpAudit():
            audited = linear(x)
    assert torch.equal(plain, audited)


def test_only_the_first_batch_of_each_dataloader_is_audited(monkeypatch: pytest.MonkeyPatch) -> None:
    import gradmode_plugin.scope

    monkeypatch.setattr(gradmode_plugin.scope, "OpAudit", Counting)
    model = nn.Linear(8, 8)
    counts = []
    with evaluating(model) as scope:
        for dataloader in (0, 1):
            for i in range(3):
                Counting.seen = 0
                with scope.batch(i, dataloader):
                    model(TOKENS[0])
                counts.append(Counting.seen)
    assert counts[0] > 0 and counts[3] > 0 and counts[1:3] == [0, 0] and counts[4:] == [0, 0]


def test_it_is_left_when_the_step_raises() -> None:
    model = nn.Linear(8, 8)
    with pytest.raises(ZeroDivisionError), evaluating(model) as scope, scope.batch(0):
        model(TOKENS[0])
        raise ZeroDivisionError
    assert torch._C._len_torch_dispatch_stack() == 0


def test_a_compiled_model_compiles_and_computes_as_without_it() -> None:
    torch._dynamo.reset()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(8, 8), nn.GELU(), nn.Dropout(0.1), nn.Linear(8, 2)).eval()
    compiled = torch.compile(model, backend="eager")  # dynamo's capture, without a C++ compiler
    with torch.inference_mode():
        plain = compiled(TOKENS[0])
    with evaluating(compiled) as scope, scope.batch(0):
        audited = compiled(TOKENS[0])
    assert torch.equal(plain, audited) and scope.report.total == 0


def test_an_unreadable_operator_never_breaks_the_evaluation(monkeypatch: pytest.MonkeyPatch) -> None:
    import gradmode_plugin.audit

    def broken(op: Any) -> None:
        raise RuntimeError("a schema the audit cannot read")

    monkeypatch.setattr(gradmode_plugin.audit, "_RULES", {})
    monkeypatch.setattr(gradmode_plugin.audit, "_rule_for", broken)
    model = nn.Linear(8, 8)
    with evaluating(model) as scope, scope.batch(0):
        out = model(TOKENS[0])
    assert torch.equal(out, model(TOKENS[0]).detach()) and scope.report.total == 0


def test_the_probes_it_reports_through_are_installed_only_during_a_stage() -> None:
    import torch.nn.functional as F

    before = (torch.dropout, torch._VF.dropout, F.scaled_dot_product_attention)
    assert "dropout" not in vars(torch._VF)
    with TRAINING_CALLS.active():
        assert torch.dropout is not before[0] and F.scaled_dot_product_attention is not before[2]
        assert "dropout" in vars(torch._VF)
    assert (torch.dropout, torch._VF.dropout, F.scaled_dot_product_attention) == before
    assert "dropout" not in vars(torch._VF)
