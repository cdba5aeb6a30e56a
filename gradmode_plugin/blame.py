"""Which of the user's lines caused a finding: ``where`` and the cause of enabled grad mode.

Frames are classified by the origin of their file, never by folder names inside the path: *machinery* (the package
roots of torch, Lightning, Hydra, this package, and Python's standard library) is skipped; *installed* code (files
under a site-packages directory) is shown only when no frame of the user's own code is found; ``<frozen ...>``
frames are dropped; everything else is the user's own code.
"""

from __future__ import annotations

import functools
import gc
import importlib.util
import inspect
import linecache
import os
import re
import site
import sys
import sysconfig
import threading
from collections.abc import Iterator
from types import CodeType, FrameType
from typing import Any, Final, Literal

import torch

from gradmode_plugin._torch_internals import CONTEXTLIB_FILE

Origin = Literal["own", "installed", "machinery", "dropped"]

#: Packages whose frames are never the user's code that caused a finding.
MACHINERY_PACKAGES: Final[tuple[str, ...]] = (
    "torch",
    "lightning",
    "pytorch_lightning",
    "lightning_fabric",
    "lightning_utilities",
    "hydra",
    "omegaconf",
    "gradmode_plugin",
)

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
# The guard's example app is user code as far as a finding is concerned.
_OWN_IN_PACKAGE = os.path.join(_PACKAGE_DIR, "example") + os.sep


def _package_roots(names: tuple[str, ...]) -> tuple[str, ...]:
    roots = []
    for name in names:
        try:
            spec = importlib.util.find_spec(name)  # finds, does not import
        except (ImportError, ValueError):
            continue
        for location in (spec.submodule_search_locations or []) if spec else []:
            roots.append(os.path.abspath(location) + os.sep)
    return tuple(roots)


def _site_dirs() -> tuple[str, ...]:
    dirs = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    dirs.update(getattr(site, "getsitepackages", list)())
    user_site = getattr(site, "getusersitepackages", lambda: None)()
    if isinstance(user_site, str):
        dirs.add(user_site)
    dirs.update(p for p in sys.path if os.path.basename(p.rstrip(os.sep)) in ("site-packages", "dist-packages"))
    return tuple(os.path.abspath(d) + os.sep for d in dirs if d)


class _Origins:
    """Classifies source files once each (a dict lookup afterwards)."""

    def __init__(self) -> None:
        self._roots: tuple[str, ...] | None = None
        self._sites: tuple[str, ...] = ()
        self._stdlib: tuple[str, ...] = ()
        self._cache: dict[str, Origin] = {}

    def _load(self) -> tuple[str, ...]:
        if self._roots is None:
            self._sites = _site_dirs()
            paths = sysconfig.get_paths()
            self._stdlib = tuple(os.path.abspath(paths[k]) + os.sep for k in ("stdlib", "platstdlib") if k in paths)
            self._roots = _package_roots(MACHINERY_PACKAGES)
        return self._roots

    def of(self, filename: str) -> Origin:
        origin = self._cache.get(filename)
        if origin is None:
            origin = self._classify(filename)
            self._cache[filename] = origin
        return origin

    def _classify(self, filename: str) -> Origin:
        if filename.startswith("<frozen"):
            return "dropped"
        if filename.startswith("<"):
            return "own"  # <string>, <stdin>, doctests, exec'd code
        roots = self._load()
        path = os.path.abspath(filename)
        if path.startswith(_OWN_IN_PACKAGE):
            return "own"
        if path.startswith(roots):
            return "machinery"
        if path.startswith(self._sites):
            return "installed"
        if path.startswith(self._stdlib):
            return "machinery"
        return "own"


ORIGINS = _Origins()


def describe_frame(frame: FrameType) -> str:
    """``file:line in function: code``."""
    code = frame.f_code
    line = linecache.getline(code.co_filename, frame.f_lineno).strip()
    where = f"{code.co_filename}:{frame.f_lineno} in {code.co_name}"
    return f"{where}: {line}" if line else where


def _outward(frame: FrameType | None) -> Iterator[FrameType]:
    while frame is not None:
        yield frame
        frame = frame.f_back


