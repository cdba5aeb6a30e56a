"""Every Lightning internal the guard relies on, each naming the Lightning file it depends on.

Paths are relative to ``src/lightning/pytorch/`` (the standalone ``pytorch_lightning`` package has the same
files). Everything is attached to Lightning's own objects (the evaluation loops, the strategy, the precision
plugin) for one stage or one fit, and put back exactly; nothing is written onto the
LightningModule or any other user object. :func:`require_support` checks every touchpoint when a fit, validate,
test or predict starts, so a Lightning that changed them fails loudly instead of running unguarded.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import inspect
import sys
from collections.abc import Callable, Iterator
from typing import Any, Final, Protocol

import torch

from gradmode_plugin import distributed
from gradmode_plugin.modes import GLOO_REASON, INSIDE_TRAINING_REASON

#: The Lightning versions this module was written against (each touchpoint is also checked at run time).
SUPPORTED: Final[str] = "2.2 to 2.6"

_STEP_NAMES: Final[dict[str, str]] = {
    "sanity_check": "validation_step",
    "validation": "validation_step",
    "test": "test_step",
    "predict": "predict_step",
}


#: The per-batch hooks of callbacks/callback.py that the guard does not use. trainer/call.py ``_call_callback_hooks``
#: calls a callback's hook only when ``callable(getattr(callback, name))``, each call inside a profiler context named
#: for that callback: the guard's class sets these to None, so Lightning skips them. For a small model at batch 1 that
#: dispatch of empty hooks costs about as much as the guard's own work per batch.
UNUSED_BATCH_HOOKS: Final[tuple[str, ...]] = (
    "on_train_batch_start",
    "on_train_batch_end",
    "on_before_backward",
    "on_after_backward",
    "on_before_optimizer_step",
    "on_before_zero_grad",
    "on_validation_batch_start",
    "on_validation_batch_end",
    "on_test_batch_start",
    "on_test_batch_end",
    "on_predict_batch_start",
    "on_predict_batch_end",
)


class UnsupportedLightningError(RuntimeError):
    """The installed Lightning lacks something the guard relies on; the guard refuses to run unguarded."""


#: lightning_utilities.core.rank_zero globals that each namespace's import sets (see callback_bases).
_RANK_ZERO_GLOBALS: Final[tuple[str, ...]] = ("log", "rank_zero_deprecation_category")


def callback_bases() -> tuple[type, ...]:
    """``Callback`` of every installed Lightning namespace (callbacks/callback.py), so a Trainer of either
    namespace runs the guard fully (hooks, checkpoints, isinstance checks).

    Importing a namespace re-points two process-wide globals of ``lightning_utilities.core.rank_zero`` at it
    (utilities/rank_zero.py, fabric/utilities/rank_zero.py): ``log``, the logger every ``rank_zero_info``/``_debug``
    of both namespaces writes to, and ``rank_zero_deprecation_category``; the last import wins. Importing the user's
    *other* namespace must not re-route the user's messages: they are put back when a namespace was imported before,
    and otherwise ``lightning.pytorch`` is imported last.
    """
    namespaces = ("lightning.pytorch", "pytorch_lightning")
    imported = any(name in sys.modules for name in namespaces)
    routing = sys.modules.get("lightning_utilities.core.rank_zero") if imported else None
    saved = {name: getattr(routing, name) for name in _RANK_ZERO_GLOBALS if hasattr(routing, name)}
    found = {}
    try:
        for name in reversed(namespaces):
            try:
                found[name] = importlib.import_module(name).Callback
            except ImportError:
                continue
    finally:
        for name, value in saved.items():
            setattr(routing, name, value)
    bases = [found[name] for name in namespaces if name in found]
    if not bases:
        raise ImportError(
            "GradModeGuard needs PyTorch Lightning: pip install 'gradmode-plugin[lightning]' (or install "
            "pytorch-lightning); the plain-PyTorch API (evaluating, allow_grad) works without it"
        )
    return tuple(bases)


def _namespace(trainer: Any) -> str:
    """``lightning.pytorch`` or ``pytorch_lightning``: the namespace of ``trainer``'s Trainer class
    (trainer/trainer.py), also for a subclass of it defined elsewhere."""
    for cls in type(trainer).__mro__:
        if cls.__name__ == "Trainer" and cls.__module__.endswith(".trainer.trainer"):
            return cls.__module__.removesuffix(".trainer.trainer")
    return "pytorch_lightning"


def lightning_version(trainer: Any) -> str:
    """``lightning 2.6.6`` for the namespace ``trainer`` comes from."""
    package = _namespace(trainer).split(".")[0]
    return f"{package} {getattr(sys.modules.get(package), '__version__', '?')}"


def rank_zero_warn(trainer: Any, message: str) -> None:
    """A warning from rank zero only, through the trainer's namespace (utilities/rank_zero.py)."""
    importlib.import_module(f"{_namespace(trainer)}.utilities").rank_zero_warn(message, stacklevel=2)


