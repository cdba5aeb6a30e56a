"""Where the guard looks: registrations it makes for one stage and removes exactly at its end.

None of them writes anything onto the user's model. Each only observes and passes what it sees to a listener;
the checks (``gradmode_plugin.checks``) decide whether it is a violation.

- :class:`SavedTensorProbe`: autograd saving a tensor for backward (a graph that costs memory) in the thread that
  runs the evaluation, through a ``saved_tensors_hooks`` pushed for the stage; free while nothing is saved.
- :class:`ForwardProbe`: every call of the watched model's modules, in *any* thread (``nn.Module.__call__`` wrapped
  while a stage runs alongside other threads): outputs that carry a ``grad_fn``, normalisation layers running in
  training mode, and calls that fail in another thread because of inference mode. A stage with no other thread
  installs it only when one starts (:data:`THREAD_STARTS`): in the evaluating thread the saved-tensor probe and the
  functional wrappers see what it would.
- :data:`TRAINING_CALLS`: the functions that train whatever the module flags say, wrapped while a stage runs anywhere
  in the process: the dropout kernels (``torch.dropout``, ``torch.feature_dropout``, ``torch.alpha_dropout``,
  ``torch.feature_alpha_dropout`` and their in-place forms, on ``torch`` and on ``torch._VF``, through which every
  ``torch.nn.functional`` dropout runs, however it was imported), ``torch.nn.functional``'s dropout functions
  themselves (for ``torch.compile``), ``F.scaled_dot_product_attention`` with ``dropout_p > 0``, and
  ``F.batch_norm``/``F.instance_norm`` given running statistics. A call that trains is
  reported to the scope of the calling thread, or, in another thread, to the scope whose model's module is running
  further up that thread's stack.
- :data:`TRAIN_CALLS`: ``nn.Module.train`` wrapped while a stage runs, so a switch to training mode can be
  blamed on the line that made it.
- :data:`HOOK_REFUSALS`: ``torch.autograd.graph.disable_saved_tensors_hooks`` wrapped while a stage runs, so a
  ``torch.func`` transform that takes gradients, which refuses to start under any saved-tensor hook, runs with the
  saved-tensor probe lifted, and the probe's listeners hear of it.
- :data:`THREAD_STARTS`: ``threading.Thread.start`` wrapped while a stage without a module-call probe runs, so the
  probe is in place before a new thread can run the model.

The operator audit of each stage's first batch (paths none of these sees) is :mod:`gradmode_plugin.audit`.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import sys
import threading
from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Any, Optional

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from gradmode_plugin import _torch_internals as internals
from gradmode_plugin._state import active_scope, allowed_reason, live_scopes
from gradmode_plugin.blame import where

log = logging.getLogger("gradmode_plugin")


# -- saved tensors -----------------------------------------------------------------------------------------------
class SavedTensorProbe:
    """Pushes a saved-tensor hook that passes every tensor autograd saves to each of ``listeners``:
    ``listener(tensor, allowed)``.

    A hook pushed inside (activation checkpointing, ``save_on_cpu``) shadows this one while it is active;
    ``allow_grad`` lifts it for its block (``torch.func`` refuses to run under any saved-tensor hook).
    """

    def __init__(self) -> None:
        #: The subscribers (checks append themselves in their ``start()``).
        self.listeners: list[Callable[[torch.Tensor, bool], None]] = []
        #: Told when code that refuses saved-tensor hooks (a ``torch.func`` transform that takes gradients) starts
        #: with this probe on top of the stack, outside ``allow_grad``: the probe is lifted for it (see
        #: :data:`HOOK_REFUSALS`), so what it saves is not seen.
        self.lift_listeners: list[Callable[[], None]] = []

    def _pack(self, tensor: torch.Tensor) -> torch.Tensor:
        if self.listeners:
            allowed = allowed_reason.get() is not None
            for listener in self.listeners:
                listener(tensor, allowed)
        # Returning ``tensor`` itself would keep every graph alive: a saved output would own its own grad_fn
        # through the packed object, a cycle that is never freed. A detached tensor shares the storage and the
        # version counter, so unpacking and autograd's in-place checks work as before.
        return tensor.detach()

    def __enter__(self) -> SavedTensorProbe:
        internals.push_saved_tensors_hooks(self._pack, _unpack)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        internals.pop_saved_tensors_hooks()


def _unpack(tensor: torch.Tensor) -> torch.Tensor:
    return tensor


def probe_on_top() -> SavedTensorProbe | None:
    """The guard's probe when its hook is the innermost one of this thread's saved-tensor hooks."""
    top = internals.top_saved_tensors_hooks()
    pack = top[0] if top is not None else None
    return pack.__self__ if getattr(pack, "__func__", None) is SavedTensorProbe._pack else None  # type: ignore[union-attr]


@contextlib.contextmanager
def lifted_saved_tensor_probe() -> Iterator[None]:
    """Take the guard's saved-tensor hooks off this thread's stack for the block, while they are the innermost ones
    (one per scope entered: nested scopes push one each)."""
    lifted = []
    while probe_on_top() is not None:
        lifted.append(internals.top_saved_tensors_hooks())
        internals.pop_saved_tensors_hooks()
    try:
        yield
    finally:
        for hooks in reversed(lifted):
            internals.push_saved_tensors_hooks(*hooks)


def _lifting_for_refusers(original: Callable[[str], Any]) -> Callable[[str], Any]:
    """``torch.autograd.graph.disable_saved_tensors_hooks``, which every ``torch.func`` transform that takes gradients
    (``grad``, ``vjp``, ``jacrev``, ``hessian``, also under ``vmap``) enters first, failing when any saved-tensor hook
    is pushed: with the guard's probe on top, its listeners hear of it and the probe is lifted for the block."""

    @contextlib.contextmanager
    def disable_saved_tensors_hooks(error_message: str) -> Iterator[None]:
        probe = probe_on_top()
        if probe is None:
            with original(error_message):
                yield
            return
        for listener in probe.lift_listeners:
            listener()
        with lifted_saved_tensor_probe(), original(error_message):
            yield

    return functools.wraps(original)(disable_saved_tensors_hooks)


