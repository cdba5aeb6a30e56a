"""Shared helpers for the benchmark scripts: alternating timings, medians, tables, JSON and the machine."""

from __future__ import annotations

import contextlib
import gc
import importlib
import json
import logging
import os
import platform
import random
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import torch

REPO_ROOT = Path(__file__).resolve().parent.parent
DOCS = REPO_ROOT / "docs"


def sync(device: str) -> None:
    """Wait for queued CUDA work so a timing covers it; a no-op on CPU."""
    if device.startswith("cuda"):
        torch.cuda.synchronize()


def settle() -> None:
    """Collect garbage once and freeze what survives, so the collections before each timing stay cheap."""
    gc.collect()
    gc.freeze()


def time_call(fn: Callable[[], Any], device: str = "cpu") -> tuple[float, float]:
    """Wall-clock and process CPU seconds of one ``fn()``, garbage collected and device synchronised first.

    CPU time leaves out the time this process waited for a core, so on a shared machine it is the steadier of
    the two (with one intra-op thread; it does not see GPU time).
    """
    gc.collect()
    sync(device)
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    sync(device)
    return time.perf_counter() - wall, time.process_time() - cpu


Times = dict[str, list[float]]


def alternate(
    arms: dict[str, Callable[[], Any]],
    *,
    rounds: int,
    warmup: int,
    device: str = "cpu",
    self_timed: bool = False,
) -> tuple[Times, Times]:
    """Run every arm ``warmup`` times, then once per round for ``rounds`` rounds, rotating the order.

    Interleaving the arms spreads drifts (other processes, thermal state, caches) evenly over all of them.
    Returns (wall seconds, CPU seconds) of every timed run, per arm, in round order. With ``self_timed`` each
    arm times itself (its set-up left out) and returns ``time_call(...)``'s pair.
    """
    names = list(arms)
    for _ in range(warmup):
        for name in names:
            arms[name]()
    settle()
    wall: Times = {name: [] for name in names}
    cpu: Times = {name: [] for name in names}
    for r in range(rounds):
        shift = r % len(names)
        for name in names[shift:] + names[:shift]:
            if self_timed:
                gc.collect()
                w, c = arms[name]()
            else:
                w, c = time_call(arms[name], device)
            wall[name].append(w)
            cpu[name].append(c)
    gc.unfreeze()  # frozen objects would never be collected, not even at exit
    return wall, cpu


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def ratios(times: dict[str, list[float]], arm: str, base: str) -> list[float]:
    """Per-round ratios ``arm / base``."""
    return [a / b for a, b in zip(times[arm], times[base])]


def differences(times: dict[str, list[float]], arm: str, base: str) -> list[float]:
    """Per-round differences ``arm - base`` (seconds)."""
    return [a - b for a, b in zip(times[arm], times[base])]


def median_ci(values: Sequence[float], *, level: float = 0.95, resamples: int = 2000) -> tuple[float, float]:
    """Bootstrap confidence interval of the median (fixed seed: the same data give the same interval)."""
    if not values:
        return float("nan"), float("nan")
    rng = random.Random(0)
    medians = sorted(statistics.median(rng.choices(values, k=len(values))) for _ in range(resamples))
    tail = (1.0 - level) / 2
    return medians[int(tail * resamples)], medians[min(resamples - 1, int((1.0 - tail) * resamples))]


def best_of(fn: Callable[[], Any], *, number: int, repeat: int) -> float:
    """Micro-benchmark: the best mean over ``repeat`` loops of ``number`` calls, in microseconds."""
    fn()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - start) / number)
    return best * 1e6


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A Markdown table (also readable as plain text)."""
    cells = [[str(h) for h in headers]] + [[_cell(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths)) + " |" for r in cells]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}" if abs(value) < 100 else f"{value:.0f}"
    return "-" if value is None else str(value)


def write_json(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def environment(device: str = "cpu") -> dict[str, Any]:
    """Versions and machine, stored with every result."""
    import torchvision

    try:
        import pytorch_lightning as pl

        lightning = pl.__version__
    except ImportError:  # pragma: no cover - the package depends on it
        lightning = None
    env: dict[str, Any] = {
        "python": platform.python_version(),
        "torch": torch.__version__,
        "torchvision": torchvision.__version__,
        "pytorch_lightning": lightning,
        "platform": platform.platform(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "torch_threads": torch.get_num_threads(),
        "device": device,
    }
    if device.startswith("cuda") and torch.cuda.is_available():
        env["gpu"] = torch.cuda.get_device_name()
    return env


def quiet() -> None:
    """Silence Lightning's banners and the data-loader advice that does not apply to benchmarks."""
    warnings.filterwarnings("ignore")
    # Both Lightning namespaces set their loggers' level when imported; the guard imports both.
    for module in ("pytorch_lightning", "lightning.pytorch", "gradmode_plugin"):
        with contextlib.suppress(ImportError):
            importlib.import_module(module)
    for name in ("pytorch_lightning", "lightning.pytorch", "lightning_fabric", "lightning"):
        logging.getLogger(name).setLevel(logging.ERROR)
    os.environ.setdefault("PYTHONWARNINGS", "ignore")


THREADS_HELP = (
    "torch intra-op threads (CPU default 1: on a shared machine with few cores, OpenMP threads stall whenever "
    "another process holds a core; CUDA default: torch's)"
)


def set_threads(threads: int | None, device: str) -> None:
    """One intra-op thread on CPU unless asked otherwise; torch's default next to a GPU."""
    if threads is None and not device.startswith("cuda"):
        threads = 1
    if threads:
        torch.set_num_threads(threads)


def check_device(device: str) -> None:
    if device.startswith("cuda") and not torch.cuda.is_available():
        sys.exit(f"--device {device} was requested but CUDA is not available")
