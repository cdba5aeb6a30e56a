"""Every transformers internal the Hugging Face guard relies on, all of them in ``transformers/trainer.py`` (5.x).

- ``Trainer.evaluation_loop(self, dataloader, description, ...)``: shared by ``evaluate()`` (``description``
  ``"Evaluation"``) and ``predict()`` (``"Prediction"``), and by the evaluation inside ``train()`` (through
  ``evaluate()``). It calls ``model.eval()`` once before its first batch, then, for each batch, the module global
  ``find_batch_size(inputs)`` first, then ``self.prediction_step(...)`` (the subclass's, if it overrides it), then
  ``self.callback_handler.on_prediction_step``.
- ``DEFAULT_CALLBACKS``: the list of callback classes every ``Trainer.__init__`` instantiates for itself.

The guard replaces, process-wide and only while a guard exists, the base class's ``evaluation_loop`` (subclasses
that call ``super().evaluation_loop``, as TRL's do, pass through it) and the module's ``find_batch_size`` global
(one call at the start of each batch, whatever ``prediction_step`` a subclass has); both are put back exactly when
the last guard is gone. Nothing is written onto a Trainer, its arguments or its model. :func:`require_support`
checks each touchpoint up front, so a transformers that changed them fails loudly instead of running unguarded.
"""

from __future__ import annotations

import functools
import inspect
import sys
import threading
from collections.abc import Callable
from types import CodeType
from typing import Any, Final

from gradmode_plugin.violations import GradModeContextError, GradModeViolation

#: The transformers versions this module was written against (each touchpoint is also checked at run time).
SUPPORTED: Final[str] = "5.x (written against 5.24)"
#: The file every touchpoint lives in.
TRAINER_FILE: Final[str] = "transformers/trainer.py"
#: Source fragments of ``Trainer.evaluation_loop`` the guard relies on, each once.
_LOOP_FRAGMENTS: Final[tuple[str, ...]] = (
    "model.eval()",
    "find_batch_size(inputs)",
    "self.prediction_step(",
    "self.callback_handler.on_prediction_step(",
)
#: The loop's locals that hold what ``prediction_step`` returned (read, never written, at ``on_prediction_step``).
STEP_OUTPUT_LOCALS: Final[tuple[str, ...]] = ("losses", "logits", "labels")

#: Runs an evaluation loop: ``run(original, trainer, dataloader, description, args, kwargs)``.
LoopRunner = Callable[[Callable[..., Any], Any, Any, str, tuple[Any, ...], dict[str, Any]], Any]


class UnsupportedTransformersError(RuntimeError):
    """The installed transformers lacks something the guard relies on; the guard refuses to run unguarded."""


def _trainer_module() -> Any:
    import transformers.trainer

    return transformers.trainer


@functools.cache
def require_support() -> None:
    """Check every touchpoint in the installed ``transformers/trainer.py``; raise naming the first one missing."""
    import transformers

    module = _trainer_module()
    version = getattr(transformers, "__version__", "?")

    def missing(what: str) -> UnsupportedTransformersError:
        return UnsupportedTransformersError(
            f"gradmode-plugin's Hugging Face guard supports transformers {SUPPORTED}; the installed {version} lacks "
            f"{what} in {TRAINER_FILE}. Nothing was guarded: remove the guard (HFGradModeGuard, GRADMODE_GUARD) "
            "or install a supported transformers."
        )

    loop = getattr(getattr(module, "Trainer", None), "evaluation_loop", None)
    if loop is None:
        raise missing("Trainer.evaluation_loop")
    loop = _ORIGINAL.get("evaluation_loop", loop)
    parameters = list(inspect.signature(loop).parameters)
    if parameters[:3] != ["self", "dataloader", "description"]:
        raise missing("Trainer.evaluation_loop(self, dataloader, description, ...)")
    try:
        source = inspect.getsource(loop)
    except (OSError, TypeError) as err:
        raise missing("the source of Trainer.evaluation_loop") from err
    for fragment in _LOOP_FRAGMENTS:
        if source.count(fragment) != 1:
            raise missing(f"exactly one `{fragment}` in Trainer.evaluation_loop")
    if not callable(_ORIGINAL.get("find_batch_size", getattr(module, "find_batch_size", None))):
        raise missing("the module global find_batch_size")
    if not isinstance(getattr(module, "DEFAULT_CALLBACKS", None), list):
        raise missing("the list DEFAULT_CALLBACKS")


