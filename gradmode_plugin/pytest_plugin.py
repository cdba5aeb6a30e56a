"""The pytest plugin (entry point ``pytest11``): ``pytest --gradmode`` guards every Trainer a test session builds.

Off unless asked:

- ``pytest --gradmode`` (``raise``): every test whose evaluation violated fails, with the violations as its
  failure message. The guard only records while the test runs (an exception inside a test could be caught by the
  test itself); the test is failed when it ends.
- ``pytest --gradmode=record`` / ``--gradmode=warn``: tests run as usual; the session ends with a table of what
  was found (test, stage, kind, where, how often); ``warn`` also issues the guard's warnings.
- ``--gradmode-json PATH`` writes the same rows, with the number of guards and batches, as JSON.

A test's violations are grouped into distinct findings (kind, module, source line), each said once with its count
(:func:`gradmode_plugin.report.group_findings`). Every Trainer is guarded through Lightning's callback entry points:
``GRADMODE_GUARD`` is set for the session, so the processes the tests start are guarded too, and what their guards
find comes back through the session's spool folder (:mod:`gradmode_plugin.spool`) to the test that started them.
Plain loops use the ``gradmode_evaluating`` fixture, a drop-in for ``evaluating`` whose policy follows
``--gradmode``.

Importing this module imports neither torch nor Lightning: it is loaded in every test session where the package is
installed.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from gradmode_plugin.options import ON_VIOLATION

if TYPE_CHECKING:
    from gradmode_plugin.report import Finding, Report
    from gradmode_plugin.scope import EvaluationScope
    from gradmode_plugin.spool import SpoolReader
    from gradmode_plugin.violations import Violation

_SESSION = "gradmode-session"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("gradmode", "gradmode-plugin: evaluation-mode guard")
    group.addoption(
        "--gradmode",
        action="store",
        nargs="?",
        const="raise",
        default=None,
        # No argparse `choices`: pytest parses its arguments once before the fix-up below can run.
        dest="gradmode",
        help="guard every Lightning and transformers Trainer built by the tests: raise (the default; tests whose "
        "evaluation violated fail), warn or record (a table at the end)",
    )
    group.addoption(
        "--gradmode-json",
        action="store",
        default=None,
        metavar="PATH",
        dest="gradmode_json",
        help="with --gradmode: write every violation found (test, stage, kind, where) as JSON to PATH",
    )


def pytest_load_initial_conftests(early_config: pytest.Config, parser: pytest.Parser, args: list[str]) -> None:
    # `pytest --gradmode tests/` would read the path as the policy: make a bare flag say what it means.
    for i, arg in enumerate(args):
        if arg == "--gradmode" and (i + 1 == len(args) or args[i + 1] not in ON_VIOLATION):
            args[i] = "--gradmode=raise"


def pytest_configure(config: pytest.Config) -> None:
    policy = config.getoption("gradmode", None)
    if policy is None:
        return
    if policy not in ON_VIOLATION:
        raise pytest.UsageError(f"--gradmode={policy}: allowed values are {', '.join(ON_VIOLATION)}")
    config.pluginmanager.register(_GradmodeSession(policy, config.getoption("gradmode_json")), _SESSION)


class _GradmodeSession:
    """The reports of every guard of one test session, and what they found, test by test.

    The reports are held here (not the guards, which die with their Trainers): tests run one after another, so what
    a report gained since the previous test ended belongs to the test that just ended. What guards in child
    processes find comes through the session's spool folder (:mod:`gradmode_plugin.spool`), each line naming its
    test. Each test's violations are grouped into distinct findings (kind, module, source line), each said once
    with its count: in the test's failure, in the table and in the JSON.
    """

    def __init__(self, policy: str, json_path: str | None) -> None:
        from gradmode_plugin import dropin, launcher

        self.policy = policy
        self.json_path = json_path
        self.rows: list[dict[str, Any]] = []
        self.reports: list[Report] = []
        self._consumed: list[int] = []
        self._test_variable = dropin.TEST_VARIABLE
        names = ("GRADMODE_GUARD", dropin.SPOOL_VARIABLE, dropin.TEST_VARIABLE, "PYTHONPATH")
        self._environ = {name: os.environ.get(name) for name in names}
        self.spool = Path(tempfile.mkdtemp(prefix="gradmode-spool-"))
        self._reader: SpoolReader | None = None  # made at the first read: it needs torch, which tests import
        self._spooled: dict[str, list[Violation]] = {}
        self.children = _Children()
        # The guards only record (warn: also warn); under raise the test is failed when it ends.
        os.environ["GRADMODE_GUARD"] = "warn" if policy == "warn" else "record"
        os.environ[dropin.SPOOL_VARIABLE] = str(self.spool)
        dropin.REPORT_SINK = self.reports
        # transformers has no entry point: its Trainers are guarded through DEFAULT_CALLBACKS, here and, by the
        # start-up module gradmode-run uses, in the processes the tests start.
        os.environ["PYTHONPATH"] = launcher.with_bootstrap(os.environ.get("PYTHONPATH", ""))
        self._unguard_transformers = launcher.guard_transformers()

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        from gradmode_plugin import dropin

        dropin.REPORT_SINK = None
        self._unguard_transformers()
        for name, value in self._environ.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        shutil.rmtree(self.spool, ignore_errors=True)

    def watch(self, report: Report) -> None:
        """Count ``report``'s violations with those of the guards the entry points make."""
        self.reports.append(report)

    def _new_violations(self) -> list[Violation]:
        found = []
        for i, report in enumerate(self.reports):
            if i == len(self._consumed):
                self._consumed.append(0)
            seen = report.violations[self._consumed[i] :]  # at most the first 1000 of a report are stored
            found += seen
            self._consumed[i] += len(seen)
        return found

    def _read_spool(self) -> None:
        if self._reader is None and not any(self.spool.glob("*.jsonl")):
            return  # no child process found or checked anything yet (and torch need not be imported)
        from gradmode_plugin.spool import SpoolReader, violation_of

        if self._reader is None:
            self._reader = SpoolReader(self.spool)
        for event in self._reader.read():
            self.children.add(event)
            if event.get("event") == "violation":
                self._spooled.setdefault(str(event.get("test", "")), []).append(violation_of(event))

    def _add_rows(self, test: str, findings: list[Finding]) -> None:
        self.rows += [
            {
                "test": test,
                "stage": f.first.stage,
                "kind": f.kind,
                "batch": f.first.batch_idx,
                "module": f.module,
                "where": f.first.where or "",
                "count": f.count,
                "seen": f.seen(),
            }
            for f in findings
        ]

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None) -> Any:
        # Read by the processes the test starts, which inherit the environment: their findings name the test.
        os.environ[self._test_variable] = item.nodeid
        try:
            yield
        finally:
            os.environ.pop(self._test_variable, None)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        outcome = yield
        if call.when != "call":
            return
        self._read_spool()
        found = self._new_violations() + self._spooled.pop(item.nodeid, [])
        if not found:
            return
        from gradmode_plugin.report import group_findings

        findings = group_findings(found)
        self._add_rows(item.nodeid, findings)
        if self.policy != "raise":
            return
        # The first line is what pytest's short summary shows: it stays short.
        counted = f"{len(found)} violation(s) in {len(findings)} distinct finding(s)"
        lines = ["gradmode: evaluation in this test violated:", counted, *(f.describe() for f in findings)]
        text = "\n".join(lines)
        result = outcome.get_result()
        if result.passed:
            result.outcome = "failed"
            result.longrepr = text
        else:
            result.sections.append(("gradmode", text))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        self._read_spool()
        for test, late in self._spooled.items():  # written after their test had ended
            from gradmode_plugin.report import group_findings

            self._add_rows(test, group_findings(late))
        self._spooled.clear()
        guards = len(self.reports)
        children = self.children
        batches = sum(s.batches for r in self.reports for s in r.stages.values()) + children.batches
        violations = sum(r.total for r in self.reports) + children.violations
        tests = len({row["test"] for row in self.rows})
        in_children = ""
        if children.pids:
            in_children = (
                f" (and {len(children.guards)} in {len(children.pids)} child process(es), which checked "
                f"{children.batches} of the batches)"
            )
        terminalreporter.section("gradmode")
        terminalreporter.write_line(
            f"gradmode ({self.policy}): {guards} guard(s){in_children}, {batches} evaluation batch(es) checked, "
            f"{violations} violation(s), {len(self.rows)} distinct, in {tests} test(s)"
        )
        for row in self.rows:
            where = row["where"].split(" <- ")[0]
            terminalreporter.write_line(f"  {row['test']} | {row['stage']} | {row['kind']} | {where} | {row['seen']}")
        if self.json_path:
            data = {
                "policy": self.policy,
                "guards": guards,
                "batches": batches,
                "violations": violations,
                "child_processes": len(children.pids),
                "child_guards": len(children.guards),
                "child_batches": children.batches,
                "findings": self.rows,
            }
            Path(self.json_path).write_text(json.dumps(data, indent=2) + "\n")


