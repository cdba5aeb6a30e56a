"""The documentation site in a real browser: headless Chromium opens three pages at a stated viewport width, saves a
screenshot of each and measures what a reader would meet there.

For each page (the index, the kinds table, the linter's page), at ``--width`` CSS pixels (1280 by default):

- no code block, table or other box of the page's content is wider than the room it has (a horizontal scroll hides
  the end of the line);
- no identifier (inline code without a space) is broken across lines (``graph_bui`` / ``lt``);
- on the kinds page, the fix column shows code as code (in half its rows or more, and no backtick as text).

The site is built from this checkout (``mkdocs build --strict``) unless ``--site`` names a built one; it is opened
from the file system (``file://``), as a reader opens a downloaded build. Screenshots go to ``--out``
(``<page>-<width>px.png``). Exit status 0 when every page passes, 1 when any does not (each problem listed), 2 when
no Chromium is found (``apt-get install chromium`` on Debian, or ``--chromium PATH``).

    python scripts/check_docs_layout.py --out /tmp/layout     # about half a minute
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: The pages checked, as built with ``use_directory_urls: false``.
PAGES = ("index.html", "kinds.html", "lint.html")
#: The viewport width the issue of record was seen at: a common laptop window.
WIDTH = 1280
HEIGHT = 2000
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: Run in the page once it has loaded; the findings are left on <body data-gm-layout="..."> for --dump-dom to show.
MEASURE = """
<script>
window.addEventListener("load", () => {
  const problems = [];
  const content = document.querySelector(".md-content__inner") || document.body;
  const say = (el, what) => problems.push(what + ": " + (el.textContent || "").trim().slice(0, 60));
  for (const el of content.querySelectorAll("pre, pre > code, .md-typeset__table, table, p, li")) {
    const [wide, room] = [el.scrollWidth, el.clientWidth];
    if (wide > room + 1) say(el, "wider than its box (" + wide + " > " + room + " px)");
  }
  const right = content.getBoundingClientRect().right;
  for (const el of content.querySelectorAll("table, pre")) {
    if (el.getBoundingClientRect().right > right + 1) say(el, "past the content's right edge");
  }
  for (const el of content.querySelectorAll("code.gm-nowrap")) {
    if (el.getClientRects().length > 1) say(el, "identifier broken across lines");
  }
  const kinds = [...content.querySelectorAll("table")].find(t => /\\bfix\\b/.test(t.tHead ? t.tHead.textContent : ""));
  if (location.pathname.endsWith("kinds.gmcheck.html")) {
    if (!kinds) problems.push("no kinds table with a fix column");
    else {
      const column = [...kinds.tHead.rows[0].cells].findIndex(c => c.textContent.trim() === "fix");
      const cells = [...kinds.tBodies[0].rows].map(row => row.cells[column]);
      for (const cell of cells) if (cell.textContent.includes("`")) say(cell, "a backtick shown as text");
      if (cells.filter(cell => cell.querySelector("code")).length * 2 < cells.length) {
        problems.push("the fix column shows code in fewer than half of its rows");
      }
    }
  }
  document.body.setAttribute("data-gm-layout", JSON.stringify({width: window.innerWidth, problems}));
});
</script>
"""


def find_chromium(explicit: str | None = None) -> str | None:
    """The Chromium (or Chrome) to run: ``explicit``, else the first of the usual names on PATH."""
    if explicit:
        return explicit
    return next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)


def build_site(site: Path) -> None:
    """``mkdocs build --strict`` of this checkout into ``site``."""
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        cwd=REPO,
        check=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )


def _chromium(chromium: str, width: int, *args: str, timeout: float = 120) -> str:
    command = [
        chromium,
        "--headless",
        "--no-sandbox",  # as root in a container, Chromium's sandbox cannot start
        "--disable-gpu",
        "--hide-scrollbars",
        "--allow-file-access-from-files",
        "--virtual-time-budget=5000",
        f"--window-size={width},{HEIGHT}",
        *args,
    ]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return proc.stdout


def check_page(chromium: str, site: Path, page: str, width: int, out: Path | None) -> list[str]:
    """The layout problems of ``site/page`` at ``width`` px; a screenshot of it in ``out`` when given."""
    source = site / page
    probe = source.with_name(source.stem + ".gmcheck.html")
    probe.write_text(source.read_text().replace("</body>", MEASURE + "</body>", 1))
    try:
        dom = _chromium(chromium, width, "--dump-dom", probe.as_uri())
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            shot = out / f"{source.stem}-{width}px.png"
            _chromium(chromium, width, f"--screenshot={shot}", source.as_uri())
    finally:
        probe.unlink()
    found = re.search(r'data-gm-layout="([^"]*)"', dom)
    if found is None:
        return [f"{page}: the measuring script did not run"]
    result = json.loads(html.unescape(found.group(1)))
    problems = [f"{page}: {problem}" for problem in result["problems"]]
    if result["width"] != width:
        problems.append(f"{page}: the window was {result['width']} px wide, not {width}")
    return problems


def check_site(chromium: str, site: Path, width: int = WIDTH, out: Path | None = None) -> list[str]:
    """The layout problems of the three pages of ``site`` at ``width`` px."""
    return [problem for page in PAGES for problem in check_page(chromium, site, page, width, out)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build this checkout's)")
    parser.add_argument("--width", type=int, default=WIDTH, help=f"viewport width in CSS pixels (default {WIDTH})")
    parser.add_argument("--out", type=Path, help="folder for the screenshots")
    parser.add_argument("--chromium", help="the browser to run (default: chromium on PATH)")
    args = parser.parse_args(argv)
    chromium = find_chromium(args.chromium)
    if chromium is None:
        print("no Chromium found: apt-get install chromium (Debian), or --chromium PATH", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            build_site(site)
        problems = check_site(chromium, site, args.width, args.out)
    for problem in problems:
        print(problem)
    print(f"{len(PAGES)} pages at {args.width} px: " + (f"{len(problems)} problem(s)" if problems else "no problem"))
    if args.out is not None:
        print(f"screenshots in {args.out}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