def rank_zero_info(trainer: Any, message: str) -> None:
    """An INFO line from rank zero only, where Lightning's own rank-zero lines go (utilities/rank_zero.py): the logger
    that the namespace's import hands ``lightning_utilities.core.rank_zero`` and gives a handler when the process has
    configured none, so the line shows wherever ``GPU available: ...`` does, and once."""
    importlib.import_module(f"{_namespace(trainer)}.utilities").rank_zero_info(message)


def callbacks_of_trainer_being_built(limit: int = 8) -> list[Any] | None:
    """The callbacks the user passed to the Trainer that is calling the callback factories, if it can be seen.

    trainer/connectors/callback_connector.py ``_CallbackConnector.on_trainer_init`` sets ``trainer.callbacks`` and
    then calls the entry-point factories (lightning_fabric/utilities/registry.py ``_load_external_callbacks``).
    """
    frame = sys._getframe(1)
    for _ in range(limit):
        if frame is None:
            return None
        if frame.f_code.co_name == "on_trainer_init":
            callbacks = getattr(getattr(frame.f_locals.get("self"), "trainer", None), "callbacks", None)
            return callbacks if isinstance(callbacks, list) else None
        frame = frame.f_back  # type: ignore[assignment]
    return None


def has_class(obj: object, name: str) -> bool:
    # By name, so the check holds for classes from either namespace.
    return any(cls.__name__ == name for cls in type(obj).__mro__)


def evaluation_loops(trainer: Any) -> list[Any]:
    """The four loops whose ``run`` is one evaluation stage (trainer/trainer.py; loops/fit_loop.py and
    loops/training_epoch_loop.py hold the validation loop of ``fit``)."""
    return [trainer.fit_loop.epoch_loop.val_loop, trainer.validate_loop, trainer.test_loop, trainer.predict_loop]


def stage_name(trainer: Any) -> str:
    """``sanity_check``, ``validation``, ``test`` or ``predict`` (trainer/trainer.py state properties)."""
    if trainer.sanity_checking:
        return "sanity_check"
    if trainer.testing:
        return "test"
    if trainer.predicting:
        return "predict"
    return "validation"


def inside_fit(trainer: Any) -> bool:
    """True while ``Trainer.fit`` runs (trainer/states.py, ``TrainerFn.FITTING``)."""
    return str(getattr(trainer.state.fn, "value", trainer.state.fn)) == "fit"


def framework_context(trainer: Any, loop: Any) -> tuple[str, str | None]:
    """What Lightning itself runs a loop under, and why not inference mode when it is not (the rule of
    loops/utilities.py ``_no_grad_context``, which decorates every loop's ``run``)."""
    if distributed.backend() == "gloo":
        return "no_grad", GLOO_REASON
    if has_class(trainer.accelerator, "XLAAccelerator"):
        return "no_grad", "XLA accelerator: inference mode is not supported there"
    if has_class(trainer.strategy, "FSDPStrategy"):
        return "no_grad", "FSDP strategy: inference tensors break FSDP's parameter handling"
    if not loop.inference_mode:
        if loop is trainer.fit_loop.epoch_loop.val_loop:
            return "no_grad", INSIDE_TRAINING_REASON
        return "no_grad", "Trainer(inference_mode=False) was requested"
    return "inference", None


def require_support(trainer: Any) -> None:
    """Every touchpoint below exists, or an :class:`UnsupportedLightningError` naming what is missing."""
    missing = []
    for loop in evaluation_loops(trainer):
        where = f"{type(loop).__name__} (loops/)"
        for path in ("run", "_build_kwargs", "batch_progress.increment_completed"):
            if _lookup(loop, path) is None:
                missing.append(f"{where}.{path}")
    for name in sorted(set(_STEP_NAMES.values())):
        if not callable(getattr(trainer.strategy, name, None)):
            missing.append(f"{type(trainer.strategy).__name__}.{name} (strategies/strategy.py)")
    if not callable(getattr(trainer.strategy, "reduce", None)):
        missing.append(f"{type(trainer.strategy).__name__}.reduce (strategies/strategy.py)")
    for name in ("_clip_gradients", "clip_gradients"):
        if not callable(getattr(trainer.precision_plugin, name, None)):
            missing.append(f"{type(trainer.precision_plugin).__name__}.{name} (plugins/precision/precision.py)")
    if not _skips_hooks_that_are_none(_namespace(trainer)):
        missing.append("_call_callback_hooks skipping a hook that is None (trainer/call.py)")
    if missing:
        raise UnsupportedLightningError(
            f"gradmode: GradModeGuard relies on Lightning internals that {lightning_version(trainer)} does not have: "
            f"{'; '.join(missing)}. This gradmode-plugin supports Lightning {SUPPORTED}: install one of those, or "
            "remove GradModeGuard from the callbacks (and unset GRADMODE_GUARD) to run unguarded."
        )