class _Children:
    """What the spool says of the session's child processes: those where a guard ran or found something, their
    guards, the batches they checked and the violations they found."""

    def __init__(self) -> None:
        self.pids: set[int] = set()
        self.guards: set[tuple[int, int]] = set()
        self.batches = 0
        self.violations = 0

    def add(self, event: dict[str, Any]) -> None:
        pid = int(event.get("pid", 0))
        self.pids.add(pid)
        self.guards.add((pid, int(event.get("report", 0))))
        if event.get("event") == "end_run":
            self.batches += int(event.get("batches", 0))
        elif event.get("event") == "violation":
            self.violations += 1


@pytest.fixture
def gradmode_evaluating(request: pytest.FixtureRequest) -> Callable[..., EvaluationScope]:
    """``evaluating`` for plain loops in tests: its policy follows ``--gradmode`` (``raise`` without the flag), and
    its findings join the session's table.

    Example::

        def test_eval_loop(gradmode_evaluating):
            with gradmode_evaluating(model) as scope:
                for i, x in enumerate(batches):
                    with scope.batch(i):
                        model(x)
    """
    policy = request.config.getoption("gradmode", None) or "raise"
    session = request.config.pluginmanager.get_plugin(_SESSION)

    def make(model: Any, **kwargs: Any) -> EvaluationScope:
        from gradmode_plugin.scope import evaluating

        kwargs.setdefault("on_violation", policy)
        scope = evaluating(model, **kwargs)
        if isinstance(session, _GradmodeSession):
            session.watch(scope.report)
        return scope

    return make
