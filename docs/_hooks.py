"""MkDocs hook: the tables that registries hold are generated from them when the site is built, never copied.

A page asks for a table with a marker on a line of its own:

- ``<!-- table: kinds -->``: one row per entry of ``gradmode_plugin.kinds.REGISTRY``;
- ``<!-- table: lint-rules -->``: one row per rule of ``gradmode_plugin.lint.rules.RULES``.

Only fields that exist are read (a registry that grows or loses a field still builds).

The API page's docstrings cross-reference in Sphinx's roles (``:class:`~pkg.Name```), which the Python handler shows
as written: :func:`on_page_content` keeps the code and drops the role (and a leading ``~``'s module path).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

MARKER = re.compile(r"^<!-- table: ([\w-]+) -->$", re.MULTILINE)
#: A Sphinx role as rendered: ``:meth:<code>batch</code>``, ``:class:<code>~pkg.options.GuardOptions</code>``.
SPHINX_ROLE = re.compile(r":(?:class|func|meth|attr|data|mod|exc|obj):<code>(~)?([^<]*)</code>")


def _cell(value: Any) -> str:
    """A table cell: ``|`` escaped, line breaks joined, nothing for a missing value."""
    if value is None or value == "" or value == ():
        return "-"
    return " ".join(str(value).split()).replace("|", "\\|")


#: A call, dotted or not, with one level of nested parentheses: ``.train()``, ``Trainer(inference_mode=False)``.
_CALL = r"\.?[A-Za-z_][\w.]*\((?:[^()]|\([^()]*\))*\)"
#: Code in a registry's plain text: a span already in backticks (kept as it is), a ``with`` of a call, calls joined
#: by ``/``, an assignment (``training=self.training``, ``grad_mode='no_grad'``), a dotted name (``F.batch_norm``,
#: not ``e.g``) or a name with an underscore (``allow_train``).
CODE_IN_TEXT = re.compile(
    rf"`[^`]*`|with {_CALL}:"
    rf"|(?<![\w.`])(?:{_CALL}(?:/{_CALL})*|\w+=(?:'[^']*'|\w+(?:\.\w+)*)|[A-Za-z_]\w*(?:\.\w{{2,}})+|[A-Za-z]\w*_\w+)"
)


def code_spans(text: str) -> str:
    """``text`` (a registry's plain sentence) with the code in it in backticks, so the page shows it as code."""

    def code(match: re.Match[str]) -> str:
        found = match.group(0)
        if found.startswith("`"):
            return found
        # calls joined by "/" are code each: the line may break between them
        return "/".join(f"`{part}`" for part in re.split(r"/(?=\.?[A-Za-z_])", found))

    return CODE_IN_TEXT.sub(code, text)


def _codes(names: Iterable[str]) -> str:
    return ", ".join(f"`{name}`" for name in names) or "-"


def kinds_table() -> str:
    """The kinds table: name, what happened, the fix, the lint rules that find the bug before the run, risk or
    violation."""
    from gradmode_plugin.kinds import REGISTRY

    rows = [
        "| kind | what happened | fix | before the run (`gradmode-lint`) | reported as |",
        "|---|---|---|---|---|",
    ]
    for kind in REGISTRY:
        check = getattr(kind, "check", None)
        summary = getattr(kind, "summary", None) or getattr(check, "summary", None)
        hint = getattr(kind, "hint", None) or getattr(check, "hint", None)
        rules = getattr(kind, "rules", ())
        risk = getattr(kind, "risk", False)
        rows.append(
            f"| `{kind.name}` | {code_spans(_cell(summary))} | {code_spans(_cell(hint))} | {_codes(rules)} | "
            f"{'a risk (`report.risks`)' if risk else 'a violation'} |"
        )
    return "\n".join(rows)


def lint_rules_table() -> str:
    """The lint rules table: code, what it finds (and why and the fix, where the rule says), the runtime kinds."""
    from gradmode_plugin.lint import rules as registry

    rules = getattr(registry, "RULES", ())

    def present(field: str) -> bool:  # a text field (not a method such as ``Rule.message()``) some rule fills
        return any(isinstance(getattr(rule, field, None), str) and getattr(rule, field) for rule in rules)

    what = next((field for field in ("what", "message", "summary") if present(field)), None)
    named = ((what, "what"), ("why", "why"), ("fix", "fix"))
    columns = [(field, title) for field, title in named if field and present(field)]
    header = ["code", *(title for _, title in columns), "runtime kind"]
    rows = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for rule in rules:
        kinds = getattr(rule, "kinds", None)
        if kinds is None:
            kind = getattr(rule, "kind", None)
            kinds = (kind,) if kind else ()
        texts = (getattr(rule, field, None) for field, _ in columns)
        cells = [f"`{rule.code}`", *(_cell(text if isinstance(text, str) else None) for text in texts), _codes(kinds)]
        if getattr(rule, "opt_in", False) and len(cells) > 2:
            cells[1] = f"(opt-in) {cells[1]}"  # checked only where `select` names it
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(rows)


TABLES: dict[str, Callable[[], str]] = {"kinds": kinds_table, "lint-rules": lint_rules_table}


def render(markdown: str) -> str:
    """``markdown`` with every table marker replaced by its table; an unknown marker is an error."""

    def table(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in TABLES:
            raise ValueError(f"unknown generated table {name!r}; known: {', '.join(TABLES)}")
        return TABLES[name]()

    return MARKER.sub(table, markdown)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """MkDocs' page hook."""
    return render(markdown)


def without_roles(html: str) -> str:
    """``html`` with every rendered Sphinx role reduced to its code (``~a.b.C`` to ``C``, as Sphinx shows it)."""

    def code(match: re.Match[str]) -> str:
        target = match.group(2)
        return f"<code>{target.rpartition('.')[2] if match.group(1) else target}</code>"

    return SPHINX_ROLE.sub(code, html)


#: Inline code without whitespace: an identifier, a call, an option (``training=self.training``, ``graph_built``).
IDENTIFIER = re.compile(r"<code>([^<\s]+)</code>")


def identifiers_unbroken(html: str) -> str:
    """``html`` with every inline code without whitespace marked ``gm-nowrap``: the site's CSS keeps it on one line,
    so a narrow column does not break ``graph_built`` into ``graph_bui`` and ``lt``."""
    return IDENTIFIER.sub(r'<code class="gm-nowrap">\1</code>', html)


def on_page_content(html: str, **kwargs: Any) -> str:
    """MkDocs' hook on a page's HTML (the API page's docstrings are rendered into it)."""
    return identifiers_unbroken(without_roles(html))
