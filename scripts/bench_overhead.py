"""What the guard costs: validation and training with and without ``GradModeGuard``, alternating in one process.

Workloads (``--device cpu``): torchvision resnet18 (batch 32, 96 px) and the worst case for per-batch and
per-module cost, a tiny MLP with BatchNorm and Dropout at batch size 1; each without the guard (Lightning's
own ``inference_mode``), with the guard's defaults and with every check on (``check_params=True``). Also the
training step with gradient clipping, the plain-PyTorch ``evaluating(...)`` loop against a bare
``model.eval()`` + ``torch.no_grad()`` loop, a micro-benchmark of each per-batch check and a cProfile of the
guarded tiny-MLP validation. With ``--device cuda``: resnet50 (batch 64, 224 px) instead of resnet18.

Run from the repository root::

    python scripts/bench_overhead.py             # full run, a few minutes on 2 CPU cores
    python scripts/bench_overhead.py --quick     # smoke run, seconds
    python scripts/bench_overhead.py --device cuda --out /tmp/bench
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _bench_common as common

#: Targets for the median guarded/unguarded ratio with default settings (resnet50 is the GPU workload; the worst case
#: is the tiny MLP at batch 1 whose validation_step does not log; the plain loop is evaluating(...) against a bare one).
TARGETS = {"resnet18": 1.02, "resnet50": 1.01, "tiny_mlp": 1.05, "worst_case": 1.05, "plain": 1.10}


@dataclass(frozen=True)
class Workload:
    """One model and its validation data."""

    name: str
    batch_size: int
    batches: int
    image_size: int | None  # None: the tiny MLP's 32 features
    #: ``--rounds`` times this. Per-round ratios spread by about ±10 % on a shared machine: the median of enough
    #: rounds must resolve the target's margin (2 % for resnet18: six times; the tiny model's runs are short).
    rounds_factor: int = 1


def workloads(device: str, quick: bool) -> list[Workload]:
    if quick:
        return [Workload("resnet18", 4, 3, 32), Workload("tiny_mlp", 1, 64, None)]
    tiny = Workload("tiny_mlp", 1, 512, None, rounds_factor=8)
    if device.startswith("cuda"):
        return [Workload("resnet50", 64, 16, 224, rounds_factor=6), tiny]
    return [Workload("resnet18", 32, 4, 96, rounds_factor=6), tiny]


# -- models ----------------------------------------------------------------------------------------------------
class TinyMLP(nn.Sequential):
    """Five modules, three with parameters: the guard's per-batch and per-module costs dominate."""

    def __init__(self, features: int = 32, hidden: int = 64, classes: int = 10) -> None:
        super().__init__(
            nn.Linear(features, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, classes)
        )


def build_net(name: str) -> nn.Module:
    if name == "tiny_mlp":
        return TinyMLP()
    import torchvision

    return getattr(torchvision.models, name)(weights=None, num_classes=10)


def make_data(work: Workload, n_batches: int | None = None, batch_size: int | None = None) -> TensorDataset:
    n = (n_batches or work.batches) * (batch_size or work.batch_size)
    g = torch.Generator().manual_seed(0)
    shape = (n, 32) if work.image_size is None else (n, 3, work.image_size, work.image_size)
    return TensorDataset(torch.randn(shape, generator=g), torch.randint(0, 10, (n,), generator=g))


def lightning_module(net: nn.Module, log: bool = True) -> Any:
    """A classifier whose ``validation_step`` logs its loss, as most do (``log=False``: it only computes it)."""
    import pytorch_lightning as pl

    class Classifier(pl.LightningModule):
        def __init__(self) -> None:
            super().__init__()
            self.net = net

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return self.net(x)

        def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
            x, y = batch
            loss = F.cross_entropy(self(x), y)
            self.log("train_loss", loss)
            return loss

        def validation_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
            x, y = batch
            loss = F.cross_entropy(self(x), y)
            if log:
                self.log("val_loss", loss)
            return loss

        def configure_optimizers(self) -> torch.optim.Optimizer:
            return torch.optim.SGD(self.parameters(), lr=0.01)

    return Classifier()