class StepLocator:
    """Finds the evaluation step's own frame in a stack: the frame running ``step_code`` (a plain loop's body),
    or the outermost frame of the user's code inside a frame running ``marker_code`` (the guard's wrapper
    around a framework's step). ``thread_id`` is the evaluating thread, looked into for findings made elsewhere.
    """

    def __init__(self, thread_id: int | None = None) -> None:
        self.thread_id = thread_id if thread_id is not None else threading.get_ident()
        self.step_code: CodeType | None = None
        self.marker_code: CodeType | None = None

    def find(self, frame: FrameType | None) -> FrameType | None:
        last_own: FrameType | None = None
        for f in _outward(frame):
            if self.step_code is not None and f.f_code is self.step_code:
                return f
            if self.marker_code is not None and f.f_code is self.marker_code:
                return last_own
            if ORIGINS.of(f.f_code.co_filename) == "own":
                last_own = f
        return None

    def in_evaluating_thread(self) -> FrameType | None:
        """What the evaluating thread is running now: its innermost frame of the user's own code."""
        frame = _current_frames().get(self.thread_id)
        return next((f for f in _outward(frame) if ORIGINS.of(f.f_code.co_filename) == "own"), None)


def _current_frames() -> dict[int, FrameType]:
    """``sys._current_frames()`` with the garbage collector paused (and put back as it was): on Python 3.11 before
    3.11.9 a collection inside it can deadlock against the GIL (CPython gh-106883), a hang the guard would cause when
    a worker thread dies."""
    if not gc.isenabled():
        return sys._current_frames()
    gc.disable()
    try:
        return sys._current_frames()
    finally:
        gc.enable()


def where(skip: int = 1, *, step: StepLocator | None = None, depth: int = 3) -> str | None:
    """The user's source lines behind the caller, innermost first, joined by ``" <- "``.

    Up to ``depth`` frames of the user's own code (installed packages only when there is none), followed by the
    evaluation step's current line when ``step`` locates it further out, or, for a finding in another thread,
    the step's line in the evaluating thread (``while ...``).
    """
    frame: FrameType | None = sys._getframe(skip + 1)
    return _describe(list(_outward(frame)), frame, step, depth)


def where_raised(error: BaseException, *, step: StepLocator | None = None, depth: int = 3) -> str | None:
    """:func:`where` for an exception on its way up: the user's lines from where it was raised out to the caller's
    caller (the frames its traceback has passed through, then the current stack)."""
    raised: list[FrameType] = []
    tb = error.__traceback__
    while tb is not None:
        raised.append(tb.tb_frame)
        tb = tb.tb_next
    raised.reverse()  # innermost first
    caller = sys._getframe(2)
    outer = list(_outward(caller))
    return _describe(raised + [f for f in outer if f not in raised], caller, step, depth)


def _describe(frames: list[FrameType], stack: FrameType | None, step: StepLocator | None, depth: int) -> str | None:
    """``frames`` (innermost first) as the user's lines; ``stack`` is the live stack the step is looked for in."""
    own: list[FrameType] = []
    installed: list[FrameType] = []
    for f in frames:
        if len(own) >= depth:
            break
        origin = ORIGINS.of(f.f_code.co_filename)
        if origin == "own":
            own.append(f)
        elif origin == "installed" and len(installed) < depth:
            installed.append(f)
    parts = [describe_frame(f) for f in (own or installed)]
    if step is not None:
        step_frame = step.find(stack)
        if step_frame is not None:
            if step_frame not in own:
                parts.append(describe_frame(step_frame))
        elif threading.get_ident() != step.thread_id:
            other = step.in_evaluating_thread()
            if other is not None:
                parts.append(f"while {describe_frame(other)}")
    return " <- ".join(parts) or None


def code_location(fn: Any) -> str | None:
    """``file:line in name`` where ``fn`` is defined, when it is plain Python."""
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is None:
        return None
    return f"{code.co_filename}:{code.co_firstlineno} in {code.co_name}"


