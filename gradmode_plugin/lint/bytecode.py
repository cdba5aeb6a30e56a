"""Whether this Python has already compiled a file: its bytecode cache (``__pycache__/NAME.cpython-311.pyc``) was
written for this very source, by Python's own rule for using it.

A cache is written only after the whole file compiled, which checks more than the linter's syntax check does, so a
file with a valid cache needs no syntax check: only the pieces a rule looks at are parsed. Installed packages come
with caches (pip compiles what it installs), and so does every module a project has imported.

Python's rule, which this module applies with the public ``importlib.util`` pieces: the cache starts with this
interpreter's magic number, then either a hash of the source (checked here, whatever the cache says about checking it)
or the source's modification time in whole seconds and its size. The second kind is what Python itself trusts on
import; it cannot tell a file edited within the same second to the same size from the one compiled.

Example:
    >>> import os, py_compile, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "m.py")
    >>> with open(path, "w") as file:
    ...     _ = file.write("x = 1\\n")
    >>> compiled_by_this_python(path, b"x = 1\\n", os.stat(path))
    False
    >>> _ = py_compile.compile(path)
    >>> compiled_by_this_python(path, b"x = 1\\n", os.stat(path))
    True
"""

from __future__ import annotations

import importlib.util
import os
from typing import Final

#: Flags word of a cache: bit 0, the source's hash in place of its time and size; bit 1, check that hash on import.
_HASH_BASED: Final = 0b01
_KNOWN_FLAGS: Final = 0b11
_HEADER: Final = 16


def compiled_by_this_python(path: str, source: bytes, stat: os.stat_result) -> bool:
    """Whether ``path``'s bytecode cache for this Python was compiled from ``source`` (``stat``: the file's, taken
    when it was read). False wherever that cannot be told: no cache, another Python's, a header not understood."""
    try:
        cache = importlib.util.cache_from_source(path)
    except (NotImplementedError, ValueError):  # no cache tag (an interpreter without bytecode caches)
        return False
    try:
        with open(cache, "rb") as file:
            header = file.read(_HEADER)
    except OSError:
        return False
    if len(header) < _HEADER or header[:4] != importlib.util.MAGIC_NUMBER:
        return False
    flags = int.from_bytes(header[4:8], "little")
    if flags & ~_KNOWN_FLAGS:
        return False
    if flags & _HASH_BASED:
        return header[8:16] == importlib.util.source_hash(source)
    return (
        int.from_bytes(header[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
        and int.from_bytes(header[12:16], "little") == len(source) & 0xFFFFFFFF
    )
