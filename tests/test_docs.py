"""The documentation site: every relative link of the README and the pages lands on a file (and a heading) that is
there, the tables registries hold are generated from them, every page is in the navigation, and the site builds with
``mkdocs build --strict``."""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from pathlib import Path
from types import ModuleType

import pytest
import yaml

from gradmode_plugin.kinds import REGISTRY
from gradmode_plugin.lint.rules import RULES
from tests.helpers.modules import load_module
from tests.helpers.process import REPO

DOCS = REPO / "docs"
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`[^`]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def load_hooks() -> ModuleType:
    return load_module(DOCS / "_hooks.py", "docs_hooks")


def documents() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]


def slug(heading: str) -> str:
    """The anchor MkDocs gives a heading (Python-Markdown's ``toc`` slugify of the heading's text)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(page: Path) -> set[str]:
    return {slug(heading) for heading in HEADING.findall(FENCE.sub("", page.read_text()))}


def broken_links(page: Path) -> list[str]:
    """The relative links of ``page`` whose file, or heading within it, is not there."""
    text = CODE.sub("", FENCE.sub("", page.read_text()))
    broken = []
    for target in LINK.findall(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        landing = (page.parent / path).resolve() if path else page
        if not landing.is_file():
            broken.append(f"{target} (no file {landing})")
        elif anchor and (landing.suffix != ".md" or anchor not in anchors(landing)):
            broken.append(f"{target} (no heading #{anchor} in {landing.name})")
    return broken


def test_every_relative_link_lands_on_a_file_and_heading_that_are_there() -> None:
    broken = {page.relative_to(REPO).as_posix(): found for page in documents() if (found := broken_links(page))}
    assert not broken, f"broken links: {broken}"
    assert any(LINK.search(page.read_text()) for page in documents())


def test_a_broken_link_or_anchor_is_found(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other page\n\n## How it works, and where it is blind\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n[ok](other.md) [ok](other.md#how-it-works-and-where-it-is-blind) [ok](#page) "
        "[gone](gone.md) [bad anchor](other.md#nowhere) [web](https://example.org/x.md)\n\n"
        "```\n[in code](ignored.md)\n```\n"
    )
    assert broken_links(page) == [
        f"gone.md (no file {tmp_path / 'gone.md'})",
        "other.md#nowhere (no heading #nowhere in other.md)",
    ]


def test_the_kinds_table_is_generated_with_a_row_per_kind() -> None:
    page = (DOCS / "kinds.md").read_text()
    assert "<!-- table: kinds -->" in page
    table = load_hooks().render(page)
    rows = re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE)
    assert rows == [kind.name for kind in REGISTRY]


def test_the_lint_rules_table_is_generated_with_a_row_per_rule() -> None:
    page = (DOCS / "lint.md").read_text()
    assert "<!-- table: lint-rules -->" in page
    table = load_hooks().render(page)
    assert re.findall(r"^\| `(GM\d{3})` \|", table, re.MULTILINE) == [rule.code for rule in RULES]


def test_sphinx_roles_in_rendered_docstrings_become_plain_code() -> None:
    html = (
        "see :meth:<code>batch</code> and :class:<code>~gradmode_plugin.options.GuardOptions</code>, "
        ":data:<code>gradmode_plugin.kinds.KINDS</code>; <code>x:y</code> stays"
    )
    assert load_hooks().without_roles(html) == (
        "see <code>batch</code> and <code>GuardOptions</code>, <code>gradmode_plugin.kinds.KINDS</code>; "
        "<code>x:y</code> stays"
    )


def test_an_unknown_table_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown generated table 'nothing'"):
        load_hooks().render("<!-- table: nothing -->\n")


def section(page: str, heading: str) -> str:
    """The text of ``page`` under ``heading`` up to the next heading."""
    text = page.split(f"\n{heading}\n", 1)[1]
    return re.split(r"^#{1,6} ", text, maxsplit=1, flags=re.MULTILINE)[0]


def dense_paragraphs(text: str, longest: int = 3) -> list[str]:
    """The blocks of ``text`` that hold more than one rule: any paragraph but a one-line lead-in (``...:``), and list
    items longer than ``longest`` lines."""
    dense = []
    for block in (b.strip() for b in re.split(r"\n\s*\n", text) if b.strip()):
        items = re.split(r"^- ", block, flags=re.MULTILINE)
        lead = items[0].strip()  # text before any list item
        if lead and ("\n" in lead or not lead.endswith(":")):
            dense.append(lead[:80])
        dense += [item[:80] for item in items[1:] if item.strip().count("\n") >= longest]
    return dense


def test_what_the_linter_leaves_silent_is_one_rule_per_item() -> None:
    silent = section((DOCS / "lint.md").read_text(), "### What stays silent")
    assert silent.count("\n- ") >= 20
    assert dense_paragraphs(silent) == []


def test_a_dense_paragraph_is_found() -> None:
    text = "Lead-in:\n\n- one rule\n- another\n  on two lines\n\nWhat stays silent: a, b, c,\nd and e.\n"
    assert dense_paragraphs(text) == ["What stays silent: a, b, c,\nd and e."]


def nav_pages(entries: list[object]) -> set[str]:
    pages: set[str] = set()
    for entry in entries:
        value = next(iter(entry.values())) if isinstance(entry, dict) else entry
        pages |= nav_pages(value) if isinstance(value, list) else {str(value)}
    return pages


def test_every_page_is_in_the_navigation_and_the_hook_is_registered() -> None:
    config = yaml.safe_load((REPO / "mkdocs.yml").read_text())
    assert config["hooks"] == ["docs/_hooks.py"] and config["strict"] is True
    pages = {page.relative_to(DOCS).as_posix() for page in DOCS.rglob("*.md")}
    assert nav_pages(config["nav"]) == pages


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    """The site built from this checkout with ``mkdocs build --strict``, once for the tests that read it."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed (pip install -e '.[docs]')")
    pytest.importorskip("material", reason="the docs extra is not installed (pip install -e '.[docs]')")
    pytest.importorskip("mkdocstrings", reason="the docs extra is not installed (pip install -e '.[docs]')")
    site = tmp_path_factory.mktemp("docs") / "site"
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return site, proc


