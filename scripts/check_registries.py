r"""gradmode-plugin on whole model registries: every timm family and every transformers model type.

The hand-picked architectures of ``tests/test_real_architectures.py``, scaled up to the registries as a new user
would meet them:

- **timm**: ``timm.list_models()`` grouped into families by the module the entrypoint lives in and the name's stem
  (``resnet.seresnext``, ``vision_transformer.vit``, ...); of each family the smallest variant by parameter count
  (counted on the meta device), built with ``pretrained=False``, random weights, every dropout argument the
  constructor takes (``drop_rate``, ``drop_path_rate``, ``attn_drop_rate``, ``proj_drop_rate``) at 0.1 and, where
  the constructor takes it, a 64-pixel input.
- **transformers**: every type of ``transformers.CONFIG_MAPPING``: its config shrunk generically (the size
  attributes it has: hidden sizes, layers, heads, vocabulary, image and patch size, in sub-configs too; every
  dropout-like probability at 0.1), the model class from ``AutoModel`` (or ``<Name>Model`` beside the config
  class), the inputs its ``main_input_name`` asks for (and decoder inputs for encoder-decoders). Nothing is
  downloaded (``HF_HUB_OFFLINE=1``).

For each model, first without the guard: ``eval()`` + ``torch.inference_mode()`` and ``eval()`` +
``torch.no_grad()``, two batches each, every batch seeded alike. A model that cannot be built or run so is counted
apart, with its exception, never against the guard. Then, from a fresh copy in training mode, under
``evaluating(model, grad_mode=..., on_violation="record")`` with ``scope.batch(i)`` per batch, for both grad modes:

- clean: no violation (kind, module and detail of each are kept) and no exception from the guarded run;
- identical: every output tensor ``torch.equal`` to the unguarded run of the same grad mode (NaN equal to NaN);
  otherwise the batch and the largest absolute difference;
- restored: every module's ``.training`` flag, read by qualified name, as on entry, and grad mode as on entry.

An evenly spread sample (``--lightning-sample`` per registry; a sampled model that does not run passes its turn
to the next one) also runs ``Trainer.validate`` with
``GradModeGuard(on_violation="record")``: no violation, two batches checked, outputs identical to the unguarded
``inference_mode`` run, flags restored.

Each model runs in a worker process that the sweep kills after ``--timeout`` seconds (a hang or a crash costs that
model, not the sweep; the worker is then restarted). Workers use one torch thread. Results are written to
``--out`` (default ``docs/registry_sweep.json``) after every model, with the versions of torch, timm, transformers
and Lightning; counts per registry and every exception are printed at the end.

Usage (from the repository root, with the project's environment)::

    nice -n 10 .venv/bin/python scripts/check_registries.py --revision HEAD --jobs 2   # ~18 min on 2 busy cores
    nice -n 10 .venv/bin/python scripts/check_registries.py --only timm --limit 20
    nice -n 10 .venv/bin/python scripts/check_registries.py --models convit_tiny,fsmt,big_bird --out /tmp/r.json
    nice -n 10 .venv/bin/python scripts/check_registries.py --exceptions-of docs/registry_sweep.json --out /tmp/x.json

Of the 18 minutes, about 6 go to picking each timm family's smallest variant (every variant built on the meta
device), 12 to the models; two workers. ``--models`` takes timm model names, timm family keys (``convit.convit``)
and transformers model types. ``--exceptions-of`` re-runs the models that a previous sweep found not clean, not
identical or not restored, or that timed out or crashed.

Exit status: 0 when every model that ran without the guard was clean, identical and restored under it; 1 otherwise;
2 on a usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import inspect
import json
import math
import os
import queue
import random
import re
import selectors
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

# Nothing may be downloaded: set before transformers is imported, here and in every worker.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("OMP_NUM_THREADS", "1")

PROJECT: Final[Path] = Path(__file__).resolve().parents[1]
DEFAULT_OUT: Final[Path] = PROJECT / "docs" / "registry_sweep.json"
GRAD_MODES: Final[tuple[str, ...]] = ("inference", "no_grad")
BATCHES: Final[int] = 2
BATCH_SIZE: Final[int] = 2
DROP: Final[float] = 0.1
#: A model larger than this after shrinking is not built (it would take minutes on a CPU, or memory it cannot have).
MAX_PARAMS: Final[int] = 60_000_000
#: A worker is replaced after this many models, so that what one model leaves in the process stays bounded.
MODELS_PER_WORKER: Final[int] = 40

#: Exceptions already explained, by (registry, name): printed next to the finding so a re-run reads at a glance.
KNOWN: Final[dict[tuple[str, str], str]] = {
    ("transformers", "recurrent_gemma"): "inference_tensor_stored: decoding state kept as a plain attribute "
    "(issue 28 item 1)",
    ("timm", "convit.convit"): "inference_tensor_stored: rel_indices buffer rebuilt in forward (issue 28 item 1)",
    ("transformers", "fsmt"): "audited batch differs: (T, B, C) linear under a dispatch mode (issue 28 item 3)",
    ("transformers", "led"): "audited batch differs: (T, B, C) linear under a dispatch mode (issue 28 item 3)",
    ("transformers", "longformer"): "audited batch differs: (T, B, C) linear under a dispatch mode (issue 28 item 3)",
    ("transformers", "siglip"): "audited batch differs under a dispatch mode (issue 28 item 3)",
    ("transformers", "wavlm"): "audited batch differs under a dispatch mode (issue 28 item 3)",
    ("transformers", "big_bird"): "flags not restored: attention.self replaced in forward (issue 28 item 3)",
    ("transformers", "bigbird_pegasus"): "flags not restored: self_attn.self replaced in forward, as BigBird's "
    "(issue 28 item 3)",
    ("transformers", "siglip_vision_model"): "audited batch differs: nn.MultiheadAttention of the pooling head under "
    "a dispatch mode (issue 28 item 3)",
    ("transformers", "phi4_multimodal_vision"): "audited batch differs: nn.MultiheadAttention of the SigLIP pooling "
    "head under a dispatch mode (issue 28 item 3)",
}


# -- comparing outputs and flags ----------------------------------------------------------------------------------


def tensors(output: Any) -> Iterator[Any]:
    """Every tensor of a model output: tensors, dicts, ``ModelOutput`` objects, lists and tuples (caches and other
    objects are skipped)."""
    import torch

    if isinstance(output, torch.Tensor):
        yield output
    elif isinstance(output, dict):
        for value in output.values():
            yield from tensors(value)
    elif hasattr(output, "to_tuple") and callable(output.to_tuple):
        yield from tensors(output.to_tuple())
    elif isinstance(output, (list, tuple)):
        for value in output:
            yield from tensors(value)


def compare(guarded: Sequence[Any], plain: Sequence[Any]) -> dict[str, Any]:
    """Whether every output tensor of every batch is bitwise that of the plain run (NaN equal to NaN); else the
    first batch that differs and the largest absolute difference there."""
    import torch

    for batch, (a, b) in enumerate(zip(guarded, plain)):
        left, right = list(tensors(a)), list(tensors(b))
        if len(left) != len(right) or not left:
            return {"identical": False, "batch": batch, "max_abs_diff": None, "why": f"{len(left)} vs {len(right)}"}
        worst = 0.0
        for x, y in zip(left, right):
            if x.shape != y.shape or x.dtype != y.dtype:
                return {"identical": False, "batch": batch, "max_abs_diff": None, "why": "shape or dtype differs"}
            if torch.equal(x, y):
                continue
            if x.is_floating_point() or x.is_complex():
                if torch.allclose(x, y, rtol=0.0, atol=0.0, equal_nan=True):
                    continue
                diff = (x.double() - y.double()).abs().nan_to_num(nan=math.inf)
                worst = max(worst, float(diff.max()))
            else:
                worst = max(worst, float((x.double() - y.double()).abs().max()))
            worst = worst or math.inf
        if worst:
            return {"identical": False, "batch": batch, "max_abs_diff": worst}
    return {"identical": True}


def named_flags(model: Any) -> dict[str, bool]:
    """Every module's ``.training`` flag by qualified name (Lightning restores modes by name too)."""
    return {name: module.training for name, module in model.named_modules(remove_duplicate=False)}


