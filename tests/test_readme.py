"""The README names the tests that hold its claims: each one it names is there."""

from __future__ import annotations

import re
from pathlib import Path

from tests.helpers.process import REPO

README = REPO / "README.md"


def test_every_test_the_readme_names_exists() -> None:
    named = sorted(set(re.findall(r"\btests/[\w/]+\.py(?:::\w+)?", README.read_text())))
    assert named, "the README names no test"
    missing = []
    for name in named:
        path, _, test = name.partition("::")
        source = Path(REPO / path)
        if not source.is_file() or (test and not re.search(rf"^def {test}\(", source.read_text(), re.MULTILINE)):
            missing.append(name)
    assert not missing, f"the README names tests that are not there: {missing}"
