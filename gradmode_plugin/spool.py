"""What guards in child processes find, carried back to ``pytest --gradmode``: a folder of JSON lines.

The pytest plugin makes a spool folder for its session and names it in ``GRADMODE_SPOOL``, and the running test's
node id in ``GRADMODE_SPOOL_TEST``; child processes inherit both (``subprocess``, ``multiprocessing``,
``strategy="ddp_spawn"``). A guard the environment asks for while the folder is named gets a
:class:`SpooledReport`: in any process but the one whose session holds the report in memory (pytest's own), it
appends each violation when found, and each finished stage run with its batches, to ``<spool>/<pid>.jsonl``, so
what a child found is there even when the child dies later. The plugin reads the lines of each test when it ends
(:class:`SpoolReader`). Writing never breaks a run: a line that cannot be written is lost, and said so once.
"""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

from gradmode_plugin.dropin import SPOOL_VARIABLE, TEST_VARIABLE
from gradmode_plugin.report import Report
from gradmode_plugin.violations import Violation

__all__ = ["SPOOL_VARIABLE", "TEST_VARIABLE", "SpoolReader", "SpooledReport", "spooling", "violation_of", "write"]

log = logging.getLogger("gradmode_plugin")

_failed_once = False


def spooling() -> bool:
    """Whether a session collects what guards find in other processes."""
    return bool(os.environ.get(SPOOL_VARIABLE))


class SpooledReport(Report):
    """A report that also spools what it records, except in the process whose session reads it in memory.

    Args:
        collected_in: the process id whose session holds this report in memory (``None``: none does). A copy of the
            report pickled into another process (``ddp_spawn``) spools there.
    """

    def __init__(self, collected_in: int | None = None) -> None:
        super().__init__()
        self.collected_in = collected_in

    def record(self, violation: Violation) -> None:
        super().record(violation)
        self._spool({"event": "violation", "violation": violation.to_dict()})

    def end_run(self, stage: str, batches: int, peak_allocated_bytes: int | None = None) -> None:
        super().end_run(stage, batches, peak_allocated_bytes)
        self._spool({"event": "end_run", "stage": stage, "batches": batches})

    def _spool(self, event: dict[str, Any]) -> None:
        if os.getpid() != self.collected_in:
            write(event, report=id(self))


def write(event: dict[str, Any], report: int = 0) -> None:
    """Append ``event`` to this process's spool file, with the test, the process and the report; never raises."""
    global _failed_once
    folder = os.environ.get(SPOOL_VARIABLE)
    if not folder:
        return
    line = {**event, "test": os.environ.get(TEST_VARIABLE, ""), "pid": os.getpid(), "report": report}
    try:
        text = json.dumps(line, default=str) + "\n"
        with open(Path(folder) / f"{os.getpid()}.jsonl", "a", encoding="utf-8") as handle:
            handle.write(text)
    except (OSError, TypeError, ValueError) as err:
        if not _failed_once:
            _failed_once = True
            log.warning("gradmode: cannot write to the spool %s (%s): findings of this process are lost", folder, err)


class SpoolReader:
    """Reads a spool folder as it grows: each call of :meth:`read` returns the complete lines written since."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._offsets: dict[Path, int] = {}

    def read(self) -> list[dict[str, Any]]:
        events = []
        for path in sorted(self.folder.glob("*.jsonl")):
            start = self._offsets.get(path, 0)
            try:
                with open(path, "rb") as handle:
                    handle.seek(start)
                    data = handle.read()
            except OSError:
                continue
            complete = data[: data.rfind(b"\n") + 1]  # a line still being written is read next time
            self._offsets[path] = start + len(complete)
            for raw in complete.splitlines():
                try:
                    events.append(json.loads(raw))
                except ValueError:
                    log.warning("gradmode: skipped a damaged line in %s", path)
        return events


def violation_of(event: dict[str, Any]) -> Violation:
    """The violation a ``violation`` event carries."""
    fields = Violation.__dataclass_fields__
    return Violation(**{k: v for k, v in event["violation"].items() if k in fields})
