"""Structured-config schema of ``callbacks/gradmode.yaml``: typed fields, allowed values checked at compose time.

Kept free of torch and Lightning imports: it is imported with the plugin, by every Hydra app. The leading
underscore keeps Hydra's plugin scan from executing it a second time (as a fresh module, before it is in
``sys.modules``); and no ``from __future__ import annotations``: dataclasses would then look the module up there.
"""

import dataclasses
import difflib
from collections.abc import Iterable
from enum import Enum
from typing import Final

from hydra.core.config_store import ConfigStore

#: Where the schema is stored in Hydra's ConfigStore: at the root, outside every config group, so no app lists it
#: as an option (``--help`` lists groups only); ``callbacks/gradmode.yaml`` names it in its defaults list.
SCHEMA_NAME: Final[str] = "gradmode_guard_schema"


class _Choice(str, Enum):
    """A string-valued choice: equal to, hashed and printed like its plain string, so code taking strings
    (``grad_mode == "auto"``, ``repr`` in messages, JSON) sees no difference."""

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return repr(self.value)

    def __format__(self, spec: str) -> str:
        return format(str(self.value), spec)


# The functional form, because a member must be *named* like its value (OmegaConf looks values up by member
# name) and "raise" is a Python keyword. module/qualname keep the members picklable (ddp_spawn pickles callbacks).
#: Allowed values of ``GradModeGuard(grad_mode=...)``.
GradMode = _Choice("GradMode", {v: v for v in ("auto", "inference", "no_grad")}, module=__name__, qualname="GradMode")
#: Allowed values of ``GradModeGuard(on_violation=...)``.
OnViolation = _Choice(
    "OnViolation", {v: v for v in ("raise", "warn", "record")}, module=__name__, qualname="OnViolation"
)


@dataclasses.dataclass
class GradModeGuardConf:
    """``GradModeGuard`` options as a Hydra structured config (unknown keys and bad values fail at compose)."""

    _target_: str = "gradmode_plugin.GradModeGuard"
    # Hand plain lists to the constructor, not OmegaConf ListConfig.
    _convert_: str = "all"
    grad_mode: GradMode = GradMode["auto"]  # type: ignore[valid-type]
    on_violation: OnViolation = OnViolation["raise"]  # type: ignore[valid-type]
    allow_train: list[str] = dataclasses.field(default_factory=list)
    check_params: bool = False
    log_metrics: bool = False


#: The guard's options, as ``callbacks.gradmode.<option>`` takes them (Hydra's ``_target_``/``_convert_`` aside).
OPTIONS: Final[tuple[str, ...]] = tuple(
    f.name for f in dataclasses.fields(GradModeGuardConf) if not f.name.startswith("_")
)


def unknown_options(keys: Iterable[str]) -> list[tuple[str, str | None]]:
    """The keys that are not options of the guard, each with the closest option (``None`` when none is close).

    Example:
        >>> unknown_options(["grad_mod", "_target_", "on_violation"])
        [('grad_mod', 'grad_mode')]
    """
    known = {f.name for f in dataclasses.fields(GradModeGuardConf)}
    return [
        (key, next(iter(difflib.get_close_matches(key, OPTIONS, n=1, cutoff=0.6)), None))
        for key in keys
        if key not in known
    ]


def register_configs() -> None:
    """Store the schema as ``gradmode_guard_schema`` in Hydra's ConfigStore (idempotent)."""
    ConfigStore.instance().store(name=SCHEMA_NAME, node=GradModeGuardConf)
