"""The kind registry: one entry per kind, each with its hint and its check, and the README's table in step."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gradmode_plugin import HINTS, KINDS, REGISTRY, Kind
from gradmode_plugin.checks.base import Check

README = Path(__file__).resolve().parents[1] / "README.md"


def test_every_kind_has_a_hint_and_a_check_reporting_it() -> None:
    assert tuple(kind.name for kind in REGISTRY) == KINDS and len(set(KINDS)) == len(KINDS)
    assert set(HINTS) == set(KINDS) and all(HINTS[k] for k in KINDS)
    for kind in REGISTRY:
        assert issubclass(kind.check, Check) and kind.check.kind == kind.name and kind.summary


def test_an_entry_whose_check_reports_another_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="reports 'graph_built'"):
        Kind("new_kind", "what", "fix", REGISTRY[0].check)


def test_each_kind_has_a_test_module_and_a_row_in_the_readme() -> None:
    tests = Path(__file__).parent / "checks"
    table = {m.group(1) for m in re.finditer(r"^\| `(\w+)` \|", README.read_text(), re.MULTILINE)}
    for kind in REGISTRY:
        module = kind.check.__module__.rsplit(".", 1)[-1]
        assert (tests / f"test_{module}.py").is_file(), f"tests/checks/test_{module}.py is missing"
        assert kind.name in table, f"README's kinds table lacks {kind.name}"
