"""train_mode: a module in training mode during evaluation (named with the line that switched it), and calls that
train whatever the module flags say: functional dropout by every path, attention dropout, in any thread."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.functional import dropout as imported_dropout
from torch.nn.functional import scaled_dot_product_attention as imported_sdpa

from gradmode_plugin import GradModeGuard, GradModeViolation, evaluating
from tests.helpers.lightning import ToyModule, make_loader
from tests.helpers.models import TOKENS, Attend, Attention, AttentionNet, in_thread, run_loop

THIS_FILE = Path(__file__).name
Dropout = Callable[[torch.Tensor, bool], torch.Tensor]


class Head(nn.Module):
    """Applies ``dropout(x, self.training)`` on the batch where it is told to."""

    def __init__(self, dropout: Dropout) -> None:
        super().__init__()
        self.dropout = dropout
        self.fc = nn.Linear(8, 8)
        self.active = True

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.fc(x)
        return self.dropout(x, self.training) if self.active else x


class Net(nn.Module):
    def __init__(self, dropout: Dropout) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.body = nn.Linear(8, 8)
        self.head = Head(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


BUGGY: dict[str, Dropout] = {
    "F.dropout(x)": lambda x, training: F.dropout(x, 0.5),  # training defaults to True: the classic  # noqa: GM101
    "F.dropout(training=True)": lambda x, training: F.dropout(x, 0.5, training=True),  # noqa: GM102
    "F.alpha_dropout(training=True)": lambda x, training: F.alpha_dropout(x, 0.5, training=True),  # noqa: GM102
    "F.feature_alpha_dropout(training=True)": lambda x, training: F.feature_alpha_dropout(  # noqa: GM102
        x.reshape(2, 4, 2), 0.5, training=True
    ).reshape(2, 8),
    "F.dropout1d": lambda x, training: F.dropout1d(x.reshape(2, 4, 2), 0.5).reshape(2, 8),  # noqa: GM101
    "F.dropout2d": lambda x, training: F.dropout2d(x.reshape(2, 2, 2, 2), 0.5).reshape(2, 8),  # noqa: GM101
    "F.dropout3d": lambda x, training: F.dropout3d(x.reshape(1, 2, 2, 2, 2), 0.5).reshape(2, 8),  # noqa: GM101
}
CORRECT: dict[str, Dropout] = {
    "F.dropout(training=self.training)": lambda x, training: F.dropout(x, 0.5, training=training),
    "F.dropout2d(training=self.training)": lambda x, training: F.dropout2d(
        x.reshape(2, 2, 2, 2), 0.5, training=training
    ).reshape(2, 8),
}
BATCHES = [torch.randn(2, 8, generator=torch.Generator().manual_seed(i)) for i in range(3)]


def evaluate(model: Net, **kwargs: Any) -> tuple[Any, list[torch.Tensor]]:
    outputs = []
    with evaluating(model, **kwargs) as scope:
        for i, x in enumerate(BATCHES):
            model.head.active = i == 1 or "allow_train" in kwargs
            with scope.batch(i):
                outputs.append(model(x))
    return scope, outputs


@pytest.mark.parametrize("call", list(BUGGY))
def test_functional_dropout_that_trains_is_caught_with_module_and_line(call: str) -> None:
    with pytest.raises(GradModeViolation) as info:
        evaluate(Net(BUGGY[call]))
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module, v.stage) == ("train_mode", 1, "head", "evaluation")
    assert "ran during evaluation in module 'head'" in v.detail
    assert THIS_FILE in (v.where or "") and "lambda" in (v.where or "")
    assert "with scope.batch(i)" in (v.where or "") or "outputs.append(model(x))" in (v.where or "")


@pytest.mark.parametrize("call", list(CORRECT))
def test_correct_functional_dropout_is_silent_and_computes_the_same(call: str) -> None:
    scope, guarded = evaluate(Net(CORRECT[call]))
    assert scope.report.total == 0
    model = Net(CORRECT[call]).eval()
    with torch.no_grad():
        plain = []
        for i, x in enumerate(BATCHES):
            model.head.active = i == 1
            plain.append(model(x))
    assert all(torch.equal(a, b) for a, b in zip(guarded, plain))


def test_mc_dropout_through_allow_train_is_silent_and_stays_stochastic() -> None:
    scope, outputs = evaluate(Net(CORRECT["F.dropout(training=self.training)"]), allow_train=("head",))
    assert scope.report.total == 0
    assert not torch.equal(outputs[0], Net(CORRECT["F.dropout(training=self.training)"]).eval()(BATCHES[0]))


def test_train_call_is_named_with_its_line() -> None:
    model = Net(CORRECT["F.dropout(training=self.training)"])
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i):
                if i == 2:
                    model.body.train()  # the line to blame
                model(x)
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module) == ("train_mode", 2, "body")
    assert "model.body.train()  # the line to blame" in (v.where or "")
    assert "switched by train() at" in v.detail


class FunctionalDropoutInLightning(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x = self.net(batch[0])
        if batch_idx == 2:
            x = F.dropout(x)  # forgot training=self.training  # noqa: GM101
        self.log("val_loss", nn.functional.cross_entropy(x, batch[1]))


def test_functional_dropout_in_a_lightning_step(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()]).validate(FunctionalDropoutInLightning(), make_loader())
    v = info.value.violation
    assert (v.kind, v.stage, v.batch_idx, v.module) == ("train_mode", "validation", 2, "")
    assert "x = F.dropout(x)  # forgot training=self.training" in (v.where or "")


# -- attention dropout, and dropout reached by every other path ----------------------------------------------------
def sdpa_bug(m: nn.Module, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, dropout_p=m.dropout_p)  # the bug: dropout whatever the mode  # noqa: GM104


def sdpa_fixed(m: nn.Module, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    return F.scaled_dot_product_attention(q, k, v, dropout_p=m.dropout_p if m.training else 0.0)


OTHER_PATHS: dict[str, Attend] = {
    "imported F.dropout": lambda m, q, k, v: imported_dropout(q, 0.5) @ k.transpose(-1, -2) @ v,  # noqa: GM101
    "torch.dropout": lambda m, q, k, v: torch.dropout(q, 0.5, True),  # noqa: GM103
    "torch.feature_dropout": lambda m, q, k, v: torch.feature_dropout(q, 0.5, True),  # noqa: GM103
    "torch.alpha_dropout": lambda m, q, k, v: torch.alpha_dropout(q, 0.5, True),  # noqa: GM103
    "torch.feature_alpha_dropout": lambda m, q, k, v: torch.feature_alpha_dropout(q, 0.5, True),  # noqa: GM103
    "torch._VF.dropout": lambda m, q, k, v: torch._VF.dropout(q, 0.5, True),  # noqa: GM103
    "torch.ops.aten.dropout": lambda m, q, k, v: torch.ops.aten.dropout(q, 0.5, True),
    "torch.ops.aten.native_dropout": lambda m, q, k, v: torch.ops.aten.native_dropout(q, 0.5, True)[0],
    "imported scaled_dot_product_attention": lambda m, q, k, v: imported_sdpa(q, k, v, dropout_p=m.dropout_p),  # noqa: GM104
    "torch.ops.aten.scaled_dot_product_attention": lambda m, q, k, v: torch.ops.aten.scaled_dot_product_attention(
        q, k, v, None, m.dropout_p
    ),
}


def attend_loop(attend: Attend, grad_mode: str, from_batch: int = 0, **kwargs: Any) -> tuple[Any, list[torch.Tensor]]:
    """Evaluate :data:`TOKENS` with ``attend`` from batch ``from_batch`` on, the fixed attention before it."""
    model = AttentionNet(attend)
    outputs = []
    with evaluating(model, grad_mode=grad_mode, **kwargs) as scope:
        for i, x in enumerate(TOKENS):
            model.block.attend = attend if i >= from_batch else sdpa_fixed
            with scope.batch(i):
                outputs.append(model(x))
    return scope, outputs


@pytest.mark.parametrize("from_batch", [0, 2])
@pytest.mark.parametrize("grad_mode", ["no_grad", "inference"])
def test_attention_dropout_not_conditioned_on_training_is_caught(grad_mode: str, from_batch: int) -> None:
    with pytest.raises(GradModeViolation) as info:
        attend_loop(sdpa_bug, grad_mode, from_batch)
    v = info.value.violation
    assert (v.kind, v.stage, v.batch_idx, v.module) == ("train_mode", "evaluation", from_batch, "block")
    assert "F.scaled_dot_product_attention(dropout_p=0.3)" in v.detail and "in eval mode" in v.detail
    assert "return F.scaled_dot_product_attention(q, k, v, dropout_p=m.dropout_p)  # the bug" in (v.where or "")
    assert "outputs.append(model(x))" in (v.where or "")
    assert "dropout_p=self.dropout_p if self.training else 0.0" in v.hint


@pytest.mark.parametrize("grad_mode", ["no_grad", "inference"])
def test_attention_dropout_conditioned_on_training_is_silent_and_computes_the_same(grad_mode: str) -> None:
    scope, guarded = attend_loop(sdpa_fixed, grad_mode)
    assert scope.report.total == 0
    model = AttentionNet(sdpa_fixed).eval()
    context = torch.no_grad if grad_mode == "no_grad" else torch.inference_mode
    with context():
        plain = [model(x) for x in TOKENS]
    assert all(torch.equal(a, b) for a, b in zip(guarded, plain))


#: The paths only the operator audit sees: the first batch of each dataloader.
AUDIT_ONLY = (
    "torch.ops.aten.dropout",
    "torch.ops.aten.native_dropout",
    "imported scaled_dot_product_attention",
    "torch.ops.aten.scaled_dot_product_attention",
)


@pytest.mark.parametrize("grad_mode", ["no_grad", "inference"])
@pytest.mark.parametrize("path", list(OTHER_PATHS))
def test_dropout_reached_by_another_path_is_caught(path: str, grad_mode: str) -> None:
    from_batch = 0 if path in AUDIT_ONLY else 2  # every batch, but where only the audit sees the path
    with pytest.raises(GradModeViolation) as info:
        attend_loop(OTHER_PATHS[path], grad_mode, from_batch)
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module) == ("train_mode", from_batch, "block")
    assert THIS_FILE in (v.where or "") and "lambda" in (v.where or ""), v.where


@pytest.mark.parametrize("path", AUDIT_ONLY)
def test_paths_only_the_audit_sees_go_unseen_after_the_first_batch(path: str) -> None:
    # The blind spot docs/kinds.md states: such a path taken only from the second batch on is not seen.
    scope, _ = attend_loop(OTHER_PATHS[path], "inference", from_batch=1)
    assert scope.report.total == 0


def test_mc_dropout_in_attention_through_allow_train_is_silent() -> None:
    scope, outputs = attend_loop(sdpa_fixed, "inference", allow_train=("block",))
    assert scope.report.total == 0
    assert not torch.equal(outputs[0], AttentionNet(sdpa_fixed).eval()(TOKENS[0]))


class InWorkerThread(nn.Module):
    """Runs ``body`` on its input: the model's work that a worker thread does."""

    def __init__(self, body: Callable[[nn.Module, torch.Tensor], torch.Tensor]) -> None:
        super().__init__()
        self.body = body
        self.norm = nn.BatchNorm1d(8)
        self.fc = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(self, self.fc(x))


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        ("train_mode", lambda m, x: F.dropout(x, 0.5)),  # noqa: GM101
        ("train_mode", lambda m, x: torch.dropout(x, 0.5, True)),  # noqa: GM103
        ("train_mode", lambda m, x: sdpa_bug(Attention(sdpa_bug), x[None, None], x[None, None], x[None, None])[0, 0]),
        (
            "running_stats_updated",
            lambda m, x: F.batch_norm(x, m.norm.running_mean, m.norm.running_var, training=True),
        ),
    ],
)
def test_functional_calls_that_train_in_a_worker_thread_are_caught(kind: str, body: Any) -> None:
    model = InWorkerThread(body)

    def in_worker(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        def work() -> torch.Tensor:
            with torch.no_grad():  # the worker does not build graphs: only the training-mode call is wrong
                return m(x)

        return in_thread(work)[0]

    with pytest.raises(GradModeViolation) as info:
        run_loop(model, in_worker, grad_mode="inference")
    v = info.value.violation
    assert (v.kind, v.batch_idx, v.module) == (kind, 0, "")
    assert "lambda m, x:" in (v.where or "") and re.search(r"while .*worker\.(start|join)\(\)", v.where or ""), v.where


def test_legit_sampling_in_predict_is_not_dropout(make_trainer: Any) -> None:
    class Sampler(ToyModule):
        def predict_step(self, batch: Any, batch_idx: int) -> dict[str, torch.Tensor]:
            probs = self(batch[0]).softmax(-1)
            return {
                "tokens": torch.multinomial(probs, 4, replacement=True),
                "coins": torch.bernoulli(probs),
                "noise": torch.rand(3) + torch.randn(3) + torch.empty(3).uniform_(),
                "masked": probs * torch.empty_like(probs).bernoulli_(0.9),  # a random mask, not rescaled dropout
            }

    def predict(guard: GradModeGuard | None) -> list[dict[str, torch.Tensor]]:
        torch.manual_seed(0)
        return make_trainer(callbacks=[guard] if guard else []).predict(Sampler(), make_loader())

    guard = GradModeGuard()
    guarded, plain = predict(guard), predict(None)
    assert guard.report.total == 0
    assert all(torch.equal(a[key], b[key]) for a, b in zip(guarded, plain) for key in a)


class AttentionInLightning(ToyModule):
    def __init__(self, attend: Attend) -> None:
        super().__init__()
        self.net = AttentionNet(attend)

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        self.log("val_loss", nn.functional.cross_entropy(self(x.view(-1, 1, 8).expand(-1, 3, 8)), y))


def test_attention_dropout_in_lightning_is_caught_and_the_fix_validates_the_same(make_trainer: Any) -> None:
    def validate(attend: Attend, callbacks: list[Any], seed: int = 0) -> float:
        model = AttentionInLightning(attend)  # the same weights every time
        torch.manual_seed(seed)
        trainer = make_trainer(callbacks=callbacks)
        return trainer.validate(model, make_loader(), verbose=False)[0]["val_loss"]

    # Without the guard the bug is silent: two validations of the same model disagree.
    assert validate(sdpa_bug, [], seed=1) != validate(sdpa_bug, [], seed=2)
    with pytest.raises(GradModeViolation) as info:
        validate(sdpa_bug, [GradModeGuard()])
    v = info.value.violation
    assert (v.kind, v.stage, v.batch_idx, v.module) == ("train_mode", "validation", 0, "net.block")
    guard = GradModeGuard()
    fixed = validate(sdpa_fixed, [guard], seed=1)
    assert fixed == validate(sdpa_fixed, [], seed=2) and guard.report.total == 0


# -- scripted models -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("on_violation", ["record", "raise"])
def test_a_scripted_model_with_a_submodule_training_is_reported_not_crashed(on_violation: str) -> None:
    model = torch.jit.script(nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.5), nn.Linear(8, 2)))
    dropout = dict(model.named_modules())["1"]  # (scripted Sequential's [1] is not the module it runs)

    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        if i == 1:
            dropout.train()  # the line to blame
        return m(x)

    if on_violation == "raise":
        with pytest.raises(GradModeViolation) as info:
            run_loop(model, body)
        v = info.value.violation
    else:
        v = run_loop(model, body, on_violation="record").report.violations[0]
    assert (v.kind, v.batch_idx, v.module) == ("train_mode", 1, "1")
    assert "dropout.train()  # the line to blame" in (v.where or "")
    assert [m.training for m in model.modules()] == [True, True, True, True]  # restored as it was on entry


