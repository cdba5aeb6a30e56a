"""graph_built: autograd history during evaluation, in any thread, blamed on the user's lines and always the
evaluation step's own current line."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import GradModeGuard, GradModeViolation
from tests.helpers.lightning import ToyModule, make_loader
from tests.helpers.models import make_model, run_loop


class Deep(nn.Module):
    """Four levels of the user's own modules between the step and the layer that saves a tensor."""

    def __init__(self, depth: int = 4) -> None:
        super().__init__()
        self.inner = Deep(depth - 1) if depth > 1 else nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.inner(x).relu()


class TemplateLike(ToyModule):
    """lightning-hydra-template's shape: validation_step -> model_step -> forward -> net, the step under
    enable_grad."""

    def __init__(self) -> None:
        super().__init__()
        self.net = Deep()

    def model_step(self, batch: Any) -> torch.Tensor:
        x, y = batch
        return nn.functional.cross_entropy(self.forward(x), y)

    def validation_step(self, batch: Any, batch_idx: int) -> None:
        with torch.enable_grad():  # noqa: GM301
            loss = self.model_step(batch)  # the step's own line
        self.log("val/loss", loss.detach())


def test_where_always_includes_the_steps_own_line(make_trainer: Any) -> None:
    with pytest.raises(GradModeViolation) as info:
        make_trainer(callbacks=[GradModeGuard()], num_sanity_val_steps=0).fit(
            TemplateLike(), make_loader(), make_loader()
        )
    where = info.value.violation.where or ""
    frames = where.split(" <- ")
    assert len(frames) == 4, frames
    assert "in forward" in frames[0]
    assert frames[-1].endswith("loss = self.model_step(batch)  # the step's own line")


def test_graph_in_a_worker_thread_names_the_thread_and_the_steps_line() -> None:
    model = make_model()

    def body(m: nn.Module, i: int, x: torch.Tensor) -> torch.Tensor:
        out: list[torch.Tensor] = []
        worker = threading.Thread(target=lambda: out.append(m(x).detach()), name="worker")
        worker.start()
        worker.join()
        return out[0]

    with pytest.raises(GradModeViolation) as info:
        run_loop(model, body, grad_mode="no_grad")
    v = info.value.violation
    assert v.kind == "graph_built" and "in thread 'worker'" in v.detail and (v.batch_idx, v.module) == (0, "0")
    # The evaluating thread is still starting the worker, or already waiting for it.
    assert re.search(r"while .*in body: worker\.(start|join)\(\)", v.where or ""), v.where