def trainer(device: str, callbacks: list[Any], **extra: Any) -> Any:
    """Identical Trainers for both arms but for the callbacks."""
    import pytorch_lightning as pl

    return pl.Trainer(
        accelerator="gpu" if device.startswith("cuda") else "cpu",
        devices=1,
        logger=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        enable_checkpointing=False,
        callbacks=callbacks,
        **extra,
    )


def guards() -> dict[str, Callable[[], list[Any]]]:
    from gradmode_plugin import GradModeGuard

    return {
        "baseline": list,
        "guard": lambda: [GradModeGuard()],
        "guard_all": lambda: [GradModeGuard(check_params=True)],
    }


def summarise(wall: common.Times, cpu: common.Times, base: str, per: int, unit: str) -> dict[str, Any]:
    """Median per arm, median of per-round ratios against ``base`` and the added time per batch or step, from
    wall-clock time (the headline) and from process CPU time (steadier on a shared machine)."""
    out: dict[str, Any] = {"arms": {}, "ratios": {}}
    for arm in wall:
        out["arms"][arm] = {
            "median_s": common.median(wall[arm]),
            "cpu_median_s": common.median(cpu[arm]),
            "times_s": wall[arm],
            "cpu_times_s": cpu[arm],
        }
    for arm in wall:
        if arm == base:
            continue
        per_round = common.ratios(wall, arm, base)
        out["ratios"][arm] = {
            "median": common.median(per_round),
            "median_ci95": list(common.median_ci(per_round)),
            "cpu_median": common.median(common.ratios(cpu, arm, base)),
            "per_round": per_round,
            f"added_us_per_{unit}": (common.median(wall[arm]) - common.median(wall[base])) / per * 1e6,
            f"cpu_added_us_per_{unit}": (common.median(cpu[arm]) - common.median(cpu[base])) / per * 1e6,
        }
    return out


# -- (a), (b), (c): Trainer.validate ---------------------------------------------------------------------------
def bench_validate(work: Workload, args: argparse.Namespace) -> dict[str, Any]:
    torch.manual_seed(0)
    model = lightning_module(build_net(work.name))
    loader = DataLoader(make_data(work), batch_size=work.batch_size)
    callbacks = {arm: make() for arm, make in guards().items()}
    trainers = {arm: trainer(args.device, cbs) for arm, cbs in callbacks.items()}

    def run(t: Any) -> Callable[[], Any]:
        return lambda: t.validate(model, dataloaders=loader, verbose=False)

    wall, cpu = common.alternate(
        {arm: run(t) for arm, t in trainers.items()},
        rounds=args.rounds * work.rounds_factor,
        warmup=args.warmup,
        device=args.device,
    )
    result = summarise(wall, cpu, "baseline", work.batches, "batch")
    result["workload"] = asdict(work)
    reports = [cb.report for cbs in callbacks.values() for cb in cbs]
    result["guard_context"] = reports[0].stage("validation").grad_context
    result["violations"] = sum(report.total for report in reports)
    target = TARGETS.get(work.name)
    result["target"] = target
    result["meets_target"] = None if target is None else result["ratios"]["guard"]["median"] <= target
    return result


# -- once per stage, or per batch ------------------------------------------------------------------------------
def bench_stage_and_batch(work: Workload, args: argparse.Namespace) -> dict[str, Any]:
    """What the guard adds once per stage (entering and leaving it, the operator audit of its first batch) apart
    from what it adds at every batch: ``Trainer.validate`` of a short stage (2 batches) and of the workload's stage,
    each with and without ``GradModeGuard()``, alternating. The added time is ``per_stage + batches * per_batch``;
    the two stage lengths give both, so a short stage is not read as a slow guard."""
    from gradmode_plugin import GradModeGuard

    torch.manual_seed(0)
    model = lightning_module(build_net(work.name))
    short, long = 2, max(work.batches, 4)
    loaders = {n: DataLoader(make_data(work, n_batches=n), batch_size=work.batch_size) for n in (short, long)}
    arms: dict[str, Callable[[], Any]] = {}
    for n, loader in loaders.items():
        for arm, callbacks in (("baseline", []), ("guard", [GradModeGuard()])):
            t = trainer(args.device, callbacks)
            arms[f"{arm}_{n}"] = lambda t=t, loader=loader: t.validate(model, dataloaders=loader, verbose=False)
    wall, cpu = common.alternate(arms, rounds=args.rounds * work.rounds_factor, warmup=args.warmup, device=args.device)

    def added(times: common.Times, n: int) -> float:
        return common.median(common.differences(times, f"guard_{n}", f"baseline_{n}"))

    out: dict[str, Any] = {"workload": asdict(work), "stage_batches": [short, long]}
    for clock, times in (("wall", wall), ("cpu", cpu)):
        per_batch = (added(times, long) - added(times, short)) / (long - short)
        out[clock] = {
            f"added_us_{short}_batches": added(times, short) * 1e6,
            f"added_us_{long}_batches": added(times, long) * 1e6,
            "per_stage_us": (added(times, short) - short * per_batch) * 1e6,
            "per_batch_us": per_batch * 1e6,
            "baseline_us_per_batch": common.median(times[f"baseline_{long}"]) / long * 1e6,
        }
    # The audit alone, on one batch of the workload on the device: an audited forward against a plain one.
    out["audited_forward_extra_us"] = _audited_forward_extra(work, args)
    return out


