"""What the guard says, read as a user reads it: a misspelt argument, a clean run, and a PyTorch error inside a
guarded step whose cause the guard knows."""

from __future__ import annotations

import inspect
import logging
import os
import sys
import traceback
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation, evaluating
from tests.helpers.lightning import ToyModule, make_loader
from tests.helpers.process import run_process, this_checkout

THIS_FILE = __file__


def test_a_misspelt_argument_names_the_closest_one() -> None:
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'grad_mod'; did you mean 'grad_mode'\?"):
        GradModeGuard(grad_mod="inference")  # type: ignore[call-arg]
    with pytest.raises(TypeError) as info:
        GradModeGuard(zzz=1)  # type: ignore[call-arg]
    assert "did you mean" not in str(info.value)
    assert "It takes: grad_mode, on_violation, allow_train, check_params, log_metrics" in str(info.value)
    assert GradModeGuard(grad_mode="no_grad").grad_mode == "no_grad"  # a correct call is untouched
    # The class's signature stays its __init__'s: what LightningCLI (jsonargparse) reads its arguments from.
    assert list(inspect.signature(GradModeGuard).parameters) == [
        "grad_mode",
        "on_violation",
        "allow_train",
        "check_params",
        "log_metrics",
    ]


def test_a_clean_run_says_what_it_checked(make_trainer: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="gradmode_plugin")
    guard = GradModeGuard()
    trainer = make_trainer(callbacks=[guard])
    trainer.validate(ToyModule(), make_loader())
    trainer.test(ToyModule(), make_loader(n=16))
    lines = [r.getMessage() for r in caplog.records if "checked" in r.getMessage()]
    assert lines == [
        "gradmode: validate checked validation 4 batch(es): 0 violation(s)",
        "gradmode: test checked test 2 batch(es): 0 violation(s)",
    ]


class FetchesItsBatches(ToyModule):
    """A validation step that takes ``dataloader_iter`` and consumes two batches a call; ``bug``: the third batch
    validated under enable_grad."""

    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        self.bug = bug
        self.losses: list[torch.Tensor] = []

    def validation_step(self, dataloader_iter: Any) -> None:  # type: ignore[override]
        for _ in range(2):
            (x, y), _, _ = next(dataloader_iter)
            with torch.set_grad_enabled(self.bug and len(self.losses) == 2):
                self.losses.append(nn.functional.cross_entropy(self(x), y))


def _checked_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if " checked " in r.getMessage()]


