"""The two switches of correct evaluation: the grad context (which one, and why) and every module's train flag."""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import fnmatch
import operator
from collections.abc import Iterator
from typing import Any, Final

import torch
from torch import nn

from gradmode_plugin import distributed
from gradmode_plugin.violations import GradModeContextError, GradModeViolation

#: What each resolved mode is called in reports and logs.
CONTEXT_NAMES: Final[dict[str, str]] = {"inference": "inference_mode", "no_grad": "no_grad"}


@contextlib.contextmanager
def grad_context(mode: str) -> Iterator[None]:
    """Enter the resolved grad context: ``"inference"`` or ``"no_grad"``.

    ``no_grad`` never leaves an enclosing inference mode: a scope entered inside the caller's
    ``torch.inference_mode()`` runs under it (:func:`within_callers_context`).
    """
    if mode == "inference":
        with torch.inference_mode():
            yield
    else:
        with torch.no_grad():
            yield


@dataclasses.dataclass(frozen=True)
class GradContextChoice:
    """The grad context a stage runs under and why.

    ``by_guard`` is True when the guard's choice is not what would have run without it (a plain loop has no
    context of its own; Lightning has its own rule): a crash that this context causes is then the guard's to
    explain.
    """

    mode: str
    reason: str
    by_guard: bool = True

    @property
    def name(self) -> str:
        return CONTEXT_NAMES[self.mode]


#: Why ``no_grad`` rather than ``inference_mode``, where the reason is the same for every adapter.
GLOO_REASON: Final[str] = "gloo process group: collectives on inference tensors are not reliable"
INSIDE_TRAINING_REASON: Final[str] = (
    "evaluation inside training (validation during fit): inference tensors could not be reused by training code"
)


def resolve_grad_mode(
    requested: str,
    *,
    inside_training: bool,
    no_inference_reason: str | None = None,
    framework_mode: str | None = None,
) -> GradContextChoice:
    """The grad context to use for ``grad_mode=requested``.

    ``"auto"`` picks ``no_grad`` inside training (inference tensors could not be reused by training code) and
    where inference mode is known to break (``no_inference_reason``: gloo, FSDP, XLA, an explicit
    ``Trainer(inference_mode=False)``), ``inference_mode`` otherwise. ``framework_mode`` is what the framework
    running the loop would use without the guard, if it has a rule of its own.

    Example:
        >>> resolve_grad_mode("auto", inside_training=True).mode
        'no_grad'
    """
    if requested != "auto":
        choice = GradContextChoice(requested, f"grad_mode={requested!r} was requested")
    elif no_inference_reason:
        choice = GradContextChoice("no_grad", no_inference_reason)
    elif distributed.backend() == "gloo":
        choice = GradContextChoice("no_grad", GLOO_REASON)
    elif inside_training:
        choice = GradContextChoice("no_grad", INSIDE_TRAINING_REASON)
    else:
        choice = GradContextChoice("inference", "stand-alone evaluation: inference_mode is the cheapest context")
    if framework_mode is not None:
        choice = dataclasses.replace(choice, by_guard=choice.mode != framework_mode)
    return choice


#: Why a stage runs under inference mode where the guard would have chosen no_grad.
CALLERS_INFERENCE_REASON: Final[str] = (
    "inside the caller's torch.inference_mode(): the guard never lowers a grad context its caller set"
)


def within_callers_context(choice: GradContextChoice) -> GradContextChoice:
    """``choice``, unless the caller's ``torch.inference_mode()`` is on: then the stage stays inside it (outside it,
    an in-place update of a tensor the caller made there fails), the reason says so, and a crash it causes is not
    the guard's.

    Example:
        >>> with torch.inference_mode():
        ...     within_callers_context(resolve_grad_mode("no_grad", inside_training=False)).mode
        'inference'
    """
    if choice.mode == "inference" or not torch.is_inference_mode_enabled():
        return choice
    return GradContextChoice(
        "inference", f"{CALLERS_INFERENCE_REASON}; without it: no_grad ({choice.reason})", by_guard=False
    )


#: Messages of PyTorch errors that inference mode causes in code that needs autograd.
_INFERENCE_ERRORS: Final[tuple[str, ...]] = (
    "inference tensor",
    "inference_mode",
    "inferencemode",
    "does not require grad and does not have a grad_fn",
)


