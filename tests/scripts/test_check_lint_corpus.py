"""scripts/check_lint_corpus.py's report blocks: rounds measured at different times keep blocks of their own, and
a later run over all of them replaces them by one."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

from tests.helpers.process import REPO

SCRIPT = REPO / "scripts" / "check_lint_corpus.py"


@pytest.fixture(scope="module")
def corpus() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_lint_corpus", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_lint_corpus"] = module
    spec.loader.exec_module(module)
    return module


def block(corpus: ModuleType, rounds: list[int], body: str) -> str:
    names = ", ".join(map(str, rounds))
    return "\n".join([corpus._BLOCK_START, f"## Rounds {names}, measured on their own", body, corpus._BLOCK_END])


def report(corpus: ModuleType) -> str:
    return f"head\n\n{block(corpus, [5, 6], 'old')}\n\n{block(corpus, [7, 8], 'old')}\n\ntail\n"


def test_new_rounds_get_a_block_of_their_own(corpus: ModuleType) -> None:
    text = corpus._with_block(report(corpus), block(corpus, [9, 10], "new"), [9, 10])
    assert text == report(corpus) + "\n" + block(corpus, [9, 10], "new") + "\n"


def test_the_same_rounds_replace_their_block_only(corpus: ModuleType) -> None:
    text = corpus._with_block(report(corpus), block(corpus, [7, 8], "new"), [7, 8])
    assert text == f"head\n\n{block(corpus, [5, 6], 'old')}\n\n{block(corpus, [7, 8], 'new')}\n\ntail\n"


def test_a_run_over_all_rounds_replaces_every_block_it_covers(corpus: ModuleType) -> None:
    text = corpus._with_block(report(corpus), block(corpus, [5, 6, 7, 8], "new"), [5, 6, 7, 8])
    assert text == f"head\n\n{block(corpus, [5, 6, 7, 8], 'new')}\n\ntail\n"


def test_the_block_names_the_commit_whose_rules_made_it(corpus: ModuleType) -> None:
    assert corpus._rules_commit().startswith("`")
