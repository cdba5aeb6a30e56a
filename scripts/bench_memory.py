"""What the bug costs and what the guard saves: memory and time of resnet50 evaluation, four ways.

- ``inference``: guarded, ``evaluating(model, grad_mode="inference")``;
- ``no_grad``: guarded, ``evaluating(model, grad_mode="no_grad")``;
- ``grad_on``: the common bug, ``model.eval()`` but no ``no_grad``: autograd keeps every activation it needs
  for a backward pass that never comes (bytes counted with ``saved_tensors_hooks``);
- ``grad_on_recorded``: the same bug under the guard with ``on_violation="record"``: what the guard detects
  (``scope.report.stage(...).saved_bytes``) without stopping the run.

On CPU every (way, batch size) runs in a fresh process and reports its peak RSS (``ru_maxrss``), also minus
the RSS after the model and the input were built; on CUDA, peak allocated memory, and with ``--cap-gib`` the
largest batch that fits under that cap for each way. Writes ``memory_<device>.json`` and a plot next to it.

Run from the repository root::

    python scripts/bench_memory.py                     # CPU, batches 1..32, a few minutes on 2 cores
    python scripts/bench_memory.py --quick --out /tmp  # smoke run
    python scripts/bench_memory.py --device cuda --cap-gib 8
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import resource
import statistics
import sys
import time
from multiprocessing import forkserver
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bench_common as common

from gradmode_plugin import evaluating

WAYS: dict[str, str] = {
    "inference": "guarded, inference_mode",
    "no_grad": "guarded, no_grad",
    "grad_on": "bug: model.eval() without no_grad",
    "grad_on_recorded": "bug under the guard, on_violation='record'",
}
#: Peak RSS measured on a CPU machine for resnet50 at 224 px, batch 16, for comparison.
REFERENCE_CPU = {"batch_size": 16, "grad_on_mb": 2183, "no_grad_mb": 1038}
MB = 2**20


# -- one measurement, in a fresh process -----------------------------------------------------------------------
def _rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB (``ru_maxrss`` is KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / MB if sys.platform == "darwin" else peak / 1024


class SavedBytes:
    """Counts what autograd saves for backward: every save (as the guard does), distinct storages, and distinct
    storages that are not the model's own parameters or buffers (the memory the bug really adds)."""

    def __init__(self, model: torch.nn.Module) -> None:
        self.own = {t.untyped_storage().data_ptr() for t in (*model.parameters(), *model.buffers())}
        self.reset()

    def reset(self) -> None:
        self.total = 0
        self.storages: dict[int, int] = {}

    def pack(self, tensor: torch.Tensor) -> torch.Tensor:
        self.total += tensor.nelement() * tensor.element_size()
        storage = tensor.untyped_storage()
        self.storages[storage.data_ptr()] = storage.nbytes()
        # Not the tensor itself: a saved output would then own its own grad_fn, a reference cycle through
        # the graph that is never freed. A detached view shares the storage and version counter.
        return tensor.detach()

    def unique(self, *, activations_only: bool) -> int:
        return sum(n for ptr, n in self.storages.items() if not (activations_only and ptr in self.own))

    @staticmethod
    def unpack(tensor: torch.Tensor) -> torch.Tensor:
        return tensor


def build_model(name: str, device: str) -> torch.nn.Module:
    import torchvision

    torch.manual_seed(0)
    return getattr(torchvision.models, name)(weights=None).to(device).eval()