def grad_decorator(skip: int = 1) -> str | None:
    """``@torch.enable_grad() on fn (file:line)`` when a function decorated to enable grad encloses the caller.

    Such a decorator turns grad mode on for everything the function calls, evaluation included: the usual cause
    of grad mode found on at a batch boundary with no ``set_grad_enabled`` leak anywhere.
    """
    for f in _outward(sys._getframe(skip + 1)):
        filename = f.f_code.co_filename
        if not filename.endswith("_contextlib.py") or os.path.abspath(filename) != CONTEXTLIB_FILE:
            continue
        context = getattr(f.f_locals.get("ctx_factory"), "__self__", None)
        func = f.f_locals.get("func")
        if _enables_grad(context) and func is not None:
            name = getattr(func, "__qualname__", repr(func))
            enable = isinstance(context, torch.enable_grad)
            decorator = "@torch.enable_grad()" if enable else "@torch.set_grad_enabled(True)"
            location = code_location(func)
            return f"{decorator} on {name}" + (f" ({location})" if location else "")
    return None


def _enables_grad(context: object) -> bool:
    if isinstance(context, torch.enable_grad):
        return True
    return isinstance(context, torch.set_grad_enabled) and bool(getattr(context, "mode", False))


#: A method of a LightningModule that step or hook code runs in, not a module's forward.
_STEP_OR_HOOK: Final = re.compile(r"(?:\w+_step|on_\w+|\w+_epoch_end|setup|teardown|configure_\w+)")


@functools.lru_cache(maxsize=512)
def assignments(cls: type, attr: str) -> tuple[tuple[str, str], ...]:
    """Where the source of ``cls`` (its own classes, not torch's or Lightning's) stores ``attr`` on ``self``:
    ``(method name, "file:line in method: code")`` for each ``self.attr = ...``, ``self.attr[...] = ...``,
    ``register_buffer("attr", ...)``/``register_parameter`` or ``setattr(self, "attr", ...)``, ``__init__``'s last.
    A static reading: it names the lines that can store the attribute, not the call that did."""
    name = re.escape(attr)
    stores = re.compile(
        rf"\bself\.{name}\s*(?:\[[^\]]*\]\s*)?(?:=(?!=)|[-+*/]=)"
        rf"|register_(?:buffer|parameter)\(\s*[\"']{name}[\"']"
        rf"|setattr\(\s*self\s*,\s*[\"']{name}[\"']"
    )
    found: list[tuple[str, str]] = []
    for klass in cls.__mro__:
        if klass.__module__.split(".")[0] in MACHINERY_PACKAGES or klass.__module__ == "builtins":
            continue
        for method, value in vars(klass).items():
            fn = getattr(value, "__func__", value)
            code = getattr(fn, "__code__", None)
            if code is None:
                continue
            try:
                lines, first = inspect.getsourcelines(fn)
            except (OSError, TypeError):
                continue
            for offset, line in enumerate(lines):
                if stores.search(line):
                    found.append((method, f"{code.co_filename}:{first + offset} in {method}: {line.strip()}"))
    return tuple(sorted(found, key=lambda m: m[0] == "__init__"))


def stored_by_step_or_hook(methods: tuple[str, ...]) -> bool:
    """Whether every method that stores an attribute (:func:`assignments`) is a Lightning step or hook."""
    return bool(methods) and all(_STEP_OR_HOOK.fullmatch(m) for m in methods)


_ENABLES_GRAD: Final = re.compile(r"^\s*(?:async\s+)?with\b.*(?:enable_grad\s*\(|set_grad_enabled\s*\(\s*(?:True|1)\b)")


def grad_with_block(skip: int = 1) -> str | None:
    """``with torch.enable_grad(): (file:line in fn)``: the ``with`` block that encloses the caller's user code and
    turns grad mode on, read from the source of each of the user's frames outward (its nearest enclosing ``with``
    whose line enables grad)."""
    for f in _outward(sys._getframe(skip + 1)):
        code = f.f_code
        if ORIGINS.of(code.co_filename) != "own":
            continue
        current = linecache.getline(code.co_filename, f.f_lineno)
        indent = len(current) - len(current.lstrip())
        for number in range(f.f_lineno - 1, code.co_firstlineno - 1, -1):
            line = linecache.getline(code.co_filename, number)
            stripped = line.strip()
            if not stripped or stripped.startswith("#"):
                continue
            depth = len(line) - len(line.lstrip())
            if depth >= indent:
                continue
            indent = depth  # an enclosing block: only blocks further out can enclose the rest
            if _ENABLES_GRAD.match(line):
                return f"{stripped} ({code.co_filename}:{number} in {code.co_name})"
    return None
