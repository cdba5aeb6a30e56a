"""The kind registry: one entry per kind, each with its hint and its check, and the documentation's kinds page in
step."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from gradmode_plugin import HINTS, KINDS, REGISTRY, RISKS, GradModeViolation, Kind, evaluating
from gradmode_plugin.checks.base import Check

KINDS_PAGE = Path(__file__).resolve().parents[1] / "docs" / "kinds.md"


def test_every_kind_has_a_hint_and_a_check_reporting_it() -> None:
    names = tuple(kind.name for kind in REGISTRY)
    assert len(set(names)) == len(names) and set(names) == set(KINDS + RISKS)
    assert tuple(n for n in names if n not in RISKS) == KINDS  # in the registry's order
    assert RISKS == ("inference_tensor_stored",)  # noted, never counted or raised as a violation
    assert set(HINTS) == set(names) and all(HINTS[k] for k in names)
    for kind in REGISTRY:
        assert issubclass(kind.check, Check) and kind.check.kind == kind.name and kind.summary


def test_an_entry_whose_check_reports_another_kind_is_refused() -> None:
    with pytest.raises(ValueError, match="reports 'graph_built'"):
        Kind("new_kind", "what", "fix", REGISTRY[0].check)


def test_each_kind_has_a_test_module_a_row_and_a_section_in_the_docs() -> None:
    tests = Path(__file__).parent / "checks"
    page = KINDS_PAGE.read_text()
    assert "<!-- table: kinds -->" in page, "the kinds page's table is generated from the registry (docs/_hooks.py)"
    sections = set(re.findall(r"^### `(\w+)`$", page, re.MULTILINE))
    for kind in REGISTRY:
        module = kind.check.__module__.rsplit(".", 1)[-1]
        assert (tests / f"test_{module}.py").is_file(), f"tests/checks/test_{module}.py is missing"
        assert kind.name in sections, f"docs/kinds.md has no section for {kind.name}"


def test_kinds_and_lint_rules_name_each_other_and_findings_name_the_rules() -> None:
    from gradmode_plugin.lint.rules import RULES

    assert {kind for rule in RULES for kind in rule.kinds} <= set(KINDS + RISKS)
    by_kind = {kind.name: kind for kind in REGISTRY}
    assert by_kind["train_mode"].rules == ("GM101", "GM102", "GM103", "GM104", "GM201", "GM502")
    assert by_kind["output_requires_grad"].rules == ()
    model = torch.nn.Sequential(torch.nn.Linear(2, 2))
    with pytest.raises(GradModeViolation) as info, evaluating(model) as scope, scope.batch(0):
        model[0].train()
    assert info.value.violation.hint.endswith(
        "(before the run: gradmode-lint GM101, GM102, GM103, GM104, GM201, GM502)"
    )