def expected_flags(before: dict[str, bool], after: dict[str, bool]) -> dict[str, bool]:
    """The flags a restore should leave: each name known on entry as it was then (Lightning's ``_ModuleMode``
    restores by name); a module created during the scope (BigBird replaces its attention in ``forward``) in the
    mode of its closest parent known on entry, as the model's ``train()`` would leave it. A name that vanished is
    not expected."""
    expected = {}
    for name in after:
        parent = name
        while parent not in before:
            parent = parent.rpartition(".")[0]
        expected[name] = before[parent]  # "" (the root) is always known
    return expected


def flag_changes(expected: dict[str, bool], after: dict[str, bool]) -> list[str]:
    """The names whose flag is not the expected one, a few of them."""
    changed = [f"{n or '<root>'}: {expected[n]} -> {after[n]}" for n in sorted(after) if expected[n] != after[n]]
    return changed[:8] + ([f"... {len(changed) - 8} more"] if len(changed) > 8 else [])


def grad_state() -> tuple[bool, bool]:
    import torch

    return torch.is_grad_enabled(), torch.is_inference_mode_enabled()


def describe(err: BaseException) -> str:
    """``Type: first line of the message`` (messages of some libraries run over many lines)."""
    text = str(err).strip().splitlines()
    return f"{type(err).__name__}: {text[0][:300] if text else ''}"


def where(err: BaseException) -> str:
    """The innermost frame of an exception outside torch's own ``nn/modules/module.py`` call machinery."""
    frames = [f for f in traceback.extract_tb(err.__traceback__) if not f.filename.endswith("nn/modules/module.py")]
    if not frames:
        return ""
    frame = frames[-1]
    path = frame.filename.split("site-packages/")[-1].replace(str(PROJECT) + "/", "")
    return f"{path}:{frame.lineno}"


# -- one model, plain and guarded -----------------------------------------------------------------------------------


def seed_everything(seed: int) -> None:
    import numpy as np
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def call(model: Any, inputs: Any) -> Any:
    return model(**inputs) if isinstance(inputs, dict) else model(*inputs)


def plain_run(model: Any, inputs: Callable[[int], Any], grad_mode: str) -> list[Any]:
    """``eval()`` and the grad mode's context, two batches, each seeded alike."""
    import torch

    model.eval()
    outputs = []
    context = torch.inference_mode if grad_mode == "inference" else torch.no_grad
    with context():
        for i in range(BATCHES):
            batch = inputs(i)
            seed_everything(1000 + i)
            outputs.append(call(model, batch))
    return outputs


def guarded_run(model: Any, inputs: Callable[[int], Any], grad_mode: str, plain: list[Any]) -> dict[str, Any]:
    """The same batches under ``evaluating``, from training mode: violations, identity with ``plain``, and what was
    restored."""
    from gradmode_plugin import evaluating

    model.train()
    before, grad_before = named_flags(model), grad_state()
    outputs: list[Any] = []
    result: dict[str, Any] = {}
    scope = evaluating(model, grad_mode=grad_mode, on_violation="record")
    try:
        with scope:
            for i in range(BATCHES):
                with scope.batch(i):
                    batch = inputs(i)
                    seed_everything(1000 + i)
                    outputs.append(call(model, batch))
    except Exception as err:  # the guarded run failed where the plain one ran: the guard's business
        result["error"] = describe(err)
        result["error_at"] = where(err)
    grad_after = grad_state()
    after = named_flags(model)
    expected = expected_flags(before, after)
    result["violations"] = [
        {"kind": v.kind, "module": v.module, "batch": v.batch_idx, "detail": v.detail[:300]}
        for v in scope.report.violations
    ]
    result["clean"] = not result["violations"] and "error" not in result
    result["batches"] = scope.report.stage(scope.stage).batches if hasattr(scope, "stage") else None
    result.update(compare(outputs, plain) if len(outputs) == BATCHES else {"identical": False, "why": "no output"})
    result["flags_restored"] = expected == after
    if expected != after:
        result["flags_changed"] = flag_changes(expected, after)
    if after.keys() != before.keys():
        result["modules_replaced"] = sorted(set(before) ^ set(after))[:8]
    result["grad_mode_restored"] = grad_before == grad_after
    result["restored"] = result["flags_restored"] and result["grad_mode_restored"]
    return result


