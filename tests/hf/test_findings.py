"""Planted evaluation bugs on a tiny BERT (Trainer) and a tiny T5 (Seq2SeqTrainer): each caught at batch 0, with
the stage and the user's line, under evaluate(), predict() and the evaluation inside train() (steps strategy and
eval_on_start)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch

from gradmode_plugin import GradModeViolation, HFGradModeGuard
from tests.helpers.hf import BUGS, data_for, make_trainer, model_for, planted_lines, without_timings

#: How each path reaches evaluation, with the stage its findings name.
PATHS: dict[str, tuple[dict[str, Any], str]] = {
    "evaluate": ({}, "validation"),
    "predict": ({}, "predict"),
    "train_steps": ({"eval_strategy": "steps", "eval_steps": 1, "max_steps": 1}, "validation"),
    "eval_on_start": ({"eval_strategy": "steps", "eval_steps": 5, "max_steps": 1, "eval_on_start": True}, "validation"),
}


def run(trainer: Any, path: str) -> None:
    if path == "evaluate":
        trainer.evaluate()
    elif path == "predict":
        trainer.predict(data_for("t5" if "Seq2Seq" in type(trainer).__name__ else "bert"))
    else:
        trainer.train()


#: Each path with one bug in the quick loop; every other combination is marked slow (a train() costs about 2 s).
CASES = [
    pytest.param(
        arch,
        bug,
        path,
        marks=() if path in ("evaluate", "predict") or bug == "functional_dropout" else pytest.mark.slow,
    )
    for arch in ("bert", "t5")
    for bug in BUGS
    for path in PATHS
]


@pytest.mark.parametrize(("arch", "bug", "path"), CASES)
def test_a_planted_bug_is_caught_at_batch_zero_with_its_line(tmp_path: Path, arch: str, bug: str, path: str) -> None:
    args, stage = PATHS[path]
    trainer = make_trainer(arch, tmp_path, bug, callbacks=[HFGradModeGuard()], **args)
    grad_before = torch.is_grad_enabled()
    with pytest.raises(GradModeViolation) as info:
        run(trainer, path)
    violation = info.value.violation
    assert (violation.kind, violation.stage, violation.batch_idx) == (BUGS[bug], stage, 0), str(info.value)
    assert any(line in str(info.value) for line in planted_lines(bug)), str(info.value)
    assert torch.is_grad_enabled() == grad_before


@pytest.mark.parametrize("arch", ["bert", "t5"])
def test_without_the_guard_the_same_bugs_pass_silently(tmp_path: Path, arch: str) -> None:
    # What the guard is for: transformers itself runs every one of them without a word.
    for bug in BUGS:
        trainer = make_trainer(arch, tmp_path, bug)
        trainer.evaluate()


def test_record_collects_every_batch_and_warns_once_at_the_end(tmp_path: Path) -> None:
    guard = HFGradModeGuard(on_violation="record")
    trainer = make_trainer("bert", tmp_path, "train_in_compute_loss", callbacks=[guard])
    with pytest.warns(Warning, match=r"gradmode: 2 violation\(s\) during validation"):
        trainer.evaluate()
    assert [v.batch_idx for v in guard.report.violations] == [0, 1]
    assert guard.report.stage("validation").batches == 2


def test_a_generating_seq2seq_predict_is_checked(tmp_path: Path) -> None:
    trainer = make_trainer(
        "t5", tmp_path, "functional_dropout", callbacks=[HFGradModeGuard()], predict_with_generate=True
    )
    trainer.args.generation_max_length = 4
    with pytest.raises(GradModeViolation) as info:
        trainer.predict(data_for("t5"))
    assert info.value.violation.batch_idx == 0 and planted_lines("functional_dropout")[1] in str(info.value)


def test_a_module_put_in_training_by_its_flag_at_a_later_batch_is_caught_at_that_batch(tmp_path: Path) -> None:
    # No train() call to hear, no dropout to see: only the modules' flags, read at the end of every batch (the
    # usual batch's end is decided inline: that read must stay in it).
    model = model_for("bert", "")
    calls = []

    def flip_at_the_third_call(module: Any, args: Any, kwargs: Any) -> None:
        calls.append(1)
        if len(calls) == 3:
            module.classifier.training = True  # a flag set by hand, as some code does

    model.register_forward_pre_hook(flip_at_the_third_call, with_kwargs=True)
    trainer = make_trainer("bert", tmp_path, model=model, callbacks=[HFGradModeGuard()], per_device_eval_batch_size=1)
    with pytest.raises(GradModeViolation) as info:
        trainer.evaluate()
    violation = info.value.violation
    assert (violation.kind, violation.module, violation.batch_idx) == ("train_mode", "classifier", 2), str(info.value)
    # The same model without the flip: silent, and evaluate() gives what it gives without the guard.
    plain = make_trainer("bert", tmp_path / "plain", model=model_for("bert", ""), per_device_eval_batch_size=1)
    guarded = make_trainer(
        "bert",
        tmp_path / "guarded",
        model=model_for("bert", ""),
        callbacks=[HFGradModeGuard()],
        per_device_eval_batch_size=1,
    )
    assert without_timings(guarded.evaluate()) == without_timings(plain.evaluate())
