"""The probes: the module-call probe (torch's own ``__call__`` repeated, or called when it is not the one the probe
knows) and the saved-tensor probe (it sees every tensor autograd saves and keeps none of them alive)."""

from __future__ import annotations

import gc
import json
import sys
import weakref
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from gradmode_plugin import evaluating
from gradmode_plugin._torch_internals import is_torchs_call
from gradmode_plugin.probes import MODULE_CALLS
from tests.helpers.models import BATCHES
from tests.helpers.process import run_process, this_checkout


def _no_failure(module: nn.Module, error: RuntimeError) -> None:
    raise AssertionError(f"{type(module).__name__} failed: {error}")


def test_torchs_call_is_recognised_and_anything_else_is_not() -> None:
    assert is_torchs_call(nn.Module.__call__)
    assert not is_torchs_call(lambda module, *args: None)


def test_module_calls_compute_the_same_and_are_heard_with_grad_on() -> None:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 3), nn.ReLU())
    x = torch.randn(2, 4)
    expected = model(x)
    heard: list[tuple[nn.Module, Any]] = []
    with MODULE_CALLS.listening(lambda module, output: heard.append((module, output)), _no_failure):
        assert nn.Module.__call__ is not nn.Module._wrapped_call_impl
        out = model(x)
        with torch.no_grad():
            model.eval()(x)  # eval and grad off: the fast path, nothing heard
    assert torch.equal(out, expected)
    assert [type(m) for m, _ in heard] == [nn.Linear, nn.ReLU, nn.Sequential]
    assert nn.Module.__call__ is nn.Module._wrapped_call_impl


def test_a_compiled_call_is_used_as_torch_would() -> None:
    model = nn.Linear(4, 3)
    calls: list[int] = []

    def compiled(*args: Any, **kwargs: Any) -> torch.Tensor:
        calls.append(1)
        return model._call_impl(*args, **kwargs)

    model._compiled_call_impl = compiled  # what nn.Module.compile() sets
    with MODULE_CALLS.listening(lambda module, output: None, _no_failure):
        model(torch.randn(1, 4))
    assert calls == [1]


def test_another_call_in_place_is_called_not_repeated(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    torchs = nn.Module.__call__

    def theirs(module: nn.Module, *args: Any, **kwargs: Any) -> Any:
        seen.append(type(module).__name__)
        return torchs(module, *args, **kwargs)

    monkeypatch.setattr(nn.Module, "__call__", theirs)
    heard: list[nn.Module] = []
    with MODULE_CALLS.listening(lambda module, output: heard.append(module), _no_failure):
        nn.Linear(4, 3)(torch.randn(1, 4))
    assert seen == ["Linear"] and len(heard) == 1
    assert nn.Module.__call__ is theirs


def test_a_recorded_graph_is_freed_with_its_batch() -> None:
    """Recording costs nothing extra: what the saved-tensor probe packs keeps no graph alive, so each batch's
    graph goes with the batch's last reference, as without the guard."""
    model = nn.Sequential(nn.Linear(8, 8), nn.Sigmoid())  # sigmoid saves its own output for backward
    outputs: list[weakref.ref[torch.Tensor]] = []
    with evaluating(model, grad_mode="no_grad", on_violation="record") as scope:
        for i, x in enumerate(BATCHES):
            with scope.batch(i), torch.enable_grad():
                out = model(x)
                assert out.grad_fn is not None
                outputs.append(weakref.ref(out))
            del out
    gc.collect()
    summary = scope.report.stage("evaluation")
    assert summary.counts["graph_built"] == len(BATCHES) and summary.saved_bytes > 0, "nothing was recorded"
    alive = [i for i, ref in enumerate(outputs) if ref() is not None]
    assert not alive, f"the graphs of batches {alive} outlived their batch"


# A fresh process, so that no thread left by another test is alive: the stage starts with the evaluating thread alone.
_SINGLE_THREADED_STAGE = """
import json, threading
import torch
from torch import nn
from gradmode_plugin import evaluating

torchs_call, torchs_start = nn.Module.__call__, threading.Thread.start
model = nn.Sequential(nn.Linear(4, 4), nn.BatchNorm1d(4))
seen = {"threads_before": threading.active_count()}
with evaluating(model, grad_mode="no_grad", on_violation="record") as scope:
    with scope.batch(0):
        seen["call_untouched_alone"] = nn.Module.__call__ is torchs_call
        model[1].train()  # a normalisation layer left training, in the evaluating thread: no module-call probe
        model(torch.randn(3, 4))
        model[1].eval()
    with scope.batch(1):
        def work():
            model(torch.randn(3, 4))  # grad mode is on in a new thread: a graph, seen only by the module-call probe
        thread = threading.Thread(target=work, name="worker")
        thread.start()
        thread.join()
        seen["call_wrapped_once_a_thread_started"] = nn.Module.__call__ is not torchs_call
seen["restored"] = nn.Module.__call__ is torchs_call and threading.Thread.start is torchs_start
seen["found"] = [[v.kind, v.batch_idx, v.module, v.detail] for v in scope.report.violations]
print(json.dumps(seen))
"""


@pytest.mark.slow  # a child process
def test_a_stage_alone_in_its_process_wraps_module_calls_only_once_another_thread_starts(tmp_path: Path) -> None:
    """Wrapping ``nn.Module.__call__`` slows every module call: a stage with no other thread waits for one to start.
    What the module-call probe would see in the evaluating thread is still seen, and a thread started mid-stage is
    watched before it runs."""
    proc = run_process([sys.executable, "-c", _SINGLE_THREADED_STAGE], cwd=tmp_path, env=this_checkout())
    assert proc.returncode == 0, proc.stderr[-3000:]
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen["threads_before"] == 1
    assert seen["call_untouched_alone"] and seen["call_wrapped_once_a_thread_started"] and seen["restored"]
    kinds = {(kind, batch, module) for kind, batch, module, _ in seen["found"]}
    assert ("running_stats_updated", 0, "1") in kinds
    graphs = [detail for kind, batch, _, detail in seen["found"] if kind == "graph_built" and batch == 1]
    assert graphs and "in thread 'worker'" in graphs[0]