def _audited_forward_extra(work: Workload, args: argparse.Namespace) -> float:
    from gradmode_plugin.audit import OpAudit

    model = build_net(work.name).to(args.device).eval()
    x = make_data(work, n_batches=1).tensors[0].to(args.device)

    def plain() -> None:
        model(x)

    def audited() -> None:
        with OpAudit():
            model(x)

    with torch.inference_mode():
        wall, _ = common.alternate(
            {"plain": plain, "audited": audited}, rounds=max(args.rounds, 5), warmup=1, device=args.device
        )
    return common.median(common.differences(wall, "audited", "plain")) * 1e6


# -- the worst case, beside an empty callback ------------------------------------------------------------------
def bench_worst_case(args: argparse.Namespace) -> dict[str, Any]:
    """The tiny MLP at batch 1 whose ``validation_step`` does not log: no callback, an empty ``Callback`` (Lightning
    calls every callable hook of every callback: what a callback that defines no hook costs) and
    ``GradModeGuard()``; and no callback again, on a Trainer of its own, whose ratio to the first is 1 but for the
    machine's noise (the resolution of the other ratios). Three times the tiny model's rounds: the ratios to resolve
    are a few percent."""
    import pytorch_lightning as pl

    from gradmode_plugin import GradModeGuard

    work = Workload("tiny_mlp", 1, 64 if args.quick else 512, None, rounds_factor=24)
    torch.manual_seed(0)
    model = lightning_module(build_net(work.name), log=False)
    loader = DataLoader(make_data(work), batch_size=1)
    callbacks: dict[str, list[Any]] = {
        "no_callback": [],
        "empty_callback": [pl.Callback()],
        "guard": [GradModeGuard()],
        "no_callback_again": [],
    }
    trainers = {arm: trainer(args.device, cbs) for arm, cbs in callbacks.items()}
    wall, cpu = common.alternate(
        {arm: (lambda t=t: t.validate(model, dataloaders=loader, verbose=False)) for arm, t in trainers.items()},
        rounds=args.rounds * (1 if args.quick else work.rounds_factor),  # a smoke run shows the figures, not decides
        warmup=args.warmup,
        device=args.device,
    )
    result = summarise(wall, cpu, "no_callback", work.batches, "batch")
    result["workload"] = {**asdict(work), "logs": False}
    ratios = result["ratios"]
    result["violations"] = callbacks["guard"][0].report.total
    result["target"] = TARGETS["worst_case"]
    result["meets_target"] = ratios["guard"]["median"] <= TARGETS["worst_case"]
    return result


