"""The README is a landing page, and the README and the documentation pages name the tests that hold their claims:
each test they name is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.helpers.process import REPO

README = REPO / "README.md"
DOCS = REPO / "docs"
#: This repository's tests; a path inside another project (``trl/tests/...``) is not one.
TEST_NAME = re.compile(r"(?<![\w/.-])tests/[\w/]+\.py(?:::\w+)?")


def documents() -> list[Path]:
    """The README and every page of the documentation site."""
    return [README, *sorted(DOCS.rglob("*.md"))]


def missing_tests(text: str, repo: Path = REPO) -> list[str]:
    """The tests ``text`` names (``tests/...py`` or ``tests/...py::test_name``) that are not in ``repo``."""
    missing = []
    for name in sorted(set(TEST_NAME.findall(text))):
        path, _, test = name.partition("::")
        source = repo / path
        if not source.is_file() or (test and not re.search(rf"^def {test}\(", source.read_text(), re.MULTILINE)):
            missing.append(name)
    return missing


def test_every_test_the_documents_name_exists() -> None:
    texts = {path.relative_to(REPO).as_posix(): path.read_text() for path in documents()}
    assert TEST_NAME.search(texts["docs/claims.md"]), "the claims page names no test"
    missing = {name: found for name, text in texts.items() if (found := missing_tests(text))}
    assert not missing, f"documents name tests that are not there: {missing}"


def test_a_test_named_by_a_page_fails_the_check_when_it_disappears(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text("def test_there() -> None:\n    pass\n")
    page = "held by `tests/test_x.py::test_there`, `tests/test_x.py::test_gone`, `tests/test_y.py`; `trl/tests/a.py`"
    assert missing_tests(page, tmp_path) == ["tests/test_x.py::test_gone", "tests/test_y.py"]


def test_the_readme_is_a_landing_page_with_every_way_in() -> None:
    text = README.read_text()
    assert len(text.splitlines()) < 250
    for command in (
        'python3 -m venv .venv && .venv/bin/pip install -e ".[dev]" && .venv/bin/gradmode-train',
        'python3 -m venv .venv && .venv/bin/pip install -e ".[dev]" && .venv/bin/python -m pytest -n auto',
    ):
        assert f"```bash\n{command}\n```" in text, f"the Quickstart command {command!r}"
    ways = re.findall(r"^\| the [\w ]+ \| (.+) \| .+ \| \[.+\]\((docs/[\w-]+\.md)\) \|$", text, re.MULTILINE)
    named = " ".join(one_line for one_line, _ in ways)
    ways_in = ("GradModeGuard()", "- gradmode", "GRADMODE_GUARD=", "pytest --gradmode", "evaluating(", "gradmode-lint")
    for way in ways_in:
        assert way in named, f"the README's ways in lack {way!r}"
    assert all((REPO / page).is_file() for _, page in ways)


#: A count of this suite's tests, which goes stale with the next test: "668 tests", "(507 passed", "507 of the 668".
TEST_COUNT = re.compile(
    r"\b\d[\d,]*\s+(?:tests?|quick ones|passed|skipped|deselected)\b"
    r"|\b\d+ of the \d+(?!\d|\s+\w)"  # not "92 of the 92 real instances"
)
#: The pages that speak of running this suite.
SUITE_PAGES = ("README.md", "docs/index.md", "docs/contributing.md")


def test_no_page_states_a_test_count() -> None:
    found = {page: TEST_COUNT.findall((REPO / page).read_text()) for page in SUITE_PAGES}
    assert not any(found.values()), f"test counts nothing checks: {found}"


def test_a_stated_test_count_is_found() -> None:
    text = "the suite (668 tests); 507 of the 668, quick; 658 passed, 27 skipped; tests/x.py; recall 92 of the 92 real"
    assert TEST_COUNT.findall(text) == ["668 tests", "507 of the 668", "658 passed", "27 skipped"]


def first_screen(text: str) -> tuple[list[str], str]:
    """The lines between the title and the first section, and that section's heading."""
    lines = text.splitlines()
    assert lines[0].startswith("# "), "the page does not start with its title"
    heading = next(i for i, line in enumerate(lines) if line.startswith("## "))
    return [line for line in lines[1:heading] if line.strip()], lines[heading]


@pytest.mark.parametrize("page", ["README.md", "docs/index.md"])
def test_the_first_screen_says_what_it_does_in_three_short_lines_then_the_quickstart(page: str) -> None:
    text = (REPO / page).read_text()
    lead, section = first_screen(text)
    assert len(lead) == 3 and all(len(line) <= 110 for line in lead), lead
    assert section == "## Quickstart"
    install = text.index('`pip install "gradmode-plugin[lightning]"`')
    assert install < text.index("\n| way | one line | where | manual |"), "the install line comes after the ways in"


def test_a_long_lead_is_found() -> None:
    lead, section = first_screen("# t\n\none\ntwo\n\n```python\nx = 1\n```\n\n## What it catches\n")
    assert lead == ["one", "two", "```python", "x = 1", "```"] and section == "## What it catches"