# -- module calls ------------------------------------------------------------------------------------------------
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
    """Every call of the modules in ``names`` (``id -> name``), in any thread, while the stage runs alongside other
    threads.

    Each subscriber list is appended to by the checks (in their ``start()``): ``grad_output_listeners``
    (``listener(name, tensor)``) hear of outputs with a ``grad_fn`` made outside ``allow_grad``;
    ``norm_train_listeners`` (``listener(name, module)``) of a module in ``norms`` (ids) running in training mode;
    ``error_listeners`` (``listener(name, error)``) of a call that raised a ``RuntimeError`` (once per error: the
    innermost watched module it went through).
    It listens to :data:`MODULE_CALLS` (``nn.Module.__call__``, wrapped while any stage runs), which passes on only
    the calls made in training mode or with grad mode on, and failed ones: in the evaluating thread a module call
    costs one attribute read and one grad-mode check more. Nothing is stored on the modules: a copy or a pickle of
    the model carries nothing.

    Entered with no other thread alive, it waits: wrapping ``nn.Module.__call__`` slows every module call of the
    stage (about 10 % of a tiny model's evaluation), and in the evaluating thread the saved-tensor probe sees graphs
    and ``F.batch_norm``'s wrapper sees normalisation layers in training mode. The first thread started during the
    stage (``threading.Thread``, which thread pools use) installs it before the thread runs. :attr:`active` says
    whether it is installed.
    """

    def __init__(self, names: dict[int, str]) -> None:
        self.names = names
        self.norms: set[int] = set()
        self.grad_output_listeners: list[Callable[[str, torch.Tensor], None]] = []
        self.norm_train_listeners: list[Callable[[str, nn.Module], None]] = []
        self.error_listeners: list[Callable[[str, RuntimeError], None]] = []
        self._listening: contextlib.ExitStack | None = None
        self._waiting: contextlib.ExitStack | None = None
        self._lock = threading.Lock()
        self._last_error = threading.local()

    @property
    def active(self) -> bool:
        """Whether the module calls are being watched (another thread was alive or has started)."""
        return self._listening is not None

    def _make_listener(self) -> Callable[[nn.Module, Any], None]:
        names, norms = self.names, self.norms
        grad_output_listeners, norm_train_listeners = self.grad_output_listeners, self.norm_train_listeners
        is_grad_enabled, get_allowed = torch.is_grad_enabled, allowed_reason.get

        def called(module: nn.Module, output: Any) -> None:
            key = id(module)
            name = names.get(key)
            if name is None:
                return
            if module.training and key in norms:
                for listener in norm_train_listeners:
                    listener(name, module)
            if grad_output_listeners and is_grad_enabled() and get_allowed() is None:
                tensor = first_tensor_with_grad_fn(output)
                if tensor is not None:
                    for on_output in grad_output_listeners:
                        on_output(name, tensor)

        return called

    def _failed(self, module: nn.Module, error: RuntimeError) -> None:
        name = self.names.get(id(module))
        if name is None or not self.error_listeners or getattr(self._last_error, "error", None) is error:
            return
        self._last_error.error = error  # the outer modules it propagates through are not the place
        for listener in self.error_listeners:
            listener(name, error)

    def __enter__(self) -> ForwardProbe:
        with self._lock:
            if threading.active_count() > 1:
                self._listen()
            else:
                self._waiting = contextlib.ExitStack()
                self._waiting.enter_context(THREAD_STARTS.listening(self._thread_starts))
        return self

    def _listen(self) -> None:
        self._listening = contextlib.ExitStack()
        self._listening.enter_context(MODULE_CALLS.listening(self._make_listener(), self._failed))

    def _thread_starts(self) -> None:
        with self._lock:
            if self._waiting is not None and self._listening is None:
                self._listen()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        with self._lock:
            for stack in (self._listening, self._waiting):
                if stack is not None:
                    stack.close()
            self._listening = self._waiting = None


