"""graph_built: autograd history during evaluation, in any thread, blamed on the user's lines and always the
evaluation step's own current line."""

from __future__ import annotations

import contextlib
import re
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, allow_grad, evaluating
from tests.helpers.lightning import ToyModule, make_loader
from tests.helpers.models import BATCHES, in_thread, make_model, run_loop


class Deep(nn.Module):
    """Four levels of the user's own modules between the step and the layer that saves a tensor."""

    def __init__(self, depth: int = 4) -> None:
        super().__init__()
        self.inner = Deep(depth - 1) if depth > 1 else nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inner(x).relu()


class TemplateLike(ToyModule):
    """lightning-hydra-template's shape: validation_step -> model_step -> forward -> net, the step under
    enable_grad."""

    def __init__(self) -> None:
        super().__init__()
        self.net = Deep()

    def model_step(self, batch: Any) -> torch.Tensor:
        x, y = batch
        return nn.functional.cross_entropy(self.forward(x), y)

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        with torch.enable_grad():  # noqa: GM301
            loss = self.model_step(batch)  # the step's own line
        self.log("val/loss", loss.detach())


def test_where_always_includes_the_steps_own_line(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()], num_sanity_val_steps=0).fit(
            TemplateLike(), make_loader(), make_loader()
        )
    where = info.value.violation.where or ""
    frames = where.split(" <- ")
    assert len(frames) == 4, frames
    assert "in forward" in frames[0]
    assert frames[-1].endswith("loss = self.model_step(batch)  # the step's own line")


def test_graph_in_a_worker_thread_names_the_thread_and_the_steps_line() -> None:
    model = make_model()

    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        return in_thread(lambda: m(x).detach())[0]

    with pytest.raises(GradModeViolation) as info:
        run_loop(model, body, grad_mode="no_grad")
    v = info.value.violation
    assert v.kind == "graph_built" and "in thread 'worker'" in v.detail and (v.batch_idx, v.module) == (0, "0")
    # The evaluating thread is still starting the worker, or already waiting for it.
    assert re.search(r"while .*in in_thread: worker\.(start|join)\(\)", v.where or ""), v.where


