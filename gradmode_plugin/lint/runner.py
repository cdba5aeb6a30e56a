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
from gradmode_plugin.lint.triggers import may_find


@dataclasses.dataclass
class LintResult:
    """What a run found: findings (sorted, ``noqa`` applied), how many files were checked, and those that could
    not be read or parsed (path, reason)."""

    findings: list[Finding] = dataclasses.field(default_factory=list)
    files: int = 0
    unparsable: list[tuple[str, str]] = dataclasses.field(default_factory=list)


def lint_files(paths: Iterable[str], codes: frozenset[str], eval_functions: tuple[str, ...] = ()) -> LintResult:
    """Check every file in ``paths`` for the rules in ``codes``."""
    # A syntax tree is millions of objects without cycles, freed with its file: the cycle collector would only
    # walk them again and again (a quarter of the parse time).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _lint_files(paths, codes, eval_functions)
    finally:
        if enabled:
            gc.enable()


def _lint_files(paths: Iterable[str], codes: frozenset[str], eval_functions: tuple[str, ...]) -> LintResult:
    result = LintResult()
    for path in paths:
        result.files += 1
        try:
            with open(path, "rb") as file:
                source = file.read()
        except OSError as err:
            result.unparsable.append((path, f"cannot be read: {err.strerror}"))
            continue
        if not may_find(source):  # no rule's word in it: no finding, and parsing is most of the time
            continue
        try:
            findings = check_source(source, path, eval_functions)
        except SyntaxError as err:
            where = f"{err.lineno}:{err.offset or 0}: " if err.lineno else ""
            result.unparsable.append((path, f"{where}cannot be parsed: {err.msg}"))
            continue
        except RecursionError:
            result.unparsable.append((path, "nested too deeply to be parsed"))
            continue
        findings = [finding for finding in findings if finding.code in codes]
        if findings:
            lines = source.decode("utf-8", errors="replace").splitlines()
            result.findings.extend(
                finding
                for finding in findings
                if not (finding.line <= len(lines) and suppressed(lines[finding.line - 1], finding.code))
            )
    return result
