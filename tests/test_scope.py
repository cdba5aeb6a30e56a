"""The plain-PyTorch API: ``evaluating(...)`` has the callback's semantics on a hand-written loop."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from gradmode_plugin import GradModeViolation, evaluating
from gradmode_plugin.checks.base import Check
from gradmode_plugin.checks.grad_enabled import GradEnabled
from gradmode_plugin.checks.train_mode import TrainMode
from gradmode_plugin.scope import EvaluationScope
from tests.helpers.models import BATCHES, flags, hook_count, make_model, run_loop


def test_correct_loop_passes_and_restores_everything() -> None:
    model = make_model()
    model[1].eval()
    before = flags(model)
    scope = run_loop(model, check_params=True)
    assert scope.report.total == 0
    assert scope.report.stage("evaluation").batches == 4
    assert flags(model) == before and hook_count(model) == 0


def test_auto_picks_no_grad_inside_training_and_inference_mode_otherwise() -> None:
    model = make_model()
    seen: list[bool] = []

    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        seen.append(torch.is_inference_mode_enabled())
        return m(x)

    model.train()
    assert run_loop(model, body).mode == "no_grad"
    model.eval()
    assert run_loop(model, body).mode == "inference"
    assert seen == [False] * 4 + [True] * 4


def test_auto_is_resolved_when_the_scope_is_entered_and_says_what_it_saw() -> None:
    model = make_model().eval()
    scope = evaluating(model)  # built while the model is in eval mode
    model.train()  # ... entered during training
    with scope, scope.batch(0):
        assert not torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
        model(BATCHES[0])
    assert scope.mode == "no_grad"
    assert "the model (Sequential) was in training mode when the scope was entered" in scope.reason
    assert "evaluation inside training" not in scope.reason
    model.eval()
    with scope:
        pass
    assert scope.mode == "inference" and scope.reason.startswith("stand-alone evaluation")


def test_enable_grad_raises_at_its_batch_and_state_is_restored() -> None:
    model = make_model()
    before = flags(model)

    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        if i == 2:
            with torch.enable_grad():
                return m(x).detach()
        return m(x)

    with pytest.raises(GradModeViolation) as info:
        run_loop(model, body, grad_mode="no_grad")
    assert (info.value.kind, info.value.violation.batch_idx, info.value.violation.stage) == (
        "graph_built",
        2,
        "evaluation",
    )
    assert "test_scope.py" in (info.value.violation.where or "")
    assert flags(model) == before and hook_count(model) == 0


def test_exception_restores_the_exact_outer_state() -> None:
    model = make_model()
    with torch.inference_mode():
        with pytest.raises(ValueError), evaluating(model, grad_mode="no_grad"):
            assert torch.is_inference_mode_enabled()  # the caller's, never lowered
            raise ValueError
        assert torch.is_inference_mode_enabled()
    with torch.no_grad():
        with pytest.raises(ValueError), evaluating(model, grad_mode="inference"):
            raise ValueError
        assert not torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    assert all(flags(model)) and hook_count(model) == 0


def test_train_mode_and_running_stats() -> None:
    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        if i == 1:
            m.train()
        return m(x)

    scope = run_loop(make_model(), body, on_violation="record")
    kinds = [(v.kind, v.batch_idx, v.module) for v in scope.report.violations]
    assert set(kinds[:2]) == {("train_mode", 1, ""), ("running_stats_updated", 1, "1")}


def test_a_check_runs_at_a_batch_end_only_when_its_read_is_true(monkeypatch: pytest.MonkeyPatch) -> None:
    # A clean batch spends no call of the grad-mode or train-mode check; a batch that leaves either on gets it.
    calls: list[tuple[str, int]] = []
    for check in (GradEnabled, TrainMode):
        original = check.batch_end

        def counted(self: Check, original: Callable[[Check], None] = original) -> None:
            calls.append((self.kind, self.scope.batches_begun))
            original(self)

        monkeypatch.setattr(check, "batch_end", counted)
    assert run_loop(make_model()).report.total == 0
    assert calls == []

    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        if i == 1:
            m[3].train()
        if i == 2:
            m[3].eval()
            torch.set_grad_enabled(True)  # noqa: GM401 (the planted bug)
        return m(x)

    scope = run_loop(make_model(), body, on_violation="record", grad_mode="no_grad")
    assert calls == [("train_mode", 2), ("grad_enabled", 3), ("grad_enabled", 4)]
    kinds = {(v.kind, v.batch_idx) for v in scope.report.violations}
    assert {("train_mode", 1), ("grad_enabled", 2), ("grad_enabled", 3)} <= kinds


def _framework_batches(
    model: nn.Module,
    body: Callable[[int], object],
    n: int = 3,
    after: Callable[[], object] = lambda: None,
    inference_mode_off: bool = False,
    **options: object,
) -> tuple[list[tuple[str, int]], EvaluationScope]:
    """``n`` batches through the scope's framework entry points (begin_batch, run_step, end_batch) with ``body(i)``
    as the step and ``after()`` as the batch's last call; which batches went through the scope's full
    ``_batch_start``/``_batch_end``. ``inference_mode_off`` runs the batches with inference mode off, as a
    framework's loop may leave it inside the scope."""
    calls: list[tuple[str, int]] = []
    scope = evaluating(model, on_violation="record", **options)  # type: ignore[arg-type]
    originals = EvaluationScope._batch_start, EvaluationScope._batch_end

    def start(self: EvaluationScope) -> None:
        calls.append(("start", self.batch_idx))  # type: ignore[arg-type]
        originals[0](self)

    def end(self: EvaluationScope, exc: BaseException | None) -> None:
        calls.append(("end", self.batch_idx))  # type: ignore[arg-type]
        originals[1](self, exc)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(EvaluationScope, "_batch_start", start)
        patch.setattr(EvaluationScope, "_batch_end", end)
        with scope, contextlib.ExitStack() as outer:
            if inference_mode_off:
                outer.enter_context(torch.inference_mode(False))
                outer.enter_context(torch.no_grad())
            for i in range(n):
                scope.begin_batch(lambda *args: None, None, i)
                scope.run_step(body, "step output", i)
                scope.end_batch(after)
    return calls, scope