# -- process-wide patches ----------------------------------------------------------------------------------------
_MISSING = object()


class _Patches:
    """Attributes replaced while at least one stage runs anywhere in the process, then put back exactly (an
    attribute the owner did not hold itself, such as ``torch._VF``'s, is removed again).

    A wrapper only routes what it sees to the guard and always calls the original: with no stage in the calling
    thread it is a pass-through. If someone else replaced the attribute meanwhile, theirs is left in place.
    """

    def __init__(self, name: str, targets: list[tuple[object, str, Callable[..., Any]]]) -> None:
        self._name = name
        #: ``(owner, attribute, make)``: ``make(original)`` builds the wrapper.
        self._targets = targets
        self._lock = threading.Lock()
        self._users = 0
        self._installed: list[tuple[object, str, Any, Any, Any]] = []
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
        for owner, attr, make in self._targets:
            own = vars(owner).get(attr, _MISSING) if hasattr(owner, "__dict__") else _MISSING
            original = getattr(owner, attr) if own is _MISSING else own
            made = self._made.get((id(owner), attr))
            if made is None or made[0] is not original:
                made = self._made[(id(owner), attr)] = (original, make(original))
            wrapper = made[1]
            setattr(owner, attr, wrapper)
            self._installed.append((owner, attr, original, wrapper, own))

    def _uninstall(self) -> None:
        for owner, attr, original, wrapper, own in reversed(self._installed):
            if getattr(owner, attr) is not wrapper:
                log.debug("gradmode: %s.%s was replaced by someone else during the stage; left as is", owner, attr)
            elif own is _MISSING:
                delattr(owner, attr)
            else:
                setattr(owner, attr, original)
        self._installed.clear()