#: The two ways out of a failure that inference mode causes in code that needs autograd.
INFERENCE_WAYS_OUT: Final[str] = (
    "mark that code with `with gradmode_plugin.allow_grad('reason'):` and clone the tensors it takes from the batch "
    "inside the block (x = x.clone().requires_grad_()), or run the stage under grad_mode='no_grad'"
)


def is_inference_error(err: BaseException) -> bool:
    """Whether ``err`` is PyTorch refusing something because of inference mode."""
    if not isinstance(err, RuntimeError) or isinstance(err, (GradModeViolation, GradModeContextError)):
        return False
    text = str(err).lower()
    return any(marker in text for marker in _INFERENCE_ERRORS)


def explain_inference_error(err: BaseException, choice: GradContextChoice) -> str | None:
    """When ``err`` is PyTorch failing because of ``inference_mode`` that the guard chose, the explanation."""
    if choice.mode != "inference" or not choice.by_guard or not is_inference_error(err):
        return None
    return (
        f"gradmode: this step failed inside PyTorch under torch.inference_mode(), which the guard chose "
        f"({choice.reason}). Code that needs autograd during evaluation cannot run there. Either "
        f"{INFERENCE_WAYS_OUT}.\n"
        f"PyTorch said: {type(err).__name__}: {err}"
    )


def inference_error_note(err: BaseException, choice: GradContextChoice) -> str | None:
    """What to add to PyTorch's own error when a step fails because of an ``inference_mode`` that the guard did not
    choose (Lightning's, or the caller's): the error stands as it is, the note says why and the way out."""
    if choice.mode != "inference" or choice.by_guard or not is_inference_error(err):
        return None
    return (
        "gradmode: this step ran under torch.inference_mode(), where torch.enable_grad() records nothing (inference "
        "mode is a separate, stronger switch) and tensors from the batch cannot be saved for backward. For code that "
        "needs autograd during evaluation: `with gradmode_plugin.allow_grad('reason'), torch.inference_mode(False):` "
        "and clone what it takes from the batch (x = x.clone().requires_grad_()), or evaluate under no_grad "
        "(Trainer(inference_mode=False), or grad_mode='no_grad')"
    )


_TRAINING = operator.attrgetter("training")


def _covered_names(names: list[str], patterns: tuple[str, ...]) -> tuple[list[str], set[str]]:
    """(top-most matched module names, every name matched or below a matched module)."""
    top: list[str] = []
    covered: set[str] = set()
    for name in names:
        if any(name == t or name.startswith(t + ".") or t == "" for t in top):
            covered.add(name)
            continue
        if any(fnmatch.fnmatchcase(name, p) for p in patterns):
            top.append(name)
            covered.add(name)
    return top, covered


def _similar(pattern: str, names: list[str]) -> list[str]:
    """Module names that look like what ``pattern`` meant: close spellings, or containing its last part."""
    stem = pattern.rsplit(".", 1)[-1].strip("*?[]")
    close = difflib.get_close_matches(pattern, names, n=5, cutoff=0.6)
    containing = [n for n in names if stem and stem in n.rsplit(".", 1)[-1]] if len(stem) > 2 else []
    return list(dict.fromkeys(close + containing))[:8]


