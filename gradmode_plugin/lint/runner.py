"""Check files: read, skip those that name nothing a rule looks for, parse, analyse, apply ``noqa``; many files on
several processes at once (``jobs``), with the same result, in the same order, as one process gives.

Example:
    >>> result = lint_files([], frozenset({"GM101"}))
    >>> result.findings, result.files
    ([], 0)
"""

from __future__ import annotations

import ast
import concurrent.futures
import dataclasses
import gc
import multiprocessing
import os
import re
import sys
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Final

from gradmode_plugin.lint.analysis import Finding, check_source
from gradmode_plugin.lint.bytecode import compiled_by_this_python
from gradmode_plugin.lint.config import required_python
from gradmode_plugin.lint.noqa import suppressed
from gradmode_plugin.lint.parsing import check_syntax
from gradmode_plugin.lint.project import Project
from gradmode_plugin.lint.rules import RULES_BY_CODE, UNPARSABLE
from gradmode_plugin.lint.triggers import may_find


@dataclasses.dataclass
class LintResult:
    """What a run found: findings (sorted, ``noqa`` applied; a file that does not parse is a ``GM999`` finding),
    how many files were checked, those that could not be checked (path, reason): unreadable, or in the syntax
    of a newer Python that their project requires, and those whose findings are left out because the file cannot run
    as written today (path, reason, how many findings): a module-level import the project's files show to fail, or
    a loss read as PyTorch 0.4 and older allowed (``loss.data[0]``)."""

    findings: list[Finding] = dataclasses.field(default_factory=list)
    files: int = 0
    unparsable: list[tuple[str, str]] = dataclasses.field(default_factory=list)
    stale: list[tuple[str, str, int]] = dataclasses.field(default_factory=list)


