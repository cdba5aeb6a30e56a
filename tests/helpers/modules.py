"""Loading a Python file that is no importable module (a script under ``scripts/``, the docs hooks) as one."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType


def load_module(path: Path, name: str, *, register: bool = False) -> ModuleType:
    """The module of ``path``, executed under ``name``; with ``register`` it is also put in ``sys.modules`` (where
    dataclasses and pickling look their module up by name)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    if register:
        sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
