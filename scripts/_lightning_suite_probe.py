"""What the guards of child processes record, for ``check_lightning_suite.py`` (never imported by gradmode-plugin).

``pytest --gradmode=record`` reads the reports of the guards in pytest's own process. Lightning's tests also start
processes of their own (``strategy="ddp_spawn"``, multiprocessing launchers): those inherit ``GRADMODE_GUARD`` and
run guards whose reports pytest never sees. The recipe copies this module into its virtual environment with a
``.pth`` line that imports it at interpreter start, and sets ``GRADMODE_CHECK_SPOOL`` (a folder) for the guarded run
only. Then, when ``gradmode_plugin.report`` is imported, ``Report.record`` and ``Report.end_run`` also append one
JSON line per violation and per finished stage run to ``$GRADMODE_CHECK_SPOOL/<pid>.jsonl``, with the test that was
running (``PYTEST_CURRENT_TEST``, inherited by child processes). Spawned children (``ddp_spawn``, ``python -c ...``)
import this module at start; there the import hook below patches the report module when it is first imported.
pytest's own process imports gradmode-plugin through its assertion rewriter, which sits before that hook on
``sys.meta_path``, so the recipe also loads this module as a pytest plugin (``-p _lightning_suite_probe``):
``pytest_configure`` patches the report module there, and children forked from pytest inherit the patch. pytest's
own lines let the recipe check the plugin's totals. The guard behaves exactly as without this module; without
``GRADMODE_CHECK_SPOOL`` the module does nothing."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
from types import ModuleType
from typing import Any

TARGET = "gradmode_plugin.report"


def _write(event: dict[str, Any]) -> None:
    spool = os.environ.get("GRADMODE_CHECK_SPOOL")
    if not spool:
        return
    event.update(pid=os.getpid(), test=os.environ.get("PYTEST_CURRENT_TEST", ""))
    try:
        with open(os.path.join(spool, f"{os.getpid()}.jsonl"), "a") as handle:
            handle.write(json.dumps(event, default=str) + "\n")
    except OSError:  # never let the probe break a test
        pass


def _patch(module: ModuleType) -> None:
    report_class = module.Report
    if getattr(report_class, "_lightning_suite_probe", False):
        return
    record, end_run = report_class.record, report_class.end_run

    def probed_record(self: Any, violation: Any) -> None:
        record(self, violation)
        _write(
            {
                "event": "violation",
                "report": id(self),
                "stage": violation.stage,
                "kind": violation.kind,
                "batch": violation.batch_idx,
                "module": violation.module,
                "where": violation.where or "",
                "detail": violation.detail,
            }
        )

    def probed_end_run(self: Any, stage: str, batches: int, *args: Any, **kwargs: Any) -> None:
        end_run(self, stage, batches, *args, **kwargs)
        _write({"event": "end_run", "report": id(self), "stage": stage, "batches": batches})

    report_class.record = probed_record
    report_class.end_run = probed_end_run
    report_class._lightning_suite_probe = True


class _Finder(importlib.abc.MetaPathFinder):
    """Patches ``gradmode_plugin.report`` right after it is executed, wherever it is first imported."""

    def find_spec(self, name: str, path: Any, target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if name != TARGET:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.loader is None:
            return None
        exec_module = spec.loader.exec_module

        def exec_and_patch(module: ModuleType) -> None:
            exec_module(module)
            _patch(module)

        spec.loader.exec_module = exec_and_patch  # type: ignore[method-assign]
        return spec


def pytest_configure(config: Any) -> None:
    """As a pytest plugin (``-p _lightning_suite_probe``): patch the report module in pytest's own process."""
    if os.environ.get("GRADMODE_CHECK_SPOOL"):
        _patch(importlib.import_module(TARGET))


def install() -> None:
    if not os.environ.get("GRADMODE_CHECK_SPOOL"):
        return
    if TARGET in sys.modules:
        _patch(sys.modules[TARGET])
    else:
        sys.meta_path.insert(0, _Finder())
    _write({"event": "process", "argv": sys.argv[:3]})


install()
