"""The README is a landing page, and the README and the documentation pages name the tests that hold their claims:
each test they name is there."""

from __future__ import annotations

import re
from pathlib import Path

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
        'python3 -m venv .venv && .venv/bin/pip install -e ".[dev]" && .venv/bin/python -m pytest',
    ):
        assert f"```bash\n{command}\n```" in text, f"the Quickstart command {command!r}"
    ways = re.findall(r"^\| the [\w ]+ \| (.+) \| .+ \| \[.+\]\((docs/[\w-]+\.md)\) \|$", text, re.MULTILINE)
    named = " ".join(one_line for one_line, _ in ways)
    ways_in = ("GradModeGuard()", "- gradmode", "GRADMODE_GUARD=", "pytest --gradmode", "evaluating(", "gradmode-lint")
    for way in ways_in:
        assert way in named, f"the README's ways in lack {way!r}"
    assert all((REPO / page).is_file() for _, page in ways)
