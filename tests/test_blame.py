"""where: the user's lines, by the origin of each file, never by folder names."""

from __future__ import annotations

import gc
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from gradmode_plugin.blame import ORIGINS, StepLocator, where
from tests.helpers.modules import load_module

CALLER = "from gradmode_plugin.blame import where\n\n\ndef blame():\n    return where(0)\n"


def _load(path: Path, name: str) -> Any:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CALLER)
    return load_module(path, name)


@pytest.mark.parametrize("folder", ["lightning", "hydra", "torch", "pytorch_lightning", "concurrent"])
def test_user_code_under_a_folder_named_like_a_library_is_the_users(tmp_path: Path, folder: str) -> None:
    module = _load(tmp_path / "project" / folder / "model.py", f"user_{folder}_model")
    found = module.blame() or ""
    assert f"{os.sep}{folder}{os.sep}model.py" in found and "in blame" in found


def test_library_frames_are_skipped_and_frozen_frames_dropped(tmp_path: Path) -> None:
    import torch

    namespace: dict[str, Any] = {}
    exec(compile("def frozen(fn):\n    return fn()\n", "<frozen importlib._bootstrap>", "exec"), namespace)
    found = namespace["frozen"](lambda: where(0)) or ""
    assert "<frozen" not in found and "test_blame.py" in found
    assert ORIGINS.of(torch.__file__) == "machinery" and ORIGINS.of(os.__file__) == "machinery"
    assert ORIGINS.of("<frozen importlib._bootstrap>") == "dropped" and ORIGINS.of(__file__) == "own"


def test_installed_code_is_shown_only_without_code_of_ones_own() -> None:
    import site

    installed = os.path.join(site.getsitepackages()[0], "thirdparty", "layers.py")
    assert ORIGINS.of(installed) == "installed"
    namespace: dict[str, Any] = {}
    exec(compile("def inner(where):\n    return where(0, depth=1)\n", installed, "exec"), namespace)
    found = namespace["inner"](where) or ""
    assert "test_blame.py" in found and "site-packages" not in found


def test_the_step_frame_is_added_when_deeper_than_the_frames_shown() -> None:
    steps = StepLocator()

    def level(n: int) -> str | None:
        return where(0, step=steps) if n == 0 else level(n - 1)

    def step() -> str | None:
        return level(5)  # the step's line

    steps.step_code = step.__code__
    frames = (step() or "").split(" <- ")
    assert len(frames) == 4 and "in level" in frames[0]
    assert frames[-1].endswith("return level(5)  # the step's line")


@pytest.mark.parametrize("enabled", [True, False])
def test_the_evaluating_threads_frame_is_read_with_the_collector_paused_and_put_back(
    monkeypatch: pytest.MonkeyPatch, enabled: bool
) -> None:
    """A collection inside ``sys._current_frames()`` can deadlock against the GIL on Python 3.11 before 3.11.9
    (CPython gh-106883): the frame is read with the collector paused, and its state is put back as it was."""
    seen: list[bool] = []
    real = sys._current_frames

    def recording() -> dict[int, Any]:
        seen.append(gc.isenabled())
        return real()

    monkeypatch.setattr(sys, "_current_frames", recording)
    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        steps = StepLocator()
        result: list[object] = []
        worker = threading.Thread(target=lambda: result.append(steps.in_evaluating_thread()))
        worker.start()
        worker.join()
        assert seen == [False] and gc.isenabled() is enabled
        assert result and (result[0] is None or "test_blame.py" in result[0].f_code.co_filename)
    finally:
        (gc.enable if was else gc.disable)()
