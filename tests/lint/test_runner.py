"""Checking many files on several processes: the same findings, files and unreadable files, in the same order, as
one process gives; few files stay in this process; both ways of starting the processes."""

from __future__ import annotations

import concurrent.futures
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest

from gradmode_plugin.lint import runner
from gradmode_plugin.lint.analysis import Finding
from gradmode_plugin.lint.files import python_files
from gradmode_plugin.lint.rules import select_codes
from gradmode_plugin.lint.runner import CHUNK_FILES, MIN_FILES_PER_JOB, LintResult, lint_files
from tests.helpers.lint import run_lint

BUGGY = """import torch.nn.functional as F


def validation_step(self, batch, batch_idx):
    self.train()
    return F.dropout(batch, 0.5)
"""
#: What each kind of file gives: findings, a noqa, a syntax error, bytes that are not text, nothing to look at.
KINDS = {
    "buggy": BUGGY,
    "quiet": BUGGY.replace("self.train()", "self.train()  # noqa: GM201"),
    "broken": "def f(:\n    pass\n",
    "plain": "def add(a, b):\n    return a + b\n",
}


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """More than two processes' worth of files, every kind in every chunk, one that is not UTF-8."""
    root = tmp_path_factory.mktemp("tree")
    for i in range(3 * MIN_FILES_PER_JOB + 7):
        kind = list(KINDS)[i % len(KINDS)]
        (root / f"m{i:04d}_{kind}.py").write_text(KINDS[kind])
    (root / "m0150_latin1.py").write_bytes(b"x = '\xe9'\n")
    return list(python_files([str(root)]))


class _CountingPool(concurrent.futures.ProcessPoolExecutor):
    started: ClassVar[list[tuple[int, str]]] = []

    def __init__(self, max_workers: int, mp_context: Any, **kwargs: Any) -> None:
        _CountingPool.started.append((max_workers, mp_context.get_start_method()))
        super().__init__(max_workers, mp_context=mp_context, **kwargs)


@pytest.fixture
def pools(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[int, str]]]:
    """The process pools a run starts: (processes, start method)."""
    _CountingPool.started = []
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _CountingPool)
    yield _CountingPool.started


def _as_tuples(result: LintResult) -> tuple[list[Finding], int, list[tuple[str, str]]]:
    return result.findings, result.files, result.unparsable


def test_several_processes_find_what_one_finds_in_the_same_order(tree: list[str], pools: list[tuple[int, str]]) -> None:
    alone = lint_files(tree, select_codes())
    assert pools == []
    together = lint_files(iter(tree), select_codes(), jobs=3)
    assert pools == [(3, "fork")] or pools == [(3, "spawn")]
    assert _as_tuples(together) == _as_tuples(alone)
    codes = [f.code for f in alone.findings]
    # Every kind was seen: findings, the noqa, the syntax errors, the file that is not text.
    assert {"GM101", "GM201", "GM999"} <= set(codes)
    assert not any(f.code == "GM201" and "_quiet" in f.path for f in alone.findings)
    assert any("latin1" in f.path and f.code == "GM999" for f in alone.findings)
    assert len(tree) > 3 * CHUNK_FILES and alone.files == len(tree)


def test_a_process_for_each_fifty_files_at_most(tree: list[str], pools: list[tuple[int, str]]) -> None:
    few = tree[: 2 * MIN_FILES_PER_JOB - 1]
    assert _as_tuples(lint_files(few, select_codes(), jobs=8)) == _as_tuples(lint_files(few, select_codes()))
    assert pools == []  # under two processes' worth: checked here
    lint_files(tree[: 2 * MIN_FILES_PER_JOB], select_codes(), jobs=8)
    assert pools == [(2, pools[0][1])]


def test_with_another_thread_running_the_processes_start_afresh(tree: list[str], pools: list[tuple[int, str]]) -> None:
    """A fork copies whatever lock another thread holds: then the processes are spawned."""
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        together = lint_files(tree, select_codes(), jobs=2)
    finally:
        stop.set()
        other.join()
    assert pools == [(2, "spawn")]
    assert _as_tuples(together) == _as_tuples(lint_files(tree, select_codes()))


def test_the_command_line_takes_a_number_of_processes_or_auto(tmp_path: Path) -> None:
    (tmp_path / "model.py").write_text(BUGGY)
    assert run_lint(tmp_path, ".", "--jobs", "auto").findings() == {("model.py", 5, "GM201"), ("model.py", 6, "GM101")}
    assert run_lint(tmp_path, ".", "-j", "2").findings() == {("model.py", 5, "GM201"), ("model.py", 6, "GM101")}
    for bad in ("0", "two"):
        run = run_lint(tmp_path, ".", "-j", bad)
        assert run.returncode == 2
        assert f"'{bad}' is not a number of processes: give a whole number >= 1 or auto" in run.stderr


def test_a_file_too_deep_for_the_analysis_is_named_not_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the analysis runs out of stack on a file Python parses, the linter says it gave up (not checked, exit 1)
    rather than blaming the file with GM999; where Python cannot parse it either, it is GM999."""

    def overflow(*args: Any, **kwargs: Any) -> list[Finding]:
        raise RecursionError

    monkeypatch.setattr(runner, "check_source", overflow)
    sound = tmp_path / "sound.py"
    sound.write_text(BUGGY)
    deep = tmp_path / "deep.py"
    deep.write_text("import torch\nx = " + "(" * 5000 + "1" + ")" * 5000 + "\n")
    result = lint_files([str(sound), str(deep)], select_codes())
    assert [(Path(f.path).name, f.code) for f in result.findings] == [("deep.py", "GM999")]
    assert [(Path(path).name, "analysis" in reason) for path, reason in result.unparsable] == [("sound.py", True)]
