"""LightningCLI: the guard is one command-line flag away, ``--trainer.callbacks+=gradmode_plugin.GradModeGuard``."""

from __future__ import annotations

import json
import sys
import textwrap
from pathlib import Path

import pytest

from tests.hydra._support import run_process

pytest.importorskip("jsonargparse", reason="LightningCLI needs jsonargparse[signatures] (in the dev extra)")

# A tiny model whose validation can build a graph on request, and whose fit ends by printing every report.
CLI_APP = textwrap.dedent(
    """
    import json

    import torch
    from {namespace} import LightningDataModule, LightningModule
    from {namespace}.cli import LightningCLI
    from torch.utils.data import DataLoader, TensorDataset


    class TinyModel(LightningModule):
        def __init__(self, leak_graph: bool = False) -> None:
            super().__init__()
            self.leak_graph = leak_graph
            self.net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.BatchNorm1d(8), torch.nn.Linear(8, 1))

        def training_step(self, batch, batch_idx):
            return self.net(batch[0]).pow(2).mean()

        def validation_step(self, batch, batch_idx):
            if self.leak_graph:
                with torch.enable_grad():
                    out = self.net(batch[0])
            else:
                out = self.net(batch[0])
            self.log("val_loss", out.pow(2).mean().detach())

        def configure_optimizers(self):
            return torch.optim.SGD(self.parameters(), lr=0.01)

        def on_fit_end(self) -> None:
            for callback in self.trainer.callbacks:
                if hasattr(callback, "report"):
                    print("REPORT", json.dumps(callback.report.to_dict()))


    class TinyData(LightningDataModule):
        def train_dataloader(self):
            return DataLoader(TensorDataset(torch.randn(16, 4)), batch_size=4)

        def val_dataloader(self):
            return DataLoader(TensorDataset(torch.randn(8, 4)), batch_size=4)


    if __name__ == "__main__":
        LightningCLI(TinyModel, TinyData)
    """
)

FIT = [
    "fit",
    "--trainer.max_epochs=1",
    "--trainer.accelerator=cpu",
    "--trainer.logger=false",
    "--trainer.enable_checkpointing=false",
    "--trainer.enable_progress_bar=false",
    "--trainer.enable_model_summary=false",
]


def _cli(tmp_path: Path, namespace: str, *args: str) -> tuple[int, str, str]:
    script = tmp_path / "tiny_cli.py"
    script.write_text(CLI_APP.format(namespace=namespace))
    proc = run_process([sys.executable, str(script), *FIT, *args], cwd=tmp_path, timeout=240)
    return proc.returncode, proc.stdout, proc.stderr


def _report(stdout: str) -> dict:
    line = next((line for line in stdout.splitlines() if line.startswith("REPORT ")), None)
    assert line is not None, f"no report printed; stdout:\n{stdout[-3000:]}"
    return json.loads(line.removeprefix("REPORT "))


@pytest.mark.slow
def test_guard_added_from_the_command_line_records(tmp_path: Path) -> None:
    pytest.importorskip("lightning")
    code, out, err = _cli(
        tmp_path,
        "lightning.pytorch",
        "--model.leak_graph=true",
        "--trainer.callbacks+=gradmode_plugin.GradModeGuard",
        "--trainer.callbacks.init_args.on_violation=record",
    )
    assert code == 0, out[-3000:] + err[-3000:]
    report = _report(out)
    assert report["counts"]["validation"]["graph_built"] == 2  # both validation batches
    assert report["stages"]["validation"]["grad_context"] == "no_grad"


@pytest.mark.slow
def test_guard_added_from_the_command_line_raises(tmp_path: Path) -> None:
    code, _, err = _cli(
        tmp_path, "pytorch_lightning", "--model.leak_graph=true", "--trainer.callbacks+=gradmode_plugin.GradModeGuard"
    )
    assert code != 0
    assert "GradModeViolation" in err and "[graph_built]" in err and "stage 'sanity_check', batch 0" in err


@pytest.mark.slow
def test_clean_model_passes_with_the_guard(tmp_path: Path) -> None:
    code, out, err = _cli(tmp_path, "pytorch_lightning", "--trainer.callbacks+=gradmode_plugin.GradModeGuard")
    assert code == 0, out[-3000:] + err[-3000:]
    report = _report(out)
    assert report["total"] == 0 and report["stages"]["validation"]["batches"] == 2
