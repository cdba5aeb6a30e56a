"""Helpers shared by the Hydra tests: paths, a child-process runner, shrinking overrides."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CONFIG_DIR = REPO / "configs"
TRAIN_SCRIPT = REPO / "scripts" / "train.py"

#: Small images in small batches: one thread is as fast as several on an idle machine and many times faster on a
#: busy one, where threads spin-wait on each other.
TORCH_THREADS = 1

#: Overrides that shrink a command-line run to a few seconds (the no-argument test runs without them).
SMALL = (
    "data.train_size=32",
    "data.val_size=16",
    "data.test_size=16",
    "data.predict_size=16",
    "data.batch_size=8",
    "trainer.max_epochs=1",
)


def clean_env() -> dict[str, str]:
    """The environment for child processes: Hydra's short error report (what users see), unbuffered output."""
    env = dict(os.environ)
    env.pop("HYDRA_FULL_ERROR", None)
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("OMP_NUM_THREADS", str(TORCH_THREADS))
    return env


def run_process(args: Sequence[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run a command, capturing text output; a timeout fails the test with what the command printed."""
    try:
        return subprocess.run(
            list(args), cwd=cwd, env=clean_env(), capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as err:
        pytest.fail(f"{args} did not finish in {timeout}s; output so far:\n{err.stdout}\n{err.stderr}")


def run_dirs(root: Path) -> list[Path]:
    """The run directories below ``root`` (those holding a composed config)."""
    return sorted(p.parent.parent for p in root.rglob(".hydra/config.yaml"))
