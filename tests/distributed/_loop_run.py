"""One rank of a 2-process CPU run (gloo) of a Lightning Fabric or Accelerate loop under ``evaluating`` and
``scope.iterate``, started by the tests with the rank in the environment (see ``_ddp_launch.py``).

Each rank trains a few steps (its model wrapped in ``DistributedDataParallel`` by the framework), then evaluates,
gathering every batch's outputs from both ranks (``fabric.all_gather``, ``accelerator.gather_for_metrics``): once as
the frameworks' docs write it, once on a fresh model under the guard, then once more under the guard with
``head.train()`` planted on rank 1 alone. It writes ``rank<N>.json``: the gathered outputs and trained weights of the
first two as float lists, and what the third raised. One run for all three: each start costs two interpreters that
import the framework.

Usage::

    python _loop_run.py --out DIR --framework fabric|accelerate
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the shared test helpers

from gradmode_plugin import GradModeViolation, evaluating
from tests.helpers.lightning import make_loader
from tests.helpers.models import Net

#: The evaluation batch at which rank 1 plants ``head.train()`` with ``--bug``.
BUG_AT = 1


def _setup(framework: str, runner: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
    """(runner, the user's module, the prepared model, optimizer, train and val loaders, gather), on a fresh model."""
    torch.manual_seed(0)
    net = Net()
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    if framework == "fabric":
        from lightning.fabric import Fabric

        if runner is None:
            runner = Fabric(accelerator="cpu", devices=2, strategy="ddp")
            runner.launch()
        model, optimizer = runner.setup(net, optimizer)
        train, val = runner.setup_dataloaders(make_loader(seed=0), make_loader(seed=1))
        return runner, net, model, optimizer, (train, val), runner.all_gather
    from accelerate import Accelerator

    runner = runner or Accelerator(cpu=True)
    model, optimizer, train, val = runner.prepare(net, optimizer, make_loader(seed=0), make_loader(seed=1))
    return runner, net, model, optimizer, (train, val), runner.gather_for_metrics


def _evaluate(model: Any, net: Any, val: Any, gather: Any, guarded: bool, bug: bool = False) -> list[list[float]]:
    """One evaluation: as the frameworks' docs write it, or under the guard; ``bug`` plants ``head.train()`` on
    rank 1."""
    outputs: list[torch.Tensor] = []
    if not guarded:
        model.eval()
        with torch.no_grad():
            outputs.extend(gather(model(x)) for x, _ in val)
        model.train()
    else:
        with evaluating(model) as scope:
            for x, _ in scope.iterate(val):
                if bug and torch.distributed.get_rank() == 1 and scope.batch_idx == BUG_AT:
                    net.head.train()  # the planted bug, on one rank
                outputs.append(gather(model(x)))
        assert scope.report.total == 0
    return [t.flatten().tolist() for t in outputs]


def _fit(framework: str, runner: Any, guarded: bool) -> tuple[Any, dict[str, Any], tuple[Any, Any, Any, Any]]:
    """Train a few steps, then evaluate: (runner, what it gave, (model, net, val, gather))."""
    runner, net, model, optimizer, (train, val), gather = _setup(framework, runner)
    model.train()
    for x, y in train:
        optimizer.zero_grad()
        runner.backward(F.cross_entropy(model(x), y))
        optimizer.step()
    outputs = _evaluate(model, net, val, gather, guarded)
    wrapper = type(model).__name__
    if framework == "fabric":
        wrapper += "(" + type(model._forward_module).__name__ + ")"
    found = {
        "outputs": outputs,
        "weights": [t.flatten().tolist() for t in net.state_dict().values()],
        "training": model.training,
        "wrapper": wrapper,
    }
    return runner, found, (model, net, val, gather)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--framework", choices=("fabric", "accelerate"), required=True)
    args = parser.parse_args()
    rank = int(os.environ["RANK"])
    result: dict[str, Any] = {"rank": rank}
    try:
        runner, result["plain"], _ = _fit(args.framework, None, guarded=False)
        runner, result["guarded"], (model, net, val, gather) = _fit(args.framework, runner, guarded=True)
        try:
            _evaluate(model, net, val, gather, guarded=True, bug=True)
            result["outcome"] = "nothing raised"
        except GradModeViolation as exc:
            v = exc.violation
            result.update(outcome="violation", kind=v.kind, batch_idx=v.batch_idx, module=v.module, found_on=v.rank)
            result.update(message=str(exc), where=v.where, training=model.training)
    except BaseException as exc:  # every rank reports what it died of
        result.update(outcome="error", type=type(exc).__name__, message=str(exc), traceback=traceback.format_exc())
    (args.out / f"rank{rank}.json").write_text(json.dumps(result))
    if torch.distributed.is_initialized():
        with contextlib.suppress(Exception):
            torch.distributed.barrier()
        torch.distributed.destroy_process_group()
    return 0 if result["outcome"] == "violation" else 1


if __name__ == "__main__":
    sys.exit(main())
