"""Guard every Trainer without a code change: Lightning's callback entry points, driven by environment variables.

Lightning calls every factory registered under ``lightning.pytorch.callbacks_factory`` (a ``lightning.pytorch``
Trainer) or ``pytorch_lightning.callbacks_factory`` (a ``pytorch_lightning`` Trainer) when a Trainer is built. The
factories here return nothing unless ``GRADMODE_GUARD`` is set:

- ``GRADMODE_GUARD``: ``raise``, ``warn`` or ``record`` (the policy); unset, empty, ``0`` or ``off``: no guard.
- ``GRADMODE_GRAD_MODE``: ``auto`` (default), ``inference`` or ``no_grad``.
- ``GRADMODE_ALLOW_TRAIN``: comma-separated glob patterns over module names, e.g. ``head.mc_dropout,*.drop``.
- ``GRADMODE_CHECK_PARAMS``: ``1``/``true`` to also check that evaluation changes no parameter.

None is added to a Trainer built with a ``GradModeGuard`` of the user's (the user's wins); one made here stands aside
when the user's arrives later (``configure_callbacks``), and keeps nothing in checkpoints. While ``pytest --gradmode``
collects findings, a guard made here reports to it (see :mod:`gradmode_plugin.spool` for child processes) instead of
warning at the end of each run.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from gradmode_plugin.options import GRAD_MODES, ON_VIOLATION, GuardOptions

if TYPE_CHECKING:
    from gradmode_plugin.lightning.callback import GradModeGuard

#: The environment variables read, with what each takes.
VARIABLES: Final[dict[str, str]] = {
    "GRADMODE_GUARD": "raise | warn | record (unset, empty, 0 or off: no guard)",
    "GRADMODE_GRAD_MODE": "auto | inference | no_grad",
    "GRADMODE_ALLOW_TRAIN": "comma-separated glob patterns over model.named_modules() names",
    "GRADMODE_CHECK_PARAMS": "0 | 1 (also true/false, yes/no)",
}
_OFF: Final[tuple[str, ...]] = ("", "0", "off", "false", "no", "none")
_FLAGS: Final[dict[str, bool]] = {"1": True, "true": True, "yes": True, "0": False, "false": False, "no": False}

#: Where the report of every guard made here goes while someone collects them (the pytest plugin, for a session);
#: ``None`` otherwise, so nothing outlives its Trainer.
REPORT_SINK: list[Any] | None = None
#: Set by ``pytest --gradmode`` for the processes its tests start: the session's spool folder, and the node id of
#: the running test (see :mod:`gradmode_plugin.spool`).
SPOOL_VARIABLE: Final[str] = "GRADMODE_SPOOL"
TEST_VARIABLE: Final[str] = "GRADMODE_SPOOL_TEST"


class GuardEnvironmentError(ValueError):
    """A ``GRADMODE_*`` variable holds a value it does not take; the message names the variable and what it takes."""


def options_from_environment(environ: dict[str, str] | None = None) -> GuardOptions | None:
    """The guard's options from the environment, or ``None`` when ``GRADMODE_GUARD`` asks for none.

    A bad value raises :class:`GuardEnvironmentError` naming the variable and what it takes.

    Example:
        >>> options_from_environment({"GRADMODE_GUARD": "record", "GRADMODE_ALLOW_TRAIN": "head.drop, *.mc"})
        GuardOptions(grad_mode='auto', on_violation='record', allow_train=('head.drop', '*.mc'), check_params=False)
        >>> options_from_environment({"GRADMODE_GUARD": "yes"})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        gradmode_plugin.dropin.GuardEnvironmentError: GRADMODE_GUARD='yes' is not supported; allowed values: raise | ...
    """
    env = os.environ if environ is None else environ
    policy = _value(env, "GRADMODE_GUARD", "", (*ON_VIOLATION, *_OFF))
    if policy in _OFF:
        return None
    check = _value(env, "GRADMODE_CHECK_PARAMS", "0", tuple(_FLAGS))
    return GuardOptions(
        grad_mode=_value(env, "GRADMODE_GRAD_MODE", "auto", GRAD_MODES),
        on_violation=policy,
        allow_train=tuple(p.strip() for p in env.get("GRADMODE_ALLOW_TRAIN", "").split(",") if p.strip()),
        check_params=_FLAGS[check],
    )


def guard_asked(environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``GRADMODE_GUARD`` asks for a guard at all (its value unchecked: :func:`options_from_environment`
    judges it)."""
    env = os.environ if environ is None else environ
    return env.get("GRADMODE_GUARD", "").strip().lower() not in _OFF


def _value(env: Mapping[str, str], name: str, default: str, allowed: tuple[str, ...]) -> str:
    value = env.get(name, default).strip().lower() or default
    if value not in allowed:
        raise GuardEnvironmentError(f"{name}={env[name]!r} is not supported; allowed values: {VARIABLES[name]}")
    return value


def _guard() -> list[GradModeGuard]:
    options = options_from_environment()
    if options is None:
        return []
    from gradmode_plugin.lightning._internals import callbacks_of_trainer_being_built
    from gradmode_plugin.lightning.callback import GradModeGuard

    if any(isinstance(c, GradModeGuard) for c in callbacks_of_trainer_being_built() or []):
        return []  # the user's own guard wins

    guard = GradModeGuard(
        grad_mode=options.grad_mode,
        on_violation=options.on_violation,
        allow_train=options.allow_train,
        check_params=options.check_params,
    )
    guard.from_environment = True
    _collect(guard)
    return [guard]


def _collect(guard: GradModeGuard) -> None:
    """Hand the guard's findings to the session that collects them (``pytest --gradmode``), if any: in memory in
    the session's own process, through the spool from the processes its tests start. The session reports them, so
    the guard does not warn about them at the end of a run."""
    from gradmode_plugin.spool import SpooledReport, spooling

    collected = REPORT_SINK is not None
    if spooling():
        guard.report = SpooledReport(collected_in=os.getpid() if collected else None)
    if collected or spooling():
        guard.warn_at_end = False
    if REPORT_SINK is not None:
        REPORT_SINK.append(guard.report)


# A bad variable is raised while Lightning builds a Trainer, from the factory itself with no traceback of its own:
# what is printed ends at one frame of this module, right under Lightning's, then the variable and what it takes.


def lightning_callbacks() -> list[GradModeGuard]:
    """Entry point of ``lightning.pytorch.callbacks_factory``."""
    try:
        return _guard()
    except GuardEnvironmentError as err:
        raise err.with_traceback(None) from None


def pytorch_lightning_callbacks() -> list[GradModeGuard]:
    """Entry point of ``pytorch_lightning.callbacks_factory``."""
    try:
        return _guard()
    except GuardEnvironmentError as err:
        raise err.with_traceback(None) from None