# -- allow_train knows the module that made a call, however deep its helper functions go ---------------------------
def _dropout_through_helpers(x: torch.Tensor, depth: int, p: float, training: bool | None) -> torch.Tensor:
    """``F.dropout`` called ``depth`` helper functions below the caller (``training=None``: left at its default)."""
    if depth > 1:
        return _dropout_through_helpers(x, depth - 1, p, training)
    return F.dropout(x, p) if training is None else F.dropout(x, p, training)


class HelperDropout(nn.Module):
    """A module whose forward reaches dropout through helper functions, as model code factors it."""

    def __init__(self, depth: int, p: float = 0.5, default_training: bool = False) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 8)
        self.depth, self.p, self.default_training = depth, p, default_training

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        training = None if self.default_training else self.training
        if self.depth == 0:
            return F.dropout(self.fc(x), self.p, self.training)
        return _dropout_through_helpers(self.fc(x), self.depth, self.p, training)


class BodyAndHead(nn.Module):
    def __init__(self, head: nn.Module, body: nn.Module | None = None) -> None:
        super().__init__()
        self.body = body or nn.Linear(8, 8)
        self.head = head

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.body(x))


def _drop_path_head() -> nn.Module:
    drop_path = pytest.importorskip("timm.layers").DropPath
    return nn.Sequential(nn.Linear(8, 8), drop_path(0.5))