def forward(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> float:
    """One evaluation step: logits, loss, the loss read back; the graph (if any) is freed on return."""
    return F.cross_entropy(model(x), y).item()


def run_way(
    way: str, model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor, iters: int, device: str
) -> dict[str, Any]:
    """Evaluate ``1 + iters`` batches ``way``; returns seconds per timed batch and what was saved for backward."""
    seconds: list[float] = []
    out: dict[str, Any] = {}

    def step(fn: Any) -> None:
        common.sync(device)
        start = time.perf_counter()
        fn()
        common.sync(device)
        seconds.append(time.perf_counter() - start)

    if way in ("inference", "no_grad"):
        with evaluating(model, grad_mode=way) as scope:
            for i in range(1 + iters):
                with scope.batch(i):
                    step(lambda: forward(model, x, y))
        stage = scope.report.stage("evaluation")
        out.update(guard_saved_bytes=stage.saved_bytes, violations=scope.report.total)
    elif way == "grad_on":
        counter = SavedBytes(model)
        model.eval()
        with torch.enable_grad(), torch.autograd.graph.saved_tensors_hooks(counter.pack, counter.unpack):
            for _ in range(1 + iters):
                counter.reset()
                step(lambda: forward(model, x, y))
        out.update(
            saved_bytes=counter.total,
            saved_unique_bytes=counter.unique(activations_only=False),
            saved_activations_bytes=counter.unique(activations_only=True),
        )
    elif way == "grad_on_recorded":
        with evaluating(model, grad_mode="no_grad", on_violation="record") as scope:
            for i in range(1 + iters):
                with scope.batch(i), torch.enable_grad():
                    step(lambda: forward(model, x, y))
        stage = scope.report.stage("evaluation")
        out.update(
            guard_saved_bytes=stage.saved_bytes // (1 + iters),
            violations=scope.report.total,
            violation_kinds=sorted(k for k, n in stage.counts.items() if n),
        )
    else:
        raise ValueError(f"unknown way {way!r}; expected one of {sorted(WAYS)}")
    out["seconds_per_batch"] = statistics.median(seconds[1:]) if iters else seconds[0]
    return out


def measure(
    way: str, batch_size: int, image_size: int, iters: int, device: str, model_name: str, threads: int | None
) -> dict[str, Any]:
    """One configuration, meant to run in a fresh process: peak memory over the model-and-input baseline."""
    common.set_threads(threads, device)
    model = build_model(model_name, device)
    g = torch.Generator().manual_seed(0)
    x = torch.randn(batch_size, 3, image_size, image_size, generator=g).to(device)
    y = torch.randint(0, 1000, (batch_size,), generator=g).to(device)
    row: dict[str, Any] = {"way": way, "batch_size": batch_size}
    if device.startswith("cuda"):
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
    else:
        base_rss = _rss_mb()
    row.update(run_way(way, model, x, y, iters, device))
    if device.startswith("cuda"):
        peak = torch.cuda.max_memory_allocated()
        row.update(baseline_mb=base / MB, peak_mb=peak / MB, delta_mb=(peak - base) / MB)
    else:
        peak_rss = _rss_mb()
        row.update(baseline_mb=base_rss, peak_mb=peak_rss, delta_mb=peak_rss - base_rss)
    row["ms_per_image"] = row.pop("seconds_per_batch") * 1000 / batch_size
    for key in ("saved_bytes", "saved_unique_bytes", "saved_activations_bytes", "guard_saved_bytes"):
        if key in row:
            row[key.replace("_bytes", "_mb")] = row.pop(key) / MB
    return row


def fits(way: str, batch_size: int, image_size: int, model: torch.nn.Module) -> bool:
    """Whether one evaluation batch ``way`` fits on the GPU under the process's memory fraction."""
    try:
        x = torch.randn(batch_size, 3, image_size, image_size, device="cuda")
        y = torch.zeros(batch_size, dtype=torch.long, device="cuda")
        run_way(way, model, x, y, 0, "cuda")
        return True
    except torch.cuda.OutOfMemoryError:
        return False
    finally:
        x = y = None  # type: ignore[assignment]
        import gc

        gc.collect()
        torch.cuda.empty_cache()


def largest_batch(way: str, image_size: int, cap_gib: float, model_name: str, limit: int = 8192) -> dict[str, Any]:
    """The largest batch size that evaluates ``way`` under ``cap_gib`` of GPU memory (doubling, then bisecting)."""
    total = torch.cuda.get_device_properties(0).total_memory
    torch.cuda.set_per_process_memory_fraction(min(1.0, cap_gib * 2**30 / total))
    model = build_model(model_name, "cuda")
    good, bad = 0, None
    size = 1
    while size <= limit and fits(way, size, image_size, model):
        good, size = size, size * 2
    bad = size if size <= limit else None
    while bad is not None and bad - good > 1:
        mid = (good + bad) // 2
        if fits(way, mid, image_size, model):
            good = mid
        else:
            bad = mid
    return {"way": way, "cap_gib": cap_gib, "largest_batch": good, "searched_up_to": limit}


def in_fresh_process(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in a new process, forked from a server that has imported torch, torchvision and the guard
    but run nothing (so each process starts in seconds less, with the same memory baseline)."""
    if "forkserver" in mp.get_all_start_methods():
        ctx = mp.get_context("forkserver")
        ctx.set_forkserver_preload(["torch", "torchvision", "gradmode_plugin", "_bench_common"])
        # The server imports those with its own sys.path, which starts with its working directory: start it
        # here, so it imports what this process imports (not a gradmode_plugin that happens to be in the cwd).
        cwd = os.getcwd()
        os.chdir(Path(__file__).resolve().parent)
        try:
            forkserver.ensure_running()
        finally:
            os.chdir(cwd)
    else:
        ctx = mp.get_context("spawn")
    with ctx.Pool(processes=1, maxtasksperchild=1) as pool:
        return pool.apply(fn, args)


# -- output ----------------------------------------------------------------------------------------------------
def ratios(rows: list[dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per batch size: peak memory of the bug over each guarded way (absolute and over the model baseline)."""
    by = {(r["way"], r["batch_size"]): r for r in rows}
    out: dict[str, dict[str, float]] = {}
    for bs in sorted({r["batch_size"] for r in rows}):
        bug = by.get(("grad_on", bs))
        if bug is None:
            continue
        entry: dict[str, float] = {}
        for way in ("no_grad", "inference"):
            guarded = by.get((way, bs))
            if guarded:
                entry[f"peak_grad_on_over_{way}"] = bug["peak_mb"] / guarded["peak_mb"]
                if guarded["delta_mb"] > 0:
                    entry[f"delta_grad_on_over_{way}"] = bug["delta_mb"] / guarded["delta_mb"]
                entry[f"time_grad_on_over_{way}"] = bug["ms_per_image"] / guarded["ms_per_image"]
        out[str(bs)] = entry
    return out


def device_label(env: dict[str, Any]) -> str:
    """The machine a result was measured on, for a plot's title: the GPU's name, else the CPU's."""
    return str(env.get("gpu") or env.get("cpu") or env.get("device", "?"))


def plot(
    rows: list[dict[str, Any]],
    path: Path,
    device: str,
    model_name: str,
    image_size: int,
    *,
    label: str | None = None,
    caps: list[dict[str, Any]] | None = None,
) -> bool:
    """Peak memory and saved-for-backward bytes against batch size, the device named in the title (``label``) and
    each way's largest batch under a memory cap drawn on the cap (``caps``); False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed (pip install -e '.[bench]'): no plot", file=sys.stderr)
        return False
    what = "peak RSS" if device == "cpu" else "peak allocated"
    machine = label or device
    styles = {
        "grad_on": ("bug: grad enabled (model.eval() only)", "tab:red", "o", "-"),
        "grad_on_recorded": ("same bug under the guard, record mode", "tab:red", "x", ":"),
        "no_grad": ("guarded: no_grad", "tab:blue", "s", "-"),
        "inference": ("guarded: inference_mode", "tab:green", "^", "--"),
    }
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4))
    for way, (label, color, marker, line) in styles.items():
        points = sorted((r["batch_size"], r["peak_mb"]) for r in rows if r["way"] == way)
        if points:
            xs, ys = zip(*points)
            left.plot(xs, ys, marker=marker, linestyle=line, color=color, label=label)
    for cap in caps or []:
        if cap.get("largest_batch"):
            color = styles.get(cap["way"], ("", "gray"))[1]
            left.axhline(cap["cap_gib"] * 1024, color="gray", linewidth=0.8, linestyle="-.")
            left.plot(
                [cap["largest_batch"]],
                [cap["cap_gib"] * 1024],
                marker="*",
                markersize=12,
                color=color,
                linestyle="none",
                label=f"largest batch under {cap['cap_gib']:g} GiB, {cap['way']}: {cap['largest_batch']}",
            )
    left.set(
        xlabel="batch size",
        ylabel=f"{what} (MiB)",
        title=f"{model_name} evaluation, {image_size} px\n{machine}",
    )
    series = [
        ("grad_on", "saved_activations_mb", "activations kept alive (distinct, no weights)", "tab:red", "o", "-"),
        (
            "grad_on_recorded",
            "guard_saved_mb",
            "guard's report: saved_bytes (every save but weights)",
            "black",
            "x",
            ":",
        ),
    ]
    for way, key, label, color, marker, line in series:
        points = sorted((r["batch_size"], r[key]) for r in rows if r["way"] == way and key in r)
        if points:
            xs, ys = zip(*points)
            right.plot(xs, ys, marker=marker, linestyle=line, color=color, label=label)
    right.set(xlabel="batch size", ylabel="MiB per batch", title="saved for a backward pass that never runs")
    for ax in (left, right):
        ax.set_xscale("log", base=2)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        ticks = sorted(
            {r["batch_size"] for r in rows} | {c["largest_batch"] for c in caps or [] if c.get("largest_batch")}
        )
        ax.set_xticks(ticks, [str(t) for t in ticks])
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def print_tables(results: dict[str, Any]) -> None:
    rows = results["results"]
    unit = "peak RSS (MiB)" if results["settings"]["device"] == "cpu" else "peak alloc (MiB)"
    body = [
        [
            r["batch_size"],
            r["way"],
            r["peak_mb"],
            r["delta_mb"],
            r.get("saved_mb", r.get("guard_saved_mb")),
            r.get("saved_activations_mb"),
            r["ms_per_image"],
            r.get("violations"),
        ]
        for r in rows
    ]
    headers = [
        "batch",
        "way",
        unit,
        "over model (MiB)",
        "saved, all (MiB)",
        "activations (MiB)",
        "ms/image",
        "violations",
    ]
    print(common.table(headers, body))
    print()
    ratio_rows = [
        [
            bs,
            r.get("peak_grad_on_over_no_grad"),
            r.get("peak_grad_on_over_inference"),
            r.get("delta_grad_on_over_no_grad"),
            r.get("time_grad_on_over_no_grad"),
        ]
        for bs, r in results["ratios"].items()
    ]
    print(
        common.table(
            ["batch", "peak bug/no_grad", "peak bug/inference", "over-model bug/no_grad", "time bug/no_grad"],
            ratio_rows,
        )
    )
    for row in results.get("cap_search", []):
        print(f"largest batch under {row['cap_gib']} GiB, {row['way']}: {row['largest_batch']}")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    parser.add_argument("--batches", default=None, help="comma-separated batch sizes (CPU default 1,2,4,8,16,32)")
    parser.add_argument("--image-size", type=int, default=None, help="pixels (default 224; quick: 64)")
    parser.add_argument("--iters", type=int, default=None, help="timed batches after one warm-up batch (default 2)")
    parser.add_argument("--ways", default=",".join(WAYS), help=f"comma-separated subset of {','.join(WAYS)}")
    parser.add_argument("--model", default="resnet50", help="torchvision model name (default resnet50)")
    parser.add_argument("--cap-gib", type=float, default=None, help="CUDA only: largest batch under this cap")
    parser.add_argument("--threads", type=int, default=None, help=common.THREADS_HELP)
    parser.add_argument("--no-plot", action="store_true", help="skip the PNG")
    parser.add_argument("--replot", action="store_true", help="only redraw the PNG from the JSON in --out")
    parser.add_argument("--quick", action="store_true", help="tiny settings for a smoke run")
    parser.add_argument("--out", type=Path, default=common.DOCS, help="folder for JSON and PNG (default: docs/)")
    args = parser.parse_args(argv)
    cuda = args.device.startswith("cuda")
    if args.batches is None:
        args.batches = "1,2" if args.quick else ("8,16,32,64,128,256" if cuda else "1,2,4,8,16,32")
    args.batch_sizes = [int(b) for b in args.batches.split(",") if b.strip()]
    args.way_names = [w.strip() for w in args.ways.split(",") if w.strip()]
    unknown = sorted(set(args.way_names) - set(WAYS))
    if unknown:
        parser.error(f"unknown way(s) {unknown}; choose from {sorted(WAYS)}")
    if args.image_size is None:
        args.image_size = 64 if args.quick else 224
    if args.iters is None:
        args.iters = 1 if args.quick else 2
    if args.cap_gib is not None and not cuda:
        parser.error("--cap-gib needs --device cuda")
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    common.check_device(args.device)
    common.set_threads(args.threads, args.device)
    suffix = ("cuda" if args.device.startswith("cuda") else "cpu") + ("_quick" if args.quick else "")
    if args.replot:
        import json

        saved = json.loads((args.out / f"memory_{suffix}.json").read_text())
        settings = saved["settings"]
        png = args.out / f"memory_{suffix}.png"
        plot(
            saved["results"],
            png,
            settings["device"],
            settings["model"],
            settings["image_size"],
            label=device_label(saved["env"]),
            caps=saved.get("cap_search"),
        )
        print(f"wrote {png}")
        return saved
    results: dict[str, Any] = {
        "env": common.environment(args.device),
        "settings": {
            "device": args.device,
            "model": args.model,
            "image_size": args.image_size,
            "batch_sizes": args.batch_sizes,
            "iters": args.iters,
            "threads": args.threads or (None if args.device.startswith("cuda") else 1),
            "quick": args.quick,
            "measured_in": "a fresh process per row",
        },
        "ways": {w: WAYS[w] for w in args.way_names},
        "reference_cpu": REFERENCE_CPU,
        "results": [],
    }
    for bs in args.batch_sizes:
        for way in args.way_names:
            print(f"{args.model} batch {bs}: {way} ...", flush=True)
            row = in_fresh_process(measure, way, bs, args.image_size, args.iters, args.device, args.model, args.threads)
            results["results"].append(row)
    results["ratios"] = ratios(results["results"])
    if args.cap_gib is not None:
        results["cap_search"] = [
            in_fresh_process(largest_batch, way, args.image_size, args.cap_gib, args.model)
            for way in args.way_names
            if way != "grad_on_recorded"
        ]
    png = args.out / f"memory_{suffix}.png"
    results["plot"] = (
        png.name
        if not args.no_plot
        and plot(
            results["results"],
            png,
            args.device,
            args.model,
            args.image_size,
            label=device_label(results["env"]),
            caps=results.get("cap_search"),
        )
        else None
    )
    path = args.out / f"memory_{suffix}.json"
    common.write_json(path, results)
    print()
    print_tables(results)
    print(f"\nwrote {path}" + (f" and {png}" if results["plot"] else ""))
    return results


if __name__ == "__main__":
    main()