class ModuleModes:
    """Records every submodule's ``training`` flag; knows the modules ``allow_train`` matches (with their children:
    the ones never checked) and the ones it checks.

    It never assigns an evaluation flag: the modes during evaluation are what the model's own code makes of
    ``eval()`` (Lightning's ``on_*_model_eval`` hook, or ``model.eval()`` for a plain scope), so a ``train()``
    override that skips a child is seen, not masked. :meth:`train_allowed_modules` then puts the allowed modules in
    training mode, as asked. ``restore()`` assigns the recorded flags back (by object, then by name for a module
    created during the stage in another's place), so a frozen backbone stays in eval and the effect of a custom
    ``train()`` override is kept exactly as it was.

    Example:
        >>> model = nn.Sequential(nn.Linear(2, 2), nn.Dropout())
        >>> modes = ModuleModes(model, allow_train=("1",))
        >>> _ = model.eval()
        >>> modes.train_allowed_modules()
        >>> model[0].training, model[1].training
        (False, True)
        >>> modes.restore()
        >>> model[0].training
        True
    """

    def __init__(self, model: nn.Module, allow_train: tuple[str, ...] = ()) -> None:
        # Imported when a stage starts, as the torch internals it reads are (see _torch_internals).
        from gradmode_plugin.wrappers import user_module

        #: The user's module inside any framework wrapper (``fabric.setup``, DDP, ``torch.compile``): the names are its.
        self.model = user_module(model)
        named = list(self.model.named_modules())
        self._by_name = {name: m.training for name, m in named}
        #: ``id(module) -> name`` for every module of the model when the stage started.
        self.names: dict[int, str] = {id(m): name for name, m in named}
        #: ``name -> module`` (``get_submodule`` is not supported on TorchScript modules).
        self.modules: dict[str, nn.Module] = dict(named)
        all_names = [name for name, _ in named]
        self.train_allowed, self.covered = _covered_names(all_names, allow_train)
        unmatched = [p for p in allow_train if not any(fnmatch.fnmatchcase(n, p) for n in self.covered)]
        if unmatched:
            raise ValueError(_unmatched_message(unmatched, type(model).__name__, [n for n in all_names if n]))
        self.checked: tuple[tuple[str, nn.Module], ...] = tuple((n, m) for n, m in named if n not in self.covered)
        # The flags are read at every batch. nn.Module keeps its flag in the instance dict, where a dict lookup reads
        # it several times faster than getattr (nn.Module's __getattr__ slows every attribute read made from C);
        # modules that keep it elsewhere (TorchScript modules: in C++) are read as attributes.
        checked = [m for _, m in self.checked]
        #: The instance dicts that hold the checked modules' flags, and the checked modules that hold theirs elsewhere.
        self.flag_dicts: tuple[dict[str, Any], ...] = tuple(vars(m) for m in checked if "training" in vars(m))
        self.flag_owners: tuple[nn.Module, ...] = tuple(m for m in checked if "training" not in vars(m))
        # The wrappers' own flags (``eval()`` on the wrapper sets them too): restored, never checked (they compute
        # nothing that trains).
        self._wrappers = [(m, m.training) for m in model.modules() if id(m) not in self.names]

    def train_allowed_modules(self) -> None:
        """Put the modules ``allow_train`` matches in training mode, through their own ``train()``."""
        for name in self.train_allowed:
            self.modules[name].train()

    def training_modules(self) -> list[str]:
        """Names of checked (not allowed) modules in training mode, top-most first."""
        found = [name for name, m in self.checked if m.training]
        return [n for n in found if not any(n.startswith(p + ".") or (p == "" and n) for p in found if p != n)]

    def any_training(self) -> bool:
        """Whether a checked module is in training mode (once per batch, over every checked module)."""
        # A plain loop: CPython specialises its dict subscript, and it costs less than any(map(itemgetter(...))).
        for flags in self.flag_dicts:
            if flags["training"]:
                return True
        return any(map(_TRAINING, self.flag_owners))

    def is_covered(self, name: str | None) -> bool:
        return name is not None and name in self.covered

    def restore(self) -> None:
        """Assign the recorded flags back: to each recorded module, then by qualified name (as Lightning's
        ``_ModuleMode`` does) to a module that now stands where another stood, one a ``forward`` created in place of
        a submodule (BigBird's short-sequence path replaces ``attention.self``); a module under a name that did not
        exist on entry takes its nearest recorded parent's flag."""
        for wrapper, flag in self._wrappers:
            wrapper.training = flag
        for name, flag in self._by_name.items():
            self.modules[name].training = flag
        for name, module in self.model.named_modules():
            if self.names.get(id(module)) != name:
                module.training = self._recorded_flag(name)

    def _recorded_flag(self, name: str) -> bool:
        """The flag recorded for ``name``, or for a name it did not have on entry, its nearest recorded parent's."""
        while name not in self._by_name:
            name = name.rpartition(".")[0] if "." in name else ""
        return self._by_name[name]


def _unmatched_message(unmatched: list[str], model_name: str, names: list[str]) -> str:
    lines = [f"allow_train pattern(s) {unmatched} match no module of {model_name}."]
    for pattern in unmatched:
        similar = _similar(pattern, names)
        if similar:
            lines.append(f"  similar to {pattern!r}: {', '.join(similar)}")
    shown = ", ".join(names[:12]) + (f", ... ({len(names)} in all)" if len(names) > 12 else "")
    lines.append(f"Patterns are globs over names from model.named_modules(): {shown or '(no submodules)'}")
    return "\n".join(lines)
