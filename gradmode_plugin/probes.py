"""Where the guard looks: registrations it makes for one stage and removes exactly at its end.

None of them writes anything onto the user's model. Each only observes and passes what it sees to a listener;
the checks (``gradmode_plugin.checks``) decide whether it is a violation.

- :class:`SavedTensorProbe`: autograd saving a tensor for backward (a graph that costs memory) in the thread that
  runs the evaluation, through a ``saved_tensors_hooks`` pushed for the stage; free while nothing is saved.
- :class:`ForwardProbe`: every call of the watched model's modules, in *any* thread (``nn.Module.__call__`` wrapped
  while a stage runs): outputs that carry a ``grad_fn``, and normalisation layers running in training mode.
- :data:`FUNCTIONAL`: ``torch.nn.functional`` dropout, batch-norm and instance-norm functions wrapped while a stage
  runs anywhere in the process, reporting calls that train (``training=True``) to the scope of the calling thread.
- :data:`TRAIN_CALLS`: ``nn.Module.train`` wrapped while a stage runs, so a switch to training mode can be
  blamed on the line that made it.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import threading
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, Optional

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from gradmode_plugin._state import active_scope, allowed_reason
from gradmode_plugin.blame import where

log = logging.getLogger("gradmode_plugin")


# -- saved tensors -----------------------------------------------------------------------------------------------
class SavedTensorProbe:
    """Pushes a saved-tensor hook that passes every tensor autograd saves to ``listener(tensor, allowed)``.

    A hook pushed inside (activation checkpointing, ``save_on_cpu``) shadows this one while it is active;
    ``allow_grad`` lifts it for its block (``torch.func`` refuses to run under any saved-tensor hook).
    """

    def __init__(self, listener: Callable[[torch.Tensor, bool], None] | None = None) -> None:
        self.listener = listener

    def _pack(self, tensor: torch.Tensor) -> torch.Tensor:
        if self.listener is not None:
            self.listener(tensor, allowed_reason.get() is not None)
        # Returning ``tensor`` itself would keep every graph alive: a saved output would own its own grad_fn
        # through the packed object, a cycle that is never freed. A detached tensor shares the storage and the
        # version counter, so unpacking and autograd's in-place checks work as before.
        return tensor.detach()

    def __enter__(self) -> SavedTensorProbe:
        torch._C._autograd._push_saved_tensors_default_hooks(self._pack, _unpack)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        torch._C._autograd._pop_saved_tensors_default_hooks()


def _unpack(tensor: torch.Tensor) -> torch.Tensor:
    return tensor


@contextlib.contextmanager
def lifted_saved_tensor_probe() -> Iterator[None]:
    """Take the guard's saved-tensor hook off this thread's stack for the block, when it is the innermost one."""
    top = torch._C._autograd._top_saved_tensors_default_hooks(False)
    ours = top is not None and getattr(top[0], "__func__", None) is SavedTensorProbe._pack
    if not ours:
        yield
        return
    torch._C._autograd._pop_saved_tensors_default_hooks()
    try:
        yield
    finally:
        torch._C._autograd._push_saved_tensors_default_hooks(*top)


# -- module forward ----------------------------------------------------------------------------------------------
def first_tensor_with_grad_fn(output: Any) -> torch.Tensor | None:
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


class ForwardProbe:
    """Every call of the modules in ``names`` (``id -> name``), in any thread, while the stage runs.

    ``on_grad_output(name, tensor)`` hears of outputs with a ``grad_fn`` made outside ``allow_grad``;
    ``on_norm_train(name, module)`` of a module in ``norms`` (ids) running in training mode. It listens to
    :data:`MODULE_CALLS` (``nn.Module.__call__``, wrapped while any stage runs), which passes on only the calls made
    in training mode or with grad mode on: in the evaluating thread a module call costs one attribute read and one
    grad-mode check more. Nothing is stored on the modules: a copy or a pickle of the model carries nothing.
    """

    def __init__(self, names: dict[int, str]) -> None:
        self.names = names
        self.norms: frozenset[int] = frozenset()
        self.on_grad_output: Callable[[str, torch.Tensor], None] | None = None
        self.on_norm_train: Callable[[str, nn.Module], None] | None = None
        self._listening: contextlib.ExitStack | None = None

    def _make_listener(self) -> Callable[[nn.Module, Any], None]:
        names, norms = self.names, self.norms
        on_grad_output, on_norm_train = self.on_grad_output, self.on_norm_train
        is_grad_enabled, get_allowed = torch.is_grad_enabled, allowed_reason.get

        def called(module: nn.Module, output: Any) -> None:
            key = id(module)
            name = names.get(key)
            if name is None:
                return
            if module.training and key in norms and on_norm_train is not None:
                on_norm_train(name, module)
            if on_grad_output is not None and is_grad_enabled() and get_allowed() is None:
                tensor = first_tensor_with_grad_fn(output)
                if tensor is not None:
                    on_grad_output(name, tensor)

        return called

    def __enter__(self) -> ForwardProbe:
        self._listening = contextlib.ExitStack()
        self._listening.enter_context(MODULE_CALLS.listening(self._make_listener()))
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._listening is not None:
            self._listening.close()
            self._listening = None


# -- process-wide patches ----------------------------------------------------------------------------------------
class _Patches:
    """Attributes of torch replaced while at least one stage runs anywhere in the process, then put back.

    A wrapper only routes what it sees to the guard and always calls the original: with no stage in the calling
    thread it is a pass-through. If someone else replaced the attribute meanwhile, theirs is left in place.
    """

    def __init__(self, name: str, targets: Callable[[], list[tuple[object, str, Callable[..., Any]]]]) -> None:
        self._name = name
        self._targets = targets
        self._lock = threading.Lock()
        self._users = 0
        self._installed: list[tuple[object, str, Any, Any]] = []
        # A wrapper is made once per original and kept: making one reads signatures (about 0.1 ms each), and a run
        # with frequent validations installs them at every stage.
        self._made: dict[tuple[int, str], tuple[Any, Any]] = {}

    @contextlib.contextmanager
    def active(self) -> Iterator[None]:
        with self._lock:
            if self._users == 0:
                self._install()
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0:
                    self._uninstall()

    def _install(self) -> None:
        for owner, attr, make in self._targets():
            original = getattr(owner, attr)
            made = self._made.get((id(owner), attr))
            if made is None or made[0] is not original:
                made = self._made[(id(owner), attr)] = (original, make(original))
            wrapper = made[1]
            setattr(owner, attr, wrapper)
            self._installed.append((owner, attr, original, wrapper))

    def _uninstall(self) -> None:
        for owner, attr, original, wrapper in reversed(self._installed):
            if getattr(owner, attr) is wrapper:
                setattr(owner, attr, original)
            else:
                log.debug("gradmode: %s.%s was replaced by someone else during the stage; left as is", owner, attr)
        self._installed.clear()


def _notify(kind: str, call: str) -> None:
    scope = active_scope.get()
    if scope is not None:
        scope.functional_call(kind, call)


# The wrappers keep torch's signatures, typed, and do their bookkeeping only outside TorchScript: scripting code that
# calls them (an export in the middle of a stage) compiles them to a plain call of the original. They carry the
# original's docs but no __wrapped__: TorchScript would compile the original's source with this module's names.
def _named_like(wrapper: Callable[..., Any], original: Callable[..., Any]) -> Callable[..., Any]:
    wrapper.__name__ = wrapper.__qualname__ = f"guarded_{original.__name__}"
    wrapper.__doc__ = original.__doc__
    return wrapper


def _dropout(original: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    label = f"F.{original.__name__}(training=True)"
    training_default = bool(inspect.signature(original).parameters["training"].default)

    def dropout(input: Tensor, p: float = 0.5, training: bool = training_default, inplace: bool = False) -> Tensor:
        if training and p > 0.0:  # noqa: SIM102 (TorchScript drops only a block guarded by is_scripting() alone)
            if not torch.jit.is_scripting():
                _notify("train_mode", label)
        return original(input, p, training, inplace)

    return _named_like(dropout, original)


def _batch_norm(original: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    def batch_norm(
        input: Tensor,
        running_mean: Optional[Tensor],  # noqa: UP045 (TorchScript reads these annotations)
        running_var: Optional[Tensor],  # noqa: UP045
        weight: Optional[Tensor] = None,  # noqa: UP045
        bias: Optional[Tensor] = None,  # noqa: UP045
        training: bool = False,
        momentum: float = 0.1,
        eps: float = 1e-5,
    ) -> Tensor:
        if training and (running_mean is not None or running_var is not None):  # noqa: SIM102 (as above)
            if not torch.jit.is_scripting():
                _notify("running_stats_updated", "F.batch_norm(training=True) with running statistics")
        return original(input, running_mean, running_var, weight, bias, training, momentum, eps)

    return _named_like(batch_norm, original)


def _instance_norm(original: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    def instance_norm(
        input: Tensor,
        running_mean: Optional[Tensor] = None,  # noqa: UP045 (TorchScript reads these annotations)
        running_var: Optional[Tensor] = None,  # noqa: UP045
        weight: Optional[Tensor] = None,  # noqa: UP045
        bias: Optional[Tensor] = None,  # noqa: UP045
        use_input_stats: bool = True,
        momentum: float = 0.1,
        eps: float = 1e-5,
    ) -> Tensor:
        if use_input_stats and (running_mean is not None or running_var is not None):  # noqa: SIM102 (as above)
            if not torch.jit.is_scripting():
                _notify("running_stats_updated", "F.instance_norm(use_input_stats=True) with running statistics")
        return original(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)

    return _named_like(instance_norm, original)


def _functional_targets() -> list[tuple[object, str, Callable[..., Any]]]:
    dropouts = ("dropout", "alpha_dropout", "feature_alpha_dropout", "dropout1d", "dropout2d", "dropout3d")
    targets: list[tuple[object, str, Callable[..., Any]]] = [(F, name, _dropout) for name in dropouts]
    return [*targets, (F, "batch_norm", _batch_norm), (F, "instance_norm", _instance_norm)]


#: ``torch.nn.functional`` calls that train, reported to the calling thread's scope.
FUNCTIONAL = _Patches("torch.nn.functional", _functional_targets)


class _Listened:
    """A method of ``nn.Module`` wrapped while at least one listener listens (:meth:`listening`)."""

    def __init__(self, attr: str) -> None:
        self._listeners: list[Callable[..., None]] = []
        self.patches = _Patches(f"torch.nn.Module.{attr}", lambda: [(nn.Module, attr, self._wrap)])

    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        raise NotImplementedError

    @contextlib.contextmanager
    def listening(self, listener: Callable[..., None]) -> Iterator[None]:
        self._listeners.append(listener)
        try:
            with self.patches.active():
                yield
        finally:
            self._listeners.remove(listener)


class _TrainCalls(_Listened):
    """``nn.Module.train`` wrapped while a stage runs: every listener hears ``(module, where)`` for each module
    switched to training mode, with ``where`` the user's line that made the outermost ``train()`` call."""

    def __init__(self) -> None:
        super().__init__("train")
        self._local = threading.local()

    def _wrap(self, original: Callable[..., nn.Module]) -> Callable[..., nn.Module]:
        listeners, local = self._listeners, self._local

        @functools.wraps(original)
        def train(module: nn.Module, mode: bool = True) -> nn.Module:
            if not mode or not listeners:
                return original(module, mode)
            outer = getattr(local, "where", None) is None
            if outer:
                # Computed once per outermost call, and only when a listener asks (a watched module).
                local.where = functools.cache(lambda: where(1))
            try:
                for listener in list(listeners):
                    listener(module, local.where)
                return original(module, mode)
            finally:
                if outer:
                    local.where = None

        return train