_GUARD_ERRORS: Final = (GradModeViolation, GradModeContextError)
#: What the patches replaced, while they are installed.
_ORIGINAL: dict[str, Any] = {}
_lock = threading.Lock()
_users = 0
_runner: LoopRunner | None = None
_batch_starts: Callable[[], None] | None = None


def loop_code() -> CodeType:
    """The code object of transformers' own ``Trainer.evaluation_loop`` (the frame whose locals hold the step's
    output)."""
    loop = _ORIGINAL.get("evaluation_loop") or _trainer_module().Trainer.evaluation_loop
    return loop.__code__


#: ``loop_code()`` while the patches are installed (read at every batch).
_loop_code: CodeType | None = None


def acquire(runner: LoopRunner, batch_starts: Callable[[], None]) -> Callable[[], None]:
    """Install the two patches (once for all guards); returns the release, which removes them with the last user."""
    global _users, _runner, _batch_starts, _loop_code
    require_support()
    module = _trainer_module()
    with _lock:
        if _users == 0:
            _runner, _batch_starts = runner, batch_starts
            original_loop = module.Trainer.evaluation_loop
            original_find = module.find_batch_size
            _ORIGINAL.update(evaluation_loop=original_loop, find_batch_size=original_find)
            _loop_code = original_loop.__code__

            @functools.wraps(original_loop)
            def evaluation_loop(self: Any, dataloader: Any, description: str, *args: Any, **kwargs: Any) -> Any:
                assert _runner is not None
                try:
                    return _runner(original_loop, self, dataloader, description, args, kwargs)
                except _GUARD_ERRORS as error:
                    # The user's traceback ends at this one frame of the guard's (the finding names the lines).
                    raise error.with_traceback(None) from error.__cause__

            @functools.wraps(original_find)
            def find_batch_size(*args: Any, **kwargs: Any) -> Any:
                # Only the loop's own call starts a batch (its caller's frame runs transformers' loop).
                if _batch_starts is not None and sys._getframe(1).f_code is _loop_code:
                    _batch_starts()
                return original_find(*args, **kwargs)

            module.Trainer.evaluation_loop = evaluation_loop
            module.find_batch_size = find_batch_size
        _users += 1
    released = False

    def release() -> None:
        global _users, _runner, _batch_starts, _loop_code
        nonlocal released
        with _lock:
            if released:
                return
            released = True
            _users -= 1
            if _users == 0 and _ORIGINAL:
                module.Trainer.evaluation_loop = _ORIGINAL.pop("evaluation_loop")
                module.find_batch_size = _ORIGINAL.pop("find_batch_size")
                _runner = _batch_starts = _loop_code = None

    return release


def installed() -> bool:
    """Whether the patches are in place (some guard exists)."""
    return bool(_ORIGINAL)


def callbacks_of(trainer: Any) -> list[Any]:
    """The callbacks of ``trainer`` (its ``callback_handler``'s list, read)."""
    handler = getattr(trainer, "callback_handler", None)
    return list(getattr(handler, "callbacks", ()))


def loop_frame(limit: int = 12) -> Any:
    """The frame of transformers' ``evaluation_loop`` further up this thread's stack, or None."""
    code = _loop_code or loop_code()
    frame = sys._getframe(1)
    for _ in range(limit):
        if frame is None:
            return None
        if frame.f_code is code:
            return frame
        frame = frame.f_back  # type: ignore[assignment]
    return None


def inside_training(trainer: Any) -> bool:
    """Whether ``trainer.train()`` is running (the evaluation inside training)."""
    return bool(getattr(trainer, "is_in_train", False))


def register_default_callback(cls: type) -> Callable[[], None]:
    """Append ``cls`` to ``DEFAULT_CALLBACKS`` (each Trainer built from now on makes one); returns its removal."""
    require_support()
    defaults = _trainer_module().DEFAULT_CALLBACKS
    if cls not in defaults:
        defaults.append(cls)

    def remove() -> None:
        if cls in defaults:
            defaults.remove(cls)

    return remove