def _mc_heads() -> dict[str, Callable[[], nn.Module]]:
    heads: dict[str, Callable[[], nn.Module]] = {
        f"{depth} helper(s)": functools.partial(HelperDropout, depth) for depth in (1, 5, 60)
    }
    heads["F.dropout in forward"] = functools.partial(HelperDropout, 0)
    heads["nn.Dropout"] = lambda: nn.Sequential(nn.Linear(8, 8), nn.Dropout(0.5))
    heads["timm DropPath"] = _drop_path_head
    return heads


@pytest.mark.parametrize("head", list(_mc_heads()))
def test_allow_train_covers_a_modules_dropout_however_deep_its_helpers_go(head: str) -> None:
    def run(guard: bool) -> tuple[list[torch.Tensor], Any]:
        torch.manual_seed(0)
        model = BodyAndHead(_mc_heads()[head]())
        torch.manual_seed(1)
        if not guard:  # MC dropout as written without the guard: eval(), the head put back in training mode
            model.eval().head.train()
            with torch.inference_mode():
                return [model(x) for x in BATCHES], None
        with evaluating(model, allow_train=("head",)) as scope:
            outs = []
            for i, x in enumerate(BATCHES):
                with scope.batch(i):
                    outs.append(model(x))
        return outs, scope

    outs, scope = run(guard=True)
    plain, _ = run(guard=False)
    assert scope.report.total == 0 and all(torch.equal(a, b) for a, b in zip(outs, plain))


