"""``scope.iterate(batches)``: each batch inside ``scope.batch(i)``, with the two-line form's findings and state."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
import torch
import torch.nn.functional as F

from gradmode_plugin import GradModeContextError, GradModeViolation, evaluating
from tests.helpers.models import BATCHES, flags, hook_count, make_model


def _progress(batches: Iterable[Any]) -> Iterator[Any]:
    """A progress bar's shape: a generator between the loop and the batches."""
    yield from batches


def test_a_correct_loop_computes_what_it_computes_without_the_guard() -> None:
    model = make_model()
    before = flags(model)
    model.eval()
    with torch.no_grad():
        plain = [model(x) for x in BATCHES]
    model.train()
    with evaluating(model) as scope:
        guarded = [model(x) for x in scope.iterate(BATCHES)]
    assert all(torch.equal(a, b) for a, b in zip(plain, guarded))
    assert scope.report.total == 0 and scope.report.stages["evaluation"].batches == len(BATCHES)
    assert flags(model) == before and hook_count(model) == 0


def test_a_bug_is_raised_at_its_batch_naming_the_line_of_the_loop_body() -> None:
    model = make_model()
    before = flags(model)
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        for x in _progress(scope.iterate(BATCHES, start=10, dataloader_idx=1)):
            out = model(x)
            if scope.batch_idx == 12:
                out = F.dropout(out, 0.5, training=True)  # noqa: GM102 (the planted bug)
    violation = info.value.violation
    assert (violation.kind, violation.batch_idx, violation.dataloader_idx) == ("train_mode", 12, 1)
    assert "test_scope_iterate.py" in (violation.where or "") and "the planted bug" in (violation.where or "")
    # Raised where the loop asked for the next batch: the traceback's first frames are the test's, then the guard's.
    frames = [tb.tb_frame.f_code.co_name for tb in _walk(info.value.__traceback__)]
    assert frames[0] == "test_a_bug_is_raised_at_its_batch_naming_the_line_of_the_loop_body"
    assert flags(model) == before and hook_count(model) == 0


def _deep(levels: int, x: torch.Tensor) -> torch.Tensor:
    """The bug several of the user's frames below the loop, deeper than ``where`` shows on its own."""
    return F.dropout(x, 0.5, training=True) if levels == 0 else _deep(levels - 1, x)  # noqa: GM102 (the planted bug)


def test_the_line_of_the_loop_is_named_however_deep_the_bug_is() -> None:
    model = make_model()
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        for x in _progress(scope.iterate(BATCHES)):
            _deep(4, model(x))  # the loop's line
    where = info.value.violation.where or ""
    assert where.endswith("_deep(4, model(x))  # the loop's line"), where


def test_the_same_bug_in_the_two_line_form_reads_the_same() -> None:
    def step(model: torch.nn.Module, i: int, x: torch.Tensor) -> None:
        if i == 1:
            torch.set_grad_enabled(True)  # noqa: GM401 (the planted bug: a leak past the batch)
        model(x)

    def run(iterate: bool) -> Any:
        model = make_model()
        with pytest.raises(GradModeViolation) as info, evaluating(model, grad_mode="no_grad") as scope:
            if iterate:
                for x in scope.iterate(BATCHES):
                    step(model, scope.batch_idx, x)
            else:
                for i, x in enumerate(BATCHES):
                    with scope.batch(i):
                        step(model, i, x)
        return info.value.violation

    with_iterate, two_lines = run(True), run(False)
    assert (with_iterate.kind, with_iterate.batch_idx) == (two_lines.kind, two_lines.batch_idx) == ("graph_built", 1)
    assert with_iterate.detail == two_lines.detail
    assert "step(model, scope.batch_idx, x)" in (with_iterate.where or "")


def test_breaking_out_ends_the_batch_and_raises_its_finding_when_the_scope_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unraisable: list[Any] = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    model = make_model()
    before = flags(model)
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        for x in scope.iterate(BATCHES):
            if scope.batch_idx == 1:
                model.train()  # the planted bug, in the batch the loop breaks out of
                break
            model(x)
        assert not torch.is_grad_enabled()  # the loop ended; the scope goes on
        ended = scope.batches_begun
    assert (info.value.violation.kind, info.value.violation.batch_idx) == ("train_mode", 1)
    assert ended == 2 and unraisable == []
    assert flags(model) == before and hook_count(model) == 0


def test_breaking_out_of_a_correct_loop_is_silent() -> None:
    model = make_model()
    with evaluating(model) as scope:
        for x in scope.iterate(BATCHES):
            model(x)
            break
    assert scope.report.total == 0 and scope.report.stages["evaluation"].batches == 1


@pytest.mark.parametrize("at", [0, 2])
def test_an_exception_in_the_body_goes_on_unchanged_and_restores_the_state(at: int) -> None:
    model = make_model()
    before = flags(model)
    error = ValueError("the user's own error")
    with torch.no_grad():  # an outer context of the user's, restored exactly
        with pytest.raises(ValueError) as info, evaluating(model, on_violation="record") as scope:
            for x in scope.iterate(BATCHES):
                model(x)
                if scope.batch_idx == at:
                    model.train()  # a finding in the batch, then the user's error
                    raise error
        assert not torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    assert info.value is error
    assert [(v.kind, v.batch_idx) for v in scope.report.violations] == [("train_mode", at)]
    assert flags(model) == before and hook_count(model) == 0


def test_a_generator_kept_past_its_loop_is_closed_when_the_scope_ends() -> None:
    model = make_model()
    before = flags(model)
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope:
        batches = scope.iterate(BATCHES)  # held: the loop's break does not close it
        for _ in batches:
            model.train()  # the batch ends with the scope: found by the stage's end, outside any batch
            break
    assert (info.value.violation.kind, info.value.violation.batch_idx) == ("train_mode", None)
    assert flags(model) == before and hook_count(model) == 0
    with pytest.raises(StopIteration):
        next(batches)  # closed by the scope


def test_iterate_runs_only_inside_its_scope() -> None:
    scope = evaluating(make_model())
    with pytest.raises(RuntimeError, match="inside its `with evaluating"):
        scope.iterate(BATCHES)
    with scope:
        batches = scope.iterate(BATCHES)
    with pytest.raises(RuntimeError, match="resumed after"):
        next(batches)


def test_an_exception_thrown_in_is_handled_as_with_scope_batch_handles_it() -> None:
    model = make_model()
    model.eval()  # auto: inference mode, the guard's choice
    error = RuntimeError("Inference tensors cannot be saved for backward.")
    with evaluating(model) as scope:
        batches = scope.iterate(BATCHES)
        next(batches)
        with pytest.raises(GradModeContextError, match="the guard chose") as info:
            batches.throw(error)
    assert info.value.__cause__ is error
    with evaluating(model) as scope, pytest.raises(GradModeContextError, match="the guard chose"), scope.batch(0):
        raise error


def _walk(tb: Any) -> Iterator[Any]:
    while tb is not None:
        yield tb
        tb = tb.tb_next
