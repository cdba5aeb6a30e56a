"""scripts/check_registries.py on a few tiny models: its per-model check says clean, identical and restored for
correct models, and not clean for a planted functional-dropout bug; the command line writes the JSON it reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import torch
from torch import nn

from tests.helpers.modules import load_module
from tests.helpers.process import REPO, run_process

pytest.importorskip("timm")
pytest.importorskip("transformers")
pytestmark = [pytest.mark.filterwarnings("ignore::UserWarning", "ignore::FutureWarning"), pytest.mark.slow]

SCRIPT = REPO / "scripts" / "check_registries.py"


@pytest.fixture(scope="module")
def sweep() -> ModuleType:
    return load_module(SCRIPT, "check_registries", register=True)  # dataclasses look their module up by name


def assert_passed(record: dict[str, Any]) -> None:
    assert record["status"] == "ran", record
    for mode in ("inference", "no_grad"):
        run = record["runs"][mode]
        assert run["violations"] == [] and run["clean"], run
        assert run["identical"] and run["restored"] and run["batches"] == 2, run
    assert record["clean"] and record["identical"] and record["restored"]


@pytest.mark.parametrize(
    ("registry", "model"),
    [("timm", "test_vit"), ("timm", "resnet10t"), ("transformers", "bert")],
)
def test_a_correct_model_is_clean_identical_and_restored(sweep: ModuleType, registry: str, model: str) -> None:
    record = sweep.run_task({"registry": registry, "name": model, "model": model})
    assert_passed(record)
    assert record["params"] > 0 and record["built_with"]["input"]


def test_the_lightning_run_of_a_correct_model_passes(sweep: ModuleType) -> None:
    record = sweep.run_task({"registry": "timm", "name": "test_vit", "model": "test_vit", "lightning": True})
    assert_passed(record)
    light = record["lightning"]
    assert light["clean"] and light["identical"] and light["restored"] and light["batches"] == 2, light


class AlwaysDropping(nn.Module):
    """The planted bug: functional dropout with ``training=True`` written out, whatever the module's mode."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(8, 8)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.dropout(self.linear(x), 0.5, training=True)  # the planted bug  # noqa: GM102


def test_a_planted_functional_dropout_is_not_clean(sweep: ModuleType) -> None:
    record = sweep.check_model(
        AlwaysDropping, lambda i: (torch.randn(2, 8, generator=torch.Generator().manual_seed(i)),)
    )
    assert record["status"] == "ran" and not record["clean"]
    for mode in ("inference", "no_grad"):
        kinds = {v["kind"] for v in record["runs"][mode]["violations"]}
        assert "train_mode" in kinds, record["runs"][mode]
        # Seeded alike, the dropout masks are the same with and without the guard: the guard changed nothing.
        assert record["runs"][mode]["identical"] and record["runs"][mode]["restored"]


def test_a_model_that_fails_without_the_guard_is_counted_apart(sweep: ModuleType) -> None:
    record = sweep.check_model(lambda: nn.Linear(8, 8), lambda i: (torch.randn(2, 3),))
    assert record["status"] == "run_failed" and record["error"].startswith("RuntimeError")
    assert sweep.summarize({"x": {"registry": "timm", **record}})["timm"] == {
        "attempted": 1,
        "built": 1,
        "ran": 0,
        "clean": 0,
        "identical": 0,
        "restored": 0,
        "all three": 0,
        "lightning sample": 0,
        "lightning passed": 0,
        "timeout or crash": 0,
    }


def test_the_command_line_writes_the_sweep(tmp_path: Path) -> None:
    out = tmp_path / "sweep.json"
    args = [sys.executable, str(SCRIPT), "--models", "test_vit,bert", "--out", str(out), "--lightning-sample", "0"]
    proc = run_process(args, cwd=REPO, timeout=240)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    document = json.loads(out.read_text())
    assert set(document["models"]) == {"timm:vision_transformer.vit", "transformers:bert"}
    assert document["summary"]["timm"]["all three"] == document["summary"]["transformers"]["all three"] == 1
    assert {"torch", "timm", "transformers", "gradmode-plugin source"} <= set(document["versions"])
    assert "timm | 1 | 1 | 1 | 1 | 1 | 1 | 1" in proc.stdout


def test_restored_means_every_name_as_on_entry_and_new_modules_as_their_parent(sweep: ModuleType) -> None:
    before = {"": True, "attention": True, "attention.self": True}
    # A forward replaced attention.self by a module with a child (BigBird's short-sequence path).
    after = {"": True, "attention": True, "attention.self": True, "attention.self.dropout": True}
    assert sweep.expected_flags(before, after) == after
    left_in_eval = {**after, "attention.self": False, "attention.self.dropout": False}
    expected = sweep.expected_flags(before, left_in_eval)
    assert sweep.flag_changes(expected, left_in_eval) == [
        "attention.self: True -> False",
        "attention.self.dropout: True -> False",
    ]
