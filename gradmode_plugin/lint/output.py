"""The output formats: ``text`` (``path:line:col: CODE message``, the flake8/ruff convention), ``json``, ``github``
(workflow annotations) and ``sarif`` (SARIF 2.1.0, for code-scanning upload).

Example:
    >>> from gradmode_plugin.lint.analysis import Finding
    >>> render([Finding("m.py", 3, 9, "GM101", "`F.dropout` without `training=`")], "text")
    'm.py:3:9: GM101 `F.dropout` without `training=`\\n'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Final
from urllib.parse import quote

from gradmode_plugin.lint.analysis import Finding
from gradmode_plugin.lint.rules import RULES, RULES_BY_CODE

SARIF_SCHEMA: Final = "https://json.schemastore.org/sarif-2.1.0.json"


def _text(findings: Sequence[Finding]) -> str:
    return "".join(f"{f.path}:{f.line}:{f.col}: {f.code} {f.message}\n" for f in findings)


def _json(findings: Sequence[Finding]) -> str:
    rows = [
        {
            "path": f.path,
            "line": f.line,
            "column": f.col,
            "code": f.code,
            "rule": RULES_BY_CODE[f.code].name,
            "kind": RULES_BY_CODE[f.code].kind,
            "message": f.message,
        }
        for f in findings
    ]
    return json.dumps(rows, indent=2) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _github(findings: Sequence[Finding]) -> str:
    return "".join(
        f"::error file={_escape_property(f.path)},line={f.line},col={f.col},"
        f"title={_escape_property(f'gradmode-lint {f.code}')}::{_escape_data(f'{f.code} {f.message}')}\n"
        for f in findings
    )


def _uri(path: str) -> str:
    """A relative path as a relative URI reference (what code scanning resolves against the checkout)."""
    given = Path(path)
    if given.is_absolute():
        return given.as_uri()
    return quote(given.as_posix())


def _sarif(findings: Sequence[Finding]) -> str:
    from gradmode_plugin import __version__

    index = {rule.code: i for i, rule in enumerate(RULES)}
    rules: list[dict[str, Any]] = []
    for rule in RULES:
        entry: dict[str, Any] = {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.what},
            "fullDescription": {"text": f"{rule.what}: {rule.why}."},
            "help": {"text": f"Fix: {rule.fix}."},
            "defaultConfiguration": {"level": "error"},
        }
        if rule.kind is not None:
            entry["properties"] = {"runtime_kinds": list(rule.kinds)}
        rules.append(entry)
    results = [
        {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": "error",
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": _uri(f.path)},
                        "region": {"startLine": f.line, "startColumn": f.col},
                    }
                }
            ],
        }
        for f in findings
    ]
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {"driver": {"name": "gradmode-lint", "version": __version__, "rules": rules}},
                "results": results,
            }
        ],
    }
    return json.dumps(log, indent=2) + "\n"


FORMATS: Final[dict[str, Callable[[Sequence[Finding]], str]]] = {
    "text": _text,
    "json": _json,
    "github": _github,
    "sarif": _sarif,
}


def render(findings: Sequence[Finding], fmt: str) -> str:
    """The findings in one of :data:`FORMATS`."""
    return FORMATS[fmt](findings)
