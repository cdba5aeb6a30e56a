"""Run at start-up by every Python process whose PYTHONPATH starts with this folder (``gradmode-run``,
``pytest --gradmode``): guards transformers Trainers when GRADMODE_GUARD asks, then runs the ``sitecustomize`` the
environment had otherwise (if any)."""

import importlib.machinery
import importlib.util
import os
import sys

try:
    from gradmode_plugin.launcher import bootstrap
except ImportError:  # gradmode-plugin is not importable in this interpreter: nothing to guard with
    pass
else:
    bootstrap()

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.machinery.PathFinder.find_spec(
    "sitecustomize", [p for p in sys.path if os.path.abspath(p or os.curdir) != _here]
)
if _spec is not None and _spec.loader is not None:
    _module = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(_module)
