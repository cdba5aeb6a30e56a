"""HFGradModeGuard's attachment: the process-wide patches live exactly as long as a guard, an unguarded Trainer runs
as it would, one guard runs per Trainer, a loop the guard cannot see is said, and a transformers that changed fails
loudly."""

from __future__ import annotations

import gc
import logging
from pathlib import Path
from typing import Any

import pytest
import torch
import transformers.trainer
from transformers import Trainer

from gradmode_plugin import GradModeViolation, HFGradModeGuard
from gradmode_plugin.hf import _internals as internals
from gradmode_plugin.hf.callback import EnvironmentGuard
from tests.helpers.hf import make_trainer, without_timings


def test_the_patches_live_exactly_as_long_as_a_guard(tmp_path: Path) -> None:
    gc.collect()
    assert not internals.installed()
    loop, find = Trainer.evaluation_loop, transformers.trainer.find_batch_size
    guard = HFGradModeGuard()
    assert Trainer.evaluation_loop is not loop and transformers.trainer.find_batch_size is not find
    second = HFGradModeGuard()
    del guard
    gc.collect()
    assert internals.installed()  # the second guard still needs them
    del second
    gc.collect()
    assert Trainer.evaluation_loop is loop and transformers.trainer.find_batch_size is find


def test_a_trainer_without_a_guard_runs_unguarded_beside_a_guarded_one(tmp_path: Path) -> None:
    guard = HFGradModeGuard()
    guarded = make_trainer("bert", tmp_path / "a", callbacks=[guard])
    plain = make_trainer("bert", tmp_path / "b", "train_in_compute_loss")
    plain.evaluate()  # its bug is not this guard's business
    guarded.evaluate()
    assert guard.report.total == 0 and guard.report.stage("validation").batches == 2


def test_the_users_guard_runs_and_the_environments_stands_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GRADMODE_GUARD", "record")
    environment = EnvironmentGuard()
    own = HFGradModeGuard(on_violation="record")
    trainer = make_trainer("bert", tmp_path, "train_in_compute_loss", callbacks=[environment, own])
    with pytest.warns(Warning, match="violation"):
        trainer.evaluate()
    assert own.report.total == 2 and environment.report.total == 0


def test_an_environment_guard_made_while_the_variable_is_off_guards_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GRADMODE_GUARD", raising=False)
    inert = EnvironmentGuard()
    make_trainer("bert", tmp_path, "train_in_compute_loss", callbacks=[inert]).evaluate()
    assert inert.report.stages == {}


def test_an_evaluation_loop_the_guard_cannot_see_is_said(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    class OwnLoop(Trainer):
        def evaluation_loop(self, dataloader: Any, description: str, *args: Any, **kwargs: Any) -> Any:
            return Trainer.evaluation_loop.__wrapped__(self, dataloader, description, *args, **kwargs)

    trainer = make_trainer("bert", tmp_path, callbacks=[HFGradModeGuard()])
    own = OwnLoop(
        model=trainer.model, args=trainer.args, eval_dataset=trainer.eval_dataset, callbacks=[HFGradModeGuard()]
    )
    with caplog.at_level(logging.WARNING, logger="gradmode_plugin"):
        own.evaluate()
    assert "ended without running transformers' Trainer.evaluation_loop" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="gradmode_plugin"):
        trainer.evaluate()
    assert "ended without" not in caplog.text


def test_a_transformers_that_changed_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(internals, "_LOOP_FRAGMENTS", ("self.prediction_step_v2(",))
    internals.require_support.cache_clear()
    try:
        with pytest.raises(internals.UnsupportedTransformersError, match=r"transformers/trainer.py.*Nothing was"):
            HFGradModeGuard()
    finally:
        internals.require_support.cache_clear()


def test_after_a_violation_the_state_is_as_before(tmp_path: Path) -> None:
    trainer = make_trainer("bert", tmp_path, "enable_grad", callbacks=[HFGradModeGuard()])
    trainer.model.train()
    flags = {name: m.training for name, m in trainer.model.named_modules()}
    with pytest.raises(GradModeViolation):
        trainer.evaluate()
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    assert {name: m.training for name, m in trainer.model.named_modules()} == flags


def test_inference_mode_asked_for_runs_correct_code_to_the_same_metrics(tmp_path: Path) -> None:
    plain = without_timings(make_trainer("bert", tmp_path / "a").evaluate())
    guard = HFGradModeGuard(grad_mode="inference")
    assert without_timings(make_trainer("bert", tmp_path / "b", callbacks=[guard]).evaluate()) == plain
    assert guard.report.stage("validation").batches == 2 and guard.report.total == 0


def test_a_step_output_that_requires_grad_is_found(tmp_path: Path) -> None:
    class KeepsGrad(Trainer):
        def prediction_step(self, model: Any, inputs: Any, prediction_loss_only: bool, ignore_keys: Any = None) -> Any:
            loss, logits, labels = super().prediction_step(model, inputs, prediction_loss_only, ignore_keys)
            return loss, logits.requires_grad_(), labels  # the output keeps asking for gradients

    base = make_trainer("bert", tmp_path)
    trainer = KeepsGrad(model=base.model, args=base.args, eval_dataset=base.eval_dataset, callbacks=[HFGradModeGuard()])
    trainer.compute_metrics = lambda prediction: {}
    with pytest.raises(GradModeViolation) as info:
        trainer.evaluate()
    violation = info.value.violation
    assert (violation.kind, violation.batch_idx) == ("output_requires_grad", 0)
    assert "test_callback.py" in (violation.where or ""), str(info.value)


def test_an_error_in_the_users_step_leaves_nothing_of_the_guard_behind(tmp_path: Path) -> None:
    from torch.utils._python_dispatch import _get_current_dispatch_mode

    class Fails(Trainer):
        def prediction_step(self, model: Any, inputs: Any, prediction_loss_only: bool, ignore_keys: Any = None) -> Any:
            raise KeyError("the user's own error")

    base = make_trainer("bert", tmp_path)
    trainer = Fails(model=base.model, args=base.args, eval_dataset=base.eval_dataset, callbacks=[HFGradModeGuard()])
    with pytest.raises(KeyError, match="the user's own error"):
        trainer.evaluate()
    assert _get_current_dispatch_mode() is None  # the first batch's operator audit was left
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()


def test_allowed_modules_train_during_evaluation_and_are_not_reported(tmp_path: Path) -> None:
    seen: list[bool] = []
    guard = HFGradModeGuard(allow_train=("bert.embeddings.dropout",))

    class Spy(HFGradModeGuard.__mro__[1]):  # a plain TrainerCallback
        def on_prediction_step(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            seen.append(kwargs["model"].bert.embeddings.dropout.training)

    make_trainer("bert", tmp_path, callbacks=[guard, Spy()]).evaluate()
    assert seen == [True, True] and guard.report.total == 0


def test_the_traceback_ends_at_one_frame_of_the_guard(tmp_path: Path) -> None:
    for bug, last_batch in (("train_in_compute_loss", False), ("enable_grad", True)):
        trainer = make_trainer("bert", tmp_path, bug, callbacks=[HFGradModeGuard()], per_device_eval_batch_size=8)
        with pytest.raises(GradModeViolation) as info:
            trainer.evaluate()  # one batch: the finding is raised when the loop ends, or at the batch's first check
        files = [str(entry.path) for entry in info.traceback]
        assert [f for f in files if "gradmode_plugin" in f] == [files[-1]], (bug, last_batch, files)
