"""Which code is a test: files and folders by pytest's and unittest's conventions, and functions named ``test_*``.

A graph recorded while a test evaluates a small model costs that test's memory and nothing else, so the rules in
:data:`gradmode_plugin.lint.rules.TEST_QUIET_CODES` are off there unless ``tests = true``.

Example:
    >>> is_test_path("pkg/tests/unit/model.py"), is_test_path("src/model_test.py"), is_test_path("src/model.py")
    (True, True, False)
"""

from __future__ import annotations

import os
from typing import Final

#: Folders whose files are tests or test helpers (``allennlp/common/testing``, ``torch/testing``).
TEST_FOLDERS: Final[frozenset[str]] = frozenset({"test", "tests", "testing"})


def is_test_path(path: str) -> bool:
    """Whether a file is test code: ``test_*.py``, ``*_test.py``, ``conftest.py``, or under a ``test``/``tests``/
    ``testing`` folder (of the path as given, relative to where the linter runs when it is under it)."""
    if "test" not in path:
        return False  # every test name has it, and the relative path names nothing the path does not: no relpath
    relative = path
    if os.path.isabs(path):
        try:
            relative = os.path.relpath(path)
        except ValueError:  # another drive
            relative = path
        if relative.startswith(".."):
            relative = path
    parts = relative.replace("\\", "/").split("/")
    name = parts[-1]
    if name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py":
        return True
    return any(part in TEST_FOLDERS for part in parts[:-1])


#: ``test_*`` names that are evaluation code, not tests: Lightning's and mmengine's test steps, loops and loaders.
_EVALUATION_PREFIXES: Final = ("test_step", "test_epoch", "test_loop", "test_dataloader", "test_evaluator")


def is_test_function(name: str) -> bool:
    """Whether a function is a test: pytest collects ``test_*`` functions and methods (a research script's
    ``def test(model, loader)`` evaluates a model, and is not one; nor is a framework's ``test_step``)."""
    return name.startswith("test_") and not name.startswith(_EVALUATION_PREFIXES)