def test_a_step_that_fetches_its_batches_counts_them_and_an_empty_stage_says_0(
    make_trainer: Any, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gradmode_plugin")

    def validate(guard: GradModeGuard | None, model: FetchesItsBatches, **kwargs: Any) -> list[torch.Tensor]:
        make_trainer(callbacks=[guard] if guard else [], **kwargs).validate(model, make_loader())
        return model.losses

    torch.manual_seed(0)
    guarded = validate(GradModeGuard(), FetchesItsBatches())
    torch.manual_seed(0)
    assert torch.equal(torch.stack(guarded), torch.stack(validate(None, FetchesItsBatches())))
    assert _checked_lines(caplog) == [
        "gradmode: validate checked validation 4 batch(es) in 2 step call(s): 0 violation(s)"
    ]
    guard = GradModeGuard(on_violation="record")
    validate(guard, FetchesItsBatches(bug=True), inference_mode=False)  # the third batch, in the second call
    assert [v.kind for v in guard.report.violations] == ["graph_built"]
    assert "validation: 1 run(s), 4 batch(es) in 2 step call(s)" in guard.report.summary()

    caplog.clear()
    trainer = make_trainer(callbacks=[GradModeGuard()], limit_val_batches=0)
    trainer.validate(ToyModule(), make_loader())
    trainer.fit(ToyModule(), make_loader(), make_loader())
    assert _checked_lines(caplog) == [
        "gradmode: validate checked validation 0 batch(es): 0 violation(s)",
        "gradmode: fit checked validation 0 batch(es): 0 violation(s)",
    ]


#: A user's plain script, logging left as Python starts it: fit, then validate, with the guard in the callbacks or
#: from ``GRADMODE_GUARD``.
PLAIN_SCRIPT = """
import sys, importlib
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
pl = importlib.import_module(sys.argv[1])

class Model(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Dropout(), nn.Linear(4, 2))
    def training_step(self, batch, batch_idx):
        return nn.functional.cross_entropy(self.net(batch[0]), batch[1])
    def validation_step(self, batch, batch_idx):
        self.log("val_loss", nn.functional.cross_entropy(self.net(batch[0]), batch[1]))
    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)

loader = DataLoader(TensorDataset(torch.randn(16, 4), torch.randint(0, 2, (16,))), batch_size=4)
callbacks = [] if sys.argv[2] == "environment" else [importlib.import_module("gradmode_plugin").GradModeGuard()]
trainer = pl.Trainer(callbacks=callbacks, max_epochs=1, limit_train_batches=2, limit_val_batches=2, logger=False,
                     enable_checkpointing=False, enable_progress_bar=False, enable_model_summary=False)
model = Model()
trainer.fit(model, loader, loader)
trainer.validate(model, loader)
"""


@pytest.mark.slow  # a child process
@pytest.mark.parametrize(
    ("namespace", "way"), [("lightning.pytorch", "callback"), ("pytorch_lightning", "environment")]
)
def test_a_clean_run_says_so_where_lightnings_own_lines_show(tmp_path: Any, namespace: str, way: str) -> None:
    """Logging left as Python starts it (no handler configured): the guard's line for each stage shows once, on
    the stream Lightning's own rank-zero INFO lines show on."""
    env = {**this_checkout(), "GRADMODE_GUARD": "raise" if way == "environment" else "0"}
    proc = run_process([sys.executable, "-c", PLAIN_SCRIPT, namespace, way], cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "GPU available:" in proc.stderr and "GPU available:" not in proc.stdout, proc.stderr
    lines = [line for line in (proc.stdout + proc.stderr).splitlines() if line.startswith("gradmode:")]
    assert lines == [
        "gradmode: fit checked sanity_check 2 batch(es), validation 2 batch(es): 0 violation(s)",
        "gradmode: validate checked validation 2 batch(es): 0 violation(s)",
    ], proc.stdout + proc.stderr
    assert all(line in proc.stderr.splitlines() for line in lines)


#: A clean plain-PyTorch evaluation with logging as Python starts it, a marker on both streams, then the same after
#: doing what the docstring of ``evaluating`` says to see what it checked.
PLAIN_EVALUATION = """
import logging, sys
import torch
from torch import nn
from gradmode_plugin import evaluating
model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4), nn.Dropout())
for asked in (False, True):
    if asked:
        print("ASKED", flush=True)
        print("ASKED", file=sys.stderr, flush=True)
        logging.basicConfig(level=logging.INFO)
    model.train()
    with evaluating(model) as scope:
        for i in range(2):
            with scope.batch(i):
                model(torch.randn(3, 4))
    if asked:
        print(scope.report.summary())
"""


@pytest.mark.slow  # a child process
def test_evaluating_prints_nothing_unless_asked_as_its_docs_say(tmp_path: Any) -> None:
    assert "logging.basicConfig(level=logging.INFO)" in (evaluating.__doc__ or "")
    assert "scope.report.summary()" in (evaluating.__doc__ or "")
    proc = run_process([sys.executable, "-c", PLAIN_EVALUATION], cwd=tmp_path, env=this_checkout())
    assert proc.returncode == 0, proc.stderr
    quiet_out, asked_out = proc.stdout.split("ASKED\n")
    quiet_err, asked_err = proc.stderr.split("ASKED\n")
    assert quiet_out == quiet_err == "", quiet_out + quiet_err
    assert "INFO:gradmode_plugin:gradmode: evaluation runs under torch.no_grad" in asked_err
    assert asked_out.startswith("evaluation: 1 run(s), 2 batch(es) under no_grad")
    assert "violations: 0" in asked_out


class Saliency(ToyModule):
    """Saliency written with enable_grad, which does not leave the inference mode Lightning's validate runs under."""

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        with torch.enable_grad():  # noqa: GM301 (the bug this test plants)
            x = x.requires_grad_()
            loss = nn.functional.cross_entropy(self(x), y)
            (grad,) = torch.autograd.grad(loss, x)  # PyTorch: element 0 of tensors does not require grad
        self.log("saliency", grad.abs().mean())


def test_enable_grad_under_inference_mode_gets_the_guards_explanation(make_trainer: Any) -> None:
    with pytest.raises(RuntimeError, match="does not require grad") as info:
        make_trainer(callbacks=[GradModeGuard()]).validate(Saliency(), make_loader())
    if sys.version_info >= (3, 11):
        notes = "\n".join(getattr(info.value, "__notes__", []))
        assert "torch.enable_grad() records nothing" in notes
        assert "allow_grad('reason'), torch.inference_mode(False)" in notes and "inference_mode=False" in notes
    # without the guard the same error, without the note
    with pytest.raises(RuntimeError, match="does not require grad") as plain:
        make_trainer().validate(Saliency(), make_loader())
    assert not getattr(plain.value, "__notes__", None)


class Pooled(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        pooled = x.mean(0, keepdim=True).expand_as(x)
        return self.fc(nn.functional.dropout(pooled, 0.2))  # the call as written  # noqa: GM101


def test_functional_dropout_says_the_call_as_written_and_its_own_fix() -> None:
    model = Pooled()
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope, scope.batch(0):
        model(torch.randn(4, 8))
    v = info.value.violation
    assert v.detail.startswith("F.dropout(p=0.2, training left at its default, True) ran during evaluation")
    assert "return self.fc(nn.functional.dropout(pooled, 0.2))  # the call as written" in (v.where or "")
    assert v.hint.startswith("functional dropout trains whenever its training argument is True")
    assert ".train()" not in v.hint  # one fix, for this cause
    text = str(info.value)
    assert text.count("\n  fix: ") == 1, text


class EnablesGrad(ToyModule):
    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        with torch.enable_grad():  # "for the gradient-norm metric"  # noqa: GM301
            logits = self(x)
        self.log("val_loss", nn.functional.cross_entropy(logits, y))


def test_a_graph_finding_names_the_with_block_that_enabled_grad(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard(grad_mode="no_grad")]).validate(EnablesGrad(), make_loader())
    v = info.value.violation
    assert v.kind == "graph_built"
    block = 'with torch.enable_grad():  # "for the gradient-norm metric"  # noqa: GM301'
    assert f"grad mode was turned on by {block} ({THIS_FILE}:" in v.detail
    assert "in validation_step)" in v.detail and "logits = self(x)" in (v.where or "")
    assert v.hint.startswith("remove that with block from evaluation code") and "worker thread" not in v.hint


def test_the_traceback_ends_at_one_frame_of_the_guards(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard(grad_mode="no_grad")]).validate(EnablesGrad(), make_loader())
    # Its last frame is the guard's step touchpoint; the one before it is Lightning's call of the step.
    assert guard_frames_at_the_end(info.value) == 1
    model = Pooled()
    with pytest.raises(GradModeViolation) as plain, evaluating(model) as scope, scope.batch(0):
        model(torch.randn(4, 8))
    assert guard_frames_at_the_end(plain.value) == 1  # the batch context's exit, after the user's `with` line


def guard_frames_at_the_end(error: BaseException) -> int:
    """How many frames of the guard's end the traceback (the innermost ones, where a reader looks first)."""
    frames = traceback.extract_tb(error.__traceback__)
    count = 0
    for frame in reversed(frames):
        if f"{os.sep}gradmode_plugin{os.sep}" not in frame.filename:
            break
        count += 1
    return count