def test_run_step_takes_the_full_batch_start_and_end_whenever_a_batch_has_work() -> None:
    # A framework's step decides the usual batch inline; every reason for work must still reach the checks.
    model = make_model()
    calls, scope = _framework_batches(model, lambda i: model(BATCHES[i]))
    assert calls == [("start", 0), ("end", 0)]  # the first batch's operator audit, then nothing
    assert scope.report.total == 0

    def leaves_grad_on(i: int) -> object:
        if i == 1:
            torch.set_grad_enabled(True)  # noqa: GM401 (the planted bug)
        return None

    calls, scope = _framework_batches(make_model(), leaves_grad_on, grad_mode="no_grad")
    assert calls == [("start", 0), ("end", 0), ("end", 1), ("start", 2), ("end", 2)]
    assert {("grad_enabled", 1), ("grad_enabled", 2)} <= {(v.kind, v.batch_idx) for v in scope.report.violations}

    model = make_model()
    calls, scope = _framework_batches(model, lambda i: model[3].train() if i == 1 else None)
    assert calls == [("start", 0), ("end", 0), ("end", 1), ("end", 2)]
    assert [(v.kind, v.batch_idx) for v in scope.report.violations] == [("train_mode", 1), ("train_mode", 2)]

    # Inference mode left off by the framework's loop: each step runs in the scope's context, and only the step.
    seen: list[bool] = []
    record = lambda *args: seen.append(torch.is_inference_mode_enabled())  # noqa: E731
    calls, _ = _framework_batches(make_model(), record, after=record, grad_mode="inference", inference_mode_off=True)
    assert seen == [True, False] * 3
    assert calls == [("start", 0), ("end", 0), ("start", 1), ("end", 1), ("start", 2), ("end", 2)]

    # A check with no batch-end read, and modules whose flag lives outside their dict, take the full end every batch.
    calls, _ = _framework_batches(make_model(), lambda i: None, check_params=True)
    assert calls == [("start", 0), ("end", 0), ("end", 1), ("end", 2)]
    scripted = torch.jit.script(nn.Sequential(nn.Linear(8, 2)))
    calls, _ = _framework_batches(scripted, lambda i: None)
    assert calls == [("start", 0), ("end", 0), ("end", 1), ("end", 2)]

    # Under raise, a finding is raised at the end of its step, and one made before the step (a batch-start hook's)
    # before the step runs.
    assert _raising_batches(in_step=True) == [("step", 0), ("end", 0), ("step", 1)]
    assert _raising_batches(in_step=False) == [("step", 0), ("end", 0)]


def _raising_batches(in_step: bool) -> list[tuple[str, int]]:
    """Batches through the framework entry points under raise, with a dropout that trains planted in batch 1's
    step (or before it); what ran before the violation was raised (at batch 1)."""
    ran: list[tuple[str, int]] = []

    def trains(i: int) -> None:
        if i == 1:
            torch.nn.functional.dropout(BATCHES[i])  # noqa: GM101 (the planted bug)

    def step(i: int) -> None:
        ran.append(("step", i))
        if in_step:
            trains(i)

    with pytest.raises(GradModeViolation) as info, evaluating(make_model()) as scope:
        for i in range(3):
            scope.begin_batch(lambda *args: None if in_step else trains(args[1]), None, i)
            scope.run_step(step, "step output", i)
            scope.end_batch(lambda i=i: ran.append(("end", i)))
    assert (info.value.kind, info.value.violation.batch_idx) == ("train_mode", 1)
    return ran


