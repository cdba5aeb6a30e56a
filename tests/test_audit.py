"""The operator audit: a dispatch mode over the first batch of each dataloader, which sees every aten operator by
any path, computes nothing itself, and leaves torch.compile alone."""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, evaluating
from gradmode_plugin.audit import OpAudit
from gradmode_plugin.probes import TRAINING_CALLS
from tests.helpers.kernels import differences, first_difference, kernels, out_of_place_form
from tests.helpers.lightning import ToyModule, make_loader, quiet_trainer
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


# -- the same kernels, by construction ----------------------------------------------------------------------------
# A dispatch mode's handler runs with every key above the Python key excluded (autocast, view tracking): an operator
# that decomposes there, or a kernel that calls other operators, would compute its parts otherwise (under CUDA
# autocast `cross_entropy`'s log_softmax in half precision; here, CPU autocast's matmuls in float32). The audit runs
# each operator in the key sets of its call; the execution-trace observer (which leaves dispatch alone) reads every
# leaf kernel, with its shapes, dtypes and strides, with and without the guard.


class MixedNet(nn.Module):
    """BatchNorm, dropout and an einsum (a composite operator with no autocast kernel, whose matmul has one), then
    cross entropy: what autocast casts in the parts of an operator."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.net = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.3))
        self.mix = nn.Parameter(torch.randn(16, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.einsum("bi,ij->bj", self.net(x), self.mix)


def _bilinear(x: torch.Tensor) -> torch.Tensor:
    # _trilinear: a kernel that calls other operators (its matmuls, which autocast casts) under no_grad too
    return nn.functional.bilinear(x, x, torch.ones(3, 8, 8))


def _mixed_loss(model: nn.Module, x: torch.Tensor) -> torch.Tensor:
    with torch.autocast("cpu", dtype=torch.bfloat16):
        out = model(x)
        return nn.functional.cross_entropy(out, torch.zeros(len(x), dtype=torch.long)) + _bilinear(x).sum()


def _kernels_with_and_without(grad_mode: str) -> tuple[Any, Any, list[Any], list[Any]]:
    model, x = MixedNet(), torch.randn(4, 8)
    context = torch.no_grad if grad_mode == "no_grad" else torch.inference_mode
    outputs: list[torch.Tensor] = []

    def plain() -> None:
        model.eval()
        with context():
            outputs.append(_mixed_loss(model, x))

    def guarded() -> None:
        model.train()
        with evaluating(model, grad_mode=grad_mode) as scope, scope.batch(0):
            outputs.append(_mixed_loss(model, x))

    without, with_guard = kernels(plain), kernels(guarded)
    return outputs[0], outputs[1], without, with_guard


@pytest.mark.parametrize("grad_mode", ["no_grad", "inference"])
def test_every_kernel_is_the_same_under_autocast(grad_mode: str) -> None:
    plain, guarded, without, with_guard = _kernels_with_and_without(grad_mode)
    assert first_difference(without, with_guard) is None
    assert any(kernel[0] == "aten::bmm" and "BFloat16" in kernel[2] for kernel in without), "no autocast cast: void"
    assert torch.equal(plain, guarded)


class _RunsInItsOwnKeys(OpAudit):
    """The audit as a plain dispatch mode would be: every operator run in the handler's key sets."""

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        self._look(func, args, kwargs or {})
        return func(*args, **(kwargs or {}))


class _Copies(OpAudit):
    """An audit that hands each kernel contiguous copies of its tensors."""

    def __torch_dispatch__(self, func: Any, types: Any, args: Any = (), kwargs: Any = None) -> Any:
        copied = [a.contiguous() if isinstance(a, torch.Tensor) and a.dim() > 1 else a for a in args]
        return super().__torch_dispatch__(func, types, tuple(copied), kwargs)


