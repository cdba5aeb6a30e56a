"""Work done once per test run and shared by every pytest-xdist worker (a wheel, a venv, a launch of several
processes whose outcome several tests read)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from filelock import FileLock


def once_per_run(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], Path]) -> Path:
    """``make(folder)`` once per test run, in a folder ``name`` shared by every pytest-xdist worker (the first makes
    it, under a file lock; the others wait and reuse it); returns what it returned."""
    root = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        root = root.parent  # the run's base folder, above each worker's own
    folder = root / name
    made = root / f"{name}.made"
    with FileLock(str(root / f"{name}.lock")):
        if not made.is_file():
            folder.mkdir(exist_ok=True)
            made.write_text(str(make(folder)))
    return Path(made.read_text())
