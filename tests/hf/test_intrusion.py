"""Observe, never intrude, in transformers' terms: correct code computes bitwise the same metrics and predictions with
the guard; the model's flags after evaluate()/predict() are what transformers alone leaves; nothing is written onto
the Trainer, its arguments or the model; a checkpoint saved and resumed under the guard is the one made without."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import torch
from safetensors.torch import load_file

from gradmode_plugin import HFGradModeGuard
from tests.helpers.hf import EVALUATING_RUN, assert_same_outcome, data_for, make_trainer, outcome, without_timings


def _state(trainer: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, bool], dict[str, Any]]:
    model = trainer.model
    return (
        dict(vars(trainer)),
        trainer.args.to_dict(),
        {name: m.training for name, m in model.named_modules()},
        {name: dict(vars(m)) for name, m in model.named_modules()},
    )


@pytest.mark.parametrize("arch", ["bert", pytest.param("t5", marks=pytest.mark.slow)])
def test_correct_code_computes_bitwise_the_same(tmp_path: Path, arch: str) -> None:
    plain = outcome(arch, tmp_path / "plain", False, **EVALUATING_RUN)
    guarded = outcome(arch, tmp_path / "guarded", True, **EVALUATING_RUN)
    assert_same_outcome(plain, guarded)
    assert plain["training_after_evaluate"] is False  # what transformers leaves, kept


def test_nothing_is_written_onto_the_trainer_its_arguments_or_the_model(tmp_path: Path) -> None:
    trainer = make_trainer("bert", tmp_path, callbacks=[HFGradModeGuard()])
    plain = make_trainer("bert", tmp_path / "plain")
    for t in (trainer, plain):
        t.evaluate()  # transformers' own first-run attributes (model_preparation_time, ...) are made here
    before = _state(trainer)
    seen_during: list[set[str]] = []

    class Spy(HFGradModeGuard.__mro__[1]):  # a plain TrainerCallback: what a user's callback sees mid-stage
        def on_prediction_step(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            seen_during.append(set(vars(trainer)))

    trainer.add_callback(Spy())
    trainer.evaluate()
    trainer.predict(data_for("bert"))
    after = _state(trainer)
    assert set(after[0]) == set(before[0]) | set() and after[1] == before[1] and after[2] == before[2]
    assert after[3].keys() == before[3].keys()
    for name, attributes in after[3].items():
        assert set(attributes) == set(before[3][name]), name
    assert all(keys == set(before[0]) for keys in seen_during) and seen_during
    assert set(vars(trainer)) == set(vars(plain))


def _checkpoint(out: Path, guard: bool, resume: Path | None = None) -> Path:
    args = {"max_steps": 4, "save_strategy": "steps", "save_steps": 2, "eval_strategy": "steps", "eval_steps": 1}
    trainer = make_trainer("bert", out, callbacks=[HFGradModeGuard()] if guard else None, **args)
    trainer.train(resume_from_checkpoint=str(resume) if resume else None)
    return out


def _files(checkpoint: Path) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for path in sorted(checkpoint.iterdir()):
        if path.suffix == ".safetensors":
            found[path.name] = load_file(path)
        elif path.name == "trainer_state.json":
            state = json.loads(path.read_text())
            state["log_history"] = [without_timings(e) for e in state["log_history"]]
            found[path.name] = state
        elif path.name in ("optimizer.pt", "scheduler.pt"):
            found[path.name] = torch.load(path, weights_only=False)
        else:
            found[path.name] = path.name  # present, content left to transformers (RNG states, arguments)
    return found


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, torch.Tensor):
        return torch.equal(a, b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


@pytest.mark.slow
def test_a_checkpoint_saved_and_resumed_under_the_guard_is_the_one_made_without(tmp_path: Path) -> None:
    plain = _checkpoint(tmp_path / "plain", guard=False)
    guarded = _checkpoint(tmp_path / "guarded", guard=True)
    for step in ("checkpoint-2", "checkpoint-4"):
        assert _same(_files(plain / step), _files(guarded / step)), step
    # Resumed from the step-2 checkpoint, with and without the guard: the same final checkpoint.
    resumed_plain = _checkpoint(tmp_path / "resumed_plain", guard=False, resume=plain / "checkpoint-2")
    resumed_guarded = _checkpoint(tmp_path / "resumed_guarded", guard=True, resume=guarded / "checkpoint-2")
    assert _same(_files(resumed_plain / "checkpoint-4"), _files(resumed_guarded / "checkpoint-4"))
    assert _same(
        _files(resumed_guarded / "checkpoint-4")["model.safetensors"],
        _files(plain / "checkpoint-4")["model.safetensors"],
    )