# -- calls that train whatever the module flags say --------------------------------------------------------------
def route(kind: str, call: str, hint: str | None = None) -> None:
    """Tell the scope of the calling thread that ``call`` (e.g. ``F.dropout(training=True)``) trained; in a thread
    without one, the scope whose model's module runs further up this thread's stack, if any."""
    scope = active_scope.get()
    if scope is None:
        scope = next((s for s in list(live_scopes) if s.calling_module() is not None), None)
        if scope is None:
            return
    scope.functional_call(kind, call, hint)


#: The hint for attention dropout (a finding in a module in eval mode).
ATTENTION_HINT = (
    "F.scaled_dot_product_attention applies dropout whenever dropout_p > 0, whatever the module's mode: pass "
    "dropout_p=self.dropout_p if self.training else 0.0"
)


# The wrappers keep torch's signatures, typed, and do their bookkeeping only outside TorchScript: scripting code that
# calls them (an export in the middle of a stage) compiles them to a plain call of the original. They carry the
# original's docs but no __wrapped__: TorchScript would compile the original's source with this module's names.
def _named_like(wrapper: Callable[..., Any], original: Callable[..., Any]) -> Callable[..., Any]:
    wrapper.__name__ = wrapper.__qualname__ = f"guarded_{original.__name__}"
    wrapper.__doc__ = original.__doc__
    return wrapper


#: The fix for functional dropout that trains (one cause, one fix).
FUNCTIONAL_DROPOUT_HINT = (
    "functional dropout trains whenever its training argument is True, and it defaults to True, whatever the "
    "module's mode: pass training=self.training (F.dropout(x, p, training=self.training)), or use an nn.Dropout "
    "module; to keep it training on purpose (MC dropout) add the module to allow_train"
)
#: The fix for a dropout kernel called with train=True.
KERNEL_DROPOUT_HINT = (
    "torch's dropout kernels train whenever train is True, whatever the module's mode: pass train=self.training, or "
    "use an nn.Dropout module; to keep it training on purpose (MC dropout) add the module to allow_train"
)


def _dropout_label(name: str, p: float) -> tuple[str, str]:
    """(how the user called a dropout kernel, its fix): through ``torch.nn.functional`` (the caller of the kernel is
    one of its functions, already reported by its own wrapper where that is called) or directly."""
    caller = sys._getframe(2).f_code
    if caller.co_filename == F.__file__:
        return f"F.{caller.co_name}(p={p}) with training=True", FUNCTIONAL_DROPOUT_HINT
    return f"torch.{name}(p={p}, train=True)", KERNEL_DROPOUT_HINT