class Generator(nn.Module):
    """Encodes in the evaluating thread and decodes in a generation thread, as streaming inference code does, and
    forgets that threads start with grad mode on."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.encoder = nn.Linear(8, 8)
        self.decoder = nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2))

    def generate(self, x: torch.Tensor, fix: bool = False) -> list[torch.Tensor]:
        state = self.encoder(x)  # an inference tensor under inference_mode

        def decode() -> torch.Tensor:
            with torch.inference_mode() if fix else contextlib.nullcontext():
                return self.decoder(state)  # the worker's line

        return in_thread(decode, name="generation")  # empty when it died: the step sees only a missing result


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_worker_thread_killed_by_inference_mode_is_reported_with_its_thread_module_and_line() -> None:
    model = Generator()
    results: list[list[torch.Tensor]] = []
    with pytest.raises(GradModeViolation) as info, evaluating(model, grad_mode="inference") as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i):
                results.append(model.generate(x))
    assert results == [[]], "PyTorch killed the thread; the step itself saw nothing"
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module) == ("graph_built", 0, "decoder.0")
    assert "thread 'generation' died in module 'decoder.0'" in v.detail and "Inference tensors" in v.detail
    assert "which the guard chose" not in v.detail and "that the guard chose" in v.detail
    assert "return self.decoder(state)  # the worker's line" in (v.where or "")
    assert "torch.no_grad() or torch.inference_mode() in the worker thread" in v.hint and "allow_grad" in v.hint
    assert "grad_mode='no_grad'" in v.hint


def test_the_fixed_worker_thread_is_silent_and_computes_the_same() -> None:
    model = Generator()
    with evaluating(model, grad_mode="inference") as scope:
        guarded = [model.generate(x, fix=True)[0] for x in BATCHES]
    with torch.inference_mode():
        plain = [model.generate(x, fix=True)[0] for x in BATCHES]
    assert scope.report.total == 0 and all(torch.equal(a, b) for a, b in zip(guarded, plain))


class ThreadedGeneration(ToyModule):
    def __init__(self) -> None:
        super().__init__()
        self.gen = Generator()

    def predict_step(self, batch: Any, batch_idx: int) -> list[torch.Tensor]:
        return self.gen.generate(batch[0])


@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_worker_thread_killed_under_lightnings_inference_mode_is_reported(make_trainer: Any) -> None:
    guard = GradModeGuard(on_violation="record")
    with pytest.warns(UserWarning, match="violations during predict"):
        make_trainer(callbacks=[guard]).predict(ThreadedGeneration(), make_loader())
    found = [v for v in guard.report.violations if v.kind == "graph_built"]
    assert [v.batch_idx for v in found] == [0, 1, 2, 3] and {v.module for v in found} == {"gen.decoder.0"}
    assert "that the framework chose" in found[0].detail


# -- torch.func transforms: they refuse to start under any saved-tensor hook ---------------------------------------
def _energy(model: nn.Module) -> Any:
    return lambda x: model(x).logsumexp(-1).sum()


#: Each transform that takes gradients, and vmap over one, as a call on one input row.
TRANSFORMS: dict[str, Any] = {
    "grad": lambda f, x: torch.func.grad(f)(x),
    "vjp": lambda f, x: torch.func.vjp(f, x)[1](torch.ones(()))[0],
    "jacrev": lambda f, x: torch.func.jacrev(f)(x),
    "hessian": lambda f, x: torch.func.hessian(f)(x[:1]),
    "vmap over grad": lambda f, x: torch.func.vmap(torch.func.grad(lambda row: f(row[None])))(x),
}


def _transformed(name: str, guard: dict[str, Any] | None, allowed: bool = False) -> tuple[list[Any], Any]:
    model = make_model().eval()
    f = _energy(model)
    if guard is None:
        with torch.no_grad():
            return [TRANSFORMS[name](f, x) for x in BATCHES], None
    outs = []
    with evaluating(model, **guard) as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i), allow_grad("physics") if allowed else contextlib.nullcontext():
                outs.append(TRANSFORMS[name](f, x))  # the transform's line
    return outs, scope


@pytest.mark.parametrize("name", list(TRANSFORMS))
@pytest.mark.parametrize("grad_mode", ["no_grad", "inference"])
def test_torch_func_transforms_run_to_the_end_under_record_with_the_finding(name: str, grad_mode: str) -> None:
    plain, _ = _transformed(name, None)
    for policy in ("record", "warn"):
        with pytest.warns(UserWarning) if policy == "warn" else contextlib.nullcontext():
            outs, scope = _transformed(name, {"grad_mode": grad_mode, "on_violation": policy})
        assert all(torch.equal(a, b) for a, b in zip(outs, plain))
        assert scope.report.count("graph_built") == 4  # at every batch
        finding = scope.report.violations[0]
        assert finding.detail.startswith("a torch.func transform that takes gradients")
        assert "the transform's line" in (finding.where or "") and "allow_grad" in finding.hint
    # Its correct look-alike: the same transform inside allow_grad, silent, counted, the same numbers.
    outs, scope = _transformed(name, {"grad_mode": grad_mode}, allowed=True)
    assert all(torch.equal(a, b) for a, b in zip(outs, plain))
    assert scope.report.total == 0 and scope.report.stage("evaluation").allowed == {"physics": 4}


@pytest.mark.parametrize("name", ["grad", "vmap over grad"])
def test_a_torch_func_transform_under_raise_is_the_guards_error_naming_the_line_and_allow_grad(name: str) -> None:
    with pytest.raises(GradModeViolation) as info:
        _transformed(name, {"grad_mode": "no_grad"})
    assert info.value.kind == "graph_built" and info.value.violation.batch_idx == 0
    message = str(info.value)
    assert "the transform's line" in message and "gradmode_plugin.allow_grad('reason')" in message