#: Files each process is given at a time: enough that sending paths and findings costs nothing beside the parsing,
#: few enough that the processes end together.
CHUNK_FILES: Final = 32
#: Fewer files than this per process are checked in this one. Forking two processes took about 30 ms on a 2-core
#: machine, and 64 files of transformers' models took 0.24 s on two processes against 0.37 s on one; a process
#: started afresh (spawn: macOS, Windows, another thread running) costs several times the fork.
MIN_FILES_PER_JOB: Final = 50


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform tells it, else every CPU)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def lint_files(
    paths: Iterable[str],
    codes: frozenset[str],
    eval_functions: tuple[str, ...] = (),
    tests: bool = False,
    jobs: int = 1,
    project: Project | None = None,
) -> LintResult:
    """Check every file in ``paths`` for the rules in ``codes``; ``tests``: also the rules quiet in test code;
    ``jobs``: at most this many processes (one per ``MIN_FILES_PER_JOB`` files), each checking ``CHUNK_FILES`` files
    at a time; ``project``: the files where calls of a function are looked for, by default ``paths`` themselves.
    The result does not depend on ``jobs``."""
    paths = list(paths)
    if project is None:
        project = Project(paths)
    if jobs > 1:
        jobs = min(jobs, len(paths) // MIN_FILES_PER_JOB)
    if jobs > 1:
        return _lint_in_processes(paths, codes, eval_functions, tests, jobs, project)
    # A syntax tree is millions of objects without cycles, freed with its file: the cycle collector would only
    # walk them again and again (a quarter of the parse time).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _lint_files(paths, codes, eval_functions, tests, project)
    finally:
        if enabled:
            gc.enable()


#: The run's project in a worker process, set once when the process starts (its paths are sent once, not per chunk).
_worker_project: Project | None = None


def _start_worker(paths: tuple[str, ...]) -> None:
    global _worker_project
    _worker_project = Project(paths)


def _lint_chunk(args: tuple[Sequence[str], frozenset[str], tuple[str, ...], bool]) -> LintResult:
    return lint_files(*args, project=_worker_project)


def _lint_in_processes(
    paths: Sequence[str],
    codes: frozenset[str],
    eval_functions: tuple[str, ...],
    tests: bool,
    jobs: int,
    project: Project,
) -> LintResult:
    # A fork copies this process as it is (no import again); with other threads running a fork may copy a held
    # lock, so then, and where fork is not the platform's way, the processes start afresh.
    method = "fork" if sys.platform.startswith("linux") and threading.active_count() == 1 else "spawn"
    chunks = [
        (paths[start : start + CHUNK_FILES], codes, eval_functions, tests)
        for start in range(0, len(paths), CHUNK_FILES)
    ]
    result = LintResult()
    context = multiprocessing.get_context(method)
    with concurrent.futures.ProcessPoolExecutor(
        jobs, mp_context=context, initializer=_start_worker, initargs=(project.paths,)
    ) as pool:
        for part in pool.map(_lint_chunk, chunks):  # in the order of the chunks, whichever process ends first
            result.findings.extend(part.findings)
            result.files += part.files
            result.unparsable.extend(part.unparsable)
            result.stale.extend(part.stale)
    return result


def _unparsable(path: str, line: int, col: int, reason: str) -> Finding:
    return Finding(path, max(line, 1), max(col, 1), UNPARSABLE, RULES_BY_CODE[UNPARSABLE].message(reason=reason))


def _lint_files(
    paths: Iterable[str], codes: frozenset[str], eval_functions: tuple[str, ...], tests: bool, project: Project
) -> LintResult:
    result = LintResult()
    for path in paths:
        result.files += 1
        try:
            with open(path, "rb") as file:
                stat = os.fstat(file.fileno())
                source = file.read()
        except OSError as err:
            result.unparsable.append((path, f"cannot be read: {err.strerror}"))
            continue
        findings = _undecodable(source, path)
        if not findings:
            try:
                # a file this Python compiled has no syntax error: only what a rule looks at is parsed
                compiled = compiled_by_this_python(path, source, stat)
                if may_find(source):
                    findings = check_source(source, path, eval_functions, tests, compiled, project)
                elif not compiled:  # no rule's word in it: no rule's finding, but a syntax error is one
                    check_syntax(source, path)
            except SyntaxError as err:
                newer = _newer_python(path)
                if newer is not None:  # valid for the Python its project requires: this one cannot check it
                    result.unparsable.append(
                        (
                            path,
                            f"{_not_parsed_here(err)}, and its project requires Python {newer}: run gradmode-lint "
                            "with that Python to check it",
                        )
                    )
                    continue
                newer_syntax = _python_3_12_syntax(err, source, path)
                if newer_syntax is not None:  # valid from Python 3.12 perhaps, for a project that may run it
                    result.unparsable.append(
                        (
                            path,
                            f"{_not_parsed_here(err)}; {newer_syntax}, and its project states no Python version: run "
                            "gradmode-lint with Python 3.12 or later to check it, or state `requires-python`",
                        )
                    )
                    continue
                findings = [_unparsable(path, err.lineno or 1, err.offset or 1, f"cannot be parsed: {err.msg}")]
            except RecursionError:
                if not _parses(source):
                    findings = [_unparsable(path, 1, 1, "nested too deeply to be parsed")]
                else:  # the file is sound: it is this linter that gave up, and says so
                    result.unparsable.append(
                        (
                            path,
                            "nested deeper than gradmode-lint's analysis follows (Python parses it): list it under "
                            "`exclude` in [tool.gradmode-lint]",
                        )
                    )
                    continue
        findings = [finding for finding in findings if finding.code in codes]
        if findings:
            lines = source.decode("utf-8", errors="replace").splitlines()
            findings = [
                finding
                for finding in findings
                if not (finding.line <= len(lines) and suppressed(lines[finding.line - 1], finding.code))
            ]
        # only a file with findings is read for its imports: the rest cost nothing
        stale = project.cannot_run(path, source) if findings and findings[0].code != UNPARSABLE else None
        if stale is not None:
            result.stale.append((path, stale, len(findings)))
        else:
            result.findings.extend(findings)
    return result


def _not_parsed_here(err: SyntaxError) -> str:
    """What the running Python said of a file it cannot parse, naming its version."""
    return f"cannot be parsed by Python {sys.version_info[0]}.{sys.version_info[1]} (line {err.lineno}: {err.msg})"


def _parses(source: bytes) -> bool:
    """Whether Python parses a file (one its analysis ran out of stack on may still be sound)."""
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _python_3_12_syntax(err: SyntaxError, source: bytes, path: str) -> str | None:
    """What Python 3.12 may parse where a syntax error, under an older Python, is at it, in a project whose
    ``pyproject.toml`` states no Python version (which Python it runs on is unknown): an f-string (PEP 701: its
    quotes reused inside the braces, a backslash or a comment there, a field over several lines), a ``type``
    statement or type parameters (PEP 695: ``type Pair = tuple[int, int]``, ``def first[T](xs: list[T])``); None
    for any other error. A project that allows this Python gets the GM999 its users would meet."""
    if sys.version_info >= (3, 12) or required_python(Path(path).resolve().parent) is not None:
        return None
    line = b"".join(source.splitlines()[err.lineno - 1 : err.lineno] if err.lineno else []).decode(
        "utf-8", errors="replace"
    )
    pep_701 = (
        "the f-string there may be one Python 3.12 parses (PEP 701: quotes reused inside the braces, a field over "
        "several lines)"
    )
    if err.msg.startswith("f-string"):
        return pep_701
    if err.msg.startswith("unterminated string literal") and err.offset:
        return pep_701 if _F_STRING_START.match(line[err.offset - 1 :]) else None  # the literal left open
    if _TYPE_PARAMETERS.match(line):
        return "the `type` statement or type parameters there are Python 3.12's (PEP 695)"
    return None


#: The start of an f-string literal (``f"``, ``rf'``, ``Fr"``...).
_F_STRING_START: Final = re.compile(r"(?:[rR][fF]|[fF][rR]?)['\"]")
#: A line that opens with a ``type`` statement (``type Pair = ...``, ``type Box[T] = ...``) or a function or class with
#: type parameters (``def first[T](...)``, ``class Box[T]:``), which Python parses from 3.12 on.
_TYPE_PARAMETERS: Final = re.compile(r"\s*(?:type\s+\w+\s*[=\[]|(?:async\s+)?def\s+\w+\s*\[|class\s+\w+\s*\[)")


def _newer_python(path: str) -> str | None:
    """The ``requires-python`` of a file's project where it allows no Python as old as this one (its syntax may be
    newer: ``type X = ...`` needs 3.12), else None."""
    required = required_python(Path(path).resolve().parent)
    return required[0] if required is not None and required[1] > sys.version_info[:2] else None


def _undecodable(source: bytes, path: str) -> list[Finding]:
    """Bytes that are not text, in every file (also those not parsed because they name no rule's word): decoding is
    fast, parsing is not. A declared encoding other than UTF-8 is left to the parser, which reads the declaration."""
    try:
        source.decode("utf-8")
    except UnicodeDecodeError as err:
        if b"coding" in source[:400]:
            return []
        line = source.count(b"\n", 0, err.start) + 1
        col = err.start - (source.rfind(b"\n", 0, err.start) + 1) + 1
        return [_unparsable(path, line, col, f"cannot be decoded as UTF-8: byte {source[err.start]:#x}")]
    return []
