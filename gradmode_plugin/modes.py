"""The two switches of correct evaluation: the grad context and every module's train/eval flag."""

from __future__ import annotations

import contextlib
import fnmatch
import operator
from collections.abc import Iterator, Sequence
from typing import Final, Literal

import torch
from torch import nn

GradMode = Literal["auto", "inference", "no_grad"]
GRAD_MODES: Final[tuple[str, ...]] = ("auto", "inference", "no_grad")

#: What each resolved mode is called in reports and logs.
CONTEXT_NAMES: Final[dict[str, str]] = {"inference": "inference_mode", "no_grad": "no_grad"}


def validate_choice(name: str, value: object, allowed: Sequence[str]) -> str:
    """``value`` as a plain string (string enums from typed configs included), or a ``ValueError`` naming the
    argument and its allowed values."""
    plain = getattr(value, "value", value)
    if plain not in allowed:
        choices = ", ".join(repr(a) for a in allowed)
        raise ValueError(f"{name}={plain!r} is not supported; allowed values: {choices}")
    return str(plain)


def validate_patterns(name: str, patterns: object) -> tuple[str, ...]:
    """Normalise glob patterns given as one string or a sequence of strings."""
    if isinstance(patterns, str):
        patterns = (patterns,)
    if not isinstance(patterns, (list, tuple)) or not all(isinstance(p, str) and p for p in patterns):
        raise ValueError(
            f"{name}={patterns!r} is not supported; expected a sequence of non-empty glob patterns over "
            "names from model.named_modules(), e.g. ('head.mc_dropout', '*.dropout')"
        )
    return tuple(patterns)


@contextlib.contextmanager
def grad_context(mode: str) -> Iterator[None]:
    """Enter the resolved grad context: ``"inference"`` or ``"no_grad"``.

    ``no_grad`` also leaves an enclosing inference mode, so the choice holds whatever the caller set up.
    """
    if mode == "inference":
        with torch.inference_mode():
            yield
    else:
        with torch.inference_mode(False), torch.no_grad():
            yield


_TRAINING = operator.attrgetter("training")


def _allowed_names(model: nn.Module, patterns: tuple[str, ...]) -> tuple[list[str], set[str]]:
    """(top-most matched module names, every name matched or below a matched module)."""
    top: list[str] = []
    covered: set[str] = set()
    for name, _ in model.named_modules():
        if any(name == t or name.startswith(t + ".") or t == "" for t in top):
            covered.add(name)
            continue
        if any(fnmatch.fnmatchcase(name, p) for p in patterns):
            top.append(name)
            covered.add(name)
    return top, covered


class ModuleModes:
    """Records every submodule's ``training`` flag and puts the model in eval mode, except allowed modules.

    ``restore()`` assigns the recorded flags back, so a frozen backbone stays in eval and the effect of a
    custom ``train()`` override is kept exactly as it was.

    Example:
        >>> model = nn.Sequential(nn.Linear(2, 2), nn.Dropout())
        >>> modes = ModuleModes(model, allow_train=("1",))
        >>> modes.apply()
        ['1']
        >>> model[0].training, model[1].training
        (False, True)
        >>> modes.restore()
        >>> model[0].training
        True
    """

    def __init__(self, model: nn.Module, allow_train: tuple[str, ...] = ()) -> None:
        self.model = model
        self.allow_train = allow_train
        self._saved = [(m, m.training) for m in model.modules()]
        self.train_allowed, covered = _allowed_names(model, allow_train)
        unmatched = [p for p in allow_train if not any(fnmatch.fnmatchcase(n, p) for n in covered)]
        if unmatched:
            names = [n for n, _ in model.named_modules() if n][:8]
            raise ValueError(
                f"allow_train pattern(s) {unmatched} match no module of {type(model).__name__}; patterns are "
                f"globs over names from model.named_modules(), which here look like {names}"
            )
        self.checked: tuple[tuple[str, nn.Module], ...] = tuple(
            (name, m) for name, m in model.named_modules() if name not in covered
        )
        self._checked_modules = tuple(m for _, m in self.checked)

    def apply(self) -> list[str]:
        """Eval mode everywhere (through ``model.eval()``), train mode for allowed modules; returns their names."""
        self.model.eval()
        modules = dict(self.model.named_modules())
        for name in self.train_allowed:
            modules[name].train()
        return list(self.train_allowed)

    def training_modules(self) -> list[str]:
        """Names of checked (not allowed) modules in training mode, top-most first."""
        found = [name for name, m in self.checked if m.training]
        return [n for n in found if not any(n.startswith(p + ".") or (p == "" and n) for p in found if p != n)]

    def any_training(self) -> bool:
        # Runs once per batch over every module: a C-level loop, no tuple unpacking per module.
        return any(map(_TRAINING, self._checked_modules))

    def restore(self) -> None:
        for module, flag in self._saved:
            module.training = flag
