"""scripts/check_lint_corpus.py: its report blocks (rounds measured at different times keep blocks of their own,
and a later run over all of them replaces them by one), and the trees it lays out from git clones (at the commit
listed, with what the linter reads and nothing else)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers.modules import load_module
from tests.helpers.process import REPO

SCRIPT = REPO / "scripts" / "check_lint_corpus.py"


@pytest.fixture(scope="module")
def corpus() -> ModuleType:
    return load_module(SCRIPT, "check_lint_corpus", register=True)


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


def git(folder: Path, *args: str) -> str:
    env = {**os.environ, "GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a",
           "GIT_COMMITTER_EMAIL": "a@b"}  # fmt: skip
    return subprocess.run(["git", "-C", str(folder), *args], env=env, check=True, capture_output=True, text=True).stdout


def test_a_tree_is_laid_out_at_its_commit_with_what_the_linter_reads(corpus: ModuleType, tmp_path: Path) -> None:
    clone = tmp_path / "clones" / "someone" / "project"
    clone.mkdir(parents=True)
    git(clone, "init", "-q")
    files = {
        "train.py": "model.eval()\n",
        "pkg/__init__.py": "",
        "sub/pyproject.toml": "[project]\nrequires-python = '>=3.14'\n",
        "setup.cfg": "[metadata]\n",
        "README.md": "# not read\n",
        "data/weights.bin": "\0",
        "notes.py.txt": "not Python\n",
    }
    for path, text in files.items():
        (clone / path).parent.mkdir(parents=True, exist_ok=True)
        (clone / path).write_text(text)
    (clone / "recipe").mkdir()
    (clone / "recipe" / "train.py").symlink_to("../train.py")  # a recipe reusing the file, as speech toolkits do
    git(clone, "add", "-A")
    git(clone, "commit", "-qm", "first")
    commit = git(clone, "rev-parse", "HEAD").strip()
    (clone / "train.py").write_text("model.train()\n")  # a later commit: not the one laid out
    (clone / "later.py").write_text("")
    git(clone, "add", "-A")
    git(clone, "commit", "-qm", "second")

    repo = corpus.Repo("project", "someone/project", commit, "research", 99)
    assert corpus.lay_out(repo, tmp_path / "clones", tmp_path / "corpus") == []
    tree = tmp_path / "corpus" / "project"
    laid = sorted(str(p.relative_to(tree)) for p in tree.rglob("*") if p.is_file())
    assert laid == [".laid-out", "pkg/__init__.py", "recipe/train.py", "setup.cfg", "sub/pyproject.toml", "train.py"]
    assert (tree / "train.py").read_text() == "model.eval()\n"
    assert (tree / "recipe" / "train.py").is_symlink()
    assert (tree / "recipe" / "train.py").read_text() == "model.eval()\n"  # not the link's path as its text
    assert (tree / "sub/pyproject.toml").read_text() == files["sub/pyproject.toml"]

    (tree / "train.py").write_text("edited")  # laid out at that commit already: kept as it is
    corpus.lay_out(repo, tmp_path / "clones", tmp_path / "corpus")
    assert (tree / "train.py").read_text() == "edited"


def test_a_missing_clone_names_what_to_clone(corpus: ModuleType, tmp_path: Path) -> None:
    repo = corpus.Repo("project", "someone/project", "0" * 40, "research", 99)
    with pytest.raises(SystemExit, match="clone someone/project there"):
        corpus.lay_out(repo, tmp_path, tmp_path / "corpus")


def test_the_queued_rounds_hold_only_repositories_not_met_before(corpus: ModuleType) -> None:
    met = {repo.github.lower() for repo in corpus.REPOS}
    queued = [name.lower() for names in corpus.QUEUED.values() for name in names]
    assert len(queued) == len(set(queued)), "a repository queued twice"
    assert not met & set(queued), "a queued repository is in the corpus already"
    assert all(number > max(repo.round for repo in corpus.REPOS) for number in corpus.QUEUED)


def test_a_round_whose_search_found_no_real_instance_states_no_recall(corpus: ModuleType) -> None:
    assert corpus._recall(17, 22) == "recall 77.3%"
    assert corpus._recall(0, 0) == "no recall (the search found no real instance)"
    quiet = [number for number, first in corpus.FIRST_CONTACT.items() if not first["real_instances"]]
    assert quiet, "a round with no real instance keeps this case covered"
    assert any("no recall" in line for line in corpus._first_contact_lines(quiet[0]))
