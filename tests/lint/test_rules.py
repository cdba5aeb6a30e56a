"""The rule registry: codes, the runtime kinds rules name (the registry of kinds names the same), the rules table
of the documentation's gradmode-lint page."""

from __future__ import annotations

import re
from pathlib import Path

from gradmode_plugin.kinds import KINDS
from gradmode_plugin.lint.rules import RULES, RULES_BY_CODE, rules_for_kind, select_codes
from tests.helpers.modules import load_module
from tests.helpers.process import REPO


def test_codes_are_unique_and_grouped_by_bug() -> None:
    codes = [rule.code for rule in RULES]
    assert codes == sorted(set(codes)), "codes unique, in order"
    assert all(re.fullmatch(r"GM[1-8]0[1-9]|GM999", code) for code in codes)
    assert len({rule.name for rule in RULES}) == len(RULES)


def test_every_rule_names_a_runtime_kind_or_none() -> None:
    for rule in RULES:
        assert set(rule.kinds) <= set(KINDS), f"{rule.code} names a kind that is not in gradmode_plugin.kinds"
        assert rule.kind is not None or not rule.also_kinds


def test_rules_for_kind() -> None:
    assert [rule.code for rule in rules_for_kind("train_mode")] == [
        "GM101",
        "GM102",
        "GM103",
        "GM104",
        "GM201",
        "GM502",
    ]
    assert [rule.code for rule in rules_for_kind("running_stats_updated")] == ["GM201", "GM502"]
    assert [rule.code for rule in rules_for_kind("grad_enabled")] == ["GM302", "GM401"]
    assert {rule.code for rule in rules_for_kind("graph_built")} == {
        "GM301",
        "GM302",
        "GM303",
        "GM402",
        "GM501",
        "GM801",
    }
    assert rules_for_kind("params_changed") == ()
    assert {RULES_BY_CODE[code].kind for code in ("GM503", "GM601", "GM701", "GM702", "GM703")} == {None}


def test_select_codes() -> None:
    assert select_codes() == frozenset(RULES_BY_CODE) - {"GM401"}  # opt-in: named, or no default run has it
    assert {"GM401", "GM402"} <= select_codes(["GM4"]) and "GM401" in select_codes(["GM"])
    assert [rule.code for rule in RULES_BY_CODE.values() if rule.opt_in] == ["GM401"]
    assert select_codes(["gm1"], ["GM104"]) == {"GM101", "GM102", "GM103"}
    assert select_codes(["GM"], ["GM"]) == frozenset()


def test_docs_table_lists_every_rule_with_its_kinds() -> None:

    page = (REPO / "docs" / "lint.md").read_text()
    section = page.split("\n## Rules\n", 1)[1].split("\n## ", 1)[0]
    assert "<!-- table: lint-rules -->" in section, "the rules table is generated from RULES (docs/_hooks.py)"
    hooks = load_module(REPO / "docs" / "_hooks.py", "docs_hooks")
    rows = re.findall(r"^\| `(GM\d{3})` \|(.*)$", hooks.render(section), flags=re.MULTILINE)
    assert [code for code, _ in rows] == [rule.code for rule in RULES]
    for code, rest in rows:
        kinds = ", ".join(f"`{kind}`" for kind in RULES_BY_CODE[code].kinds) or "-"
        assert rest.rstrip().endswith(f"| {kinds} |"), f"{code}: runtime kind column"


def test_each_rule_states_its_words_and_messages_in_its_record() -> None:
    """A rule's trigger words and messages live in its ``Rule`` record only: the run's file words are made of them,
    and the analysis writes no message of its own."""
    import string

    from gradmode_plugin.lint.triggers import FILE_WORDS

    for rule in RULES:
        assert "default" in rule.messages, f"{rule.code} has no default message"
        for template in rule.messages.values():
            fields = [name for _, name, _, _ in string.Formatter().parse(template) if name]
            if not fields:
                assert rule.message() == template
            assert all(name.isidentifier() for name in fields), template
        assert rule.words or rule.code == "GM999", f"{rule.code} names no word: it would never run"
    assert set(FILE_WORDS) == {word for rule in RULES for word in rule.words}
    for module in _analysis_modules():
        text = module.read_text()
        assert not re.search(r'"GM\d{3}",\s*\n\s*f?"', text), f"a message written in {module.name}, not in its rule"


def test_each_rule_is_reported_from_its_family_module_only() -> None:
    """A rule's ``family`` names the one module of the analysis that reports its code: the family module writes
    the codes of its own rules and no other, and the shared walk writes none."""
    modules = {module.stem: module for module in _analysis_modules()}
    families = {rule.family for rule in RULES if rule.family is not None}
    assert families <= modules.keys(), "each family is a module mixed into the analysis"
    for stem, module in modules.items():
        written = set(re.findall(r'"(GM\d{3})"', module.read_text()))
        own = {rule.code for rule in RULES if rule.family == stem}
        assert written == own, f"{module.name} writes {sorted(written)}; its family's rules are {sorted(own)}"


def _analysis_modules() -> list[Path]:
    """The files of the analysis: the shared walk, each rule family mixed into it, and the module mixing them."""
    import inspect

    from gradmode_plugin.lint.analysis import _Analysis

    files = {inspect.getsourcefile(cls) for cls in _Analysis.__mro__ if cls.__module__.startswith("gradmode_plugin")}
    return sorted(Path(file) for file in files if file is not None)