def test_without_batches_checks_run_once_at_exit() -> None:
    model = make_model()
    with pytest.raises(GradModeViolation) as info, evaluating(model):
        model[3].train()
    assert (info.value.kind, info.value.violation.batch_idx, info.value.violation.module) == ("train_mode", None, "3")
    assert all(flags(model))


def test_evaluating_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="grad_mode='fast'"):
        evaluating(make_model(), grad_mode="fast")
    with pytest.raises(ValueError, match=r"torch\.nn\.Module"):
        evaluating("model")  # type: ignore[arg-type]


def test_a_scope_can_be_reused_but_not_nested() -> None:
    model = make_model()
    scope = evaluating(model, on_violation="record")
    for _ in range(2):
        with scope, scope.batch(0):
            model.train()
    assert scope.report.count("train_mode") == 2, "each run starts with a clean slate"
    with pytest.raises(RuntimeError, match="already entered"), scope, scope:
        pass
    assert all(flags(model))


def test_a_caught_violation_is_not_raised_again_by_later_batches() -> None:
    model = make_model()
    raised: list[int] = []
    with evaluating(model) as scope:
        for i, x in enumerate(BATCHES):
            try:
                with scope.batch(i):
                    if i == 1:
                        model[3].train()
                    model(x)
                    if i == 1:
                        model[3].eval()
            except GradModeViolation as err:
                raised.append(err.violation.batch_idx or 0)
    assert raised == [1] and scope.report.count("train_mode") == 1


def test_warn_policy_warns_once_per_kind_stage_and_module_across_runs_of_a_scope() -> None:
    import warnings

    from gradmode_plugin import GradModeWarning

    model = make_model()
    scope = evaluating(model, on_violation="warn")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(2):
            with scope:
                for i, x in enumerate(BATCHES):
                    with scope.batch(i):
                        model[3].train()
                        model(x)
    assert len([w for w in caught if issubclass(w.category, GradModeWarning)]) == 1
    assert scope.report.count("train_mode") == 8


class Spy(Check):
    """A second check on the probes and hooks the built-in ones use: it must hear everything beside them."""

    kind = "spy"
    seen: list[str] = []  # noqa: RUF012 (one list for the test that reads it)

    def start(self) -> None:
        self.scope.saved_tensors.listeners.append(lambda tensor, allowed: Spy.seen.append("saved"))
        self.scope.forward.grad_output_listeners.append(lambda name, tensor: Spy.seen.append(f"output of {name!r}"))

    def boundary_when(self) -> Callable[[], bool]:
        return torch.is_grad_enabled

    def boundary(self, when: str) -> None:
        Spy.seen.append(f"boundary {when}")

    def step_output(self, output: object, what: str, where: str | None) -> None:
        Spy.seen.append(f"step output {what}")