@pytest.mark.parametrize("depth", [1, 5, 60])
def test_dropout_deep_in_helpers_of_a_module_not_allowed_is_reported_naming_that_module(depth: int) -> None:
    # The head may train (allow_train); the body's dropout, left at training=True, may not: found at every batch.
    torch.manual_seed(0)
    model = BodyAndHead(HelperDropout(1), body=HelperDropout(depth, default_training=True))
    with evaluating(model, allow_train=("head",), on_violation="record") as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i):
                model(x)
    assert [(v.kind, v.module, v.batch_idx) for v in scope.report.violations] == [
        ("train_mode", "body", i) for i in range(len(BATCHES))
    ]


class McPredict(ToyModule):
    """MC dropout at predict time: the head's forward reaches ``F.dropout`` through a one-line helper."""

    def __init__(self, depth: int = 1) -> None:
        super().__init__()
        self.net = BodyAndHead(HelperDropout(depth))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)


def test_allow_train_in_lightning_covers_a_heads_dropout_behind_a_helper(make_trainer: Any) -> None:
    def predictions(guard: bool) -> torch.Tensor:
        torch.manual_seed(0)
        model = McPredict()
        if not guard:  # what the guard's allow_train does, written by hand
            model.on_predict_model_eval = lambda: (model.eval(), model.net.head.train())  # type: ignore[method-assign]
        callbacks = [GradModeGuard(allow_train=("net.head",))] if guard else []
        torch.manual_seed(1)
        return torch.cat(make_trainer(callbacks=callbacks).predict(model, make_loader()))

    assert torch.equal(predictions(guard=True), predictions(guard=False))
