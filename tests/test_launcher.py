"""``gradmode-run`` and its start-up module: every transformers Trainer of a script guarded without a code change, in
the script and in the processes it starts; ``pytest --gradmode`` guards the Trainers a test session builds, in its
process and in the processes its tests start."""

from __future__ import annotations

import json
import os
import sys
import textwrap
from pathlib import Path

import pytest

from gradmode_plugin import launcher
from tests.helpers.process import run_process, this_checkout

#: A script that builds a tiny BERT Trainer and evaluates it; ``bug`` plants model.train() in compute_loss, ``child``
#: runs the same script (with ``bug``) in a child process.
SCRIPT = textwrap.dedent(
    """
    import subprocess, sys
    import torch
    from transformers import BertConfig, BertForSequenceClassification, Trainer, TrainingArguments

    class Data(torch.utils.data.Dataset):
        def __init__(self):
            g = torch.Generator().manual_seed(1)
            self.x, self.y = torch.randint(2, 64, (8, 8), generator=g), torch.randint(0, 2, (8,), generator=g)
        def __len__(self):
            return 8
        def __getitem__(self, i):
            return {"input_ids": self.x[i], "labels": self.y[i]}

    class MyTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
            if "bug" in sys.argv:
                model.train()  # the planted bug
            out = model(**inputs)
            return (out.loss, out) if return_outputs else out.loss

    if "child" in sys.argv:
        sys.exit(subprocess.run([sys.executable, __file__, "bug"]).returncode)
    torch.manual_seed(0)
    config = BertConfig(vocab_size=64, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=37, max_position_embeddings=32)
    args = TrainingArguments(output_dir="out", per_device_eval_batch_size=4, report_to=[], use_cpu=True,
                             disable_tqdm=True)
    trainer = MyTrainer(model=BertForSequenceClassification(config), args=args, eval_dataset=Data())
    print("CALLBACKS", [type(c).__name__ for c in trainer.callback_handler.callbacks])
    print("EVAL_LOSS", repr(trainer.evaluate()["eval_loss"]))
    """
)


def test_the_command_gets_the_guard_and_the_start_up_module_once() -> None:
    env = launcher.environment({"PYTHONPATH": f"/x{os.pathsep}{launcher.BOOTSTRAP_DIR}"})
    assert env["GRADMODE_GUARD"] == "raise"
    assert env["PYTHONPATH"].split(os.pathsep) == [str(launcher.BOOTSTRAP_DIR), "/x"]
    assert launcher.environment({"GRADMODE_GUARD": "record"})["GRADMODE_GUARD"] == "record"
    assert (launcher.BOOTSTRAP_DIR / "sitecustomize.py").is_file()


def test_a_bad_value_is_refused_before_the_command_runs(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GRADMODE_GUARD", "loud")
    assert launcher.main(["python", "-c", "pass"]) == 2
    assert "GRADMODE_GUARD='loud' is not supported" in capsys.readouterr().err
    assert launcher.main([]) == 2


def test_the_import_hook_runs_after_the_module_and_leaves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "hooked_module_h36.py").write_text("VALUE = 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    seen = []
    hook = launcher._AfterImport("hooked_module_h36", lambda module: seen.append(module.VALUE))
    sys.meta_path.insert(0, hook)
    try:
        import hooked_module_h36  # noqa: F401

        assert seen == [1] and hook not in sys.meta_path
        assert type(sys.modules["hooked_module_h36"].__loader__).__name__ == "SourceFileLoader"
    finally:
        hook.remove()
        sys.modules.pop("hooked_module_h36", None)


def test_guarding_transformers_is_undone_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    import transformers.trainer

    from gradmode_plugin.hf.callback import EnvironmentGuard

    before = list(transformers.trainer.DEFAULT_CALLBACKS)
    undo = launcher.guard_transformers()  # transformers.trainer is imported: registered at once
    assert [*before, EnvironmentGuard] == transformers.trainer.DEFAULT_CALLBACKS
    undo()
    assert before == transformers.trainer.DEFAULT_CALLBACKS


def _run(tmp_path: Path, *args: str, launch: bool = True, env: dict[str, str] | None = None) -> tuple[int, str]:
    (tmp_path / "script.py").write_text(SCRIPT)
    command = [sys.executable, "script.py", *args]
    if launch:
        command = [sys.executable, "-m", "gradmode_plugin.launcher", *command]
    proc = run_process(command, cwd=tmp_path, env={**this_checkout(), **(env or {})}, timeout=300)
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.slow
def test_gradmode_run_guards_a_script_and_its_child_processes(tmp_path: Path) -> None:
    code, out = _run(tmp_path, "bug")
    assert code == 1 and "GradModeViolation: [train_mode]" in out and "script.py:18 in compute_loss" in out, out[-3000:]
    assert "'EnvironmentGuard'" in out
    code, out = _run(tmp_path, "child")
    assert code == 1 and "GradModeViolation: [train_mode]" in out, out[-3000:]
    code, plain = _run(tmp_path, launch=False)
    code_guarded, guarded = _run(tmp_path)
    assert code == code_guarded == 0, plain[-2000:] + guarded[-2000:]
    loss = [line for line in plain.splitlines() if line.startswith("EVAL_LOSS")]
    assert loss and loss == [line for line in guarded.splitlines() if line.startswith("EVAL_LOSS")]
    assert "EnvironmentGuard" not in plain


@pytest.mark.slow
def test_a_sitecustomize_the_environment_had_still_runs(tmp_path: Path) -> None:
    own = tmp_path / "own_site"
    own.mkdir()
    (own / "sitecustomize.py").write_text("print('OWN SITECUSTOMIZE')\n")
    code, out = _run(tmp_path, env={"PYTHONPATH": os.pathsep.join([this_checkout()["PYTHONPATH"], str(own)])})
    assert code == 0 and "OWN SITECUSTOMIZE" in out and "EnvironmentGuard" in out, out[-3000:]


TESTS = textwrap.dedent(
    """
    import subprocess, sys

    def test_buggy_here():
        sys.argv.append("bug")
        try:
            exec(open("script.py").read(), {"__file__": "script.py", "__name__": "script"})
        finally:
            sys.argv.remove("bug")

    def test_buggy_in_a_child():
        subprocess.run([sys.executable, "script.py", "bug"], check=True)

    def test_clean():
        exec(open("script.py").read(), {"__file__": "script.py", "__name__": "script"})
    """
)


@pytest.mark.slow
def test_pytest_gradmode_guards_transformers_trainers_here_and_in_child_processes(tmp_path: Path) -> None:
    (tmp_path / "script.py").write_text(SCRIPT)
    (tmp_path / "test_hf_user.py").write_text(TESTS)
    proc = run_process(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--gradmode", "--gradmode-json=found.json"],
        cwd=tmp_path,
        env=this_checkout(),
        timeout=300,
    )
    out = proc.stdout + proc.stderr
    # The child only records (the session collects): its test fails with the child's finding, as the other does.
    assert proc.returncode == 1 and "2 failed, 1 passed" in out, out[-4000:]
    for test in ("test_buggy_here", "test_buggy_in_a_child"):
        assert f"FAILED test_hf_user.py::{test} - gradmode: evaluation in this" in out
    found = json.loads((tmp_path / "found.json").read_text())
    tests = {row["test"] for row in found["findings"]}
    assert tests == {"test_hf_user.py::test_buggy_here", "test_hf_user.py::test_buggy_in_a_child"}, found
    assert found["child_processes"] >= 1
