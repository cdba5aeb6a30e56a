"""Each detector alone: what it sees, what it must not see, and what it leaves behind."""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from gradmode_plugin.detectors import (
    ForwardGraphDetector,
    NormStatsWatch,
    ParamsWatch,
    SavedTensorsDetector,
    find_grad_tensor,
    user_frame,
)


class Sink:
    def __init__(self) -> None:
        self.found_kinds: list[tuple[str, str | None]] = []
        self.saved = [0, 0]

    def wants(self, kind: str) -> bool:
        return True

    def found(self, kind: Any, *, module: str | None = None, where: str | None = None, detail: str = "") -> None:
        self.found_kinds.append((kind, module))

    def graph_saved(self, nbytes: int, allowed: bool) -> None:
        self.saved[allowed] += nbytes


def test_saved_tensors_detector_sees_saves_and_counts_bytes() -> None:
    sink, w = Sink(), torch.ones(4, requires_grad=True)
    with SavedTensorsDetector(sink):
        with torch.no_grad():
            (w * w).sum()
        assert sink.found_kinds == []
        v = w * 2  # saves nothing (a Python scalar)
        (v * v).sum()  # saves v twice: 2 x 16 bytes
        (w * w).sum()  # saves the leaf w twice: resident anyway, not counted
    assert sink.found_kinds == [("graph_built", None)] * 4
    assert sink.saved == [32, 0]


def test_saved_tensors_detector_keeps_no_graph_alive() -> None:
    import gc
    import weakref

    sink, w = Sink(), torch.ones(64, requires_grad=True)
    with SavedTensorsDetector(sink):
        out = (w * 2).relu()  # relu saves its own output
    ref = weakref.ref(out)
    del out
    gc.collect()
    assert ref() is None, "the saved output must not keep its own graph alive"


def test_forward_graph_detector_hooks_only_modules_with_parameters() -> None:
    model = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Sequential(nn.Linear(2, 2)))
    sink = Sink()
    detector = ForwardGraphDetector(model, sink)
    detector.install()
    assert [len(m._forward_hooks) for m in model.modules()] == [0, 1, 0, 0, 1]
    with torch.no_grad():
        model(torch.ones(1, 2))
    assert sink.found_kinds == []
    model(torch.ones(1, 2))
    assert sink.found_kinds == [("graph_built", "0"), ("graph_built", "2.0")]
    detector.remove()
    assert all(not m._forward_hooks for m in model.modules())


def test_norm_stats_watch_sees_updates_in_train_mode_only() -> None:
    bn = nn.BatchNorm1d(3).eval()
    watch = NormStatsWatch(nn.Sequential(bn))
    with torch.inference_mode():
        bn(torch.randn(4, 3))
        assert watch.changed() == []
        bn.train()
        bn(torch.randn(4, 3))
    assert watch.changed() == ["0"]
    assert watch.changed() == [], "reported once per update"


def test_params_watch_versions_and_values() -> None:
    model = nn.Linear(2, 2)
    watch = ParamsWatch(model)
    with torch.no_grad():
        model.weight.mul_(1.0)
    assert watch.changed_versions() == [], "same value written back is no change"
    model.bias.data.add_(1.0)  # bypasses version counters
    assert watch.changed_versions() == []
    assert watch.changed_values() == ["bias"]


def test_find_grad_tensor_walks_nested_outputs() -> None:
    w = torch.ones(1, requires_grad=True)
    assert find_grad_tensor({"a": [torch.ones(1), (1, w)]}) == "output['a'][1][1]"
    assert find_grad_tensor({"a": torch.ones(1)}) is None


def test_user_frame_points_at_this_file() -> None:
    assert "test_detectors.py" in (user_frame(1) or "")


def test_user_frame_prefers_own_code_over_installed_packages() -> None:
    import os

    installed = os.sep.join(["", "venv", "lib", "site-packages", "thirdparty", "layers.py"])
    namespace: dict[str, Any] = {}
    exec(compile("def inner(user_frame):\n    return user_frame(1, 1)\n", installed, "exec"), namespace)
    where = namespace["inner"](user_frame) or ""  # innermost frame: the installed one
    assert "test_detectors.py" in where and "site-packages" not in where
