"""Parse only what a rule can look at: the top-level definitions that name a trigger word, and every statement
between definitions (imports, constants, script code).

Parsing is most of a run's time, and most definitions of a model file (configs, embeddings, MLPs) name nothing a
rule looks for. The pieces not parsed into a tree are still checked for syntax (:func:`check_syntax`, the compiler's
own parser without building a tree): a file that does not parse is a finding wherever its error is. A file is cut
at lines that start a top-level ``def``/``class`` (or its decorators), where no triple-quoted string is open; each
piece keeps its line numbers. Anything unusual (a piece that does not parse, an encoding declaration, what the
caller names: threads, whose workers may be defined anywhere) parses the whole file instead.

Example:
    >>> from gradmode_plugin.lint.triggers import Triggers
    >>> source = b"import torch\\n\\n\\ndef f():\\n    return 1\\n\\n\\ndef g(x):\\n    return x.eval()\\n"
    >>> tree = parse_relevant(source, Triggers(source), whole=False)
    >>> [type(node).__name__ for node in tree.body], tree.body[-1].lineno
    (['Import', 'FunctionDef'], 8)
"""

from __future__ import annotations

import _symtable
import ast
import itertools
import re
from typing import Final

from gradmode_plugin.lint.triggers import Triggers

#: A line that starts a top-level definition, from the newline before it: a literal first byte lets the regular
#: expression engine skip to each newline (seven times faster than ``^`` with ``re.MULTILINE``).
_TOP_LEVEL: Final = re.compile(rb"\n(?:@|def |class |async def )")
#: How far back a definition's blank line and the line before it are looked for.
_LOOK_BACK: Final = 2000
_CODING: Final = re.compile(rb"^[ \t\f]*#.*?coding[:=]", re.MULTILINE)


def _boundaries(source: bytes) -> list[int]:
    """Offsets of lines that start a top-level definition outside any triple-quoted string, after a blank line
    and not after a decorator (a definition is cut off from nothing it needs)."""
    cuts: list[int] = []
    double = single = 0
    last = 0
    for match in _TOP_LEVEL.finditer(source):
        start = match.start() + 1
        double += source.count(b'"""', last, start)
        single += source.count(b"'''", last, start)
        last = start
        if double % 2 or single % 2:
            continue  # inside a docstring (a `def` of an example at column 0)
        if not _after_blank(source, start):
            continue  # right after code: a decorator (perhaps over several lines) or a continued statement
        cuts.append(start)
    return cuts


def _after_blank(source: bytes, start: int) -> bool:
    """Whether the line before ``start`` (a line start) is blank (spaces and tabs only) and the line before that is
    no decorator nor a closing bracket at column 0, both within ``_LOOK_BACK`` bytes: two ``rfind`` calls where a
    regular expression searched the whole window."""
    blank = source.rfind(b"\n", 0, start - 1) + 1
    if blank == 0 or source[blank : start - 1].strip(b" \t"):
        return False
    before = source.rfind(b"\n", 0, blank - 1) + 1
    return (
        before > 0 and before - 1 >= start - _LOOK_BACK and source[before : before + 1] not in (b"@", b")", b"]", b"}")
    )


def check_syntax(source: bytes, path: str = "<unknown>", first_line: int = 1) -> None:
    """Whether ``source`` compiles, without building a syntax tree: the compiler's parser and symbol table (C code,
    about two thirds of ``ast.parse``'s time), for the code no rule looks at. ``first_line``: where ``source``
    starts in its file, for the error's line.

    Raises:
        SyntaxError: it does not parse (or its names are declared impossibly, ``nonlocal`` at module level, ...;
            also for null bytes).
    """
    try:
        _symtable.symtable(b"\n" * (first_line - 1) + source, path, "exec")
    except ValueError as err:  # null bytes, on the Pythons that say so with a ValueError
        raise SyntaxError(str(err)) from err


def parse_relevant(
    source: bytes, triggers: Triggers, whole: bool, path: str = "<unknown>", compiled: bool = False
) -> ast.Module:
    """A module holding the statements of ``source`` a rule may look at (the first piece, and every piece with a
    trigger), with their own line numbers; the whole module where ``whole`` (or the file declares an encoding). The
    other pieces are checked for syntax, unless ``compiled``: this Python compiled the file already
    (:mod:`gradmode_plugin.lint.bytecode`).

    Raises:
        SyntaxError: the file does not parse (as ``ast.parse`` would).
        ValueError: the file has null bytes.
    """
    if whole or _CODING.search(source, 0, 400):
        return ast.parse(source, filename=path)
    cuts = _boundaries(source)
    if not cuts:
        return ast.parse(source, filename=path)
    body: list[ast.stmt] = []
    line = 1
    edges = [0, *cuts, len(source)]
    for start, end in itertools.pairwise(edges):
        piece = source[start:end]
        try:
            if start == 0 or triggers.in_bytes(start, end):
                body.extend(ast.parse(b"\n" * (line - 1) + piece, filename=path).body)
            elif not compiled:
                check_syntax(piece, path, line)
        except (SyntaxError, ValueError):
            return ast.parse(source, filename=path)  # a cut in the wrong place, or an error: the whole file decides
        line += piece.count(b"\n")
    return ast.Module(body=body, type_ignores=[])
