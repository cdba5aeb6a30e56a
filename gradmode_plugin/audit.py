"""The operator audit: a dispatch mode over the first batch of each dataloader of every stage run, in the evaluating
thread.

The probes of :mod:`gradmode_plugin.probes` watch every batch through Python attributes (``torch.nn.functional``,
``torch``, ``torch._VF``); code that reaches a kernel another way is invisible to them: ``torch.ops.aten.dropout``,
a builtin imported by name before the stage (``from torch.nn.functional import scaled_dot_product_attention``),
TorchScript code. A dispatch mode sees every aten operator whatever path called it, at a few microseconds per
operator, so it runs on one batch per dataloader and stage run, where such a path, if the code has one, shows.

What it reports (through :func:`gradmode_plugin.probes.route`, as the probes do):

- a dropout kernel with ``train=True`` and ``p > 0`` (``aten.dropout``, ``native_dropout`` and the feature and alpha
  variants: what inference mode and CUDA's fused kernel show), and the same dropout as CPU kernels run it under
  ``no_grad`` (``bernoulli_(1 - p)`` on a fresh tensor, then ``div_(1 - p)`` of that tensor: the mask of inverted
  dropout, never a sampling of random numbers);
- an attention kernel given ``dropout_p > 0`` (every operator with a ``dropout_p`` argument);
- a batch-norm kernel in training mode given running statistics.

The dispatch mode computes nothing itself, and each operator runs in the dispatch key sets it would reach its kernel
with without the mode (:func:`gradmode_plugin._torch_internals.as_called`): a mode's handler runs with every key above
the Python key excluded, so a composite operator that decomposes there (under inference mode they reach the mode
whole), or a kernel that calls other operators, would otherwise run what it calls without autocast and view tracking.
That changed the first batch's loss under CUDA mixed precision (``cross_entropy``, which has no CUDA autocast kernel,
computed its ``log_softmax`` in half precision) and ``nn.Linear`` on a non-contiguous ``(T, B, C)`` input.
What stays: under ``no_grad`` composite operators decompose above the mode, see that a dispatch mode is active and take
their composite-compliant forms (``linear`` adds its bias with ``add``, not ``add_``): the same arithmetic on the same
inputs, into a new buffer.
It leaves ``torch.compile`` alone (``ignore_compile_internals``): what a compiled region fuses is not seen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Final

from gradmode_plugin import _torch_internals as internals
from gradmode_plugin.probes import ATTENTION_HINT, route

log = logging.getLogger("gradmode_plugin")

_DROPOUT_OPS: Final[frozenset[str]] = frozenset(
    {
        "dropout",
        "dropout_",
        "feature_dropout",
        "feature_dropout_",
        "alpha_dropout",
        "alpha_dropout_",
        "feature_alpha_dropout",
        "feature_alpha_dropout_",
        "native_dropout",
    }
)
_NORM_OPS: Final[frozenset[str]] = frozenset(
    {
        "batch_norm",
        "native_batch_norm",
        "_native_batch_norm_legit",
        "_native_batch_norm_legit_functional",
        "cudnn_batch_norm",
        "miopen_batch_norm",
        "_batch_norm_impl_index",
        "instance_norm",
    }
)
#: Batch-norm kernels that always update the statistics they are given.
_UPDATING_NORM_OPS: Final[frozenset[str]] = frozenset({"_batch_norm_with_update", "_batch_norm_with_update_functional"})

Rule = Callable[[tuple[Any, ...], dict[str, Any]], None]


Argument = Callable[[tuple[Any, ...], dict[str, Any]], Any]


def _argument(schema: tuple[str, tuple[str, ...], tuple[Any, ...]], name: str) -> Argument:
    """The value of argument ``name`` in a call, its default when the call left it out."""
    _, names, defaults = schema
    index = names.index(name)
    default = defaults[index]

    def value(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return args[index] if index < len(args) else kwargs.get(name, default)

    return value


def _rule_for(op: Any) -> Rule | None:
    """What to report for one operator overload, from its schema; None for the (many) operators that never train."""
    schema = internals.op_schema(op)
    if schema is None:
        return None
    name, names, _ = schema
    if name in _DROPOUT_OPS and "p" in names and "train" in names:
        p, train = _argument(schema, "p"), _argument(schema, "train")

        def dropout(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
            if train(args, kwargs) is True and p(args, kwargs) > 0:
                route("train_mode", f"aten.{name}(p={p(args, kwargs)}, train=True)")

        return dropout
    if "dropout_p" in names and not name.endswith("_backward"):
        dropout_p = _argument(schema, "dropout_p")

        def attention(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
            value = dropout_p(args, kwargs)
            if isinstance(value, (int, float)) and value > 0:
                route("train_mode", f"aten.{name}(dropout_p={value})", ATTENTION_HINT)

        return attention
    if name in (_NORM_OPS | _UPDATING_NORM_OPS) and "running_mean" in names:
        running_mean = _argument(schema, "running_mean")
        flag = next((n for n in ("training", "use_input_stats") if n in names), None)
        training = _argument(schema, flag) if flag is not None else None
        if training is None and name not in _UPDATING_NORM_OPS:
            return None

        def norm(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
            if running_mean(args, kwargs) is not None and (training is None or training(args, kwargs) is True):
                route("running_stats_updated", f"aten.{name}({flag or 'update'}=True) with running statistics")

        return norm
    return None


_UNKNOWN = object()
#: Operator overload -> how it passes the keys above the Python key (its kernels, read once).
_CALL_KEYS: dict[Any, internals.CallKeys] = {}
#: Operator overload -> its rule (None: never trains), filled as operators are first seen, for the process.
_RULES: dict[Any, Rule | None] = {}


def _mask_probability(func: Any) -> Argument | None:
    """How to read ``p`` of ``bernoulli_.float`` (the keep probability of a dropout mask), its default included."""
    schema = internals.op_schema(func)
    return _argument(schema, "p") if schema is not None and "p" in schema[1] else None


class OpAudit(internals.TorchDispatchMode):  # type: ignore[misc]
    """The audit of one batch: enter it around the step (thread-local, like every dispatch mode)."""

    supports_higher_order_operators = True

    def __init__(self) -> None:
        super().__init__()
        #: (id of a tensor that bernoulli_(q) just filled, q): dropout's mask, if div_(q) of it follows at once.
        self._mask: tuple[int, float] | None = None

    @classmethod
    def ignore_compile_internals(cls) -> bool:
        # torch.compile compiles and runs as without the audit (its fused kernels are not seen).
        return True

    def __torch_dispatch__(
        self, func: Any, types: Any, args: tuple[Any, ...] = (), kwargs: dict[str, Any] | None = None
    ) -> Any:
        kwargs = kwargs or {}
        try:
            self._look(func, args, kwargs)
        except Exception:  # the audit never breaks the user's evaluation
            log.debug("gradmode: the operator audit could not read %s", func, exc_info=True)
        keys = _CALL_KEYS.get(func)
        if keys is None:
            keys = _CALL_KEYS[func] = internals.CallKeys(func)
        # Every operator runs in the key sets it would reach its kernel with without the mode, not in the handler's,
        # which exclude autocast and view tracking from what the kernel calls.
        return internals.as_called(keys, lambda: func(*args, **kwargs))

    def _look(self, func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        mask, self._mask = self._mask, None
        name = getattr(func, "__name__", "")
        if name == "bernoulli_.float" and args:
            keep = _mask_probability(func)
            if keep is not None:
                self._mask = (id(args[0]), float(keep(args, kwargs)))
            return
        if mask is not None and name == "div_.Scalar" and len(args) == 2 and id(args[0]) == mask[0]:
            if args[1] == mask[1] and mask[1] < 1.0:
                route("train_mode", f"dropout(p={1.0 - mask[1]:.4g}) as the CPU kernel runs it (bernoulli_, div_)")
            return
        rule = _RULES.get(func, _UNKNOWN)
        if rule is _UNKNOWN:
            rule = _RULES[func] = _rule_for(func)
        if rule is not None:
            rule(args, kwargs)  # type: ignore[operator]