@pytest.mark.slow
def test_the_site_builds_strictly(built_site: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    site, proc = built_site
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not re.search(r"^WARNING\b", proc.stderr, re.MULTILINE), proc.stderr
    # Pages are files (use_directory_urls: false), so a built site browses from the file system.
    assert (site / "kinds.html").is_file()
    assert 'href="kinds.html' in (site / "index.html").read_text()
    api = (site / "api.html").read_text()
    assert "GuardOptions</code>" in api and not re.search(r":(class|meth|attr|data|mod|func):<code>", api)
    assert '<code class="gm-nowrap">graph_built</code>' in (site / "kinds.html").read_text()


def load_layout_script() -> ModuleType:
    return load_module(REPO / "scripts" / "check_docs_layout.py", "check_docs_layout")


@pytest.mark.slow
def test_three_pages_fit_a_1280_px_window_in_chromium(
    built_site: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path
) -> None:
    """Headless Chromium at 1280 CSS px: no code block or table wider than its room, no identifier broken across
    lines, code in the kinds table's fix column (scripts/check_docs_layout.py; screenshots in the test's folder)."""
    layout = load_layout_script()
    chromium = layout.find_chromium()
    if chromium is None:
        pytest.skip("no Chromium (apt-get install chromium): the layout is not checked")
    site, proc = built_site
    assert proc.returncode == 0, proc.stderr
    assert layout.WIDTH == 1280
    assert layout.check_site(chromium, site, 1280, tmp_path) == []
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["index-1280px.png", "kinds-1280px.png", "lint-1280px.png"]


def test_code_in_a_registrys_text_is_shown_as_code() -> None:
    spans = load_hooks().code_spans
    assert spans("remove torch.enable_grad()/set_grad_enabled(True) (a with block), e.g. MC dropout") == (
        "remove `torch.enable_grad()`/`set_grad_enabled(True)` (a with block), e.g. MC dropout"
    )
    assert spans("no .train() in a step; pass training=self.training to F.batch_norm, or allow_train") == (
        "no `.train()` in a step; pass `training=self.training` to `F.batch_norm`, or `allow_train`"
    )
    assert spans("(with torch.set_grad_enabled(...):) or `with x(False):`, grad_mode='no_grad'; test-time") == (
        "(`with torch.set_grad_enabled(...):`) or `with x(False):`, `grad_mode='no_grad'`; test-time"
    )


def test_identifiers_are_marked_to_stay_on_one_line() -> None:
    html = "<p><code>graph_built</code> and <code>with torch.no_grad():</code></p><pre><code>a b\n</code></pre>"
    assert load_hooks().identifiers_unbroken(html) == (
        '<p><code class="gm-nowrap">graph_built</code> and <code>with torch.no_grad():</code></p>'
        "<pre><code>a b\n</code></pre>"
    )
