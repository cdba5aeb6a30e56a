"""Drop-in use from a regular install of the wheel in a fresh virtual environment: a plain Trainer guarded by
``GRADMODE_GUARD``, ``pytest --gradmode``, and the core without Lightning."""

from __future__ import annotations

import textwrap
import zipfile
from pathlib import Path

import pytest

from tests.helpers.process import run_process

pytestmark = pytest.mark.slow

# A user's script: a plain Trainer, no callbacks, a planted bug on request (argv[1]).
SCRIPT = textwrap.dedent(
    """
    import sys

    import torch
    from lightning.pytorch import LightningModule, Trainer
    from torch.utils.data import DataLoader, TensorDataset


    class Model(LightningModule):
        def __init__(self, bug):
            super().__init__()
            self.bug = bug
            self.net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8), torch.nn.Linear(8, 2))

        def training_step(self, batch, batch_idx):
            return self.net(batch[0]).pow(2).mean()

        def validation_step(self, batch, batch_idx):
            if self.bug == "train":
                self.net[1].train()  # a submodule switched to training mode
            with torch.set_grad_enabled(self.bug == "grad"):  # torch.enable_grad() in validation during fit
                self.log("val", self.net(batch[0]).pow(2).mean().detach())

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.1)


    callbacks = []
    if len(sys.argv) > 2:
        from gradmode_plugin import GradModeGuard

        callbacks.append(GradModeGuard(on_violation=sys.argv[2]))
    data = DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4)
    trainer = Trainer(
        max_epochs=1, logger=False, enable_progress_bar=False, enable_model_summary=False, callbacks=callbacks
    )
    print("GUARDS", sum(type(c).__name__ == "GradModeGuard" for c in trainer.callbacks))
    trainer.fit(Model(sys.argv[1]), data, data)
    print("FINISHED")
    """
)


def _script(venv_python: Path, tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> tuple[int, str]:
    (tmp_path / "train_plain.py").write_text(SCRIPT)
    proc = run_process([str(venv_python), "train_plain.py", *args], cwd=tmp_path, timeout=240, env=env)
    return proc.returncode, proc.stdout + proc.stderr


def test_the_wheel_registers_the_entry_points(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    text = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith(".dist-info/entry_points.txt"))).decode()
    assert "[lightning.pytorch.callbacks_factory]" in text and "[pytorch_lightning.callbacks_factory]" in text
    assert "gradmode = gradmode_plugin.pytest_plugin" in text
    requires = [line for line in metadata.splitlines() if line.startswith("Requires-Dist:")]
    assert [r for r in requires if "extra ==" not in r] == ["Requires-Dist: torch>=2.1"], "torch is the only need"
    assert any("lightning" in r and 'extra == "lightning"' in r for r in requires)


@pytest.mark.parametrize(("bug", "kind"), [("train", "train_mode"), ("grad", "graph_built")])
def test_gradmode_guard_guards_a_plain_trainer(venv_python: Path, tmp_path: Path, bug: str, kind: str) -> None:
    code, out = _script(venv_python, tmp_path, bug, env={"GRADMODE_GUARD": "raise"})
    assert code != 0 and "GradModeViolation" in out and f"[{kind}]" in out, out[-3000:]
    assert "GUARDS 1" in out and "FINISHED" not in out
    code, out = _script(venv_python, tmp_path, bug)
    assert code == 0 and "GUARDS 0" in out and "FINISHED" in out, out[-3000:]


def test_a_guard_in_the_callbacks_is_the_only_one(venv_python: Path, tmp_path: Path) -> None:
    code, out = _script(venv_python, tmp_path, "train", "record", env={"GRADMODE_GUARD": "raise"})
    assert code == 0 and "GUARDS 1" in out and "FINISHED" in out, out[-3000:]
    assert "violations during fit (on_violation='record')" in out, "the user's recording guard reported at the end"


TESTS = textwrap.dedent(
    """
    import gc

    import torch
    from lightning.pytorch import LightningModule, Trainer
    from torch.utils.data import DataLoader, TensorDataset


    class Model(LightningModule):
        def __init__(self, bug):
            super().__init__()
            self.bug = bug
            self.net = torch.nn.Linear(4, 2)

        def validation_step(self, batch, batch_idx):
            with torch.set_grad_enabled(self.bug):
                self.net(batch[0])


    def validate(bug):
        data = DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=4)
        trainer = Trainer(logger=False, enable_progress_bar=False, enable_model_summary=False, inference_mode=False)
        trainer.validate(Model(bug), data)
        del trainer
        gc.collect()  # the Trainer and its guard are gone before the test ends: the finding must not be


    def test_buggy():
        validate(True)


    def test_clean():
        validate(False)


    def test_plain_loop(gradmode_evaluating):
        model = torch.nn.Linear(4, 2)
        with gradmode_evaluating(model) as scope, scope.batch(0):
            model(torch.randn(2, 4))
    """
)


def _pytest(venv_python: Path, tmp_path: Path, *args: str) -> tuple[int, str]:
    (tmp_path / "test_models.py").write_text(TESTS)
    proc = run_process(
        [str(venv_python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *args], cwd=tmp_path, timeout=240
    )
    return proc.returncode, proc.stdout + proc.stderr


def test_pytest_flag_fails_exactly_the_buggy_test(venv_python: Path, tmp_path: Path) -> None:
    code, out = _pytest(venv_python, tmp_path, "--gradmode", "test_models.py")
    assert code == 1 and "1 failed, 2 passed" in out, out[-3000:]
    assert "FAILED test_models.py::test_buggy - gradmode: evaluation in this test violated" in out
    assert "[graph_built]" in out and "gradmode (raise): 3 guard(s)" in out  # two Trainers and the fixture

    code, out = _pytest(venv_python, tmp_path)
    assert code == 0 and "3 passed" in out and "gradmode (" not in out, out[-3000:]


def test_pytest_record_ends_with_a_table(venv_python: Path, tmp_path: Path) -> None:
    code, out = _pytest(venv_python, tmp_path, "--gradmode=record", "--gradmode-json=found.json")
    assert code == 0 and "3 passed" in out, out[-3000:]
    assert "test_models.py::test_buggy | validation | graph_built | " in out
    assert '"kind": "graph_built"' in (tmp_path / "found.json").read_text()


BLOCKED = textwrap.dedent(
    """
    import importlib.abc
    import sys


    class NoLightning(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("lightning", "pytorch_lightning", "lightning_fabric"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None


    sys.meta_path.insert(0, NoLightning())

    import torch
    import gradmode_plugin
    from gradmode_plugin import allow_grad, evaluating

    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout())
    with evaluating(model) as scope:
        for i in range(2):
            with scope.batch(i):
                model(torch.randn(2, 4))
    print("EVALUATED", scope.report.total, scope.report.stage("evaluation").batches)
    print("ALL", "GradModeGuard" in gradmode_plugin.__all__)
    try:
        from gradmode_plugin import GradModeGuard
    except ImportError as err:
        print("IMPORT ERROR", err)
    """
)


def test_without_lightning_the_core_runs_and_the_callback_names_the_extra(venv_python: Path, tmp_path: Path) -> None:
    (tmp_path / "no_lightning.py").write_text(BLOCKED)
    proc = run_process([str(venv_python), "no_lightning.py"], cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "EVALUATED 0 2" in proc.stdout and "ALL False" in proc.stdout
    assert "IMPORT ERROR GradModeGuard needs PyTorch Lightning: pip install 'gradmode-plugin[lightning]'" in proc.stdout
