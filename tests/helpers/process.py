"""Child processes for tests: the environment they get, and a runner that fails the test on a timeout."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

#: Small images in small batches: one thread is as fast as several on an idle machine and many times faster on a
#: busy one, where threads spin-wait on each other.
TORCH_THREADS = 1


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for child processes: Hydra's short error report (what users see), unbuffered output,
    then ``extra``."""
    env = dict(os.environ)
    env.pop("HYDRA_FULL_ERROR", None)
    env["PYTHONUNBUFFERED"] = "1"
    env.setdefault("OMP_NUM_THREADS", str(TORCH_THREADS))
    env.update(extra or {})
    return env


def run_process(
    args: Sequence[str], cwd: Path, timeout: float = 300, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run a command, capturing text output; a timeout fails the test with what the command printed."""
    try:
        return subprocess.run(
            list(args), cwd=cwd, env=clean_env(env), capture_output=True, text=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired as err:
        pytest.fail(f"{args} did not finish in {timeout}s; output so far:\n{err.stdout}\n{err.stderr}")


def this_checkout() -> dict[str, str]:
    """Environment variables that make a child process import this checkout's ``gradmode_plugin``, so the entry
    points (Lightning's callback factories, the pytest plugin) resolve to it whatever is installed."""
    return {"PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