# -- the training step with gradient clipping ------------------------------------------------------------------
def bench_train(args: argparse.Namespace) -> dict[str, Any]:
    steps, batch_size = (16, 8) if args.quick else (args.train_steps, 32)
    work = Workload("tiny_mlp", batch_size, steps, None)
    loader = DataLoader(make_data(work), batch_size=batch_size, shuffle=False)
    torch.manual_seed(0)
    initial = lightning_module(build_net("tiny_mlp"))

    def run(make: Callable[[], list[Any]]) -> Callable[[], tuple[float, float]]:
        def fit() -> tuple[float, float]:
            # A fresh Trainer and model per run (fit cannot be repeated on one), built outside the timing.
            model = copy.deepcopy(initial)
            t = trainer(args.device, make(), max_epochs=1, gradient_clip_val=1.0, num_sanity_val_steps=0)
            return common.time_call(lambda: t.fit(model, train_dataloaders=loader), args.device)

        return fit

    arms = {arm: run(make) for arm, make in guards().items() if arm != "guard_all"}
    wall, cpu = common.alternate(arms, rounds=args.rounds * 3, warmup=args.warmup, self_timed=True)
    result = summarise(wall, cpu, "baseline", steps, "step")
    result["workload"] = {**asdict(work), "gradient_clip_val": 1.0}
    return result


# -- plain PyTorch: evaluating(...) against a bare loop --------------------------------------------------------
def bench_plain(args: argparse.Namespace) -> dict[str, Any]:
    from gradmode_plugin import evaluating

    n = 64 if args.quick else 512
    torch.manual_seed(0)
    model = TinyMLP().to(args.device)
    data = make_data(Workload("tiny_mlp", 1, n, None))
    batches = [(x[None].to(args.device), y[None].to(args.device)) for x, y in data]

    def bare(context: Callable[[], Any]) -> Callable[[], None]:
        def loop() -> None:
            model.eval()
            with context():
                for x, y in batches:
                    F.cross_entropy(model(x), y)
            model.train()

        return loop

    def guarded(mode: str, check_params: bool = False) -> Callable[[], None]:
        def loop() -> None:
            with evaluating(model, grad_mode=mode, check_params=check_params) as scope:
                for i, (x, y) in enumerate(batches):
                    with scope.batch(i):
                        F.cross_entropy(model(x), y)

        return loop

    arms = {
        "bare_no_grad": bare(torch.no_grad),
        "guard_no_grad": guarded("no_grad"),
        "guard_no_grad_all": guarded("no_grad", check_params=True),
        "bare_inference": bare(torch.inference_mode),
        "guard_inference": guarded("inference"),
    }
    wall, cpu = common.alternate(arms, rounds=args.rounds * 3, warmup=args.warmup, device=args.device)
    result = summarise(wall, cpu, "bare_no_grad", n, "batch")
    # The inference-mode guard is compared with the bare inference-mode loop, not with no_grad.
    result["ratios"].pop("bare_inference")
    pair = ("bare_inference", "guard_inference")
    inference = summarise({k: wall[k] for k in pair}, {k: cpu[k] for k in pair}, "bare_inference", n, "batch")
    result["ratios"]["guard_inference"] = inference["ratios"]["guard_inference"]
    result["target"] = TARGETS["plain"]
    result["meets_target"] = all(
        result["ratios"][arm]["median"] <= TARGETS["plain"] for arm in ("guard_no_grad", "guard_inference")
    )
    result["workload"] = {"name": "tiny_mlp", "batch_size": 1, "batches": n}
    return result


# -- where the time goes ---------------------------------------------------------------------------------------
def micro_benchmark(args: argparse.Namespace) -> dict[str, Any]:
    """Microseconds per call of every per-batch check, on the tiny MLP and on resnet50 (151 modules)."""
    number, repeat = (50, 2) if args.quick else (5000, 7)
    out: dict[str, Any] = {name: _micro_one(name, number, repeat) for name in ("tiny_mlp", "resnet50")}
    out["lightning_step"] = _in_step(args, *((10, 2) if args.quick else (300, 7)))
    return out


