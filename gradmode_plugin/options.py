"""The guard's options, validated once for every adapter (the callback, ``evaluating``, environment variables)."""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Sequence
from typing import Final

#: Allowed values of ``grad_mode``.
GRAD_MODES: Final[tuple[str, ...]] = ("auto", "inference", "no_grad")
#: Allowed values of ``on_violation``.
ON_VIOLATION: Final[tuple[str, ...]] = ("raise", "warn", "record")


def validate_choice(name: str, value: object, allowed: Sequence[str]) -> str:
    """``value`` as a plain string (string enums from typed configs included), or a ``ValueError`` naming the
    argument and its allowed values."""
    plain = getattr(value, "value", value)
    if plain not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name}={plain!r} is not supported; allowed values: {choices}")
    return str(plain)


def validate_patterns(name: str, patterns: object) -> tuple[str, ...]:
    """Glob patterns given as one string or a sequence of non-empty strings, as a tuple."""
    if isinstance(patterns, str):
        patterns = (patterns,)
    if not isinstance(patterns, (list, tuple)) or not all(isinstance(p, str) and p for p in patterns):
        raise ValueError(
            f"{name}={patterns!r} is not supported; expected a sequence of non-empty glob patterns over "
            "names from model.named_modules(), e.g. ('head.mc_dropout', '*.dropout')"
        )
    return tuple(patterns)


def validate_keywords(owner: str, given: Iterable[str], accepted: Sequence[str]) -> None:
    """A ``TypeError`` for a keyword ``owner`` does not take, with the closest accepted one ("did you mean")."""
    for name in given:
        if name not in accepted:
            close = difflib.get_close_matches(name, accepted, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else "."
            raise TypeError(
                f"{owner}() got an unexpected keyword argument {name!r}{hint} It takes: {', '.join(accepted)}"
            )


def validate_flag(name: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{name}={value!r} is not supported; allowed values: True, False")
    return value


@dataclasses.dataclass(frozen=True)
class GuardOptions:
    """What every adapter of the guard is configured with; invalid values raise ``ValueError`` naming the option.

    Attributes:
        grad_mode: ``"auto"``, ``"inference"`` or ``"no_grad"`` (:data:`GRAD_MODES`).
        on_violation: ``"raise"``, ``"warn"`` or ``"record"`` (:data:`ON_VIOLATION`).
        allow_train: glob patterns over ``model.named_modules()`` names allowed to train (one string or several).
        check_params: also assert that evaluation wrote or replaced no parameter or buffer.

    Example:
        >>> GuardOptions(allow_train="head.mc_dropout").allow_train
        ('head.mc_dropout',)
    """

    grad_mode: str = "auto"
    on_violation: str = "raise"
    allow_train: tuple[str, ...] = ()
    check_params: bool = False

    def __post_init__(self) -> None:
        # Normalised in place: enums from typed configs become plain strings, one pattern becomes a tuple.
        object.__setattr__(self, "grad_mode", validate_choice("grad_mode", self.grad_mode, GRAD_MODES))
        object.__setattr__(self, "on_violation", validate_choice("on_violation", self.on_violation, ON_VIOLATION))
        object.__setattr__(self, "allow_train", validate_patterns("allow_train", self.allow_train))
        object.__setattr__(self, "check_params", validate_flag("check_params", self.check_params))
