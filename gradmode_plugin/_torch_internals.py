"""Every private PyTorch internal the guard relies on, each naming the torch file it depends on.

Paths are relative to the ``torch`` package. All of them are looked up once, when this module is imported (the first
stage of a guard imports it), so a torch that changed one fails with a :class:`UnsupportedTorchError` naming the torch
version and the internal, instead of crashing in the middle of a stage.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any, Final

import torch
import torch.utils._contextlib
import torch.utils._python_dispatch
from torch import nn


class UnsupportedTorchError(ImportError):
    """The installed torch lacks an internal the guard relies on; the guard refuses to run unguarded."""


def _require(found: bool, what: str) -> None:
    if not found:
        raise UnsupportedTorchError(
            f"gradmode: the guard relies on {what}, which torch {torch.__version__} does not have. Install a torch "
            "this gradmode-plugin supports (2.1 or newer; tested with 2.15), or remove the guard (GradModeGuard, "
            "evaluating, GRADMODE_GUARD) to evaluate unguarded."
        )


_autograd = torch._C._autograd
# csrc/autograd/python_saved_variable_hooks.cpp, used by autograd/graph.py saved_tensors_hooks: a thread's stack of
# default saved-tensor hooks.
for _name in ("_push_saved_tensors_default_hooks", "_pop_saved_tensors_default_hooks"):
    _require(callable(getattr(_autograd, _name, None)), f"torch._C._autograd.{_name} (autograd/graph.py)")
_require(
    callable(getattr(_autograd, "_top_saved_tensors_default_hooks", None)),
    "torch._C._autograd._top_saved_tensors_default_hooks (autograd/graph.py)",
)

push_saved_tensors_hooks: Final[Callable[..., None]] = _autograd._push_saved_tensors_default_hooks
pop_saved_tensors_hooks: Final[Callable[[], None]] = _autograd._pop_saved_tensors_default_hooks


def top_saved_tensors_hooks() -> tuple[Any, Any] | None:
    """The innermost (pack, unpack) pair of this thread's default saved-tensor hooks, if any."""
    return _autograd._top_saved_tensors_default_hooks(False)


# nn/modules/module.py: Module.__call__ is _wrapped_call_impl, which calls _compiled_call_impl (set by
# Module.compile()) when there is one, else _call_impl.
_require(
    callable(getattr(nn.Module, "_call_impl", None)) and hasattr(nn.Module, "_compiled_call_impl"),
    "nn.Module._call_impl and nn.Module._compiled_call_impl (nn/modules/module.py)",
)
WRAPPED_CALL_IMPL: Final[Any] = getattr(nn.Module, "_wrapped_call_impl", None)


def is_torchs_call(call: Callable[..., Any]) -> bool:
    """Whether ``call`` is torch's ``Module._wrapped_call_impl`` in the two-step form the module-call probe repeats
    (the compiled call when there is one, else ``_call_impl``)."""
    code = getattr(call, "__code__", None)
    return call is WRAPPED_CALL_IMPL and code is not None and code.co_names == ("_compiled_call_impl", "_call_impl")


# nn/modules/batchnorm.py: the base of BatchNorm*d, SyncBatchNorm and InstanceNorm*d, with running statistics.
_norm_base = getattr(torch.nn.modules.batchnorm, "_NormBase", None)
_require(isinstance(_norm_base, type), "torch.nn.modules.batchnorm._NormBase (nn/modules/batchnorm.py)")
NormBase: Final[type[nn.Module]] = _norm_base  # type: ignore[assignment]
#: The buffers of a normalisation layer that its forward pass updates in training mode.
NORM_STATISTICS: Final[frozenset[str]] = frozenset({"running_mean", "running_var", "num_batches_tracked"})


def version(tensor: torch.Tensor) -> int:
    """A tensor's version counter (``Tensor._version``, bumped by every in-place write); -1 for an inference tensor,
    which has none."""
    try:
        return tensor._version
    except RuntimeError:
        return -1


