"""The rule registry of ``gradmode-lint``: every rule's code, what it finds, why it matters, the fix, and the runtime
kind it prevents.

This module is the one place where rules and runtime kinds (``gradmode_plugin.kinds``) name each other: a rule names
its kind by string (the linter imports neither torch nor the kinds module), and :func:`rules_for_kind` gives the
rules that would have caught a runtime violation before the run.

Example:
    >>> [rule.code for rule in rules_for_kind("grad_enabled")]
    ['GM302', 'GM401']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final


@dataclasses.dataclass(frozen=True)
class Rule:
    """One rule.

    Attributes:
        code: ``GM`` and three digits; the hundreds group the rules of one bug.
        name: a short slug (SARIF's rule name).
        what: what the rule finds, in a line.
        why: what goes wrong at run time.
        fix: what to write instead.
        kind: the runtime violation kind it prevents (``gradmode_plugin.kinds``), or ``None`` where there is none.
        also_kinds: further kinds the same bug shows up as at run time.
        words: what a file names if the rule can find anything in it (a file naming no rule's word is not
            parsed); the run's list of file words is made of these.
        messages: the finding's message, by variant (``"default"`` and the rule's other shapes), as
            ``str.format`` templates of what the finding names.
        family: the module of ``gradmode_plugin.lint`` that finds it, by name (``"dropout"``: ``dropout.py``), and
            the only one that reports its code; ``None`` for a rule no analysis reports (``GM999``, the runner's).
        opt_in: checked only where ``select`` names it (its code or a prefix of it), not by default: a rule whose
            findings are mostly harmless in the code it meets (``docs/lint.md`` gives the figures).
    """

    code: str
    name: str
    what: str
    why: str
    fix: str
    kind: str | None
    also_kinds: tuple[str, ...] = ()
    words: tuple[bytes, ...] = ()
    family: str | None = None
    messages: Mapping[str, str] = dataclasses.field(default_factory=dict, hash=False, compare=False)
    opt_in: bool = False

    def message(self, variant: str = "default", **names: object) -> str:
        """The message of a finding: the rule's template for ``variant`` filled with ``names``."""
        return self.messages[variant].format(**names)

    @property
    def kinds(self) -> tuple[str, ...]:
        """Every kind the rule prevents, its main kind first."""
        return (self.kind, *self.also_kinds) if self.kind else self.also_kinds


#: Every rule, in code order.
RULES: Final[tuple[Rule, ...]] = (
    Rule(
        "GM101",
        "functional-dropout-training-default",
        "`F.dropout` or `F.dropout1d/2d/3d` called without `training=`",
        "`training` defaults to True: it drops activations in evaluation whatever `model.eval()` set",
        "pass `training=self.training` (or use an `nn.Dropout` module)",
        "train_mode",
        words=(b"dropout",),
        family="dropout",
        messages=MappingProxyType(
            {
                "default": (
                    "`{call}` without `training=` drops activations in evaluation too (`training` defaults to True): "
                    "pass `training=self.training`"
                ),
            }
        ),
    ),
    Rule(
        "GM102",
        "functional-dropout-training-true",
        "a functional dropout (`F.dropout`, `F.alpha_dropout`, ...) called with `training=True`",
        "drops activations in evaluation too",
        "pass `training=self.training`",
        "train_mode",
        words=(b"dropout",),
        family="dropout",
        messages=MappingProxyType(
            {
                "default": (
                    "`{call}(..., training=True)` drops activations in evaluation too: pass `training=self.training`"
                ),
                "init": (
                    "`{call}(..., training={flag})`: `{flag}` is computed from `self.training` in `__init__` (line "
                    "{line}), where it is always True: activations are dropped in evaluation too; pass "
                    "`training=self.training`"
                ),
            }
        ),
    ),
    Rule(
        "GM103",
        "torch-dropout-train-true",
        "`torch.dropout(x, p, True)` (or `torch.alpha_dropout`, `torch.feature_dropout`, ...) with `train` True",
        "drops activations in evaluation too, whatever `model.eval()` set",
        "pass `self.training` as `train`",
        "train_mode",
        words=(b"dropout",),
        family="dropout",
        messages=MappingProxyType(
            {
                "default": ("`{call}(..., True)` drops activations in evaluation too: pass `self.training` as `train`"),
            }
        ),
    ),
    Rule(
        "GM104",
        "sdpa-dropout-not-conditioned",
        "`F.scaled_dot_product_attention(..., dropout_p=...)` whose value does not depend on `self.training`",
        "attention weights are dropped in evaluation: `dropout_p` knows nothing of the module's mode",
        "`dropout_p=self.dropout_p if self.training else 0.0`",
        "train_mode",
        words=(b"scaled_dot_product",),
        family="dropout",
        messages=MappingProxyType(
            {
                "default": (
                    "`dropout_p={value}` does not depend on `self.training`: attention weights are dropped in "
                    "evaluation too; use `dropout_p={value} if self.training else 0.0`"
                ),
                "init": (
                    "`dropout_p={value}`: `{value}` is computed from `self.training` in `__init__` (line {line}), "
                    "where it is always True, so attention weights are dropped in evaluation too; use `dropout_p=p if"
                    " self.training else 0.0` here"
                ),
            }
        ),
    ),
    Rule(
        "GM201",
        "train-in-evaluation",
        "`.train()` in a validation/test/predict step or an `on_validation_*`/`on_test_*`/`on_predict_*` hook",
        "switches dropout and batch-norm statistics on for the rest of evaluation",
        "remove it (Lightning restores training mode itself, in `on_*_model_train`); a module meant to train in "
        "evaluation goes in the guard's `allow_train`",
        "train_mode",
        ("running_stats_updated",),
        words=(b".train",),
        family="modes",
        messages=MappingProxyType(
            {
                "default": (
                    "`{module}.train()` in {where} switches training mode on during evaluation (dropout, batch-norm "
                    "statistics): remove it; Lightning restores training mode after evaluation itself"
                ),
            }
        ),
    ),
    Rule(
        "GM301",
        "enable-grad-in-evaluation",
        "`with torch.enable_grad()` or `with torch.set_grad_enabled(True)` in evaluation code",
        "autograd records every operation in evaluation: graphs kept alive, memory and time spent",
        'remove it, or wrap the gradients you need in `allow_grad("reason")`',
        "graph_built",
        words=(b"enable_grad", b"set_grad_enabled"),
        family="grad",
        messages=MappingProxyType(
            {
                "default": (
                    "`{context}` in {where} builds autograd graphs during evaluation: remove it, or wrap the "
                    'gradients you need in `allow_grad("why")`'
                ),
            }
        ),
    ),
    Rule(
        "GM302",
        "enable-grad-decorator",
        "`@torch.enable_grad()` or `@torch.set_grad_enabled(True)` on an evaluation step or function",
        "turns gradients back on for the whole function that evaluation runs without them",
        'remove the decorator; wrap the gradients you need in `allow_grad("reason")`',
        "grad_enabled",
        ("graph_built",),
        words=(b"enable_grad", b"set_grad_enabled"),
        family="grad",
        messages=MappingProxyType(
            {
                "default": (
                    "`@{decorator}` on {where} turns gradients on for {what} without them: remove it, and wrap the "
                    'gradients you need in `allow_grad("why")`'
                ),
            }
        ),
    ),
    Rule(
        "GM303",
        "backward-in-evaluation",
        "`.backward()`, `manual_backward` or `torch.autograd.backward` in evaluation code",
        "fails without a graph, or needs one built in evaluation; gradients accumulate into the parameters",
        'remove it; sanctioned gradients (saliency, attacks) go inside `allow_grad("reason")`',
        "graph_built",
        words=(b"backward",),
        family="grad",
        messages=MappingProxyType(
            {
                "default": (
                    "`{call}(...)` in {where}: evaluation runs without gradients, so this fails or needs a graph "
                    'built for it; remove it, or put sanctioned gradients inside `allow_grad("why")`'
                ),
            }
        ),
    ),
    Rule(
        "GM401",
        "grad-mode-statement",
        "`torch.set_grad_enabled(...)` called as a statement instead of a `with`",
        "sets grad mode for the thread until something resets it: it leaks out of the function (and past an exception)",
        "`with torch.set_grad_enabled(...):` around the code it is meant for",
        "grad_enabled",
        words=(b"set_grad_enabled",),
        family="grad",
        # on 1,809 trees of public code: 4 true, 35 intended, 80 false; the leaked mode rarely reaches a forward
        opt_in=True,
        messages=MappingProxyType(
            {
                "default": (
                    "`{call}` as a statement sets grad mode past the end of `{function}` (and past an exception): use"
                    " `with {call}:` around the code it is meant for"
                ),
                "import": (
                    "`{call}` at the top level of a module that is imported, not run: it sets grad mode for the whole"
                    " program that imports it; use `with torch.no_grad():` (or a decorator) around the code it is "
                    "meant for"
                ),
            }
        ),
    ),
    Rule(
        "GM402",
        "inert-grad-mode-call",
        "`torch.no_grad()` or `torch.inference_mode()` called as a statement",
        "the call makes a context manager and drops it: gradients stay on, so the code after it records a graph",
        "`with torch.no_grad():` around the code it is meant for, or `@torch.no_grad()` on the function",
        "graph_built",
        words=(b"no_grad", b"inference_mode"),
        family="grad",
        messages=MappingProxyType(
            {
                "default": (
                    "`{call}` as a statement does nothing: it makes a context manager and drops it, so gradients"
                    " stay on after it; use `with {call}:` around the code it is meant for, or decorate the"
                    " function"
                ),
            }
        ),
    ),
    Rule(
        "GM501",
        "eval-without-no-grad",
        "`m.eval()` then `m(...)` in the same function, outside `no_grad`/`inference_mode`",
        "`eval()` changes how layers behave, not grad mode: autograd records every forward of the evaluation",
        "`with torch.no_grad():` (or `torch.inference_mode()`) around the loop, or decorate the function",
        "graph_built",
        words=(b".eval",),
        family="modes",
        messages=MappingProxyType(
            {
                "default": (
                    "`{call}(...)` after `{module}.eval()` (line {line}) runs with gradients on: `eval()` does not "
                    "turn them off; use `with torch.no_grad():` (or `torch.inference_mode()`) around it, or decorate "
                    "the function with `@torch.no_grad()`"
                ),
                "detached": (
                    "`{call}(...)` after `{module}.eval()` (line {line}) runs with gradients on, and its output is "
                    "only ever detached (`.detach()`, `.item()`, `.data`, `torch.tensor(...)`): the graph is recorded "
                    "for nothing at every step; use `with torch.no_grad():` around it (a frozen module needs no graph)"
                ),
                "passed": (
                    "`{call}({module}, ...)` after `{module}.eval()` (line {line}) runs `{forward}(...)` in "
                    "`{callee}` (line {forward_line}) with gradients on: `eval()` does not turn them off; use `with "
                    "torch.no_grad():` around this call, or decorate `{callee}` with `@torch.no_grad()`"
                ),
                "method": (
                    "`{call}(...)` after `{module}.eval()` (line {line}) runs `{forward}(...)` in `{callee}` (line "
                    "{forward_line}) with gradients on: `eval()` does not turn them off; use `with torch.no_grad():` "
                    "around this call"
                ),
                "class": (
                    "`{call}(...)` runs with gradients on, and `{module}` is in evaluation (put in `eval()` in "
                    "`{where}`, line {line}): `eval()` does not turn them off; use `with torch.no_grad():` around it, "
                    "or decorate `{method}` with `@torch.no_grad()`"
                ),
            }
        ),
    ),
    Rule(
        "GM502",
        "no-grad-without-eval",
        "an evaluation function runs a model under `no_grad`/`inference_mode` that nothing puts in `eval()`",
        "`no_grad` turns gradients off, not training behaviour: dropout drops and batch norm normalises with (and "
        "updates) batch statistics in every evaluation batch",
        "`model.eval()` before the evaluation (and `model.train()` after it, where training goes on)",
        "train_mode",
        ("running_stats_updated",),
        words=(
            b"def evaluat",
            b"def _evaluat",
            b"def eval_model",
            b"def eval_epoch",
            b"def run_eval",
            b"def validate(",
            b"def validate_model",
            b"def validate_epoch",
            b"_validate(",
            b"def validation(",
            b"def valid(",
            b"def val(",
            b"def test(",
            b"def test_model",
            b"def predict",
            b"def infer",
            b"def run_test",
        ),
        family="loops",
        messages=MappingProxyType(
            {
                "default": (
                    "`{call}` runs under `no_grad` in `{function}`, but nothing puts `{module}` in `eval()` ({why}): "
                    "dropout stays on and batch norm uses batch statistics; call `{module}.eval()` before evaluating "
                    "(and `.train()` after, where training goes on)"
                ),
            }
        ),
    ),
    Rule(
        "GM503",
        "training-resumed-in-eval",
        "a training loop calls an evaluation that puts the model in `eval()`, and never puts it back in `train()`",
        "after the first evaluation, training runs with dropout off and batch-norm statistics frozen",
        "`model.train()` at the top of each training epoch or step (or at the end of the evaluation)",
        None,
        words=(b".eval",),
        family="loops",
        messages=MappingProxyType(
            {
                "default": (
                    "`{call}` leaves `{module}` in `eval()` (line {line}), and the training loop (line {loop}) goes on "
                    "without `{module}.train()`: from the second epoch on it trains with dropout off and batch-norm "
                    "statistics frozen; call `{module}.train()` at the top of each epoch or step"
                ),
            }
        ),
    ),
    Rule(
        "GM601",
        "volatile-variable",
        "`Variable(..., volatile=True)`",
        "`volatile` has done nothing since PyTorch 0.4: the graph is built",
        "`with torch.no_grad():` around the computation",
        None,
        words=(b"volatile",),
        family="legacy",
        messages=MappingProxyType(
            {
                "default": (
                    "`Variable(..., volatile=True)` has done nothing since PyTorch 0.4 (the graph is built): use "
                    "`with torch.no_grad():` instead"
                ),
            }
        ),
    ),
    Rule(
        "GM701",
        "inplace-parameter-update",
        "in-place update of a parameter from `.parameters()` (`p -= lr * p.grad`, `p.add_(...)`) outside `no_grad`",
        "raises 'a leaf Variable that requires grad is being used in an in-place operation'",
        "`with torch.no_grad():` around the update (or `@torch.no_grad()` on the function)",
        None,
        words=(b"parameters(", b"params", b"backward"),
        family="params",
        messages=MappingProxyType(
            {
                "default": (
                    "in-place update of parameter `{name}` outside `no_grad` raises 'a leaf Variable that requires "
                    "grad is being used in an in-place operation': wrap the update in `with torch.no_grad():`"
                ),
            }
        ),
    ),
    Rule(
        "GM702",
        "parameter-rebound",
        "`p = p - lr * p.grad` in a loop over `.parameters()`",
        "rebinds the loop variable: the parameter is not updated, silently",
        "update in place under `torch.no_grad()`: `p -= lr * p.grad`",
        None,
        words=(b"parameters(", b"params"),
        family="params",
        messages=MappingProxyType(
            {
                "default": (
                    "`{name} = ...` rebinds the loop variable over parameters: the parameter is not updated; update "
                    "it in place under `torch.no_grad()` (`{name} -= lr * {name}.grad`)"
                ),
            }
        ),
    ),
    Rule(
        "GM703",
        "gradient-clipping-by-hand",
        "`p.grad` scaled in place by a value computed from parameters, outside `no_grad`",
        "the gradient gets an autograd history through the parameters (kept alive, and wrong where a gradient "
        "norm was meant)",
        "`torch.nn.utils.clip_grad_norm_` / `clip_grad_value_`, or compute the scale under `torch.no_grad()`",
        None,
        words=(b"parameters(", b"params"),
        family="params",
        messages=MappingProxyType(
            {
                "default": (
                    "`{target}` scaled in place by a value computed from parameters outside `no_grad`: the gradient "
                    "gets an autograd history; use `torch.nn.utils.clip_grad_norm_` or compute the scale under "
                    "`torch.no_grad()`"
                ),
            }
        ),
    ),
    Rule(
        "GM801",
        "thread-without-no-grad",
        "a `ThreadPoolExecutor` or `threading.Thread` started in evaluation code whose worker does not enter `no_grad`",
        "grad mode is thread-local: a new thread runs with gradients on, whatever its caller's `no_grad`",
        "enter `with torch.no_grad():` (or `torch.inference_mode()`) inside the worker",
        "graph_built",
        words=(b"Thread",),
        family="threads",
        messages=MappingProxyType(
            {
                "default": (
                    "{starter} worker `{worker}` started in {where} runs with gradients on (grad mode is "
                    "thread-local): enter `with torch.no_grad():` (or `torch.inference_mode()`) inside the worker"
                ),
            }
        ),
    ),
    Rule(
        "GM999",
        "file-not-parsed",
        "a file that cannot be parsed: a syntax error, or bytes that are not text in its encoding",
        "nothing in the file was checked: a hook or CI run that only counted findings would pass code it never read",
        "fix the syntax (or declare the encoding); exclude the file if it is not Python meant to run",
        None,
        words=(),
        family=None,
        messages=MappingProxyType(
            {
                "default": ("{reason}: nothing in this file was checked; fix it, or exclude it"),
            }
        ),
    ),
)

#: Codes that only cost a test's own memory when the bug is in a test (a graph recorded while a test evaluates a
#: small model, a worker thread with gradients on): off in test files and test functions unless ``tests = true``.
#: The rules whose bug changes results (dropout that trains, ``.train()`` in evaluation) apply in tests too.
TEST_QUIET_CODES: Final[frozenset[str]] = frozenset({"GM402", "GM501", "GM502", "GM503", "GM801"})
#: The code of a file that cannot be parsed.
UNPARSABLE: Final = "GM999"

RULES_BY_CODE: Final[dict[str, Rule]] = {rule.code: rule for rule in RULES}


def rules_for_kind(kind: str) -> tuple[Rule, ...]:
    """The rules that would have caught a runtime violation of ``kind`` before the run (possibly none).

    Example:
        >>> [rule.code for rule in rules_for_kind("output_requires_grad")]
        []
    """
    return tuple(rule for rule in RULES if kind in rule.kinds)


def select_codes(select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> frozenset[str]:
    """The codes enabled by ``select`` (codes or prefixes; ``None``: every rule but the opt-in ones, which a code or
    prefix in ``select`` enables) less those matched by ``ignore``.

    Raises:
        ValueError: an entry that is no rule's code nor a prefix of one, naming it and the codes there are.

    Example:
        >>> sorted(select_codes(["GM1"], ["GM104"]))
        ['GM101', 'GM102', 'GM103']
        >>> "GM401" in select_codes(), "GM401" in select_codes(["GM4"])
        (False, True)
    """
    selected = {rule.code for rule in RULES if not rule.opt_in} if select is None else _matching(select, "select")
    return frozenset(selected - _matching(ignore, "ignore"))


def _matching(prefixes: Iterable[str], option: str) -> set[str]:
    codes: set[str] = set()
    for prefix in prefixes:
        prefix = prefix.strip().upper()
        matched = {rule.code for rule in RULES if rule.code.startswith(prefix)}
        if not prefix or not matched:
            raise ValueError(
                f"{option}: {prefix!r} is no rule code or prefix of one; codes are {', '.join(RULES_BY_CODE)} "
                "(a prefix such as GM1 or GM selects a group)"
            )
        codes |= matched
    return codes