def _micro_one(name: str, number: int, repeat: int) -> dict[str, Any]:
    from gradmode_plugin import EvaluationScope, GuardOptions
    from gradmode_plugin.modes import grad_context

    model = build_net(name)
    res: dict[str, Any] = {
        "modules": sum(1 for _ in model.modules()),
        "parameters_and_buffers": sum(1 for _ in model.parameters()) + sum(1 for _ in model.buffers()),
    }

    def us(fn: Callable[[], Any], n: int = number) -> float:
        return round(common.best_of(fn, number=n, repeat=repeat), 3)

    def empty_batch(scope: EvaluationScope) -> None:
        with scope.batch(0):
            pass

    with EvaluationScope(model, GuardOptions(grad_mode="inference")) as scope:
        res["batch_empty_default"] = us(lambda: empty_batch(scope))
    scope = EvaluationScope(model, GuardOptions(grad_mode="inference", check_params=True))
    loss = torch.tensor(1.0)
    with scope:
        res["batch_empty_all_checks"] = us(lambda: empty_batch(scope))
        checks = {check.kind: check for check in scope._checks}
        calls: dict[str, Callable[[], Any]] = {
            "check_grad_enabled": lambda: checks["grad_enabled"].batch_end(),
            "check_train_mode": lambda: checks["train_mode"].batch_end(),
            "check_params_changed": lambda: checks["params_changed"].batch_end(),
            "check_output_scalar": lambda: scope.check_output(loss),
            "grad_context_enter_exit": lambda: _enter_exit(grad_context("inference")),
            "torch_inference_mode_enter_exit": lambda: _enter_exit(torch.inference_mode()),
            "where_on_a_finding": lambda: scope.where(),
        }
        for key, fn in calls.items():
            res[key] = us(fn)
    res.update(_probe_cost(model, us, number < 1000))
    res.update(_stage_cost(model, us, max(number // 100, 5)))
    return res


def _stage_cost(model: nn.Module, us: Callable[..., float], number: int) -> dict[str, Any]:
    """What a stage costs once, whatever its batches: entering and leaving a scope (recording the modes, starting the
    checks, installing and removing the probes), of which setting ``nn.Module.__call__`` twice (CPython passes a
    special method on to every subclass: the more ``nn.Module`` classes are imported, the more it costs), and the
    operator audit of the first batch (an audited forward against a plain one)."""
    from gradmode_plugin import evaluating
    from gradmode_plugin.audit import OpAudit

    x = torch.randn(1, 32) if isinstance(model, TinyMLP) else torch.randn(1, 3, 32, 32)
    model.eval()

    def stage() -> None:
        with evaluating(model, grad_mode="inference"):
            pass

    def audited() -> None:
        with OpAudit():
            model(x)

    call = nn.Module.__call__
    subclasses, todo = set(), [nn.Module]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in subclasses:
                subclasses.add(sub)
                todo.append(sub)
    with torch.inference_mode():
        plain = us(lambda: model(x), number)
        audit = us(audited, number)
    return {
        "stage_enter_exit": us(stage, number),
        "set_module_call_twice": 2 * us(lambda: setattr(nn.Module, "__call__", call), number),
        "module_subclasses_imported": len(subclasses),
        "forward_audited_extra": round(audit - plain, 3),
        # The tiny model only: resnet50's forwards would take minutes, and the cost does not depend on the model.
        **(_after_setting_call(model, x) if isinstance(model, TinyMLP) else {}),
    }


def _after_setting_call(model: nn.Module, x: torch.Tensor, forwards: int = 128, rounds: int = 100) -> dict[str, float]:
    """What setting ``nn.Module.__call__`` in and out costs the stage around it, beyond the two assignments: stages
    of ``forwards`` forward passes, alternately as they are and between two assignments of ``__call__`` (to itself,
    so no wrapper runs). The difference is the assignments plus what they cost the code that runs next (CPython
    updates the call slot of every subclass, through its type attribute cache)."""
    call = nn.Module.__call__

    def stage(toggle: bool) -> float:
        start = time.perf_counter()
        if toggle:
            nn.Module.__call__ = call  # type: ignore[method-assign]
        for _ in range(forwards):
            model(x)
        if toggle:
            nn.Module.__call__ = call  # type: ignore[method-assign]
        return time.perf_counter() - start

    plain, toggled = [], []
    with torch.inference_mode():
        for _ in range(rounds):
            plain.append(stage(False))
            toggled.append(stage(True))
    return {
        "stage_of_forwards": forwards,
        "stage_after_setting_call_extra_us": round((statistics.median(toggled) - statistics.median(plain)) * 1e6, 1),
    }


def _in_step(args: argparse.Namespace, number: int, repeat: int) -> dict[str, float]:
    """``self.log`` inside a real ``validation_step``, with and without the guard: the guard attaches nothing to it
    (Lightning stores a detached copy of every logged value), so it must cost the same."""
    from gradmode_plugin import GradModeGuard

    found: dict[str, float] = {}
    work = Workload("tiny_mlp", 1, 2, None)
    loader = DataLoader(make_data(work), batch_size=1)
    for label, callbacks in (("without_guard", []), ("with_guard", [GradModeGuard()])):
        model = lightning_module(build_net("tiny_mlp"))
        step = model.validation_step

        def probe(batch: Any, batch_idx: int, label: str = label, model: Any = model, step: Any = step) -> Any:
            loss = step(batch, batch_idx)
            if batch_idx == 1:  # the second batch: the first one runs under the operator audit
                us = common.best_of(lambda: model.log("val_loss", loss), number=number, repeat=repeat)
                found[f"self_log_{label}"] = round(us, 3)
            return loss

        model.validation_step = probe
        trainer(args.device, callbacks).validate(model, dataloaders=loader, verbose=False)
    found["self_log_added_by_guard"] = round(found["self_log_with_guard"] - found["self_log_without_guard"], 3)
    return found


def _enter_exit(ctx: Any) -> None:
    with ctx:
        pass


def _probe_cost(model: nn.Module, us: Callable[..., float], quick: bool) -> dict[str, float]:
    """One forward (inference mode) bare, with the module-call probe (``nn.Module.__call__`` wrapped, as during a
    stage alongside other threads), and with the ``torch.nn.functional`` wrappers too, alternating."""
    from gradmode_plugin.probes import MODULE_CALLS, TRAINING_CALLS

    small = isinstance(model, TinyMLP)
    x = torch.randn(1, 32) if small else torch.randn(1, 3, 32, 32)
    n = (100 if quick else 2000) if small else (2 if quick else 20)
    model.eval()
    names = {id(m): name for name, m in model.named_modules()}
    plain, probed, wrapped = [], [], []
    with torch.inference_mode():
        for _ in range(2 if quick else 3):
            plain.append(us(lambda: model(x), n))
            with MODULE_CALLS.listening(lambda module, output: None, lambda module, error: None):
                probed.append(us(lambda: model(x), n))
                with TRAINING_CALLS.active():
                    wrapped.append(us(lambda: model(x), n))
    count = len(names)
    return {
        "forward_bare": min(plain),
        "forward_with_call_probe": min(probed),
        "forward_with_call_probe_and_functional": min(wrapped),
        "call_probe_per_module": round((min(probed) - min(plain)) / count, 3),
        "functional_wrappers_per_forward": round(min(wrapped) - min(probed), 3),
    }


def profile_tiny(args: argparse.Namespace) -> dict[str, Any]:
    """cProfile of one guarded tiny-MLP validation: the guard's functions, per batch (profiler overhead included)."""
    from gradmode_plugin import GradModeGuard

    work = Workload("tiny_mlp", 1, 64 if args.quick else 512, None)
    model = lightning_module(build_net("tiny_mlp"))
    loader = DataLoader(make_data(work), batch_size=1)
    t = trainer(args.device, [GradModeGuard()])
    t.validate(model, dataloaders=loader, verbose=False)
    profiler = cProfile.Profile()
    profiler.enable()
    t.validate(model, dataloaders=loader, verbose=False)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
    total = sum(v[2] for v in stats.values())
    rows = []
    for (filename, line, func), (_, calls, tottime, cumtime, _) in stats.items():
        if Path(filename).parent.name != "gradmode_plugin":
            continue
        rows.append(
            {
                "function": f"{Path(filename).name}:{line}({func})",
                "calls_per_batch": round(calls / work.batches, 2),
                "tottime_us_per_batch": round(tottime / work.batches * 1e6, 2),
                "cumtime_us_per_batch": round(cumtime / work.batches * 1e6, 2),
            }
        )
    rows.sort(key=lambda r: -r["cumtime_us_per_batch"])
    return {
        "batches": work.batches,
        "profiled_total_us_per_batch": round(total / work.batches * 1e6, 1),
        "functions": rows[:25],
    }


# -- output ----------------------------------------------------------------------------------------------------
def _row(label: str, guard: str, res: dict[str, Any], arm: str, base: str, unit: str) -> list[Any]:
    ratio = res["ratios"][arm]
    return [
        label,
        guard,
        res["arms"][base]["median_s"],
        res["arms"][arm]["median_s"],
        ratio["median"],
        "{:.3f}-{:.3f}".format(*ratio["median_ci95"]),
        ratio["cpu_median"],
        ratio[f"added_us_per_{unit}"],
        ratio[f"cpu_added_us_per_{unit}"],
    ]


def print_tables(results: dict[str, Any]) -> None:
    rows = []
    for name, res in results["validate"].items():
        rows.append(_row(f"validate {name}", "default", res, "guard", "baseline", "batch"))
        rows.append(_row(f"validate {name}", "check_params=True", res, "guard_all", "baseline", "batch"))
    worst = results.get("worst_case")
    if worst is not None:
        rows.append(
            _row("validate tiny_mlp, no logging", "empty Callback", worst, "empty_callback", "no_callback", "batch")
        )
        rows.append(_row("validate tiny_mlp, no logging", "default", worst, "guard", "no_callback", "batch"))
        rows.append(
            _row(
                "validate tiny_mlp, no logging", "none again (A/A)", worst, "no_callback_again", "no_callback", "batch"
            )
        )
    if "train" in results:
        rows.append(_row("fit tiny_mlp (clip)", "default", results["train"], "guard", "baseline", "step"))
    plain = results.get("plain")
    for arm, base in (
        ("guard_no_grad", "bare_no_grad"),
        ("guard_no_grad_all", "bare_no_grad"),
        ("guard_inference", "bare_inference"),
    ):
        if plain is not None:
            rows.append(_row("plain tiny_mlp", f"{arm} vs {base}", plain, arm, base, "batch"))
    headers = [
        "workload",
        "guard",
        "without (s)",
        "with (s)",
        "ratio (wall)",
        "95% CI",
        "ratio (CPU)",
        "added us/batch (wall)",
        "added us/batch (CPU)",
    ]
    if rows:
        print(common.table(headers, rows))
    if worst is not None:
        guard, empty = worst["ratios"]["guard"], worst["ratios"]["empty_callback"]
        print(
            f"worst case, per batch: the guard adds {guard['added_us_per_batch']:.1f} us (wall), "
            f"{guard['cpu_added_us_per_batch']:.1f} us (CPU); an empty Callback {empty['added_us_per_batch']:.1f} us "
            f"(wall), {empty['cpu_added_us_per_batch']:.1f} us (CPU): Lightning's dispatch of its hooks, which skips "
            "the guard's unused ones"
        )
    stages = results.get("stage_and_batch", {})
    if stages:
        print()
        stage_rows = []
        for name, res in stages.items():
            short, long = res["stage_batches"]
            for clock in ("wall", "cpu"):
                r = res[clock]
                stage_rows.append(
                    [
                        name,
                        clock,
                        r[f"added_us_{short}_batches"],
                        r[f"added_us_{long}_batches"],
                        r["per_stage_us"],
                        r["per_batch_us"],
                        r["baseline_us_per_batch"],
                    ]
                )
        print(
            common.table(
                [
                    "workload",
                    "clock",
                    "added, 2 batches (us)",
                    f"added, {long} batches (us)",
                    "once per stage (us)",
                    "per batch (us)",
                    "a batch without the guard (us)",
                ],
                stage_rows,
            )
        )
        for name, res in stages.items():
            print(f"{name}: one audited forward adds {res['audited_forward_extra_us']:.0f} us to a plain one")
    micro = results.get("micro_us")
    if micro is not None:
        print()
        keys = [k for k in micro["tiny_mlp"] if k in micro["resnet50"]]
        print(
            common.table(
                ["per-call cost (us)", "tiny_mlp", "resnet50"],
                [[k, micro["tiny_mlp"][k], micro["resnet50"][k]] for k in keys],
            )
        )
        after = micro["tiny_mlp"]["stage_after_setting_call_extra_us"]
        print(
            f"a stage of {micro['tiny_mlp']['stage_of_forwards']} tiny forwards between two assignments of "
            f"nn.Module.__call__ ({micro['tiny_mlp']['module_subclasses_imported']} nn.Module classes): +{after} us"
        )
        print()
        print(
            common.table(["inside a Lightning validation_step (us)", "tiny_mlp"], list(micro["lightning_step"].items()))
        )
    prof = results.get("profile")
    if prof is not None:
        print()
        print(
            f"cProfile, guarded tiny-MLP validation: {prof['profiled_total_us_per_batch']} us/batch in all (profiled)"
        )
        print(
            common.table(
                ["function", "calls/batch", "own us/batch", "cum us/batch"],
                [
                    [r["function"], r["calls_per_batch"], r["tottime_us_per_batch"], r["cumtime_us_per_batch"]]
                    for r in prof["functions"][:12]
                ],
            )
        )


#: The parts of a run, in order (``--only`` picks some).
PARTS = ("validate", "stage", "worst_case", "train", "plain", "micro", "profile")


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cpu", help="cpu (default) or cuda")
    parser.add_argument(
        "--rounds",
        type=int,
        default=None,
        help=(
            "alternating A/B rounds (default 10; x6 for resnet18/50, x8 for the tiny MLP, x24 for its worst case, "
            "x3 for fit and plain loop)"
        ),
    )
    parser.add_argument("--warmup", type=int, default=None, help="untimed runs of every arm first (default 2)")
    parser.add_argument("--train-steps", type=int, default=128, help="training steps per fit (batch 32)")
    parser.add_argument("--threads", type=int, default=None, help=common.THREADS_HELP)
    parser.add_argument("--quick", action="store_true", help="tiny settings for a smoke run")
    parser.add_argument("--out", type=Path, default=common.DOCS, help="folder for the JSON (default: docs/)")
    parser.add_argument(
        "--only",
        default=",".join(PARTS),
        help=f"comma-separated subset of {','.join(PARTS)} (default: all); the JSON then holds only those",
    )
    parser.add_argument("--workloads", default=None, help="comma-separated workload names for validate and stage")
    args = parser.parse_args(argv)
    args.only = [part for part in args.only.split(",") if part]
    unknown = sorted(set(args.only) - set(PARTS))
    if unknown:
        parser.error(f"--only: unknown part(s) {', '.join(unknown)}; choose from {', '.join(PARTS)}")
    if args.rounds is None:
        args.rounds = 2 if args.quick else 10
    if args.warmup is None:
        args.warmup = 1 if args.quick else 2
    return args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    common.check_device(args.device)
    common.quiet()
    common.set_threads(args.threads, args.device)
    results: dict[str, Any] = {
        "env": common.environment(args.device),
        "settings": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "targets": TARGETS,
        "validate": {},
    }
    chosen = [w for w in workloads(args.device, args.quick) if args.workloads in (None, "") or w.name in args.workloads]
    if "validate" in args.only:
        for work in chosen:
            print(f"validate {work.name} ...", flush=True)
            results["validate"][work.name] = bench_validate(work, args)
    if "stage" in args.only:
        results["stage_and_batch"] = {}
        for work in chosen:
            print(f"validate {work.name}: once per stage or per batch ...", flush=True)
            results["stage_and_batch"][work.name] = bench_stage_and_batch(work, args)
    parts: list[tuple[str, str, Callable[[argparse.Namespace], Any]]] = [
        (
            "worst_case",
            "validate tiny_mlp without logging: no callback, an empty Callback, the guard",
            bench_worst_case,
        ),
        ("train", "fit tiny_mlp with gradient clipping", bench_train),
        ("plain", "plain evaluating(...) loop", bench_plain),
        ("micro", "micro-benchmark of the per-batch checks", micro_benchmark),
        ("profile", "cProfile of the guarded tiny-MLP validation", profile_tiny),
    ]
    for part, what, run in parts:
        if part in args.only:
            print(f"{what} ...", flush=True)
            results["micro_us" if part == "micro" else part] = run(args)
    suffix = "cuda" if args.device.startswith("cuda") else "cpu"
    subset = "" if set(args.only) == set(PARTS) else "_" + "_".join(args.only)
    path = args.out / f"overhead_{suffix}{subset}{'_quick' if args.quick else ''}.json"
    common.write_json(path, results)
    print()
    print_tables(results)
    print(f"\nwrote {path}")
    return results


if __name__ == "__main__":
    main()
