"""Check files: read, skip those that name nothing a rule looks for, parse, analyse, apply ``noqa``.

Example:
    >>> result = lint_files([], frozenset({"GM101"}))
    >>> result.findings, result.files
    ([], 0)
"""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Iterable

from gradmode_plugin.lint.analysis import Finding, check_source
from gradmode_plugin.lint.noqa import suppressed
from gradmode_plugin.lint.parsing import check_syntax
from gradmode_plugin.lint.rules import RULES_BY_CODE, UNPARSABLE
from gradmode_plugin.lint.triggers import may_find


@dataclasses.dataclass
class LintResult:
    """What a run found: findings (sorted, ``noqa`` applied; a file that does not parse is a ``GM999`` finding),
    how many files were checked, and those that could not be read (path, reason)."""

    findings: list[Finding] = dataclasses.field(default_factory=list)
    files: int = 0
    unparsable: list[tuple[str, str]] = dataclasses.field(default_factory=list)


def lint_files(
    paths: Iterable[str], codes: frozenset[str], eval_functions: tuple[str, ...] = (), tests: bool = False
) -> LintResult:
    """Check every file in ``paths`` for the rules in ``codes``; ``tests``: also the rules quiet in test code."""
    # A syntax tree is millions of objects without cycles, freed with its file: the cycle collector would only
    # walk them again and again (a quarter of the parse time).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _lint_files(paths, codes, eval_functions, tests)
    finally:
        if enabled:
            gc.enable()


def _unparsable(path: str, line: int, col: int, reason: str) -> Finding:
    return Finding(path, max(line, 1), max(col, 1), UNPARSABLE, RULES_BY_CODE[UNPARSABLE].message(reason=reason))


def _lint_files(
    paths: Iterable[str], codes: frozenset[str], eval_functions: tuple[str, ...], tests: bool
) -> LintResult:
    result = LintResult()
    for path in paths:
        result.files += 1
        try:
            with open(path, "rb") as file:
                source = file.read()
        except OSError as err:
            result.unparsable.append((path, f"cannot be read: {err.strerror}"))
            continue
        findings = _undecodable(source, path)
        if not findings:
            try:
                if may_find(source):
                    findings = check_source(source, path, eval_functions, tests)
                else:  # no rule's word in it: no rule's finding, but a syntax error is one
                    check_syntax(source, path)
            except SyntaxError as err:
                findings = [_unparsable(path, err.lineno or 1, err.offset or 1, f"cannot be parsed: {err.msg}")]
            except RecursionError:
                findings = [_unparsable(path, 1, 1, "nested too deeply to be parsed")]
        findings = [finding for finding in findings if finding.code in codes]
        if findings:
            lines = source.decode("utf-8", errors="replace").splitlines()
            result.findings.extend(
                finding
                for finding in findings
                if not (finding.line <= len(lines) and suppressed(lines[finding.line - 1], finding.code))
            )
    return result


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