_require(isinstance(torch.zeros(1)._version, int), "Tensor._version (csrc/autograd/python_variable.cpp)")


def parameter_stores(module: nn.Module) -> tuple[dict[str, Any], dict[str, Any]]:
    """The module's own ``_parameters`` and ``_buffers`` dicts (nn/modules/module.py), read, never written."""
    return module._parameters, module._buffers


# utils/_contextlib.py: the wrapper that decorators such as @torch.enable_grad() put around a function; its frame
# holds the context factory and the decorated function.
CONTEXTLIB_FILE: Final[str] = os.path.abspath(torch.utils._contextlib.__file__)

# _VF.py: torch._VF, the module through which torch.nn.functional calls the dropout kernels (_VF.dropout, ...).
_require(hasattr(torch._VF, "dropout") and hasattr(torch._VF, "feature_dropout"), "torch._VF.dropout (_VF.py)")
VF: Final[Any] = torch._VF

# utils/_python_dispatch.py: the base class of dispatch modes, which see every aten operator by any path.
_dispatch_mode = getattr(torch.utils._python_dispatch, "TorchDispatchMode", None)
_require(isinstance(_dispatch_mode, type), "torch.utils._python_dispatch.TorchDispatchMode")
TorchDispatchMode: Final[type[Any]] = _dispatch_mode  # type: ignore[assignment]


# csrc/utils/python_dispatch.cpp, c10/core/impl/LocalDispatchKeySet.h and aten/src/ATen/core/PythonFallbackKernel.cpp:
# the thread's dispatch key sets, a guard that sets them, the key sets the thread had when an operator entered the
# dispatcher (the Python TLS snapshot), and which kernels an operator has (composite, autocast, view tracking).
_C = torch._C
_require(
    all(
        hasattr(_C, name)
        for name in (
            "_ForceDispatchKeyGuard",
            "_RestorePythonTLSSnapshot",
            "_dispatch_tls_local_include_set",
            "_dispatch_tls_local_exclude_set",
            "_dispatch_has_kernel_for_dispatch_key",
            "DispatchKeySet",
        )
    )
    and all(hasattr(_C.DispatchKey, key) for key in ("ADInplaceOrView", "Python", "PythonTLSSnapshot")),
    "torch._C._ForceDispatchKeyGuard, _RestorePythonTLSSnapshot and the dispatch key set functions "
    "(csrc/utils/python_dispatch.cpp)",
)
_KEYS = _C.DispatchKey
_AD_INPLACE_OR_VIEW: Final[Any] = _C.DispatchKeySet(_KEYS.ADInplaceOrView)
_NO_KEYS: Final[Any] = _AD_INPLACE_OR_VIEW - _AD_INPLACE_OR_VIEW
#: The autocast key of each device type torch knows, with its name (the name of its kernels' dispatch key).
_AUTOCAST: Final[tuple[tuple[str, Any], ...]] = tuple(
    (name, _C.DispatchKeySet(getattr(_KEYS, name))) for name in dir(_KEYS) if name.startswith("Autocast")
)


def _autograd_keys() -> Any:
    # The keys inference mode excludes beyond those excluded outside it: autograd's, on every backend.
    before = _C._dispatch_tls_local_exclude_set()
    with torch.inference_mode():
        return (_C._dispatch_tls_local_exclude_set() - before) - _AD_INPLACE_OR_VIEW


_AUTOGRAD: Final[Any] = _autograd_keys()
_require(_AUTOGRAD != _NO_KEYS, "inference mode's exclusion of the autograd keys (c10/core/InferenceMode.h)")


