"""The pytest plugin (entry point ``pytest11``): ``pytest --gradmode`` guards every Trainer a test session builds.

Off unless asked:

- ``pytest --gradmode`` (``raise``): every test whose evaluation violated fails, with the violations as its
  failure message. The guard only records while the test runs (an exception inside a test could be caught by the
  test itself); the test is failed when it ends.
- ``pytest --gradmode=record`` / ``--gradmode=warn``: tests run as usual; the session ends with a table of every
  violation (test, stage, kind, where); ``warn`` also issues the guard's warnings.
- ``--gradmode-json PATH`` writes the same rows, with the number of guards and batches, as JSON.

Every Trainer is guarded through Lightning's callback entry points (``GRADMODE_GUARD`` is set for the session, so
child processes the tests start are guarded too). Plain loops use the ``gradmode_evaluating`` fixture, a drop-in
for ``evaluating`` whose policy follows ``--gradmode``.

Importing this module imports neither torch nor Lightning: it is loaded in every test session where the package is
installed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from gradmode_plugin.options import ON_VIOLATION

if TYPE_CHECKING:
    from gradmode_plugin.report import Report
    from gradmode_plugin.scope import EvaluationScope

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
        help="guard every Lightning Trainer built by the tests: raise (the default; tests whose evaluation violated "
        "fail), warn or record (a table at the end)",
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
    a report gained since the previous test ended belongs to the test that just ended.
    """

    def __init__(self, policy: str, json_path: str | None) -> None:
        from gradmode_plugin import dropin

        self.policy = policy
        self.json_path = json_path
        self.rows: list[dict[str, Any]] = []
        self.reports: list[Report] = []
        self._consumed: list[int] = []
        self._environ = os.environ.get("GRADMODE_GUARD")
        # The guards only record (warn: also warn); under raise the test is failed when it ends.
        os.environ["GRADMODE_GUARD"] = "warn" if policy == "warn" else "record"
        dropin.REPORT_SINK = self.reports

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        from gradmode_plugin import dropin

        dropin.REPORT_SINK = None
        if self._environ is None:
            os.environ.pop("GRADMODE_GUARD", None)
        else:
            os.environ["GRADMODE_GUARD"] = self._environ

    def watch(self, report: Report) -> None:
        """Count ``report``'s violations with those of the guards the entry points make."""
        self.reports.append(report)

    def _new_violations(self) -> list[Any]:
        found = []
        for i, report in enumerate(self.reports):
            if i == len(self._consumed):
                self._consumed.append(0)
            seen = report.violations[self._consumed[i] :]  # at most the first 1000 of a report are stored
            found += seen
            self._consumed[i] += len(seen)
        return found

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        outcome = yield
        if call.when != "call":
            return
        found = self._new_violations()
        if not found:
            return
        self.rows += [
            {"test": item.nodeid, "stage": v.stage, "kind": v.kind, "batch": v.batch_idx, "where": v.where or ""}
            for v in found
        ]
        if self.policy != "raise":
            return
        text = "\n".join(["gradmode: evaluation in this test violated:", *(v.describe() for v in found)])
        result = outcome.get_result()
        if result.passed:
            result.outcome = "failed"
            result.longrepr = text
        else:
            result.sections.append(("gradmode", text))

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        guards = len(self.reports)
        batches = sum(s.batches for r in self.reports for s in r.stages.values())
        violations = sum(r.total for r in self.reports)
        tests = len({row["test"] for row in self.rows})
        terminalreporter.section("gradmode")
        terminalreporter.write_line(
            f"gradmode ({self.policy}): {guards} guard(s), {batches} evaluation batch(es) checked, "
            f"{violations} violation(s) in {tests} test(s)"
        )
        for row in self.rows:
            where = row["where"].split(" <- ")[0]
            terminalreporter.write_line(f"  {row['test']} | {row['stage']} | {row['kind']} | {where}")
        if self.json_path:
            data = {"policy": self.policy, "guards": guards, "batches": batches, "violations": self.rows}
            Path(self.json_path).write_text(json.dumps(data, indent=2) + "\n")


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