@functools.cache
def _skips_hooks_that_are_none(namespace: str) -> bool:
    """Whether ``<namespace>.trainer.call._call_callback_hooks`` calls a hook only when it is callable (read from its
    source; where no source is installed, the Lightning versions of :data:`SUPPORTED` all do)."""
    dispatch = getattr(sys.modules.get(f"{namespace}.trainer.call"), "_call_callback_hooks", None)
    if dispatch is None:
        return False
    try:
        return "callable(" in inspect.getsource(dispatch)
    except (OSError, TypeError):
        return True


def not_entered(trainer: Any, what: str) -> UnsupportedLightningError:
    """The error for a stage the guard expected to enter but did not."""
    return UnsupportedLightningError(
        f"gradmode: {what} was not called by {lightning_version(trainer)}, so this stage would run unguarded. This "
        f"gradmode-plugin supports Lightning {SUPPORTED}: install one of those, or remove GradModeGuard from the "
        "callbacks (and unset GRADMODE_GUARD) to run unguarded."
    )


def _lookup(obj: Any, path: str) -> Any:
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


@contextlib.contextmanager
def replaced(obj: object, name: str, value: Any) -> Iterator[None]:
    """Set ``obj.name = value`` (an instance attribute) for the block, then put back exactly what was there. A copy or
    a pickle of ``obj`` made meanwhile (a Trainer deep-copied or pickled in the middle of a stage, as sweep and
    checkpoint tools do) has what was there, not ``value``: it carries nothing of the guard (:class:`_Originals`)."""
    attributes = vars(obj)
    had_own = name in attributes
    own = attributes.get(name)
    originals = attributes.get("__getstate__")
    installed = not isinstance(originals, _Originals) and "__getstate__" not in attributes
    if installed:
        originals = _Originals(obj)
        obj.__getstate__ = originals
    if isinstance(originals, _Originals):
        originals.names.setdefault(name, (had_own, own))
    setattr(obj, name, value)
    try:
        yield
    finally:
        if had_own:
            setattr(obj, name, own)
        else:
            delattr(obj, name)
        if isinstance(originals, _Originals):
            originals.names.pop(name, None)
        if installed:
            delattr(obj, "__getstate__")


class _Originals:
    """The state of an object some of whose attributes the guard replaced, with what stood there put back: installed
    as the object's own ``__getstate__``, which ``copy`` and ``pickle`` read before its class's
    (``object.__reduce_ex__`` looks it up on the instance)."""

    def __init__(self, obj: object) -> None:
        self.obj = obj
        #: ``name -> (whether the object held it itself, its own value then)``.
        self.names: dict[str, tuple[bool, Any]] = {}

    def __call__(self) -> Any:
        by_class = getattr(type(self.obj), "__getstate__", None)  # object's own default from Python 3.11
        state = by_class(self.obj) if by_class is not None else dict(vars(self.obj))
        own = state[0] if isinstance(state, tuple) else state
        if not isinstance(own, dict):
            return state
        own = {key: value for key, value in own.items() if key != "__getstate__" and key not in self.names}
        own.update({name: value for name, (had_own, value) in self.names.items() if had_own})
        return (own, *state[1:]) if isinstance(state, tuple) else own


def wrapped_run(
    loop: Any, make: Callable[[Callable[..., Any]], Callable[..., Any]]
) -> contextlib.AbstractContextManager[None]:
    """``loop.run`` wrapped by ``make(run)`` (loops/evaluation_loop.py, loops/prediction_loop.py: one ``run`` is
    one stage, decorated with loops/utilities.py ``_no_grad_context``, which the wrapper encloses)."""
    return replaced(loop, "run", functools.wraps(loop.run)(make(loop.run)))


class StageHooks(Protocol):
    """What the guard hears of one stage, from the touchpoints of :func:`stage_touchpoints`. Each is installed as a
    ``functools.partial`` over the call it takes the place of, so Lightning's call enters one frame of the guard's."""

    def batch_begins(self, then: Callable[..., Any], batch: Any, batch_idx: int, dataloader_idx: int | None) -> Any:
        """A batch begins, before any ``on_*_batch_start`` hook; returns ``then(batch, batch_idx, dataloader_idx)``."""

    def batch_completed(self, then: Callable[[], Any]) -> Any:
        """A batch ends with ``then()``, after every ``on_*_batch_end`` hook."""

    def run_step(self, step: Callable[..., Any], what: str, /, *args: Any, **kwargs: Any) -> Any:
        """Run the batch's step (``what`` names its output, e.g. "validation_step output") and return its output."""


