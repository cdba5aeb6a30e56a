"""``gradmode-run``: run a command with every ``transformers.Trainer`` guarded, in it and in every Python process it
starts, the way ``coverage run`` or ``ddtrace-run`` instrument a program without a code change.

Lightning reads ``GRADMODE_GUARD`` through its callback entry points; transformers has no entry point for callbacks.
``gradmode-run`` sets ``GRADMODE_GUARD`` (``raise`` unless already set) and puts the folder of a ``sitecustomize``
module first on ``PYTHONPATH``, then runs the command. Every Python process started with that environment
(the command, ``torchrun``'s and ``accelerate launch``'s workers, ``subprocess`` children) runs the module at
start-up: it waits for ``transformers.trainer`` to be imported (an import hook that imports nothing itself) and then
appends the guard to transformers' ``DEFAULT_CALLBACKS``, so each Trainer built gets one
(:class:`~gradmode_plugin.hf.callback.EnvironmentGuard`). A ``sitecustomize`` the environment already had still
runs, after it. ``pytest --gradmode`` does the same for a test session.

Usage::

    gradmode-run python train.py --args ...
    GRADMODE_GUARD=record gradmode-run torchrun --nproc-per-node 2 train.py
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, Final

#: The folder put first on ``PYTHONPATH``: it holds only ``sitecustomize.py``.
BOOTSTRAP_DIR: Final[Path] = Path(__file__).resolve().parent / "_bootstrap"
#: The module whose import makes Trainers guardable.
TRAINER_MODULE: Final[str] = "transformers.trainer"

_USAGE = """usage: gradmode-run COMMAND [ARG ...]

Runs COMMAND with every transformers Trainer guarded (GRADMODE_GUARD, default raise), in it and in the Python
processes it starts. The variables of GRADMODE_GUARD apply: GRADMODE_GRAD_MODE, GRADMODE_ALLOW_TRAIN,
GRADMODE_CHECK_PARAMS. Example: gradmode-run python train.py --output_dir out"""


def environment(environ: dict[str, str] | None = None) -> dict[str, str]:
    """The environment ``gradmode-run`` gives its command: ``environ`` (default ``os.environ``) with
    ``GRADMODE_GUARD`` defaulting to ``raise`` and the bootstrap folder first on ``PYTHONPATH``."""
    env = dict(os.environ if environ is None else environ)
    env.setdefault("GRADMODE_GUARD", "raise")
    env["PYTHONPATH"] = with_bootstrap(env.get("PYTHONPATH", ""))
    return env


def with_bootstrap(pythonpath: str) -> str:
    """``pythonpath`` with the bootstrap folder first (once)."""
    parts = [p for p in pythonpath.split(os.pathsep) if p and Path(p).resolve() != BOOTSTRAP_DIR]
    return os.pathsep.join([str(BOOTSTRAP_DIR), *parts])


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``gradmode-run``: replaces this process with the command."""
    from gradmode_plugin.dropin import GuardEnvironmentError, options_from_environment

    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_USAGE, file=sys.stderr if not args else sys.stdout)
        return 2 if not args else 0
    env = environment()
    try:
        options_from_environment(env)  # a bad value is said before the command starts, not in each child
    except GuardEnvironmentError as err:
        print(f"gradmode-run: {err}", file=sys.stderr)
        return 2
    try:
        os.execvpe(args[0], args, env)
    except OSError as err:
        print(f"gradmode-run: cannot run {args[0]!r}: {err}", file=sys.stderr)
        return 127
    return 0  # not reached: exec replaced the process


class _AfterImport(importlib.abc.MetaPathFinder):
    """Calls ``then(module)`` right after ``name`` is imported (a post-import hook): finds the module's spec with the
    other finders and wraps its loader; imports nothing itself."""

    def __init__(self, name: str, then: Callable[[ModuleType], None]) -> None:
        self.name = name
        self.then = then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != self.name:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None and spec.loader is not None:
                spec.loader = _ThenLoader(spec.loader, self)
                return spec
        return None

    def remove(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)


class _ThenLoader(importlib.abc.Loader):
    def __init__(self, loader: Any, hook: _AfterImport) -> None:
        self._loader = loader
        self._hook = hook

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        module.__loader__ = self._loader  # the module keeps transformers' own loader (get_source, resources)
        self._loader.exec_module(module)
        self._hook.remove()
        self._hook.then(module)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._loader, name)


def guard_transformers() -> Callable[[], None]:
    """Every ``transformers.Trainer`` built from now on in this process gets the guard of ``GRADMODE_GUARD``: at
    once when transformers' trainer module is already imported, else right after it is. Returns the undo (exact)."""
    removals: list[Callable[[], None]] = []

    def register(_module: ModuleType | None = None) -> None:
        from gradmode_plugin.hf.callback import register_environment_guard

        removals.append(register_environment_guard())

    hook: _AfterImport | None = None
    if TRAINER_MODULE in sys.modules:
        register()
    else:
        hook = _AfterImport(TRAINER_MODULE, register)
        sys.meta_path.insert(0, hook)

    def undo() -> None:
        if hook is not None:
            hook.remove()
        for remove in removals:
            remove()
        removals.clear()

    return undo


def bootstrap() -> None:
    """What the bootstrap ``sitecustomize`` runs at start-up: guard Trainers when ``GRADMODE_GUARD`` asks for it."""
    from gradmode_plugin.dropin import guard_asked

    # A bad value is not judged here (Python would only print a line and go on unguarded): the guard made for
    # each Trainer reads the variables and raises, naming the variable, where the Trainer is built.
    if guard_asked():
        guard_transformers()


if __name__ == "__main__":
    sys.exit(main())