def _dropout_kernel(original: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    name = original.__name__

    def dropout(input: Tensor, p: float, train: bool) -> Tensor:
        if train and p > 0.0:  # noqa: SIM102 (TorchScript drops only a block guarded by is_scripting() alone)
            if not torch.jit.is_scripting():
                route("train_mode", *_dropout_label(name, p))
        return original(input, p, train)

    return _named_like(dropout, original)


def _report_functional_dropout(name: str, p: float, training: bool | None) -> None:
    how = "training=True" if training is not None else "training left at its default, True"
    route("train_mode", f"F.{name}(p={p}, {how})", FUNCTIONAL_DROPOUT_HINT)


def _functional_dropout(original: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """``F.dropout`` and its variants: they call the ``torch._VF`` kernels, which report in eager code; wrapped too so
    that ``torch.compile``, which puts ``torch.nn.functional``'s own functions into its graphs unread, traces the
    wrapper (a stage's graph then breaks at the report, in training-mode calls only)."""
    name = original.__name__

    training_default = bool(inspect.signature(original).parameters["training"].default)

    # None stands for `training` left out, which the finding then names; the function's own default comes as a
    # default value of a parameter of the wrapper's own (TorchScript, which compiles the wrapper when scripted code
    # calls it, reads defaults but no closed-over value).
    def dropout(
        input: Tensor,
        p: float = 0.5,
        training: Optional[bool] = None,  # noqa: UP045
        inplace: bool = False,
        _training_default: bool = training_default,
    ) -> Tensor:
        trains = _training_default
        if training is not None:
            trains = training
        if trains and p > 0.0:  # noqa: SIM102 (TorchScript drops only a block guarded by is_scripting() alone)
            if not torch.jit.is_scripting():
                _report_functional_dropout(name, p, training)
        return original(input, p, trains, inplace)

    return _named_like(dropout, original)


def _attention(original: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    if "enable_gqa" in (original.__doc__ or "").split("->")[0]:

        def attention(
            query: Tensor,
            key: Tensor,
            value: Tensor,
            attn_mask: Optional[Tensor] = None,  # noqa: UP045 (TorchScript reads these annotations)
            dropout_p: float = 0.0,
            is_causal: bool = False,
            scale: Optional[float] = None,  # noqa: UP045
            enable_gqa: bool = False,
        ) -> Tensor:
            if dropout_p > 0.0:  # noqa: SIM102 (as above)
                if not torch.jit.is_scripting():
                    route("train_mode", f"F.scaled_dot_product_attention(dropout_p={dropout_p})", ATTENTION_HINT)
            return original(query, key, value, attn_mask, dropout_p, is_causal, scale=scale, enable_gqa=enable_gqa)

        return _named_like(attention, original)

    def attention_without_gqa(
        query: Tensor,
        key: Tensor,
        value: Tensor,
        attn_mask: Optional[Tensor] = None,  # noqa: UP045
        dropout_p: float = 0.0,
        is_causal: bool = False,
        scale: Optional[float] = None,  # noqa: UP045
    ) -> Tensor:
        if dropout_p > 0.0:  # noqa: SIM102 (as above)
            if not torch.jit.is_scripting():
                route("train_mode", f"F.scaled_dot_product_attention(dropout_p={dropout_p})", ATTENTION_HINT)
        return original(query, key, value, attn_mask, dropout_p, is_causal, scale=scale)

    return _named_like(attention_without_gqa, original)


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
                route("running_stats_updated", "F.batch_norm(training=True) with running statistics")
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
                route("running_stats_updated", "F.instance_norm(use_input_stats=True) with running statistics")
        return original(input, running_mean, running_var, weight, bias, use_input_stats, momentum, eps)

    return _named_like(instance_norm, original)


#: The dropout kernels, on ``torch`` and on ``torch._VF`` (every ``torch.nn.functional`` dropout calls the latter).
DROPOUT_KERNELS = tuple(
    f"{kind}{suffix}"
    for kind in ("dropout", "feature_dropout", "alpha_dropout", "feature_alpha_dropout")
    for suffix in ("", "_")
)


#: ``torch.nn.functional``'s dropout functions.
FUNCTIONAL_DROPOUTS = ("dropout", "alpha_dropout", "feature_alpha_dropout", "dropout1d", "dropout2d", "dropout3d")


def _training_targets() -> list[tuple[object, str, Callable[..., Any]]]:
    targets: list[tuple[object, str, Callable[..., Any]]] = [
        (owner, name, _dropout_kernel) for owner in (torch, internals.VF) for name in DROPOUT_KERNELS
    ]
    targets += [(F, name, _functional_dropout) for name in FUNCTIONAL_DROPOUTS]
    targets.append((F, "scaled_dot_product_attention", _attention))
    return [*targets, (F, "batch_norm", _batch_norm), (F, "instance_norm", _instance_norm)]


#: Calls that train whatever the module flags say, reported to the calling thread's scope (see :func:`route`).
TRAINING_CALLS = _Patches("training calls", _training_targets())


class _Listened:
    """A method of a class (``nn.Module`` unless ``owner`` says) wrapped while at least one listener listens
    (:meth:`listening`)."""

    def __init__(self, attr: str, owner: type = nn.Module) -> None:
        self._listeners: list[Callable[..., None]] = []
        self.patches = _Patches(f"{owner.__module__}.{owner.__qualname__}.{attr}", [(owner, attr, self._wrap)])

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


class _ThreadStarts(_Listened):
    """``threading.Thread.start`` wrapped while a listener waits for another thread: each listener is called, in the
    starting thread, before the new thread runs."""

    def __init__(self) -> None:
        super().__init__("start", threading.Thread)

    def _wrap(self, original: Callable[[threading.Thread], None]) -> Callable[[threading.Thread], None]:
        listeners = self._listeners

        @functools.wraps(original)
        def start(thread: threading.Thread) -> None:
            for listener in list(listeners):
                listener()
            original(thread)

        return start


#: Threads started during a stage that runs without a module-call probe (:class:`ForwardProbe` waits for one).
THREAD_STARTS = _ThreadStarts()


class _ModuleCalls(_Listened):
    """``nn.Module.__call__`` wrapped while a stage runs: listeners hear ``(module, output)`` of every call made in
    training mode or with grad mode on, in any thread, and failure listeners ``(module, error)`` of every call that
    raised a ``RuntimeError`` (which then propagates unchanged).

    Cheaper than a global module forward hook (``register_module_forward_hook``), whose mere presence sends every
    module call of the process down ``nn.Module``'s slow path (about 8 us a call on a CPU): the wrapper repeats
    torch's own ``__call__`` (no frame more) and adds an attribute read and a grad-mode check to each call.
    """

    def __init__(self) -> None:
        super().__init__("__call__")
        self._failure_listeners: list[Callable[[nn.Module, RuntimeError], None]] = []

    @contextlib.contextmanager
    def listening(  # type: ignore[override]
        self, listener: Callable[[nn.Module, Any], None], failed: Callable[[nn.Module, RuntimeError], None]
    ) -> Iterator[None]:
        self._failure_listeners.append(failed)
        try:
            with super().listening(listener):
                yield
        finally:
            self._failure_listeners.remove(failed)

    def _wrap(self, original: Callable[..., Any]) -> Callable[..., Any]:
        listeners, failure_listeners = self._listeners, self._failure_listeners
        is_grad_enabled = torch.is_grad_enabled

        def heard(module: nn.Module, output: Any) -> None:
            for listener in list(listeners):
                listener(module, output)

        def failed(module: nn.Module, error: RuntimeError) -> None:
            for listener in list(failure_listeners):
                listener(module, error)

        if not internals.is_torchs_call(original):

            def __call__(module: nn.Module, *args: Any, **kwargs: Any) -> Any:
                try:
                    output = original(module, *args, **kwargs)
                except RuntimeError as error:
                    failed(module, error)
                    raise
                if module.training or is_grad_enabled():
                    heard(module, output)
                return output

            return __call__

        def __call__(module: nn.Module, *args: Any, **kwargs: Any) -> Any:
            # torch's own __call__ (Module._wrapped_call_impl), done here instead of called: a module call then
            # costs no frame more than without the guard. (A try block costs nothing until something raises.)
            compiled = module._compiled_call_impl
            try:
                output = compiled(*args, **kwargs) if compiled is not None else module._call_impl(*args, **kwargs)
            except RuntimeError as error:
                failed(module, error)
                raise
            if module.training or is_grad_enabled():
                heard(module, output)
            return output

        return __call__


#: Module calls during a stage (graphs built in any thread, normalisation layers running in training mode, calls
#: failing in other threads).
MODULE_CALLS = _ModuleCalls()


#: ``torch.autograd.graph.disable_saved_tensors_hooks`` wrapped while a stage runs anywhere in the process, so that the
#: ``torch.func`` transforms run under the guard (torch/_functorch/vmap.py ``doesnt_support_saved_tensors_hooks``
#: looks it up on ``torch.autograd.graph`` at each call, however the transform was imported).
HOOK_REFUSALS = _Patches(
    "saved-tensor hook refusals", [(torch.autograd.graph, "disable_saved_tensors_hooks", _lifting_for_refusers)]
)