def test_a_second_check_on_the_same_probes_and_hooks_replaces_no_subscriber(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import gradmode_plugin.scope
    from gradmode_plugin.kinds import REGISTRY, Kind

    monkeypatch.setattr(gradmode_plugin.scope, "REGISTRY", (*REGISTRY, Kind.of(Spy)))
    Spy.seen = []
    model = nn.Linear(8, 8)
    ready = threading.Event()
    worker = threading.Thread(target=ready.wait)  # another thread alive: module calls are watched too
    worker.start()
    try:
        # The planted bug: grad mode on around the batch, which every probe and boundary hears.
        scope = evaluating(model, grad_mode="no_grad", on_violation="record")
        with scope, torch.enable_grad(), scope.batch(0):
            out = model(BATCHES[0])
            scope.check_output(out, "the step's output")
    finally:
        ready.set()
        worker.join()
    found = {v.kind: v.detail for v in scope.report.violations}
    assert {"graph_built", "grad_enabled", "output_requires_grad"} <= set(found)  # the built-in checks still hear it
    assert found["graph_built"].startswith("autograd saved a (4, 8) float32 tensor")  # through the saved-tensor probe
    assert "saved" in Spy.seen and "output of ''" in Spy.seen
    assert "boundary at the start of the batch" in Spy.seen and "step output the step's output" in Spy.seen


# -- the caller's grad context, the batch's end, a generator ------------------------------------------------------
@pytest.mark.parametrize("grad_mode", ["auto", "no_grad"])
def test_a_callers_inference_mode_is_never_lowered(grad_mode: str) -> None:
    def run(guard: bool) -> tuple[torch.Tensor, list[bool], EvaluationScope | None]:
        model = make_model()  # in training mode: "auto" picks no_grad, as inside a training loop
        inside: list[bool] = []
        scope = evaluating(model, grad_mode=grad_mode) if guard else None
        with torch.inference_mode():
            total = torch.zeros(2)  # an inference tensor the caller made before the loop
            with scope or contextlib.nullcontext():
                if scope is None:
                    model.eval()
                for i, x in enumerate(BATCHES):
                    with scope.batch(i) if scope else contextlib.nullcontext():
                        inside.append(torch.is_inference_mode_enabled())
                        total += model(x).sum(0)  # in place: allowed only inside inference mode
        return total, inside, scope

    total, inside, scope = run(guard=True)
    plain_total, plain_inside, _ = run(guard=False)
    assert torch.equal(total, plain_total) and inside == plain_inside == [True] * 4
    assert scope is not None and scope.report.total == 0 and scope.mode == "inference"
    assert scope.reason.startswith("inside the caller's torch.inference_mode(): the guard never lowers")
    assert scope.report.stage("evaluation").grad_context == "inference_mode"
    assert "inside the caller's torch.inference_mode()" in scope.report.summary()


def test_a_finding_after_a_batch_has_ended_belongs_to_no_batch() -> None:
    def run(bug: bool) -> tuple[torch.Tensor, EvaluationScope]:
        model = make_model()
        torch.manual_seed(1)
        with evaluating(model, on_violation="record") as scope:
            with scope.batch(1):
                out = model(BATCHES[1])
            out = F.dropout(out, 0.5, training=bug)  # after the batch has ended
            with scope.batch(2):
                out = out + model(BATCHES[2])
            out = F.dropout(out, 0.5, training=bug)  # after the loop
        return out, scope

    _, buggy = run(bug=True)
    assert [(v.kind, v.batch_idx) for v in buggy.report.violations] == [("train_mode", None)]
    assert "outside any batch" in buggy.report.summary()
    out, correct = run(bug=False)
    model = make_model().eval()
    with torch.inference_mode():
        plain = model(BATCHES[1]) + model(BATCHES[2])
    assert correct.report.total == 0 and torch.equal(out, plain)


def _outputs_and_training(suspended: bool) -> tuple[list[torch.Tensor], list[bool], nn.Module, EvaluationScope]:
    """A generator evaluating a model for a consumer that trains another one between items: it yields from inside
    ``evaluating()`` (``suspended``) or after the scope has ended."""
    evaluated, trained = make_model(), nn.Linear(8, 2)
    optimizer = torch.optim.SGD(trained.parameters(), lr=0.1)
    scopes: list[EvaluationScope] = []

    def outputs() -> Any:
        with evaluating(evaluated, grad_mode="no_grad", on_violation="record") as scope:
            made = []
            for i, x in enumerate(BATCHES):
                with scope.batch(i):
                    if suspended:
                        yield evaluated(x)
                    else:
                        made.append(evaluated(x))
        scopes.append(scope)
        yield from made

    grad_on: list[bool] = []
    results = []
    for out in outputs():
        grad_on.append(torch.is_grad_enabled())
        with torch.enable_grad():  # the consumer's training step
            trained(BATCHES[0]).sum().backward()
        optimizer.step()
        results.append(out)
    return results, grad_on, trained, scopes[0]


def test_a_generator_that_yields_inside_evaluating_is_a_blind_spot_and_its_look_alike_is_silent() -> None:
    # The documented blind spot (docs/plain-pytorch.md): suspended at a yield, the scope stays entered, so the
    # consumer's training runs under the guard's no_grad and its graph is reported as the evaluation's.
    outputs, grad_on, _, scope = _outputs_and_training(suspended=True)
    assert grad_on == [False] * 4 and scope.report.count("graph_built") == 4
    # Yielding once the scope has ended: nothing reported, the consumer trains as it would without the guard.
    outputs, grad_on, trained, scope = _outputs_and_training(suspended=False)
    assert grad_on == [True] * 4 and scope.report.total == 0
    evaluated, plain_trained = make_model().eval(), nn.Linear(8, 2)
    optimizer = torch.optim.SGD(plain_trained.parameters(), lr=0.1)
    with torch.no_grad():
        plain = [evaluated(x) for x in BATCHES]
    for _ in plain:
        plain_trained(BATCHES[0]).sum().backward()
        optimizer.step()
    assert all(torch.equal(a, b) for a, b in zip(outputs, plain))
    assert torch.equal(trained.weight, plain_trained.weight) and torch.equal(trained.bias, plain_trained.bias)
