"""The same guard works with a ``lightning.pytorch`` Trainer: caught, clean and checkpointed, never ignored."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation
from tests.helpers.lightning import make_loader

L = pytest.importorskip("lightning.pytorch")


class LitModule(L.LightningModule):
    def __init__(self, bug: bool = False) -> None:
        super().__init__()
        self.bug = bug
        self.net = nn.Sequential(nn.Linear(8, 16), nn.BatchNorm1d(16), nn.Dropout(), nn.Linear(16, 2))

    def training_step(self, batch: Any, batch_idx: int) -> torch.Tensor:
        return nn.functional.cross_entropy(self.net(batch[0]), batch[1])

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        with torch.set_grad_enabled(self.bug and batch_idx == 1):
            self.net(batch[0])

    def configure_optimizers(self) -> torch.optim.Optimizer:
        return torch.optim.SGD(self.parameters(), lr=0.1)


def trainer(tmp_path: Path, guard: GradModeGuard, **kwargs: Any) -> Any:
    return L.Trainer(
        accelerator="cpu",
        max_epochs=1,
        logger=False,
        enable_progress_bar=False,
        enable_model_summary=False,
        default_root_dir=str(tmp_path),
        callbacks=[guard],
        **kwargs,
    )


def test_guard_is_a_callback_of_both_namespaces() -> None:
    import pytorch_lightning as pl

    assert isinstance(GradModeGuard(), pl.Callback) and isinstance(GradModeGuard(), L.Callback)


def test_lightning_pytorch_trainer_catches_the_bug(tmp_path: Path) -> None:
    with pytest.raises(GradModeViolation) as info:
        trainer(tmp_path, GradModeGuard(), num_sanity_val_steps=0).fit(
            LitModule(bug=True), make_loader(), make_loader()
        )
    assert (info.value.kind, info.value.violation.batch_idx) == ("graph_built", 1)


def test_lightning_pytorch_trainer_clean_run_and_checkpoint(tmp_path: Path) -> None:
    guard = GradModeGuard(on_violation="record")
    t = trainer(tmp_path, guard, enable_checkpointing=True)
    t.fit(LitModule(), make_loader(), make_loader())
    assert guard.report.total == 0 and guard.report.stage("validation").runs == 1
    ckpt = next(Path(tmp_path).rglob("*.ckpt"))
    state = torch.load(ckpt, weights_only=False)["callbacks"]
    assert any("report" in v for v in state.values()), "the guard's state must be in the checkpoint"


@pytest.mark.parametrize("namespace", ["lightning.pytorch", "pytorch_lightning"])
@pytest.mark.slow  # a child process
def test_importing_the_guard_leaves_lightnings_log_routing_to_the_users_namespace(namespace: str) -> None:
    """Importing a Lightning namespace points lightning_utilities' rank-zero logger (and deprecation category) at it;
    the guard, a Callback of both namespaces, must not re-route the messages of the one the user imported."""
    import subprocess
    import sys

    code = (
        f"import {namespace}, lightning_utilities.core.rank_zero as r\n"
        "before = (r.log.name, r.rank_zero_deprecation_category)\n"
        "from gradmode_plugin import GradModeGuard\n"
        "GradModeGuard()\n"
        "assert (r.log.name, r.rank_zero_deprecation_category) == before, (before, r.log.name)\n"
        "print(r.log.name)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == f"{namespace}.utilities.rank_zero"
