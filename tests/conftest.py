"""Shared fixtures, and a check after every test that nothing of the guard was left behind anywhere."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader

from gradmode_plugin._state import live_scopes
from tests.helpers.lightning import make_loader, quiet_trainer
from tests.helpers.once import once_per_run
from tests.helpers.packaging import build_wheel, install_in_fresh_venv
from tests.helpers.process import REPO

_FUNCTIONAL = {name: getattr(F, name) for name in dir(F) if not name.startswith("_")}
_TORCH = {name: getattr(torch, name) for name in dir(torch) if "dropout" in name}
_VF_OWN = set(vars(torch._VF))
_TRAIN = nn.Module.train
_CALL = nn.Module.__call__
_THREAD_START = threading.Thread.start
_DISABLE_SAVED_TENSOR_HOOKS = torch.autograd.graph.disable_saved_tensors_hooks
if "PYTEST_XDIST_WORKER" in os.environ:
    # Under pytest-xdist (`-n auto`) every core runs a worker already: one torch thread each, and in the processes
    # the tests start, instead of every worker's torch spreading over all the cores.
    torch.set_num_threads(1)
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist (``-n``), tests are handed to the workers one at a time as each finishes (its default
    hands each a quarter of its share at the start, in collection order: one worker got the slow tests, the
    other the quick ones, and the slow one ran alone at the end)."""
    if getattr(config.option, "numprocesses", None) and getattr(config.option, "maxschedchunk", 0) is None:
        config.option.maxschedchunk = 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Under pytest-xdist, the tests marked ``slow`` (each starts processes; together most of the suite's time) run
    first, in their own order: the short in-process tests then fill the cores at the end, where a long test left
    for last would run alone. Every worker collects and sorts alike, as pytest-xdist requires. In one process the
    files' order stays."""
    if "PYTEST_XDIST_WORKER" in os.environ:
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture
def loader() -> DataLoader:
    return make_loader()


@pytest.fixture
def make_trainer(tmp_path: Any) -> Callable[..., Any]:
    return lambda **kwargs: quiet_trainer(tmp_path, **kwargs)


@pytest.fixture(scope="session")
def gpu_proof_dry_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of ``scripts/gpu_proof.sh --dry-run`` with no CUDA device visible (the CPU fallbacks), run once per
    test run: its ``summary.txt``, ``work/`` (each step's log), ``gpu_proof.tar.gz``, and the script's
    ``returncode`` and ``output.txt``."""

    def make(folder: Path) -> Path:
        env = {**os.environ, "PYTHON": sys.executable, "PYTHONWARNINGS": "ignore", "CUDA_VISIBLE_DEVICES": ""}
        proc = subprocess.run(
            ["bash", str(REPO / "scripts" / "gpu_proof.sh"), "--dry-run", "--out", str(folder)],
            cwd=REPO,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        (folder / "returncode").write_text(str(proc.returncode))
        (folder / "output.txt").write_text(proc.stdout + proc.stderr)
        return folder

    return once_per_run(tmp_path_factory, "gpu_proof_dry_run", make)


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of this repository, built once per run."""
    return once_per_run(tmp_path_factory, "wheel", lambda folder: build_wheel(folder / "dist", folder))


@pytest.fixture(scope="session")
def venv_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a fresh virtual environment with the wheel installed, as a user's pip install would."""
    return once_per_run(tmp_path_factory, "venv", lambda folder: install_in_fresh_venv(wheel, folder))


@pytest.fixture(autouse=True)
def _nothing_left_behind() -> Iterator[None]:
    """Every test must leave grad mode, inference mode, the saved-tensor hook stack, the dispatch-mode stack, torch's
    global module hooks, ``torch.nn.functional``, ``torch``'s and ``torch._VF``'s dropout kernels,
    ``nn.Module.train``/``__call__``, ``threading.Thread.start``, ``torch.autograd.graph.disable_saved_tensors_hooks``
    and the registry of running scopes as it found them."""
    forward_hooks = dict(torch.nn.modules.module._global_forward_hooks)
    yield
    assert torch.is_grad_enabled(), "a test left grad mode disabled"
    assert not torch.is_inference_mode_enabled(), "a test left inference mode enabled"
    assert torch._C._autograd._top_saved_tensors_default_hooks(False) is None, "a saved-tensor hook was left pushed"
    assert dict(torch.nn.modules.module._global_forward_hooks) == forward_hooks, "a global forward hook was left"
    assert torch._C._len_torch_dispatch_stack() == 0, "a dispatch mode was left pushed"
    changed = [name for name, fn in _FUNCTIONAL.items() if getattr(F, name) is not fn]
    assert not changed, f"torch.nn.functional left replaced: {changed}"
    changed = [name for name, fn in _TORCH.items() if getattr(torch, name) is not fn]
    assert not changed and set(vars(torch._VF)) == _VF_OWN, f"torch's dropout kernels left replaced: {changed}"
    assert not live_scopes, "a scope was left registered as running"
    assert nn.Module.train is _TRAIN, "nn.Module.train left replaced"
    assert nn.Module.__call__ is _CALL, "nn.Module.__call__ left replaced"
    assert threading.Thread.start is _THREAD_START, "threading.Thread.start left replaced"
    assert torch.autograd.graph.disable_saved_tensors_hooks is _DISABLE_SAVED_TENSOR_HOOKS, "left replaced"
