"""One rank of a 2-process CPU DDP run (gloo) with the guard, started by the tests with the rank in the env.

The tests set ``MASTER_ADDR``, ``MASTER_PORT``, ``WORLD_SIZE``, ``NODE_RANK``, ``LOCAL_RANK`` and ``RANK``
themselves; with ``LOCAL_RANK`` set, Lightning treats the processes as created externally and launches nothing.

A rank runs the scenarios it is given one after the other, each with a Trainer and a guard of its own, in the
process group the first one set up (several scenarios share one start: importing Lightning is most of a rank's
time). Into ``DIR/<scenario>/`` each rank writes ``rank<N>.json``: ``{"outcome": "ok"}`` or the exception's type and
message, and its own view of the guard's report; rank zero alone writes ``report.json`` (the aggregated report)
after a scenario that finished. A scenario that fails ends the rank (exit 1): the others after it do not run.

Usage::

    python _ddp_run.py --out DIR --scenarios clean,bug_record,...
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

import pytorch_lightning as pl
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from gradmode_plugin import GradModeGuard


class Net(pl.LightningModule):
    """A tiny model; with ``bug=True`` rank 1 alone builds an autograd graph in ``validation_step``."""

    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        self.bug = bug
        self.net = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.ReLU(), nn.Dropout(0.2), nn.Linear(16, 2))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)

    def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        x, y = batch
        return nn.functional.cross_entropy(self(x), y)

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        x, y = batch
        if self.bug and self.global_rank == 1:
            with torch.enable_grad():  # noqa: GM301
                out = self(x)
        else:
            out = self(x)
        self.log("val_loss", nn.functional.cross_entropy(out, y).detach(), sync_dist=True)

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.SGD(self.parameters(), lr=0.1)


def loader(n: int = 32, seed: int = 0) -> DataLoader:
    g = torch.Generator().manual_seed(seed)
    data = TensorDataset(torch.randn(n, 8, generator=g), torch.randint(0, 2, (n,), generator=g))
    return DataLoader(data, batch_size=4)


def make_trainer(callbacks: list[Any], out: Path, **kwargs: Any) -> pl.Trainer:
    options: dict[str, Any] = dict(
        accelerator="cpu",
        devices=2,
        strategy="ddp",
        max_epochs=1,
        limit_train_batches=2,
        limit_val_batches=2,
        num_sanity_val_steps=0,
        logger=False,
        enable_checkpointing=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        default_root_dir=str(out),
        callbacks=callbacks,
    )
    options.update(kwargs)
    return pl.Trainer(**options)


#: Each scenario: a bug planted on rank 1 or not, the guard's policy (None: no guard), what the trainer runs.
SCENARIOS: dict[str, tuple[bool, str | None, str]] = {
    "bug_without_guard": (True, None, "fit"),
    "clean": (False, "raise", "fit"),
    "bug_record": (True, "record", "fit"),
    "bug_raise_fit": (True, "raise", "fit"),
    "bug_raise_validate": (True, "raise", "validate"),
}


def run_scenario(name: str, out: Path, rank: int) -> bool:
    """Run one scenario; write what this rank saw; whether it finished."""
    bug, policy, fn = SCENARIOS[name]
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    guard = GradModeGuard(on_violation=policy or "raise")
    trainer = make_trainer([guard] if policy else [], out)
    model = Net(bug=bug)
    result: dict[str, Any] = {"rank": rank, "global_rank": None, "world_size": None}
    try:
        if fn == "fit":
            trainer.fit(model, train_dataloaders=loader(), val_dataloaders=loader(seed=1))
        else:
            trainer.validate(model, dataloaders=loader(seed=1), verbose=False)
        result["outcome"] = "ok"
    except BaseException as exc:  # every rank reports what it died of
        result.update(outcome="error", type=type(exc).__name__, message=str(exc), traceback=traceback.format_exc())
    result["global_rank"] = trainer.global_rank
    result["world_size"] = trainer.world_size
    result["report"] = guard.report.to_dict()
    (out / f"rank{rank}.json").write_text(json.dumps(result, indent=2))
    if result["outcome"] == "ok" and trainer.is_global_zero:
        (out / "report.json").write_text(json.dumps(guard.report.to_dict(), indent=2))
    return result["outcome"] == "ok"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--scenarios", required=True, help=f"comma-separated, of: {', '.join(SCENARIOS)}")
    args = parser.parse_args()

    rank = int(os.environ["RANK"])
    ok = True
    for name in args.scenarios.split(","):
        ok = run_scenario(name, args.out / name, rank)
        if not ok:
            break
    _leave_process_group(ok=ok)
    return 0 if ok else 1


def _leave_process_group(ok: bool) -> None:
    """Destroy the process group before the interpreter exits: gloo's threads torn down by the exit itself abort the
    process now and then ("terminate called without an active exception", exit -6) after a run that went well."""
    if not (torch.distributed.is_available() and torch.distributed.is_initialized()):
        return
    if ok:  # both ranks are done with the store rank 0 holds; after an error the peer may be gone
        torch.distributed.barrier()
    torch.distributed.destroy_process_group()


if __name__ == "__main__":
    sys.exit(main())