def _time_first_kernels(grad_mode: str, autocast: bool) -> tuple[list[Any], list[Any]]:
    torch.manual_seed(0)
    linear, x = nn.Linear(32, 32), torch.randn(4, 20, 32).transpose(0, 1)  # fairseq's (T, B, C): not contiguous
    context = torch.no_grad if grad_mode == "no_grad" else torch.inference_mode

    def forward() -> None:
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
            linear(x)

    def plain() -> None:
        with context():
            forward()

    def guarded() -> None:
        with evaluating(linear, grad_mode=grad_mode) as scope, scope.batch(0):
            forward()

    return kernels(plain), kernels(guarded)


@pytest.mark.parametrize("autocast", [False, True])
def test_a_linear_layer_on_a_time_first_input_runs_the_same_kernels(autocast: bool) -> None:
    without, with_guard = _time_first_kernels("inference", autocast)
    assert first_difference(without, with_guard) is None


@pytest.mark.parametrize("autocast", [False, True])
def test_under_no_grad_a_composite_above_the_audit_takes_only_its_out_of_place_forms(autocast: bool) -> None:
    # Under no_grad, linear decomposes above the audit (at autograd's key) and sees a dispatch mode: PyTorch's
    # composite compliance then adds the bias out of place (add for add_), the same arithmetic on the same inputs.
    # That is the one difference, and the only kind there is.
    without, with_guard = _time_first_kernels("no_grad", autocast)
    changed = differences(without, with_guard)
    assert changed and all(out_of_place_form(x, y) for x, y in changed), changed


@pytest.mark.parametrize("audit", [_RunsInItsOwnKeys, _Copies])
def test_the_kernel_comparison_sees_an_audit_that_changes_a_kernel(
    audit: type[OpAudit], monkeypatch: pytest.MonkeyPatch
) -> None:
    import gradmode_plugin.scope

    monkeypatch.setattr(gradmode_plugin.scope, "OpAudit", audit)
    if audit is _Copies:
        without, with_guard = _time_first_kernels("inference", autocast=False)
    else:
        _, _, without, with_guard = _kernels_with_and_without("no_grad")
    assert first_difference(without, with_guard) is not None


class _MixedModule(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.mixed = MixedNet()
        self.losses: list[torch.Tensor] = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.mixed(x)

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        loss = nn.functional.cross_entropy(self(x), y)
        self.losses.append(loss)
        self.log("val_loss", loss)


@pytest.mark.parametrize("grad_mode", ["auto", "no_grad", "inference"])
def test_a_lightning_mixed_precision_validate_runs_the_same_kernels(grad_mode: str, tmp_path: Any) -> None:
    def validate(guard: GradModeGuard | None) -> tuple[list[Any], list[torch.Tensor]]:
        model = _MixedModule()
        trainer = quiet_trainer(
            tmp_path,
            precision="bf16-mixed",
            limit_val_batches=2,
            inference_mode=grad_mode != "no_grad",  # the grad context the guard's choice asks Lightning for
            callbacks=[guard] if guard is not None else [],
        )
        ran = kernels(lambda: trainer.validate(model, make_loader(), verbose=False))
        return ran, model.losses

    without, plain = validate(None)
    with_guard, guarded = validate(GradModeGuard(grad_mode=grad_mode))
    assert first_difference(without, with_guard) is None
    assert len(plain) == 2 and all(torch.equal(a, b) for a, b in zip(plain, guarded))


@pytest.mark.parametrize("context", [torch.no_grad, torch.inference_mode])
def test_a_composite_that_returns_views_runs_as_without_it(context: Any) -> None:
    # chunk (a composite returning views of its input) reaches the mode whole under inference mode: its views are
    # made in the handler and tracked once, on their way out (timm's rotary embeddings chunk a table, then use both).
    table = torch.randn(4, 16)

    def rotate() -> torch.Tensor:
        sin, cos = table.chunk(2, -1)
        return sin * cos + sin.flip(-1)

    with context():
        plain = rotate()
        with OpAudit():
            audited = rotate()
    assert torch.equal(plain, audited)