def _validate(
    model: Any, inputs: Callable[[int], Any], guard: Any
) -> tuple[Any, dict[str, bool], list[Any], Exception | None]:
    """``Trainer.validate`` over two batches of a LightningModule wrapping ``model`` (in training mode on entry),
    with ``guard`` as its callback when given: the module, its flags on entry, the step outputs and the exception,
    if any."""
    import pytorch_lightning as pl
    import torch

    outputs: list[Any] = []  # outside the module: a tensor kept on the model is a finding of its own

    class Wrapped(pl.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.model = model

        def validation_step(self, batch: Any, batch_idx: int) -> None:
            data = inputs(batch_idx)
            seed_everything(1000 + batch_idx)
            outputs.append(call(self.model, data))

    wrapped = Wrapped()
    wrapped.train()
    entry = named_flags(wrapped)
    trainer = pl.Trainer(
        callbacks=[guard] if guard is not None else [],
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        accelerator="cpu",
        devices=1,
        default_root_dir="/tmp",
    )
    try:
        trainer.validate(wrapped, dataloaders=torch.utils.data.DataLoader(range(BATCHES), batch_size=1), verbose=False)
    except Exception as err:
        return wrapped, entry, outputs, err
    return wrapped, entry, outputs, None


def lightning_run(model: Any, unguarded: Any, inputs: Callable[[int], Any], plain: list[Any]) -> dict[str, Any]:
    """``Trainer.validate`` with ``GradModeGuard(on_violation="record")`` over two batches of ``model``, and without
    it over ``unguarded`` (a copy): restored means every module flag as Lightning leaves it without the guard
    (Lightning restores by name, see :func:`expected_flags`), and grad mode as on entry."""
    from gradmode_plugin import GradModeGuard

    grad_before = grad_state()
    guard = GradModeGuard(on_violation="record")
    wrapped, _, outputs, error = _validate(model, inputs, guard)
    grad_after = grad_state()
    result: dict[str, Any] = {}
    if error is not None:
        result["error"] = describe(error)
        result["error_at"] = where(error)
    result["violations"] = [
        {"kind": v.kind, "module": v.module, "batch": v.batch_idx, "detail": v.detail[:300]}
        for v in guard.report.violations
    ]
    result["batches"] = guard.report.stage("validation").batches
    result["clean"] = not result["violations"] and "error" not in result and result["batches"] == BATCHES
    result.update(compare(outputs, plain) if len(outputs) == BATCHES else {"identical": False, "why": "no output"})
    after = named_flags(wrapped)
    without, entry, _, plain_error = _validate(unguarded, inputs, None)
    expected = named_flags(without)
    result["flags_restored"] = expected == after and plain_error is None
    if expected != after:
        result["flags_changed"] = flag_changes(expected, after) if expected.keys() == after.keys() else ["names differ"]
    # What Lightning itself leaves, guard or not: its restore sets each captured name's flag, and a module created
    # during the stage keeps whatever mode it was made in (BigBird's new attention's dropout stays in eval).
    lightning_leaves = flag_changes(expected_flags(entry, expected), expected)
    if lightning_leaves:
        result["lightning_leaves_without_the_guard"] = lightning_leaves
    result["grad_mode_restored"] = grad_before == grad_after
    result["restored"] = result["flags_restored"] and result["grad_mode_restored"]
    return result


def fresh_copies(build: Callable[[], Any], count: int) -> list[Any]:
    """``count`` models with the same weights: deep copies of one build (a rebuild with the same seed when the
    model cannot be copied)."""
    seed_everything(0)
    model = build()
    copies = [model]
    for _ in range(count - 1):
        try:
            copies.append(copy.deepcopy(model))
        except Exception:
            seed_everything(0)
            copies.append(build())
    return copies


def check_model(
    build: Callable[[], Any],
    inputs: Callable[[int], Any],
    lightning: bool = False,
    record: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Check one model: plain runs first (a failure there ends the record as ``build_failed`` or ``run_failed``),
    then guarded runs in both grad modes (and Lightning when asked). Returns the record (``record`` updated).

    ``build`` makes the model (called with every RNG seeded alike); ``inputs(i)`` gives batch ``i``'s arguments (a
    dict of keyword arguments or a tuple of positional ones).
    """

    record = {} if record is None else record
    start = time.monotonic()
    runs = len(GRAD_MODES) * 2 + (2 if lightning else 0)
    try:
        copies = fresh_copies(build, runs)
    except Exception as err:
        record.update(status="build_failed", error=describe(err), error_at=where(err))
        return record
    record["params"] = sum(p.numel() for p in copies[0].parameters())
    plain: dict[str, list[Any]] = {}
    try:
        for mode in GRAD_MODES:
            plain[mode] = plain_run(copies.pop(), inputs, mode)
    except Exception as err:
        record.update(status="run_failed", error=describe(err), error_at=where(err))
        return record
    record["status"] = "ran"
    record["runs"] = {}
    for mode in GRAD_MODES:
        result = guarded_run(copies.pop(), inputs, mode, plain[mode])
        if not result.get("identical") and result.get("max_abs_diff") is not None:
            # Is the plain run itself reproducible? If not, the difference is not the guard's.
            again = plain_run(fresh_copies(build, 1)[0], inputs, mode)
            result["plain_reproducible"] = compare(again, plain[mode])["identical"]
        record["runs"][mode] = result
    if lightning:
        record["lightning"] = lightning_run(copies.pop(), copies.pop(), inputs, plain["inference"])
    results = list(record["runs"].values()) + ([record["lightning"]] if lightning else [])
    record["clean"] = all(r["clean"] for r in results)
    record["identical"] = all(r["identical"] for r in results)
    record["restored"] = all(r["restored"] for r in results)
    record["seconds"] = round(time.monotonic() - start, 2)
    return record


# -- timm -----------------------------------------------------------------------------------------------------------

TIMM_DROP: Final[tuple[dict[str, float], ...]] = (
    {"drop_rate": DROP, "drop_path_rate": DROP, "attn_drop_rate": DROP, "proj_drop_rate": DROP},
    {"drop_rate": DROP, "drop_path_rate": DROP, "attn_drop_rate": DROP},
    {"drop_rate": DROP, "drop_path_rate": DROP},
    {"drop_rate": DROP},
    {},
)
TIMM_IMAGE: Final[int] = 64
#: Variants with more parameters than this are first tried two blocks deep and 64 wide (where the constructor takes
#: ``depth``, ``embed_dim`` and ``num_heads``: the vision transformers); the smallest of some families is large.
TIMM_LARGE: Final[int] = 20_000_000
TIMM_SHRINK: Final[dict[str, int]] = {"depth": 2, "embed_dim": 64, "num_heads": 2}


def timm_families() -> dict[str, list[str]]:
    """Every timm model name, grouped by ``<module>.<stem>``: the module its entrypoint lives in and the name's
    leading letters (``tf_`` and ``test_`` prefixes aside), e.g. ``resnet.seresnext``, ``vision_transformer.vit``."""
    import timm
    from timm.models import _registry

    families: dict[str, list[str]] = defaultdict(list)
    for name in timm.list_models():
        match = re.match(r"[a-z]+", name.removeprefix("tf_").removeprefix("test_"))
        stem = match.group(0) if match else name
        families[f"{_registry._model_to_module[name]}.{stem}"].append(name)
    return dict(sorted(families.items()))


def timm_param_count(name: str) -> float:
    """Parameters of ``name`` at its default config, built on the meta device (no memory, no init); infinite when
    it cannot be built there."""
    import timm
    import torch

    try:
        with torch.device("meta"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = timm.create_model(name, pretrained=False)
        return float(sum(p.numel() for p in model.parameters()))
    except Exception:
        return math.inf


def smallest_timm(names: Sequence[str]) -> str:
    """The variant with the fewest parameters (ties: the shorter name)."""
    return min(names, key=lambda n: (timm_param_count(n), len(n), n))


def build_timm(name: str) -> tuple[Callable[[], Any], Callable[[int], Any], dict[str, Any]]:
    """A builder for ``name`` with the first keyword set it accepts (dropout at 0.1 where it can; a 64-pixel input
    where ``img_size`` is accepted), and its inputs: ``(2, C, H, W)`` at the size it was built for."""
    import timm
    import torch

    default = timm.get_pretrained_cfg(name)
    channels, height, width = (default.input_size if default else None) or (3, 224, 224)
    attempts: list[tuple[dict[str, Any], int, int]] = []
    if timm_param_count(name) > TIMM_LARGE:  # a wide, deep transformer at its default size: minutes on a CPU
        for drop in TIMM_DROP:  # 56: for patch sizes 7, 14 and 28
            attempts += [({**drop, **TIMM_SHRINK, "img_size": size}, size, size) for size in (TIMM_IMAGE, 56)]
    for drop in TIMM_DROP:
        attempts.append(({**drop, "img_size": TIMM_IMAGE}, TIMM_IMAGE, TIMM_IMAGE))
        attempts.append((drop, TIMM_IMAGE, TIMM_IMAGE))
        attempts.append((drop, height, width))
    last: Exception | None = None
    for kwargs, h, w in attempts:
        try:
            seed_everything(0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                model = timm.create_model(name, pretrained=False, num_classes=10, **kwargs)
        except TypeError as err:  # a keyword this architecture does not take
            last = err
            continue
        except Exception as err:
            last = err
            continue
        try:
            model.eval()
            with torch.inference_mode():
                model(torch.randn(1, channels, h, w))
        except Exception as err:  # the size does not fit this architecture: try the next
            last = RunFailed(describe(err))
            last.__cause__ = err
            continue

        def build(kwargs: dict[str, Any] = kwargs) -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                return timm.create_model(name, pretrained=False, num_classes=10, **kwargs)

        def inputs(i: int, shape: tuple[int, ...] = (BATCH_SIZE, channels, h, w)) -> tuple[Any, ...]:
            return (torch.randn(*shape, generator=torch.Generator().manual_seed(i)),)

        return build, inputs, {"kwargs": kwargs, "input": [BATCH_SIZE, channels, h, w]}
    assert last is not None
    raise last


# -- transformers ---------------------------------------------------------------------------------------------------

#: Size attributes set to these values where a config has them (and is not ``None`` there).
SMALL: Final[dict[str, int]] = {
    "hidden_size": 32,
    "d_model": 32,
    "n_embd": 32,
    "embed_dim": 32,
    "dim": 32,
    "emb_dim": 32,
    "num_hidden_layers": 2,
    "num_layers": 2,
    "n_layer": 2,
    "n_layers": 2,
    "encoder_layers": 2,
    "decoder_layers": 2,
    "num_encoder_layers": 2,
    "num_decoder_layers": 2,
    "num_attention_heads": 2,
    "num_heads": 2,
    "n_head": 2,
    "n_heads": 2,
    "encoder_attention_heads": 2,
    "decoder_attention_heads": 2,
    "num_key_value_heads": 1,
    "num_kv_heads": 1,
    "head_dim": 16,
    "d_kv": 16,
    "kv_channels": 16,
    "intermediate_size": 64,
    "d_ff": 64,
    "ffn_dim": 64,
    "encoder_ffn_dim": 64,
    "decoder_ffn_dim": 64,
    "hidden_dim": 64,
    "n_inner": 64,
    "vocab_size": 99,
    "image_size": 32,
    "patch_size": 8,
    "max_position_embeddings": 128,
    "num_experts": 4,
    "num_local_experts": 4,
    "moe_intermediate_size": 16,
    "shared_expert_intermediate_size": 16,
    "num_mel_bins": 16,
    "max_source_positions": 16,
    "max_target_positions": 64,
    "rotary_dim": 8,
    "qk_rope_head_dim": 8,
    "qk_nope_head_dim": 8,
    "v_head_dim": 16,
    "kv_lora_rank": 16,
    "q_lora_rank": 16,
    "num_experts_per_tok": 2,
    "n_routed_experts": 4,
    "n_shared_experts": 1,
    "n_group": 1,
    "topk_group": 1,
}
_DROPOUT_WORDS: Final[tuple[str, ...]] = ("dropout", "pdrop", "drop_prob", "drop_rate", "drop_path", "layerdrop")
_DEPTH_LISTS: Final[tuple[str, ...]] = ("depths", "num_layers_per_stage", "layers_per_block", "block_repeats")
TEXT_LENGTH: Final[int] = 8
_SPECIAL_IDS: Final[dict[str, int]] = {"pad_token_id": 0, "bos_token_id": 1, "eos_token_id": 2}


def shrink(config: Any, depth: int = 0) -> None:
    """Set the size attributes ``config`` has (see :data:`SMALL`) to small values, depth lists to ones, every
    dropout-like probability to 0.1; the same in its sub-configs."""
    from transformers import PretrainedConfig

    for name, value in list(vars(config).items()):
        if isinstance(value, PretrainedConfig) and depth < 3:
            shrink(value, depth + 1)
        elif name in SMALL and isinstance(value, int) and not isinstance(value, bool):
            with contextlib.suppress(Exception):
                setattr(config, name, SMALL[name])
        elif name in _DEPTH_LISTS and isinstance(value, (list, tuple)) and all(isinstance(v, int) for v in value):
            setattr(config, name, type(value)(1 for _ in value))
        elif isinstance(value, float) and any(word in name for word in _DROPOUT_WORDS) and 0.0 <= value < 1.0:
            setattr(config, name, DROP)
    # Multi-head latent attention ropes only part of a head: its config ties head_dim to that part.
    if "qk_rope_head_dim" in vars(config) and "head_dim" in vars(config):
        config.head_dim = SMALL["qk_rope_head_dim"]
    # Multimodal rope splits half a head into sections that must add up to it (16 / 2 after shrinking).
    for name in ("rope_parameters", "rope_scaling"):
        rope = getattr(config, name, None)
        if isinstance(rope, dict) and isinstance(rope.get("mrope_section"), list) and rope["mrope_section"]:
            count = len(rope["mrope_section"])
            half = SMALL["head_dim"] // 2
            rope["mrope_section"] = [half // count + (i < half % count) for i in range(count)]
    # Special token ids must fit the small vocabulary; the random ids are drawn from 3 up, clear of them.
    vocab = getattr(config, "vocab_size", None)
    for name, value in list(vars(config).items()):
        if name.endswith("token_id") and isinstance(value, int) and isinstance(vocab, int) and value >= vocab:
            setattr(config, name, _SPECIAL_IDS.get(name, 1))


def _model_class(model_type: str, config: Any) -> Any:
    """``AutoModel``'s class for the type, else ``<Name>Model`` beside ``<Name>Config``; ``None`` when neither."""
    import transformers
    from transformers.models.auto.modeling_auto import MODEL_MAPPING_NAMES

    names = MODEL_MAPPING_NAMES.get(model_type)
    candidates = [names] if isinstance(names, str) else list(names or ())
    stem = type(config).__name__.removesuffix("Config")
    candidates += [f"{stem}Model", f"{stem}ForCausalLM"]
    for candidate in candidates:
        cls = getattr(transformers, candidate, None)
        if cls is not None:
            return cls
    return None


def _sub(config: Any, *names: str) -> Any:
    """The first sub-config of ``names`` that ``config`` has, else ``config`` itself."""
    for name in names:
        value = getattr(config, name, None)
        if value is not None and hasattr(value, "to_dict"):
            return value
    return config


def _first(config: Any, names: Sequence[str], default: Any) -> Any:
    for name in names:
        value = getattr(config, name, None)
        if value is not None:
            return value
    return default


def _input_recipes(config: Any, model: Any) -> list[dict[str, Callable[[Any], Any]]]:
    """Ways to make a batch for ``model``: its ``main_input_name`` alone (plus decoder ids for an encoder-decoder)
    in each layout tried for it, then with every other input of the forward's signature that can be made here."""
    import torch

    text = _sub(config, "text_config", "decoder", "language_config", "llm_config")
    vision = _sub(config, "vision_config", "encoder", "image_config", "backbone_config")
    audio = _sub(config, "audio_config", "encoder")
    vocab = min(int(_first(text, ("vocab_size",), 99) or 99), 99)
    size = _first(vision, ("image_size", "img_size", "input_size"), 32)
    height, width = (size, size) if isinstance(size, int) else tuple(size)[-2:]
    channels = _first(vision, ("num_channels", "in_channels", "num_channels_in"), 3)
    mels = _first(audio, ("num_mel_bins", "feature_size", "n_mels", "spec_size"), 16)
    frames = 2 * getattr(audio, "max_source_positions", 16) if hasattr(audio, "max_source_positions") else 32
    per_channel = getattr(audio, "input_feat_per_channel", None)

    def shaped(*shape: int, ints: bool = False) -> Callable[[torch.Generator], torch.Tensor]:
        if ints:
            return lambda g: torch.randint(3, vocab, shape, generator=g)
        return lambda g: torch.randn(*shape, generator=g)

    b = BATCH_SIZE
    layouts: dict[str, list[Callable[[torch.Generator], torch.Tensor]]] = {
        "input_ids": [shaped(b, TEXT_LENGTH, ints=True)],
        "decoder_input_ids": [shaped(b, 5, ints=True)],
        "pixel_values": [shaped(b, channels, height, width), shaped(b, channels, 64, 64), shaped(b, 3, 224, 224)],
        # raw audio, then spectrogram-like layouts (AST, CLAP and their kind)
        "input_values": [shaped(b, 4000), shaped(b, frames, mels), shaped(b, 1, frames, mels)],
        "input_features": [shaped(b, mels, frames), shaped(b, frames, mels), shaped(b, 1, frames, mels)]
        + ([shaped(b, frames, per_channel * getattr(audio, "input_channels", 1))] if per_channel else []),
        "pixel_values_videos": [shaped(b, 2, channels, height, width)],
        "inputs_embeds": [shaped(b, TEXT_LENGTH, int(_first(text, ("hidden_size", "d_model"), 32)))],
    }
    main = getattr(model, "main_input_name", "input_ids")
    try:
        signature = set(inspect.signature(model.forward).parameters)
    except (TypeError, ValueError):
        signature = set()
    recipes: list[dict[str, Callable[[Any], Any]]] = []
    for maker in layouts.get(main, []):
        first = {main: maker}
        if getattr(config, "is_encoder_decoder", False) and "decoder_input_ids" in signature:
            first["decoder_input_ids"] = layouts["decoder_input_ids"][0]
        recipes.append(first)
    others = {n: makers[0] for n, makers in layouts.items() if n in signature and n not in (main, "inputs_embeds")}
    for maker in layouts.get(main, [])[:1]:
        if others:
            recipes.append({main: maker, **others})
    return recipes


class RunFailed(Exception):
    """The model was built but does not run without the guard on any input tried."""


#: Config changes tried in turn when the shrunk config does not build or run: without a cache (hybrid models whose
#: few remaining layers leave a cache without attention layers), with the original layer counts.
FALLBACKS: Final[tuple[dict[str, Any], ...]] = ({}, {"use_cache": False})


def build_transformers(model_type: str) -> tuple[Callable[[], Any], Callable[[int], Any], dict[str, Any]]:
    """A builder for the model of ``model_type`` from a shrunk config (counted on the meta device first: see
    :data:`MAX_PARAMS`), and the first input recipe that runs without the guard. Raises :class:`RunFailed` when
    the model builds but runs on no input."""
    import torch
    import transformers

    failure: Exception | None = None
    for change in FALLBACKS:
        config = transformers.CONFIG_MAPPING[model_type]()
        shrink(config)
        for name, value in change.items():
            if hasattr(config, name):
                setattr(config, name, value)
        cls = _model_class(model_type, config)
        if cls is None:
            raise LookupError(f"no model class for {type(config).__name__} (AutoModel has none)")

        def build(cls: Any = cls, config: Any = config) -> Any:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                fresh = copy.deepcopy(config)  # a model may write into its config
                return cls._from_config(fresh) if hasattr(cls, "_from_config") else cls(fresh)

        try:
            with torch.device("meta"):
                params = sum(p.numel() for p in build().parameters())
        except Exception:
            params = 0  # some models cannot be built on the meta device; the real build says more
        if params > MAX_PARAMS:
            raise MemoryError(f"{params:,} parameters after shrinking (more than {MAX_PARAMS:,})")
        seed_everything(0)
        model = build().eval()  # a failure here is a build failure
        failure = RunFailed(f"no input recipe for main_input_name {getattr(model, 'main_input_name', None)!r}")
        for recipe in _input_recipes(config, model):

            def inputs(i: int, recipe: dict[str, Callable[[Any], Any]] = recipe) -> dict[str, Any]:
                g = torch.Generator().manual_seed(i)
                return {name: make(g) for name, make in recipe.items()}

            try:
                with torch.inference_mode():
                    call(model, inputs(0))
            except Exception as err:
                if not isinstance(failure, RunFailed) or failure.__cause__ is None:
                    failure = RunFailed(describe(err))
                    failure.__cause__ = err
                continue
            shapes = {name: list(value.shape) for name, value in inputs(0).items()}
            return build, inputs, {"class": cls.__name__, "params": params, "input": shapes, "config": change}
    assert failure is not None
    raise failure


# -- the worker: one model at a time, results as JSON lines ---------------------------------------------------------


def run_task(task: dict[str, Any]) -> dict[str, Any]:
    """Build and check one task ``{"registry", "name", "model", "lightning"}``; every failure is in the record."""
    import torch

    record: dict[str, Any] = {"registry": task["registry"], "name": task["name"], "model": task["model"]}
    start = time.monotonic()
    # The process's state as a fresh one has it: a model before this one may have changed it (and the guarded run
    # compares grad mode with its state on entry, so a leak would be reported twice).
    torch.set_grad_enabled(True)  # noqa: GM401 -- reset between models, on purpose
    torch.set_default_dtype(torch.float32)
    try:
        if task["registry"] == "timm":
            build, inputs, info = build_timm(task["model"])
        else:
            build, inputs, info = build_transformers(task["model"])
    except RunFailed as err:
        cause = err.__cause__ or err
        record.update(status="run_failed", error=describe(cause), error_at=where(cause))
        record["seconds"] = round(time.monotonic() - start, 2)
        return record
    except Exception as err:
        status = "no_model_class" if isinstance(err, LookupError) and "no model class" in str(err) else "build_failed"
        record.update(status=status, error=describe(err), error_at=where(err))
        record["seconds"] = round(time.monotonic() - start, 2)
        return record
    record["built_with"] = info
    check_model(build, inputs, lightning=task.get("lightning", False), record=record)
    record["seconds"] = round(time.monotonic() - start, 2)
    return record


def worker() -> None:
    """Read tasks from stdin, one JSON line each; answer each with one JSON line on the original stdout. Whatever
    the models print goes to stderr."""
    import torch

    torch.set_num_threads(1)
    answer = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # print() of the libraries: stderr, never the protocol
    warnings.simplefilter("ignore")
    import logging

    logging.disable(logging.WARNING)
    for line in sys.stdin:
        task = json.loads(line)
        try:
            record = run_task(task)
        except BaseException as err:  # even a SystemExit from a model is that model's record
            record = {**task, "status": "crashed", "error": describe(err), "error_at": where(err)}
        answer.write(json.dumps(record, default=str) + "\n")


# -- the sweep: workers, time limits, the JSON file -----------------------------------------------------------------


@dataclass
class Worker:
    """A worker process and where its stderr goes."""

    proc: subprocess.Popen[str]
    log: Path
    done: int = 0

    @classmethod
    def start(cls, log: Path, plugin: Path) -> Worker:
        path = os.pathsep.join(filter(None, (str(plugin), str(PROJECT), os.environ.get("PYTHONPATH"))))
        env = {**os.environ, "PYTHONPATH": path}
        handle = log.open("a")
        proc = subprocess.Popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=handle,
            text=True,
            env=env,
            start_new_session=True,
        )
        handle.close()
        return cls(proc, log)

    def ask(self, task: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        """Send one task and wait for its answer; ``None`` when none came in time or the worker died."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        try:
            self.proc.stdin.write(json.dumps(task) + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            return None
        with selectors.DefaultSelector() as selector:
            selector.register(self.proc.stdout, selectors.EVENT_READ)
            if not selector.select(timeout):
                return None
        line = self.proc.stdout.readline()
        self.done += 1
        return json.loads(line) if line else None

    def stop(self) -> None:
        import signal

        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stderr_tail(self, lines: int = 3) -> str:
        text = self.log.read_text(errors="replace").strip().splitlines() if self.log.exists() else []
        return " | ".join(t.strip() for t in text[-lines:])[:400]


def versions(plugin: Path) -> dict[str, str]:
    """The versions of the libraries, and which gradmode_plugin the workers import: the checkout's commit, with
    "+ uncommitted changes" when its package differs from it, or the folder given with ``--plugin``."""
    from importlib import metadata

    found = {}
    for name in ("torch", "timm", "transformers", "pytorch-lightning", "gradmode-plugin"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            found[name] = metadata.version(name)

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(PROJECT), *args], capture_output=True, text=True).stdout.strip()

    if plugin.resolve() == PROJECT:
        dirty = git("status", "--porcelain", "--", "gradmode_plugin")
        found["gradmode-plugin source"] = git("rev-parse", "--short", "HEAD") + (" + uncommitted changes" * bool(dirty))
    elif (plugin / "COMMIT").exists():  # exported by --revision
        found["gradmode-plugin source"] = (plugin / "COMMIT").read_text().strip() + " (exported)"
    else:
        found["gradmode-plugin source"] = str(plugin)
    return found


_START: Final[float] = time.monotonic()


def progress(message: str) -> None:
    """A progress line with the time since the sweep started."""
    print(f"[{time.monotonic() - _START:7.1f}s] {message}", flush=True)


def select_tasks(args: argparse.Namespace) -> list[dict[str, Any]]:
    """The models to check, in registry order, with an evenly spread Lightning sample per registry."""
    wanted = set(filter(None, (args.models or "").split(",")))
    if args.exceptions_of:
        previous = json.loads(Path(args.exceptions_of).read_text())["models"]
        wanted |= {r["name"] for r in previous.values() if r.get("status") == "ran" and not passed(r)}
        wanted |= {r["name"] for r in previous.values() if r.get("status") in ("timeout", "crashed")}
    tasks: list[dict[str, Any]] = []
    if args.only in (None, "timm"):
        families = timm_families()
        chosen = []
        for family, names in families.items():
            picked = wanted & set(names)
            if wanted and family not in wanted and not picked:
                continue
            chosen.append((family, sorted(picked)[0] if picked else None, names))
        chosen = chosen[: args.limit] if args.limit else chosen
        progress(f"timm: {len(chosen)} families of {len(families)}; picking the smallest variant of each")
        for family, model, names in chosen:
            tasks.append({"registry": "timm", "name": family, "model": model or smallest_timm(names)})
    if args.only in (None, "transformers"):
        import transformers

        types = [t for t in transformers.CONFIG_MAPPING if not wanted or t in wanted]
        types = types[: args.limit] if args.limit else types
        tasks += [{"registry": "transformers", "name": t, "model": t} for t in sorted(types)]
    for registry in ("timm", "transformers"):
        mine = [t for t in tasks if t["registry"] == registry]
        count = min(args.lightning_sample, len(mine))
        for k in range(count):
            mine[(k * len(mine)) // count]["lightning"] = True
    return tasks


def passed(record: dict[str, Any]) -> bool:
    return bool(record.get("clean") and record.get("identical") and record.get("restored"))


def sweep(args: argparse.Namespace) -> dict[str, Any]:
    """Run every task in ``--jobs`` workers; the JSON file is rewritten after every model."""
    tasks = select_tasks(args)
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    logs = Path(tempfile.mkdtemp(prefix="check-registries-"))  # the workers' stderr: what the models printed
    progress(f"worker logs in {logs}")
    document: dict[str, Any] = {
        "versions": versions(args.plugin),
        "settings": {
            "batches": BATCHES,
            "batch_size": BATCH_SIZE,
            "dropout": DROP,
            "timeout_s": args.timeout,
            "grad_modes": list(GRAD_MODES),
            "command": " ".join(sys.argv),
        },
        "models": {},
    }
    lock = threading.Lock()
    pending: queue.Queue[dict[str, Any]] = queue.Queue()
    for task in tasks:
        pending.put(task)
    total, started = len(tasks), time.monotonic()
    owed: dict[str, int] = defaultdict(int)  # Lightning runs owed by sampled models that did not run

    def save(record: dict[str, Any]) -> None:
        with lock:
            document["models"][f"{record['registry']}:{record['name']}"] = record
            document["seconds"] = round(time.monotonic() - started, 1)
            tmp = out.with_suffix(".tmp")
            tmp.write_text(json.dumps(document, indent=1, sort_keys=False, default=str) + "\n")
            tmp.replace(out)
            done = len(document["models"])
        verdict = record.get("status")
        if verdict == "ran":
            verdict = "ok" if passed(record) else "EXCEPTION"
        progress(
            f"{done}/{total} {record['registry']} {record['name']} ({record['model']}): {verdict}"
            f" {record.get('error', '')[:120]} [{record.get('seconds', '?')}s]"
        )

    def job(index: int) -> None:
        current: Worker | None = None
        while True:
            try:
                task = pending.get_nowait()
            except queue.Empty:
                break
            with lock:
                if owed[task["registry"]] and not task.get("lightning"):
                    owed[task["registry"]] -= 1
                    task["lightning"] = True
            if current is None or current.done >= MODELS_PER_WORKER:
                if current is not None:
                    current.stop()
                current = Worker.start(logs / f"worker{index}.log", args.plugin)
            t0 = time.monotonic()
            record = current.ask(task, args.timeout)
            if record is None:
                alive = current.proc.poll() is None
                tail = current.stderr_tail()
                current.stop()
                current = None
                status = "timeout" if alive else "crashed"
                error = f"no answer within {args.timeout:.0f}s" if alive else f"worker died: {tail}"
                record = {**task, "status": status, "error": error, "seconds": round(time.monotonic() - t0, 1)}
            if task.get("lightning") and record.get("status") != "ran":
                with lock:  # the Lightning sample moves on to the next model of the registry
                    owed[task["registry"]] += 1
            save(record)
        if current is not None:
            current.stop()

    threads = [threading.Thread(target=job, args=(i,)) for i in range(args.jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    document["summary"] = summarize(document["models"])
    out.write_text(json.dumps(document, indent=1, default=str) + "\n")
    return document


# -- the report -----------------------------------------------------------------------------------------------------


def summarize(models: dict[str, dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Counts per registry: attempted, built, ran without the guard, clean, identical, restored, and the
    Lightning sample's."""
    summary: dict[str, dict[str, int]] = {}
    for registry in ("timm", "transformers"):
        records = [r for r in models.values() if r["registry"] == registry]
        if not records:
            continue
        ran = [r for r in records if r.get("status") == "ran"]
        sample = [r["lightning"] for r in ran if "lightning" in r]
        summary[registry] = {
            "attempted": len(records),
            "built": sum(r.get("status") in ("ran", "run_failed") for r in records),
            "ran": len(ran),
            "clean": sum(bool(r.get("clean")) for r in ran),
            "identical": sum(bool(r.get("identical")) for r in ran),
            "restored": sum(bool(r.get("restored")) for r in ran),
            "all three": sum(passed(r) for r in ran),
            "lightning sample": len(sample),
            "lightning passed": sum(bool(s["clean"] and s["identical"] and s["restored"]) for s in sample),
            "timeout or crash": sum(r.get("status") in ("timeout", "crashed") for r in records),
        }
    return summary


def exception_lines(record: dict[str, Any]) -> list[str]:
    """What went wrong under the guard, one line per run."""
    lines = []
    runs = dict(record.get("runs", {}))
    if "lightning" in record:
        runs["lightning"] = record["lightning"]
    for mode, run in runs.items():
        parts = []
        for v in run.get("violations", [])[:3]:
            parts.append(f"{v['kind']} at {v['module'] or '<root>'!s} (batch {v['batch']}): {v['detail'][:100]}")
        if "error" in run:
            parts.append(f"guarded run raised {run['error']} at {run.get('error_at')}")
        if not run.get("identical"):
            plain = run.get("plain_reproducible")
            note = "" if plain is None else f", plain run reproducible: {plain}"
            parts.append(f"differs in batch {run.get('batch')}, max |diff| {run.get('max_abs_diff')}{note}")
        if not run.get("flags_restored"):
            parts.append(f"flags not restored: {', '.join(run.get('flags_changed', []))}")
        if not run.get("grad_mode_restored"):
            parts.append("grad mode not restored")
        if parts:
            lines.append(f"    {mode}: " + "; ".join(parts))
    return lines


def report(document: dict[str, Any]) -> int:
    """Print the counts and every exception; the exit status (0: no exception under the guard)."""
    models = document["models"]
    print(f"\nversions: {document['versions']}; {document.get('seconds', '?')} s")
    header = ["registry", "attempted", "built", "ran", "clean", "identical", "restored", "all three", "lightning"]
    print(" | ".join(header))
    for registry, counts in summarize(models).items():
        light = f"{counts['lightning passed']}/{counts['lightning sample']}"
        row = [counts[k] for k in ("attempted", "built", "ran", "clean", "identical", "restored", "all three")]
        print(" | ".join([registry, *map(str, row), light]))
    failing = 0
    print("\nUnder the guard (ran without it, not clean, identical and restored with it):")
    for record in models.values():
        if record.get("status") == "ran" and not passed(record):
            failing += 1
            known = KNOWN.get((record["registry"], record["name"]))
            print(
                f"  {record['registry']} {record['name']} ({record['model']})"
                + (f"  [known: {known}]" if known else "")
            )
            print("\n".join(exception_lines(record)))
    leaves = [r for r in models.values() if r.get("lightning", {}).get("lightning_leaves_without_the_guard")]
    if leaves:
        print("\nLightning itself, without the guard, leaves modules made during the stage in eval:")
        for record in leaves:
            left = record["lightning"]["lightning_leaves_without_the_guard"]
            print(f"  {record['registry']} {record['name']}: {', '.join(left)}")
    print("\nCounted apart (not built, not run without the guard, timed out or crashed):")
    apart: dict[str, list[str]] = defaultdict(list)
    for record in models.values():
        if record.get("status") != "ran":
            apart[record["status"]].append(
                f"  {record['registry']} {record['name']}: {record.get('error', '')[:160]} {record.get('error_at', '')}"
            )
    for status, lines in sorted(apart.items()):
        print(f" {status} ({len(lines)}):")
        print("\n".join(lines))
    return 1 if failing else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=(__doc__ or "").split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--only", choices=("timm", "transformers"), help="one registry only")
    parser.add_argument("--models", help="comma-separated timm models or families, transformers model types")
    parser.add_argument("--exceptions-of", type=Path, help="re-run the exceptions of this earlier sweep's JSON")
    parser.add_argument("--limit", type=int, default=0, help="the first N families / types of each registry")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"the JSON file (default {DEFAULT_OUT})")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per model (default 120)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--lightning-sample", type=int, default=10, help="models per registry under Trainer.validate")
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--plugin",
        type=Path,
        default=PROJECT,
        help="the folder holding the gradmode_plugin package to check (default: this checkout, as it is)",
    )
    source.add_argument(
        "--revision",
        help="check gradmode_plugin as committed at this revision (exported with git archive), e.g. HEAD:\n"
        "edits of the working tree during the sweep then change nothing",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker()
        return 0
    if args.revision:
        with tempfile.TemporaryDirectory(prefix="gradmode-plugin-") as folder:
            args.plugin = export_plugin(args.revision, Path(folder))
            return report(sweep(args))
    return report(sweep(args))


def export_plugin(revision: str, folder: Path) -> Path:
    """``gradmode_plugin`` as committed at ``revision``, written into ``folder`` (returned) with ``git archive``."""
    commit = subprocess.run(
        ["git", "-C", str(PROJECT), "rev-parse", "--short", f"{revision}^{{commit}}"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "-C", str(PROJECT), "archive", commit, "gradmode_plugin"], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    (folder / "COMMIT").write_text(commit + "\n")
    return folder


if __name__ == "__main__":
    sys.exit(main())
