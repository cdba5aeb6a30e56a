"""A file this Python has compiled (a bytecode cache written for its very source) skips the syntax check of the
pieces no rule looks at, with the same findings; any other cache (stale, another Python's, a hash that does not
match) changes nothing: a syntax error is still GM999."""

from __future__ import annotations

import importlib.util
import os
import py_compile
from pathlib import Path

import pytest

from gradmode_plugin.lint import parsing, runner
from gradmode_plugin.lint.bytecode import compiled_by_this_python
from gradmode_plugin.lint.rules import select_codes
from gradmode_plugin.lint.runner import lint_files

#: A file with a finding (GM101) and a definition no rule looks at, whose syntax check a cache makes needless.
VALID = (
    b"import torch.nn.functional as F\n\n\ndef quiet(x):\n    return x\n\n\ndef forward(x):\n    return F.dropout(x)\n"
)
#: The same file broken in the definition no rule looks at.
BROKEN = VALID.replace(b"def quiet(x):", b"def quiet(x:")
#: The same length as VALID: a cache that compares sizes cannot tell them apart.
BROKEN_SAME_SIZE = VALID.replace(b"return x\n", b"return :\n")
INVALIDATION = {
    "timestamp": py_compile.PycInvalidationMode.TIMESTAMP,
    "checked_hash": py_compile.PycInvalidationMode.CHECKED_HASH,
    "unchecked_hash": py_compile.PycInvalidationMode.UNCHECKED_HASH,
}


@pytest.fixture
def syntax_checks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths whose syntax was checked apart from parsing, in this process."""
    seen: list[str] = []
    check = parsing.check_syntax

    def counting(source: bytes, path: str = "<unknown>", first_line: int = 1) -> None:
        seen.append(path)
        check(source, path, first_line)

    monkeypatch.setattr(parsing, "check_syntax", counting)
    monkeypatch.setattr(runner, "check_syntax", counting)
    return seen


def _compiled(tmp_path: Path, source: bytes, mode: str) -> Path:
    path = tmp_path / "m.py"
    path.write_bytes(source)
    py_compile.compile(str(path), doraise=True, invalidation_mode=INVALIDATION[mode])
    return path


def _found(path: Path) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_files([str(path)], select_codes()).findings]


@pytest.mark.parametrize("mode", sorted(INVALIDATION))
def test_a_compiled_file_is_not_checked_again_and_finds_the_same(
    tmp_path: Path, mode: str, syntax_checks: list[str]
) -> None:
    path = _compiled(tmp_path, VALID, mode)
    assert compiled_by_this_python(str(path), VALID, os.stat(path))
    assert _found(path) == [(9, "GM101")]
    assert syntax_checks == []
    os.remove(importlib.util.cache_from_source(str(path)))
    assert _found(path) == [(9, "GM101")]
    assert syntax_checks, "without its cache the file's other piece is checked for syntax"


@pytest.mark.parametrize("mode", sorted(INVALIDATION))
def test_a_file_broken_after_it_was_compiled_is_gm999(tmp_path: Path, mode: str) -> None:
    path = _compiled(tmp_path, VALID, mode)
    path.write_bytes(BROKEN)  # one byte shorter: whatever the clock says, the cache is not this file's
    assert _found(path) == [(4, "GM999")]


@pytest.mark.parametrize("mode", ["checked_hash", "unchecked_hash"])
def test_a_hash_cache_tells_an_edit_of_the_same_size_in_the_same_second(tmp_path: Path, mode: str) -> None:
    path = _compiled(tmp_path, VALID, mode)
    assert len(BROKEN_SAME_SIZE) == len(VALID)
    stat = os.stat(path)
    path.write_bytes(BROKEN_SAME_SIZE)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert _found(path) == [(5, "GM999")]


def test_a_timestamp_cache_is_trusted_as_python_trusts_it(tmp_path: Path) -> None:
    """The documented blind spot: an edit to the same size with the same modification time (in whole seconds) is
    taken for the compiled file, as Python's import takes it."""
    path = _compiled(tmp_path, VALID, "timestamp")
    stat = os.stat(path)
    path.write_bytes(BROKEN_SAME_SIZE)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert _found(path) == [(9, "GM101")]  # the rules' piece is parsed; the broken one is not
    os.utime(path, (stat.st_atime, stat.st_mtime + 1))
    assert _found(path) == [(5, "GM999")]


def test_a_cache_of_another_python_or_unreadable_is_not_trusted(tmp_path: Path) -> None:
    path = _compiled(tmp_path, VALID, "timestamp")
    cache = Path(importlib.util.cache_from_source(str(path)))
    header = bytearray(cache.read_bytes())
    path.write_bytes(BROKEN)
    os.utime(path, ns=(os.stat(path).st_atime_ns, os.stat(path).st_mtime_ns))
    header[12:16] = len(BROKEN).to_bytes(4, "little")  # a header that would match, but for the magic number
    header[0] ^= 0xFF
    cache.write_bytes(bytes(header))
    assert not compiled_by_this_python(str(path), BROKEN, os.stat(path))
    assert _found(path) == [(4, "GM999")]
    cache.write_bytes(b"\x00" * 7)
    assert not compiled_by_this_python(str(path), BROKEN, os.stat(path))
