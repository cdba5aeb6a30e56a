"""Where the words a rule looks for occur in a file: what lets a run skip files, top-level definitions and
statements that cannot have a finding (parsing and walking are nearly all of its time).

Literal searches, each occurrence then checked around it: many times faster than one regular expression.

Example:
    >>> words = Triggers(b"import torch\\n\\nx = self.dropout(x)\\ny = F.dropout(y)\\nmodel.eval()\\n")
    >>> words.lines
    [4, 5]
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable
from typing import Final

from gradmode_plugin.lint.rules import RULES

#: A file naming none of these has no finding: whatever a rule calls is named in the file, if only in an import.
#: Each rule states its own words (``Rule.words``); a rule without is one that needs no parse (``GM999``).
FILE_WORDS: Final[tuple[bytes, ...]] = tuple(sorted({word for rule in RULES for word in rule.words}))
#: The rules' words a trigger is checked around (below: a call of dropout or ``backward``, a quoted ``"params"``, a
#: whole ``.train``/``.eval``); every other word a rule states triggers wherever it occurs, so a new rule's words
#: trigger the definitions that name them with nothing to add here.
_CHECKED_WORDS: Final = frozenset({b"dropout", b"backward", b"params", b".train", b".eval"})
PLAIN_WORDS: Final[tuple[bytes, ...]] = tuple(word for word in FILE_WORDS if word not in _CHECKED_WORDS)
#: Names that, imported under another name, make that name a trigger too.
ALIASED_WORDS: Final[tuple[bytes, ...]] = (
    b"dropout",
    b"scaled_dot_product_attention",
    b"enable_grad",
    b"set_grad_enabled",
    b"backward",
    b"Thread",
)
_DROPOUT_PREFIXES: Final = (b"feature_alpha_", b"alpha_", b"feature_")


def _any_word(words: Iterable[bytes]) -> re.Pattern[bytes]:
    return re.compile(b"|".join(re.escape(word) for word in words) or rb"(?!)")


_ALIASED_WORD: Final = _any_word(ALIASED_WORDS)


#: The words that start with ``def `` (the evaluation functions GM502 looks for), found by one regular expression:
#: the engine skips to each ``def `` they share, eight times faster than a search of the file for each word.
_DEF_WORD: Final = _any_word(word for word in FILE_WORDS if word.startswith(b"def "))
#: The other words, each searched for; the most frequent first, so that most files stop at the first search.
_FREQUENT: Final = (b"dropout", b"parameters(", b"params", b".train", b".eval", b"backward")
_OTHER_WORDS: Final = tuple(
    sorted(
        (word for word in FILE_WORDS if not word.startswith(b"def ")),
        key=lambda word: _FREQUENT.index(word) if word in _FREQUENT else len(_FREQUENT),
    )
)
_OTHER_PLAIN_WORDS: Final = tuple(word for word in PLAIN_WORDS if not word.startswith(b"def "))


def may_find(source: bytes) -> bool:
    """Whether a file names anything a rule looks for."""
    return any(word in source for word in _OTHER_WORDS) or _DEF_WORD.search(source) is not None


def _word_char(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122


def _before(source: bytes, at: int) -> int:
    return source[at - 1] if at > 0 else 32


def _after(source: bytes, at: int) -> int:
    return source[at] if at < len(source) else 32


def _opens_call(source: bytes, at: int) -> bool:
    while at < len(source) and source[at] in b" \t":
        at += 1
    return _after(source, at) == 40  # "("


def _dropout_call(source: bytes, at: int) -> bool:
    """``F.dropout(``, ``torch.alpha_dropout_(``, ``dropout2d (``; not ``self.dropout(`` (a module) nor
    ``attn_dropout(``."""
    end = at + len(b"dropout")
    if source[end : end + 2] in (b"1d", b"2d", b"3d"):
        end += 2
    if _after(source, end) == 95:  # in-place variant
        end += 1
    if not _opens_call(source, end):
        return False
    start = at
    for prefix in _DROPOUT_PREFIXES:
        if source.endswith(prefix, 0, at):
            start = at - len(prefix)
            break
    return not _word_char(_before(source, start)) and not source.endswith(b"self.", 0, start)


def _offsets(source: bytes, word: bytes) -> Iterable[int]:
    at = source.find(word)
    while at != -1:
        yield at
        at = source.find(word, at + 1)


def _attribute_offsets(source: bytes, word: bytes) -> list[int]:
    """Offsets of ``word`` (``.eval``) not followed by a name's character."""
    return [at for at in _offsets(source, word) if not _word_char(_after(source, at + len(word)))]


def trigger_offsets(source: bytes, aliases: Iterable[str] = (), evals: list[int] | None = None) -> list[int]:
    """Sorted offsets of every trigger: a call of a dropout function, ``scaled_dot_product_attention``,
    ``.train``/``.eval``/``.grad``, ``enable_grad``, ``set_grad_enabled``, a ``backward(`` call, ``manual_backward``,
    ``volatile``,
    ``parameters(``, a ``"params"`` key, ``Thread``, and the given alias names as whole words. ``evals``: the
    offsets of ``.eval`` where the caller has them already."""
    found: list[int] = []
    for at in _offsets(source, b"dropout"):
        if _dropout_call(source, at):
            found.append(at)
    for word in _OTHER_PLAIN_WORDS:
        found.extend(_offsets(source, word))
    found.extend(match.start() for match in _DEF_WORD.finditer(source))
    found.extend(_attribute_offsets(source, b".eval") if evals is None else evals)
    for word in (b".train", b".grad"):  # `.grad`: a hand-written SGD step (`w -= lr * w.grad`)
        found.extend(_attribute_offsets(source, word))
    for at in _offsets(source, b"backward"):  # `manual_backward` too: one search for both
        if source.endswith(b"manual_", 0, at):
            found.append(at - len(b"manual_"))
        elif not _word_char(_before(source, at)) and _opens_call(source, at + len(b"backward")):
            found.append(at)
    for at in _offsets(source, b"params"):
        quote = _before(source, at)
        if quote in b"\"'" and _after(source, at + len(b"params")) == quote:
            found.append(at)
    for alias in aliases:
        word = alias.encode()
        for at in _offsets(source, word):
            if not _word_char(_before(source, at)) and not _word_char(_after(source, at + len(word))):
                found.append(at)
    found.sort()
    return found


def aliased_import(source: bytes) -> bool:
    """Whether a trigger name is imported under another name (``import ... dropout as drop``)."""
    for at in _offsets(source, b" as "):
        line = source.rfind(b"\n", 0, at) + 1
        if not _ALIASED_WORD.search(source, line, at):
            continue  # the name before ` as ` is on its line: no trigger name there, none in it
        start = at
        while start > 0 and _word_char(source[start - 1]):
            start -= 1
        name = source[start:at]
        if name and any(word in name for word in ALIASED_WORDS):
            return True
    return False


class Triggers:
    """The trigger occurrences of a file, by offset and by line, for "anything in this range?"."""

    __slots__ = ("_eval_lines", "_offsets", "lines")

    def __init__(self, source: bytes, aliases: Iterable[str] = ()) -> None:
        evals = _attribute_offsets(source, b".eval")
        self._offsets = trigger_offsets(source, aliases, evals)
        self.lines = self._to_lines(source, self._offsets)
        self._eval_lines = self._to_lines(source, evals)

    @staticmethod
    def _to_lines(source: bytes, offsets: list[int]) -> list[int]:
        lines: list[int] = []
        line, last = 1, 0
        for at in offsets:
            line += source.count(b"\n", last, at)
            last = at
            if not lines or lines[-1] != line:
                lines.append(line)
        return lines

    @staticmethod
    def _within(values: list[int], start: int, end: int) -> bool:
        index = bisect.bisect_left(values, start)
        return index < len(values) and values[index] <= end

    def in_bytes(self, start: int, end: int) -> bool:
        """Whether a trigger starts in ``source[start:end]``."""
        return self._within(self._offsets, start, end - 1)

    def in_lines(self, start: int, end: int) -> bool:
        """Whether a trigger is on a line from ``start`` to ``end`` (inclusive)."""
        return self._within(self.lines, start, end)

    def eval_in_lines(self, start: int, end: int) -> bool:
        """Whether ``.eval`` is on a line from ``start`` to ``end`` (inclusive)."""
        return self._within(self._eval_lines, start, end)

    def any_eval(self) -> bool:
        return bool(self._eval_lines)
