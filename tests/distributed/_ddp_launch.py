"""Start a 2-process CPU DDP run of ``_ddp_run.py`` ourselves, one subprocess per rank, and collect the outcome.

Lightning is never asked to re-launch anything: each process gets its rank through the environment
(``LOCAL_RANK`` makes Lightning treat the processes as created externally). A run that does not finish within
the timeout is a hang: both processes are killed and the test fails with their output.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from scripts._ranks import free_port, rank_env

SCRIPT = Path(__file__).with_name("_ddp_run.py")
WORLD_SIZE = 2
#: Hang detection only: a healthy run takes seconds.
TIMEOUT_S = 180.0
#: What a rank prints when its peer went away in the middle of a collective.
TRANSPORT_ERRORS = ("connection closed by peer", "connection reset")


@dataclasses.dataclass
class RankResult:
    rank: int
    returncode: int
    stdout: str
    stderr: str
    result: dict[str, Any] | None

    @property
    def outcome(self) -> str | None:
        return None if self.result is None else self.result["outcome"]

    def describe(self) -> str:
        return (
            f"--- rank {self.rank}: exit {self.returncode}, result {json.dumps(self.result, indent=1)[:3000]}\n"
            f"--- stderr (tail):\n{self.stderr[-4000:]}"
        )


@dataclasses.dataclass
class DDPRun:
    ranks: list[RankResult]
    out: Path

    def describe(self) -> str:
        return "\n".join(r.describe() for r in self.ranks)

    def transport_errors(self) -> list[str]:
        found = []
        for r in self.ranks:
            text = (r.stdout + r.stderr + json.dumps(r.result)).lower()
            found += [f"rank {r.rank}: {e!r}" for e in TRANSPORT_ERRORS if e in text]
        return found

    def save(self) -> Path:
        """Write the run to ``out/run.json`` (for :meth:`load`); returns that file."""
        path = self.out / "run.json"
        path.write_text(json.dumps([dataclasses.asdict(r) for r in self.ranks]))
        return path

    @classmethod
    def load(cls, path: Path) -> DDPRun:
        """The run :meth:`save` wrote."""
        return cls(ranks=[RankResult(**r) for r in json.loads(path.read_text())], out=path.parent)

    def scenario(self, name: str) -> DDPRun:
        """What the ranks wrote for one scenario of ``_ddp_run.py``, beside the exit status and output of the whole
        run."""
        ranks = [dataclasses.replace(r, result=_read_json(self.out / name / f"rank{r.rank}.json")) for r in self.ranks]
        return DDPRun(ranks=ranks, out=self.out / name)

    def rank_zero_report(self) -> dict[str, Any] | None:
        path = self.out / "report.json"
        return json.loads(path.read_text()) if path.exists() else None


def _read_json(path: Path) -> dict[str, Any] | None:
    return json.loads(path.read_text()) if path.exists() else None


def _kill(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def launch(out: Path, *args: str, timeout: float = TIMEOUT_S, script: Path = SCRIPT) -> DDPRun:
    """Run ``script --out OUT *args`` (``_ddp_run.py`` by default) on 2 ranks; fail the test when they do not all end
    in time."""
    out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    procs: list[subprocess.Popen[bytes]] = []
    logs = []
    try:
        for rank in range(WORLD_SIZE):
            stdout = open(out / f"rank{rank}.stdout", "wb")  # noqa: SIM115 - closed below
            stderr = open(out / f"rank{rank}.stderr", "wb")  # noqa: SIM115 - closed below
            logs += [stdout, stderr]
            cmd = [sys.executable, str(script), "--out", str(out), *args]
            procs.append(
                subprocess.Popen(
                    cmd,
                    env=rank_env(rank, WORLD_SIZE, port),
                    stdout=stdout,
                    stderr=stderr,
                    cwd=out,
                    start_new_session=True,
                )
            )
        deadline = time.monotonic() + timeout
        hung: list[int] = []
        for rank, proc in enumerate(procs):
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                hung.append(rank)
    finally:
        for proc in procs:
            _kill(proc)
        for f in logs:
            f.close()
    ranks = []
    for rank, proc in enumerate(procs):
        result_file = out / f"rank{rank}.json"
        ranks.append(
            RankResult(
                rank=rank,
                returncode=proc.returncode,
                stdout=(out / f"rank{rank}.stdout").read_text(errors="replace"),
                stderr=(out / f"rank{rank}.stderr").read_text(errors="replace"),
                result=_read_json(result_file),
            )
        )
    run = DDPRun(ranks=ranks, out=out)
    if hung:
        pytest.fail(f"rank(s) {hung} still running after {timeout:.0f} s (hang); killed\n{run.describe()}")
    return run