#: Switches to training mode during a stage, with the line that made them.
TRAIN_CALLS = _TrainCalls()


class _ModuleCalls(_Listened):
    """``nn.Module.__call__`` wrapped while a stage runs: listeners hear ``(module, output)`` of every call made in
    training mode or with grad mode on, in any thread.

    Cheaper than a global module forward hook (``register_module_forward_hook``), whose mere presence sends every
    module call of the process down ``nn.Module``'s slow path (about 8 us a call on a CPU): the wrapper repeats
    torch's own ``__call__`` (no frame more) and adds an attribute read and a grad-mode check to each call.
    """

    def __init__(self) -> None:
        super().__init__("__call__")

    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        listeners = self._listeners
        is_grad_enabled = torch.is_grad_enabled

        def heard(module: nn.Module, output: Any) -> None:
            for listener in list(listeners):
                listener(module, output)

        if not _is_torchs_call(original):

            def __call__(module: nn.Module, *args: Any, **kwargs: Any) -> Any:
                output = original(module, *args, **kwargs)
                if module.training or is_grad_enabled():
                    heard(module, output)
                return output

            return __call__

        def __call__(module: nn.Module, *args: Any, **kwargs: Any) -> Any:
            # torch's own __call__ (Module._wrapped_call_impl), done here instead of called: a module call then
            # costs no frame more than without the guard.
            compiled = module._compiled_call_impl
            output = compiled(*args, **kwargs) if compiled is not None else module._call_impl(*args, **kwargs)
            if module.training or is_grad_enabled():
                heard(module, output)
            return output

        return __call__


def _is_torchs_call(call: Callable[..., Any]) -> bool:
    """Whether ``call`` is torch's ``Module._wrapped_call_impl`` as :class:`_ModuleCalls` repeats it: the compiled
    call when there is one, else ``_call_impl``. Any other ``__call__`` (another torch, another patch) is called."""
    code = getattr(call, "__code__", None)
    return (
        call is getattr(nn.Module, "_wrapped_call_impl", None)
        and code is not None
        and code.co_names == ("_compiled_call_impl", "_call_impl")
    )


#: Module calls during a stage (graphs built in any thread, normalisation layers running in training mode).
MODULE_CALLS = _ModuleCalls()