class CallKeys:
    """How an operator overload passes the keys above the Python key on its way down, read once from its kernels:
    the autocast keys it has no kernel for (it falls through them, so what it calls sees autocast as the caller set
    it), whether it decomposes (a CompositeImplicitAutograd kernel: it reaches a dispatch mode whole only where
    autograd is off for its arguments) and whether view tracking has a kernel for it (a view or in-place operator)."""

    __slots__ = ("autocast_through", "decomposes", "returns_fresh", "tracks_views")

    def __init__(self, op: Any) -> None:
        name = op.name()
        self.autocast_through = tuple(
            keys for key, keys in _AUTOCAST if not _C._dispatch_has_kernel_for_dispatch_key(name, key)
        )
        self.decomposes: bool = _C._dispatch_has_kernel_for_dispatch_key(name, "CompositeImplicitAutograd")
        # A composite that returns views of its input (chunk, reshape, unbind) has them made by the handler's call;
        # tracked there, its views would be tracked a second time on their way out of the mode.
        self.returns_fresh = all(getattr(r, "alias_info", None) is None for r in op._schema.returns)
        self.tracks_views: bool = _C._dispatch_has_kernel_for_dispatch_key(name, "ADInplaceOrView")


def as_called(keys: CallKeys, call: Callable[[], Any]) -> Any:
    """``call()`` of an operator from a dispatch mode's handler, in the dispatch key sets the operator would reach
    its kernel with if no mode were there.

    The handler runs with every key above the Python key excluded (PythonFallbackKernel.cpp), so a kernel that calls
    other operators, or a composite operator that decomposes there, would run what it calls without them: under CUDA
    autocast, ``cross_entropy`` (no autocast kernel on CUDA) would compute its ``log_softmax`` in half precision
    instead of float32. Each key that the operator's way down leaves as its caller set it is put back as the caller
    set it (the thread's key sets when the operator entered the dispatcher: the Python TLS snapshot): autocast for
    the devices the operator has no autocast kernel for; autograd and view tracking for an operator that decomposes
    (view tracking only where it returns fresh tensors: views it returns are tracked on their way out of the mode);
    view tracking under inference mode for one without a view-tracking kernel. The others stay excluded, as the
    operator's own kernels on its way down left them (autograd's and view tracking's, an autocast kernel's), or
    because their kernels already ran for this call (functorch, functionalization)."""
    with _C._RestorePythonTLSSnapshot():
        caller = _C._dispatch_tls_local_exclude_set()
    exclude = _C._dispatch_tls_local_exclude_set()
    for autocast in keys.autocast_through:
        if caller & autocast == _NO_KEYS:
            exclude = exclude - autocast
    if keys.decomposes:
        passed = _AUTOGRAD | _AD_INPLACE_OR_VIEW if keys.returns_fresh else _AUTOGRAD
        exclude = (exclude - passed) | (caller & passed)
    elif not keys.tracks_views and caller & _AUTOGRAD != _NO_KEYS:
        exclude = (exclude - _AD_INPLACE_OR_VIEW) | (caller & _AD_INPLACE_OR_VIEW)
    with _C._ForceDispatchKeyGuard(_C._dispatch_tls_local_include_set(), exclude):
        return call()


def op_schema(op: Any) -> tuple[str, tuple[str, ...], tuple[Any, ...]] | None:
    """``(operator name, argument names, their defaults)`` of an aten ``OpOverload`` (``op._schema``, _ops.py), or
    None. A default a call leaves out is not among the arguments the dispatcher passes on."""
    schema = getattr(op, "_schema", None)
    if schema is None:
        return None
    name = str(getattr(schema, "name", "")).split("::")[-1]
    arguments = schema.arguments
    return name, tuple(a.name for a in arguments), tuple(getattr(a, "default_value", None) for a in arguments)


def compiled_original(module: nn.Module) -> nn.Module | None:
    """The module ``torch.compile(module)`` wrapped, when ``module`` is the ``OptimizedModule`` it returned
    (``_orig_mod``, _dynamo/eval_frame.py); None for any other module. torch._dynamo is not imported here: a module
    can be compiled only once it is."""
    eval_frame = sys.modules.get("torch._dynamo.eval_frame")
    optimized = getattr(eval_frame, "OptimizedModule", None)
    if optimized is None or not isinstance(module, optimized):
        return None
    original = getattr(module, "_orig_mod", None)
    _require(isinstance(original, nn.Module), "OptimizedModule._orig_mod (_dynamo/eval_frame.py)")
    return original
