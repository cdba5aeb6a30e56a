"""gradmode-lint as a user runs it: its command line in a child process, over files written to disk.

Case files mark every line a finding is expected on with ``# expect: GM101`` (several codes: ``GM101, GM501``);
lines without a mark must stay silent.
"""

from __future__ import annotations

import dataclasses
import os
import re
import sys
import textwrap
from pathlib import Path

from gradmode_plugin.lint.files import python_files
from gradmode_plugin.lint.rules import select_codes
from gradmode_plugin.lint.runner import LintResult, lint_files
from tests.helpers.process import REPO, run_process

_EXPECT = re.compile(r"#\s*expect:\s*(GM\d+(?:\s*,\s*GM\d+)*)")
_FINDING = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): (?P<code>GM\d+) ")

#: (path relative to the folder checked, line, code)
Located = tuple[str, int, str]


@dataclasses.dataclass(frozen=True)
class LintRun:
    """The outcome of one ``gradmode-lint`` command."""

    returncode: int
    stdout: str
    stderr: str

    def findings(self) -> set[Located]:
        """The findings of a text-format run."""
        found: set[Located] = set()
        for line in self.stdout.splitlines():
            match = _FINDING.match(line)
            assert match, f"not a finding line: {line!r}"
            found.add((Path(match["path"]).as_posix(), int(match["line"]), match["code"]))
        return found


def run_lint(cwd: Path, *args: str, python: str = sys.executable) -> LintRun:
    """``python -m gradmode_plugin.lint ARGS`` in ``cwd``, importing this checkout's package."""
    proc = run_process(
        [python, "-m", "gradmode_plugin.lint", *args], cwd=cwd, env={"PYTHONPATH": str(REPO)}, timeout=120
    )
    return LintRun(proc.returncode, proc.stdout, proc.stderr)


def expected_findings(root: Path) -> set[Located]:
    """Every ``# expect: CODE`` mark in the ``*.py`` files under ``root``."""
    expected: set[Located] = set()
    for path in sorted(root.rglob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            match = _EXPECT.search(line)
            if match:
                for code in re.split(r"\s*,\s*", match.group(1)):
                    expected.add((path.relative_to(root).as_posix(), number, code))
    return expected


def write_tree(root: Path, files: dict[str, str]) -> None:
    """``files`` (``{relative path: source}``, dedented) written under ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def lint_from(root: Path, jobs: int = 1) -> LintResult:
    """Every rule (the opt-in ones too) over the files under ``root``, run in this process from ``root`` as a user
    runs it from a project's root (``jobs``: processes, as ``--jobs``)."""
    previous = os.getcwd()
    os.chdir(root)
    try:
        return lint_files(python_files(["."]), select_codes(["GM"]), jobs=jobs)
    finally:
        os.chdir(previous)


def linted_tree(root: Path, files: dict[str, str]) -> tuple[Path, LintRun]:
    """``files`` (``{relative path: source}``, dedented) written under ``root``, and the linter run over them with
    every rule, the opt-in ones too."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip())
    return root, run_lint(root, ".", "--select", "GM")


#: One epoch function for training and evaluation, its mode chosen by a flag (its bug and look-alike add the calls).
EPOCH_BY_FLAG = """
        import torch


        def run_epoch(model, loader, train=False, optimizer=None, natural=True):
            if train:
                model.train()
            else:
                model.eval()
            total = 0.0
            for x, y in loader:
                if natural or not train:
                    loss = torch.nn.functional.cross_entropy(model(x), y){mark}
                else:
                    loss = model.robust_loss(x, y)
                total += loss.item()
                if train:
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
            return total
"""
