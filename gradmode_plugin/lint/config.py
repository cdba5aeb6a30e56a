"""Settings of ``gradmode-lint`` from the ``[tool.gradmode-lint]`` table of a ``pyproject.toml``.

The table is looked for in the file given with ``--config``, else in the nearest ``pyproject.toml`` that has one,
from the working directory up. Exclude patterns are relative to that file's folder.

Example ``pyproject.toml``::

    [tool.gradmode-lint]
    select = ["GM"]
    ignore = ["GM104"]
    exclude = ["tests/fixtures", "legacy/*.py"]
    eval-functions = ["evaluate", "run_*_eval"]
    tests = true
"""

from __future__ import annotations

import dataclasses
import functools
import re
import sys
from pathlib import Path
from typing import Any, Final

from gradmode_plugin.lint.rules import select_codes

TABLE: Final = "gradmode-lint"
#: Every key of the table, and what it holds.
KEYS: Final[dict[str, str]] = {
    "select": "rule codes or prefixes to check (default: every rule but the opt-in GM401, which naming it selects)",
    "ignore": "rule codes or prefixes not to check",
    "exclude": "paths or glob patterns, relative to the pyproject.toml, not to check",
    "eval-functions": "names (glob patterns) of further evaluation functions, checked like a validation_step",
    "tests": "true: also check test code (test_*.py, *_test.py, conftest.py, test/tests/testing folders, test_* "
    "functions) for GM402, GM501, GM502, GM503 and GM801, which are off there by default",
}


class ConfigError(Exception):
    """Settings that cannot be used; the message names the file, the key and what is allowed."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """What to check and where.

    Attributes:
        select: codes or prefixes to check; ``None``: every rule.
        ignore: codes or prefixes not to check.
        exclude: path patterns not to check, relative to ``root``.
        eval_functions: further names of evaluation functions (glob patterns).
        tests: whether test code is checked for the rules quiet there by default (``TEST_QUIET_CODES``).
        root: the folder exclude patterns are relative to.
        source: the ``pyproject.toml`` the settings came from, if any.
    """

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    eval_functions: tuple[str, ...] = ()
    tests: bool = False
    root: Path = dataclasses.field(default_factory=Path.cwd)
    source: Path | None = None


def _toml_loads(text: str, path: Path) -> dict[str, Any]:
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        try:
            import tomli as tomllib
        except ImportError as err:
            raise ConfigError(
                f"{path}: [tool.{TABLE}] settings need Python 3.11 or the tomli package (pip install tomli)"
            ) from err
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from err


def _table(path: Path) -> dict[str, Any] | None:
    """The ``[tool.gradmode-lint]`` table of a pyproject.toml, or None where it has none."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ConfigError(f"{path}: cannot be read: {err.strerror}") from err
    if f"tool.{TABLE}" not in text and f'"{TABLE}"' not in text:  # no table: no need to parse the file
        return None
    table = _toml_loads(text, path).get("tool", {}).get(TABLE)
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: tool.{TABLE} must be a table ([tool.{TABLE}])")
    return table


_LOWER_BOUND: Final = re.compile(r"^\s*(>=|~=|==|>)\s*3\.(\d+)")


@functools.lru_cache(maxsize=256)
def required_python(folder: Path) -> tuple[str, tuple[int, int]] | None:
    """What the nearest ``pyproject.toml`` from ``folder`` up says of Python (``[project] requires-python``), with
    the oldest version it allows: ``(">=3.12", (3, 12))``; None where it says nothing of a Python 3 version."""
    for candidate in (folder, *folder.parents):
        path = candidate / "pyproject.toml"
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
            spec = (
                _toml_loads(text, path).get("project", {}).get("requires-python") if "requires-python" in text else None
            )
        except (OSError, ConfigError):
            return None
        if not isinstance(spec, str):
            return None
        bounds = [
            (3, int(match[2]) + (match[1] == ">"))
            for clause in spec.split(",")
            if (match := _LOWER_BOUND.match(clause)) is not None
        ]
        return (spec.strip(), max(bounds)) if bounds else None
    return None


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` with a ``[tool.gradmode-lint]`` table, from ``start`` up."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and _table(candidate) is not None:
            return candidate
    return None


def load_settings(config: Path | None = None, start: Path | None = None) -> Settings:
    """Settings from ``config`` (a pyproject.toml), else from the nearest one with the table, else the defaults.

    Raises:
        ConfigError: a missing file, invalid TOML, an unknown key, a value of the wrong type or an unknown code.
    """
    start = (start or Path.cwd()).resolve()
    if config is not None:
        if not config.is_file():
            raise ConfigError(f"{config}: no such file (--config names a pyproject.toml)")
        path: Path | None = config.resolve()
    else:
        path = find_pyproject(start)
    if path is None:
        return Settings(root=start)
    table = _table(path) or {}
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        allowed = "; ".join(f"{key}: {meaning}" for key, meaning in KEYS.items())
        raise ConfigError(f"{path}: [tool.{TABLE}] has no setting {', '.join(map(repr, unknown))}; allowed: {allowed}")
    tests = table.get("tests", False)
    if not isinstance(tests, bool):
        raise ConfigError(f"{path}: [tool.{TABLE}] tests must be true or false, not {tests!r}")
    values = {key: _strings(path, key, value) for key, value in table.items() if key != "tests"}
    try:
        select_codes(values.get("select"), values.get("ignore", ()))
    except ValueError as err:
        raise ConfigError(f"{path}: [tool.{TABLE}] {err}") from err
    return Settings(
        select=values.get("select"),
        ignore=values.get("ignore", ()),
        exclude=values.get("exclude", ()),
        eval_functions=values.get("eval-functions", ()),
        tests=tests,
        root=path.parent,
        source=path,
    )


def _strings(path: Path, key: str, value: object) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(
            f'{path}: [tool.{TABLE}] {key} must be a list of strings, e.g. {key} = ["..."], not {value!r}'
        )
    return tuple(value)
