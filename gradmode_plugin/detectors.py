"""Cheap runtime detectors. Each finds one thing and reports it to a sink; none decides what happens next.

- :class:`SavedTensorsDetector`: autograd saving a tensor for backward (a graph that costs memory) in the
  thread that runs the evaluation, through ``saved_tensors_hooks``; zero cost while nothing is saved.
- :class:`ForwardGraphDetector`: module outputs that carry a ``grad_fn``, in *any* thread (worker threads do
  not inherit grad mode, and saved-tensor hooks are thread-local); hooks only modules that own parameters.
- :class:`NormStatsWatch`: normalisation running statistics updated, through host-side version counters.
- :class:`ParamsWatch`: parameters or buffers changed (``check_params=True``; keeps a copy of each).
- :func:`find_grad_tensor`: a tensor that requires grad inside a step output or logged value.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, Protocol

import torch
from torch import nn
from torch.nn.modules.batchnorm import _NormBase

from gradmode_plugin.allow import _allowed_reason


class Sink(Protocol):
    """Where detectors report; the evaluation scope is one."""

    def wants(self, kind: str) -> bool:
        """False when ``kind`` was already reported for the current batch (details would be dropped)."""
        ...

    def found(self, kind: Any, *, module: str | None = None, where: str | None = None, detail: str = "") -> None: ...

    def graph_saved(self, nbytes: int, allowed: bool) -> None: ...


# Frames in these places are machinery, never the user's code that caused a violation. The guard's own example
# models are user code as far as a violation is concerned.
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_LIBRARY_DIRS = (
    *tuple(os.path.dirname(m.__file__) + os.sep for m in (torch, threading) if getattr(m, "__file__", None)),
    _PACKAGE_DIR,
)
_USER_DIRS_IN_PACKAGE = (_PACKAGE_DIR + "example" + os.sep,)
_LIBRARY_MARKERS = (
    *tuple(
        os.sep + name + os.sep
        for name in (
            "pytorch_lightning",
            "lightning",
            "lightning_fabric",
            "concurrent",
            "torchvision",
            "hydra",
            "omegaconf",
        )
    ),
    os.sep + "contextlib.py",
)
# Installed third-party code is shown only when no frame of the user's own (not installed) code is found.
_INSTALLED_MARKERS = (os.sep + "site-packages" + os.sep, os.sep + "dist-packages" + os.sep)


def _is_library(filename: str) -> bool:
    if filename.startswith(_USER_DIRS_IN_PACKAGE):
        return False
    return filename.startswith(_LIBRARY_DIRS) or any(m in filename for m in _LIBRARY_MARKERS)


def user_frame(skip: int = 1, depth: int = 3) -> str | None:
    """``file:line in function: code`` of the innermost callers outside torch, Lightning and this package.

    Up to ``depth`` user frames, innermost first and joined by ``" <- "``: the layer that saved a tensor is
    rarely the line that enabled grad, which usually sits a frame or two further out. Frames of the user's own
    source tree are preferred over installed packages.
    """
    import linecache

    own: list[str] = []
    installed: list[str] = []
    frame = sys._getframe(skip)
    while frame is not None and len(own) < depth:
        code = frame.f_code
        filename = code.co_filename
        if not _is_library(filename):
            line = linecache.getline(filename, frame.f_lineno).strip()
            where = f"{filename}:{frame.f_lineno} in {code.co_name}"
            text = f"{where}: {line}" if line else where
            is_installed = any(m in filename for m in _INSTALLED_MARKERS) and not filename.startswith(
                _USER_DIRS_IN_PACKAGE
            )
            (installed if is_installed else own).append(text)
        frame = frame.f_back  # type: ignore[assignment]
    return " <- ".join(own or installed[:depth]) or None


def code_location(fn: Callable[..., Any]) -> str | None:
    """``file:line in name`` where ``fn`` is defined, when it is plain Python."""
    code = getattr(getattr(fn, "__func__", fn), "__code__", None)
    if code is None:
        return None
    return f"{code.co_filename}:{code.co_firstlineno} in {code.co_name}"


class SavedTensorsDetector:
    """Pushes a saved-tensor hook that reports every tensor autograd saves, outside ``allow_grad``.

    A hook pushed inside (activation checkpointing, ``save_on_cpu``) shadows this one while it is active.
    """

    def __init__(self, sink: Sink) -> None:
        self._sink = sink
        self._hooks = torch.autograd.graph.saved_tensors_hooks(self._pack, _unpack)

    def _pack(self, tensor: torch.Tensor) -> torch.Tensor:
        allowed = _allowed_reason.get() is not None
        # Parameters saved for backward (a layer's weight) are resident anyway: count what the graph adds.
        nbytes = 0 if tensor.is_leaf and tensor.requires_grad else tensor.nelement() * tensor.element_size()
        self._sink.graph_saved(nbytes, allowed)
        if not allowed and self._sink.wants("graph_built"):
            self._sink.found(
                "graph_built",
                where=user_frame(2),
                detail=f"autograd saved a {tuple(tensor.shape)} {str(tensor.dtype).replace('torch.', '')} "
                "tensor for backward",
            )
        # Returning ``tensor`` itself would keep every graph alive: a saved output would own its own grad_fn
        # through the packed object, a cycle that is never freed. A detached tensor shares the storage and the
        # version counter, so unpacking and autograd's in-place checks work as before.
        return tensor.detach()

    def __enter__(self) -> SavedTensorsDetector:
        self._hooks.__enter__()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._hooks.__exit__(exc_type, exc, tb)


def _unpack(tensor: torch.Tensor) -> torch.Tensor:
    return tensor


def _first_tensor_with_grad_fn(output: Any) -> torch.Tensor | None:
    if isinstance(output, torch.Tensor):
        return output if output.grad_fn is not None else None
    if isinstance(output, (tuple, list)):
        items: Iterator[Any] = iter(output)
    elif isinstance(output, dict):
        items = iter(output.values())
    else:
        return None
    for item in items:
        if isinstance(item, torch.Tensor) and item.grad_fn is not None:
            return item
    return None


class ForwardGraphDetector:
    """Forward hooks on every module that owns parameters, reporting outputs that carry a ``grad_fn``.

    In the evaluating thread grad mode is off, so each hook returns after one cheap check.
    """

    def __init__(self, model: nn.Module, sink: Sink) -> None:
        self._sink = sink
        self._handles: list[torch.utils.hooks.RemovableHandle] = []
        self._modules = [
            (name, m) for name, m in model.named_modules() if next(m.parameters(recurse=False), None) is not None
        ]

    def _hook_for(self, name: str) -> Callable[[nn.Module, Any, Any], None]:
        sink = self._sink
        is_grad_enabled = torch.is_grad_enabled

        def hook(module: nn.Module, args: Any, output: Any) -> None:
            if not is_grad_enabled() or _allowed_reason.get() is not None:
                return
            tensor = _first_tensor_with_grad_fn(output)
            if tensor is not None and sink.wants("graph_built"):
                thread = threading.current_thread()
                in_thread = "" if thread is threading.main_thread() else f" in thread '{thread.name}'"
                sink.found(
                    "graph_built",
                    module=name,
                    where=user_frame(2),
                    detail=f"module output carries autograd history ({type(tensor.grad_fn).__name__}){in_thread}",
                )

        return hook

    def install(self) -> None:
        for name, module in self._modules:
            self._handles.append(module.register_forward_hook(self._hook_for(name)))

    def remove(self) -> None:
        for handle in self._handles:
            handle.remove()
        self._handles.clear()


class NormStatsWatch:
    """Notices running-statistics updates of normalisation layers from host-side version counters.

    The batch-norm kernels update ``running_mean``/``running_var`` without bumping their version, but every
    update in training mode also increments ``num_batches_tracked`` in place, which does; no device sync.
    """

    def __init__(self, model: nn.Module, skip: set[str] | frozenset[str] = frozenset()) -> None:
        self._items: list[tuple[str, torch.Tensor, int]] = []
        for name, m in model.named_modules():
            if name in skip or not isinstance(m, _NormBase) or not m.track_running_stats:
                continue
            for buffer in (m.num_batches_tracked, m.running_mean):
                if isinstance(buffer, torch.Tensor):
                    self._items.append((name, buffer, buffer._version))
                    break

    def changed(self) -> list[str]:
        """Names of modules whose statistics changed since the last call (or construction)."""
        changed: list[str] = []
        for i, (name, buffer, version) in enumerate(self._items):
            if buffer._version != version:
                changed.append(name)
                self._items[i] = (name, buffer, buffer._version)
        return changed


def norm_statistics(model: nn.Module) -> set[int]:
    """``id()`` of every running-statistics buffer of a normalisation layer."""
    ids: set[int] = set()
    for m in model.modules():
        if isinstance(m, _NormBase):
            for buffer in (m.running_mean, m.running_var, m.num_batches_tracked):
                if buffer is not None:
                    ids.add(id(buffer))
    return ids


class ParamsWatch:
    """Keeps a copy of every parameter and buffer (but normalisation statistics) to notice changes.

    ``changed_versions()`` is a cheap per-batch check (in-place writes, optimizer steps, ``copy_``);
    ``changed_values()`` compares the copies once, catching writes through ``.data`` too.
    """

    def __init__(self, model: nn.Module) -> None:
        skip = norm_statistics(model)
        self._items: list[tuple[str, torch.Tensor, torch.Tensor, int]] = []
        with torch.no_grad():
            named = list(model.named_parameters()) + list(model.named_buffers())
            for name, tensor in named:
                if id(tensor) in skip:
                    continue
                self._items.append((name, tensor, tensor.detach().clone(), tensor._version))
        self._flagged: set[str] = set()

    def changed_versions(self) -> list[str]:
        """Written in place since the last call, and really different (a same-value write is no change)."""
        found = []
        for i, (name, tensor, copy, version) in enumerate(self._items):
            if tensor._version == version or name in self._flagged:
                continue
            self._items[i] = (name, tensor, copy, tensor._version)
            with torch.no_grad():
                if not torch.equal(tensor.detach(), copy):
                    found.append(name)
        self._flagged.update(found)
        return found

    def changed_values(self) -> list[str]:
        """Every entry whose value differs from the copy (writes through ``.data`` bump no version)."""
        with torch.no_grad():
            found = [n for n, t, copy, _ in self._items if n not in self._flagged and not torch.equal(t.detach(), copy)]
        self._flagged.update(found)
        return found


def find_grad_tensor(obj: Any, path: str = "output", depth: int = 0) -> str | None:
    """Path of the first tensor that requires grad inside ``obj`` (nested dicts, lists and tuples)."""
    if isinstance(obj, torch.Tensor):
        return path if obj.requires_grad else None
    if depth > 4:
        return None
    if isinstance(obj, dict):
        for key, value in obj.items():
            found = find_grad_tensor(value, f"{path}[{key!r}]", depth + 1)
            if found:
                return found
    elif isinstance(obj, (list, tuple)):
        for i, value in enumerate(obj):
            found = find_grad_tensor(value, f"{path}[{i}]", depth + 1)
            if found:
                return found
    return None
