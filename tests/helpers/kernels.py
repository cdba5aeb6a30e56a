"""The operators a piece of code runs, read by torch's execution-trace observer (a RecordFunction observer, which
leaves dispatch untouched): each aten operator with its input shapes, dtypes, strides and scalar arguments, in the
order they started, to compare a run with the guard against one without it."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from torch.profiler import ExecutionTraceObserver, record_function

#: One operator call: (name, input shapes, input types, input strides, its arguments other than tensors).
Kernel = tuple[str, str, str, str, str]

_MARK = "gradmode.tests.kernels"


def _kernel(node: dict[str, Any]) -> Kernel:
    inputs = node["inputs"]
    scalars = [v for v, t in zip(inputs["values"], inputs["types"]) if not str(t).startswith(("Tensor", "GenericList"))]
    return (
        node["name"],
        json.dumps(inputs["shapes"]),
        json.dumps(inputs["types"]),
        json.dumps(inputs["strides"]),
        json.dumps(scalars),
    )


def _operator_above(record: int, names: dict[int, str], parent_of: dict[int, int]) -> str | None:
    """The aten operator a record is under (past other records: autograd's kernels record one of their own)."""
    seen = {record}
    while (record := parent_of.get(record, record)) not in seen:
        seen.add(record)
        if names[record].startswith("aten::"):
            return names[record]
    return None


def kernels(work: Callable[[], Any]) -> list[Kernel]:
    """The aten operators ``work()`` runs in this thread, each with what it was given, in the order they started;
    what a dispatch mode's handler runs is among them, its call of the operator that reached it excepted."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "trace.json"
        observer = ExecutionTraceObserver().register_callback(str(path))
        observer.start()
        try:
            with record_function(_MARK):
                work()
        finally:
            observer.stop()
            observer.unregister_callback()
        nodes = sorted(json.loads(path.read_text())["nodes"], key=lambda n: n["id"])  # ids: the order calls started
    (mark,) = (node["id"] for node in nodes if node["name"] == _MARK)
    # A dispatch mode's handler is a record of its own under the operator that reached it, and the handler's call of
    # that operator is under the record: the operator is listed once, as its caller called it.
    names = {node["id"]: node["name"] for node in nodes}
    parent_of = {node["id"]: node["ctrl_deps"] for node in nodes}
    listed: set[int] = {mark}
    calls: list[Kernel] = []
    for node in nodes:
        parent = node["ctrl_deps"]
        if parent not in listed:
            continue
        listed.add(node["id"])
        if names[parent] == "PythonDispatchMode" and node["name"] == _operator_above(parent, names, parent_of):
            continue  # the handler's call of the operator above it
        if node["name"].startswith("aten::"):
            calls.append(_kernel(node))
    return calls


def first_difference(a: list[Kernel], b: list[Kernel]) -> str | None:
    """Where two operator sequences first differ, said for a failing assertion; None when they are the same."""
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"operator {i}: {x} != {y}"
    if len(a) != len(b):
        return f"{len(a)} operators != {len(b)}; the first extra one: {(a[len(b) :] or b[len(a) :])[0]}"
    return None


def differences(a: list[Kernel], b: list[Kernel]) -> list[tuple[Kernel, Kernel]]:
    """The pairs of operators two sequences of the same length differ in (an assertion error if the lengths differ)."""
    assert len(a) == len(b), first_difference(a, b)
    return [(x, y) for x, y in zip(a, b) if x != y]


def out_of_place_form(in_place: Kernel, other: Kernel) -> bool:
    """Whether ``other`` is ``in_place``'s operator in its out-of-place form (``add`` for ``add_``), given the same
    inputs: the form a composite operator takes where a dispatch mode is active (PyTorch's composite compliance)."""
    name = in_place[0]
    return name.endswith("_") and other[0] == name[:-1] and other[1:] == in_place[1:]