#: The LightningModule hook that puts the model in eval mode for each stage (loops/evaluation_loop.py
#: _on_evaluation_model_eval, loops/prediction_loop.py _on_predict_model_eval: right before the callbacks'
#: on_*_start hooks, after Lightning recorded every module's mode with utilities/model_helpers.py _ModuleMode).
EVAL_HOOKS: Final[dict[str, str]] = {
    "sanity_check": "on_validation_model_eval",
    "validation": "on_validation_model_eval",
    "test": "on_test_model_eval",
    "predict": "on_predict_model_eval",
}


def user_step(trainer: Any, stage: str) -> Any:
    """The LightningModule's step method of ``stage`` (read, never replaced)."""
    return getattr(trainer.lightning_module, _STEP_NAMES[stage], None)


@contextlib.contextmanager
def stage_touchpoints(
    trainer: Any, loop: Any, stage: str, hooks: StageHooks, inference_mode: bool | None = None
) -> Iterator[None]:
    """Attach ``hooks`` to one stage run of ``loop``; ``inference_mode`` (when not None) replaces the loop's own
    flag, read by ``_no_grad_context``, for the run."""
    with contextlib.ExitStack() as stack:
        # loops/evaluation_loop.py _evaluation_step and loops/prediction_loop.py _predict_step build the hooks'
        # arguments from the batch index before any on_*_batch_start hook runs.
        stack.enter_context(replaced(loop, "_build_kwargs", functools.partial(hooks.batch_begins, loop._build_kwargs)))

        # loops/progress.py _Progress.increment_completed: the last call of a batch, after its on_*_batch_end hooks.
        progress = loop.batch_progress
        completed = functools.partial(hooks.batch_completed, progress.increment_completed)
        stack.enter_context(replaced(progress, "increment_completed", completed))

        # strategies/strategy.py validation_step/test_step/predict_step, called through trainer/call.py
        # _call_strategy_hook; they call the LightningModule's step (directly or through the wrapped model).
        name = _STEP_NAMES[stage]
        step = functools.partial(hooks.run_step, getattr(trainer.strategy, name), f"{name} output")
        stack.enter_context(replaced(trainer.strategy, name, step))

        # loops/utilities.py _no_grad_context reads loop.inference_mode when run() starts.
        if inference_mode is not None:
            stack.enter_context(replaced(loop, "inference_mode", inference_mode))
        yield


def batches_fetched(loop: Any) -> int | None:
    """How many batches the steps of the run just ended fetched themselves from the ``dataloader_iter`` they take
    (loops/fetchers.py ``_DataLoaderIterDataFetcher.fetched``, kept on the loop as ``_data_fetcher`` by
    loops/evaluation_loop.py and loops/prediction_loop.py until the trainer's teardown); None where Lightning fetched
    one batch per step (or has no such fetcher)."""
    fetcher = getattr(loop, "_data_fetcher", None)
    if fetcher is None or not has_class(fetcher, "_DataLoaderIterDataFetcher"):
        return None
    fetched = getattr(fetcher, "fetched", None)
    return fetched if isinstance(fetched, int) else None


def strategy_sum(trainer: Any) -> Callable[[torch.Tensor], torch.Tensor]:
    """A sum over every rank through the trainer's strategy (strategies/strategy.py ``reduce``, as Lightning's own
    callbacks agree across ranks): the collective the strategy's process group and device expect."""
    strategy = trainer.strategy

    def reduce_sum(tensor: torch.Tensor) -> torch.Tensor:
        return strategy.reduce(tensor, reduce_op="sum")

    return reduce_sum


def _under_no_grad(fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(fn)
    def under_no_grad(*args: Any, **kwargs: Any) -> Any:
        with torch.no_grad():
            return fn(*args, **kwargs)

    return under_no_grad


@contextlib.contextmanager
def clipping_under_no_grad(trainer: Any) -> Iterator[None]:
    """Gradient clipping under ``torch.no_grad()`` for a fit: plugins/precision/precision.py ``_clip_gradients``
    (which calls the LightningModule's ``configure_gradient_clipping``, after the scaler unscaled) and
    ``clip_gradients`` (which ``LightningModule.clip_gradients`` calls in manual optimisation)."""
    plugin = trainer.precision_plugin
    with contextlib.ExitStack() as stack:
        for name in ("_clip_gradients", "clip_gradients"):
            stack.enter_context(replaced(plugin, name, _under_no_grad(getattr(plugin, name))))
        yield
