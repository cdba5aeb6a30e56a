"""gradmode-plugin in an unmodified lightning-hydra-template, used as its users use it.

The recipe works on a clone of https://github.com/ashleve/lightning-hydra-template (its work tree, its ``.git``
folder or a bare clone; the template's HEAD is exported with ``git archive``, nothing of it is copied into this
project) and checks what a user of the template would see:

1. With ``- gradmode`` added to the template's ``configs/callbacks/default.yaml``, ``src/train.py`` with
   ``+trainer.val_check_interval=0.5`` trains, checkpoints at every validation (mid-epoch ones included) and tests;
   the guard announces each stage it checks and, with ``on_violation=record``, finds nothing (its counts in the CSV
   logs, no end-of-run warning). ``src/eval.py`` then tests the best checkpoint with ``GRADMODE_GUARD=record`` in
   the environment (a guard from the package's Lightning entry point; reported, not failed, when there is none),
   in the guarded setup and in the plain one, where gradmode-plugin is not installed and the checkpoint written
   under the guard must load all the same.
2. The template's own test suite, slow tests included, has the same outcomes with the guard (``- gradmode`` in the
   callbacks and ``GRADMODE_GUARD=record``) and without it; the table shows, per test, where the guard was seen.

Nothing is downloaded but the template's extra packages: instead of MNIST, a small, learnable stand-in is written in
MNIST's raw idx format (``_fake_mnist.py``), 60,000 + 10,000 images as the template's split and
``tests/test_datamodules.py`` expect.

Two exports of the template, each with its own virtual environment, which reuses this interpreter's packages
(torch, Lightning, Hydra, pytest: linked through a ``.pth`` path entry, gradmode-plugin left out) and pip-installs
what the template needs on top (``TEMPLATE_PACKAGES``):

- ``plain``: the template as exported, gradmode-plugin not installed;
- ``guarded``: gradmode-plugin installed from a wheel built from this checkout (a regular install, so Hydra 1.3 finds
  its search-path plugin) and ``- gradmode`` in ``configs/callbacks/default.yaml``.

Both get the same environment tweaks, none in the template's files: ``TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD=1`` (its
checkpoints pickle the network, which torch >= 2.6 refuses to load by default), ``setuptools<81`` and ``pytest<8``
(its test helpers use ``pkg_resources`` and ``pytest.fail(msg=...)``).

Usage (from the repository root, with the project's environment), after
``git clone https://github.com/ashleve/lightning-hydra-template ~/src/lightning-hydra-template``::

    .venv/bin/python scripts/check_template.py --template ~/src/lightning-hydra-template   # everything: ~16 min
    .venv/bin/python scripts/check_template.py --template ~/src/lightning-hydra-template --skip-suite   # ~3 min
    .venv/bin/python scripts/check_template.py --template ~/src/lightning-hydra-template --workdir /tmp/lht --keep

(The times are those of a 2-core machine without GPU; ``--skip-suite``: setup, train, checkpoint, test, eval.)

Exit status: 0 when every check passed; 1 when a check failed (the training run did not train, checkpoint or test,
the guard found a violation, an evaluation failed, or a template test passes without the guard and not with it);
2 when the setup failed (export, wheel, venvs, data) or the command line is wrong (e.g. ``--template`` is not a git
repository).
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import sys
import sysconfig
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from xml.etree import ElementTree

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _acceptance as acceptance
from _acceptance import ERROR, FAILED, KINDS, MISSING, PASSED, SKIPPED, Run, SetupError, progress, run
from _fake_mnist import write_fake_mnist

#: What the template needs beyond torch, torchvision, Lightning, torchmetrics and Hydra (reused from this
#: environment); loggers are left out. The versions follow its requirements.txt where it pins them.
TEMPLATE_PACKAGES: Final[tuple[str, ...]] = (
    "rootutils",  # src/train.py, src/eval.py, tests/conftest.py
    "rich",  # src/utils/rich_utils.py, callbacks/rich_progress_bar
    "hydra-colorlog==1.2.0",  # configs/hydra/default.yaml
    "hydra-optuna-sweeper==1.2.0",  # configs/hparams_search/mnist_optuna.yaml, tests/test_sweeps.py
    "sh",  # tests/test_sweeps.py (RunIf(sh=True)); commented out in requirements.txt
    "setuptools<81",  # tests/helpers import pkg_resources, which setuptools 81 removed
    "pytest<8",  # tests/helpers/run_sh_command.py calls pytest.fail(msg=...), removed in pytest 8
    "pytest-timeout",  # the recipe's per-test limit
)

#: Overrides of the training run, besides the guard's own: two epochs, two validations per epoch.
TRAIN_OVERRIDES: Final[tuple[str, ...]] = (
    "trainer=cpu",
    "trainer.max_epochs=2",
    "+trainer.val_check_interval=0.5",  # not in the template's trainer config: appended
    "+trainer.limit_train_batches=0.25",  # 107 of 430 batches per epoch: about a minute on 2 cores
    "callbacks.model_checkpoint.save_top_k=-1",  # keep every checkpoint, so each mid-epoch save can be seen
    "logger=csv",  # metrics read back from csv/version_0/metrics.csv
    "seed=12345",
    "extras.print_config=false",
)
#: The guard's options in the training run: record every violation instead of stopping at the first, and (where
#: the shipped config has the option) log the counts to the CSV logger as gradmode/<stage>/violations.
GUARD_OVERRIDES: Final[tuple[str, ...]] = ("callbacks.gradmode.on_violation=record",)
LOG_COUNTS_OVERRIDE: Final[str] = "callbacks.gradmode.log_metrics=true"

GUARD_LINE: Final[re.Pattern[str]] = re.compile(r"gradmode: (\w+) runs under torch\.(\w+) \(([^)]*)\)")
#: Lightning's INFO line when the package's callback entry point adds a guard (GRADMODE_GUARD set).
ENTRY_POINT_LINE: Final[str] = "callbacks from entry point 'gradmode'"
#: How the guard reports violations it did not raise for: its end-of-run warning, per-violation warnings, errors.
VIOLATION_MARKERS: Final[tuple[str, ...]] = ("gradmode: violations during", "GradModeWarning", "GradModeViolation")
EXCEPTION_LINE: Final[re.Pattern[str]] = re.compile(r"^[\w.]*(Error|Exception|Violation|Failed)\b.*: ")


# -- the two setups ----------------------------------------------------------------------------------------------


@dataclass
class Setup:
    """One export of the template with its own virtual environment."""

    name: str
    root: Path
    venv: Path
    guarded: bool

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def env(self, guard_variable: str | None = None) -> dict[str, str]:
        """The environment of the template's commands: its venv first on PATH (``sh.python`` in its sweep tests
        runs ``python``), no PYTHONPATH, ``GRADMODE_GUARD`` only when asked for."""
        env = acceptance.venv_environ(self.venv)
        env["HYDRA_FULL_ERROR"] = "1"
        # torch >= 2.6 loads with weights_only=True by default, and the template's checkpoints pickle the network
        # (hparams): without this, trainer.test(ckpt_path=...) and eval.py fail in both setups alike.
        env["TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD"] = "1"
        if guard_variable is not None:
            env["GRADMODE_GUARD"] = guard_variable
        return env


def add_guard_to_callbacks(config: Path) -> str:
    """Add ``- gradmode`` to the defaults list of ``callbacks/default.yaml``, before ``_self_``, as a user would.
    Returns the new defaults list for the log."""
    lines = config.read_text().splitlines()
    try:
        start = lines.index("defaults:")
    except ValueError as err:
        raise SetupError(f"{config} has no top-level defaults list") from err
    end = start + 1
    while end < len(lines) and lines[end].lstrip().startswith("- "):
        end += 1
    items = lines[start + 1 : end]
    if not items:
        raise SetupError(f"{config}: the defaults list is empty or not a block list")
    indent = items[0][: len(items[0]) - len(items[0].lstrip())]
    at = next((start + 1 + i for i, item in enumerate(items) if item.strip() == "- _self_"), end)
    lines.insert(at, f"{indent}- gradmode")
    config.write_text("\n".join(lines) + "\n")
    return " ".join(line.strip() for line in lines[start + 1 : end + 1])


# -- data ----------------------------------------------------------------------------------------------------------


def write_data(workdir: Path, roots: Iterable[Path]) -> Path:
    """The fake MNIST, once, then into each template's ``data/MNIST/raw``; checked through torchvision."""
    raw = workdir / "mnist" / "MNIST" / "raw"
    write_fake_mnist(raw)
    verify_with_torchvision(raw.parent.parent)
    for root in roots:
        shutil.copytree(raw, root / "data" / "MNIST" / "raw")
    return raw


def verify_with_torchvision(data_dir: Path) -> None:
    from torchvision.datasets import MNIST  # heavy: only here

    for train, size in ((True, 60_000), (False, 10_000)):
        dataset = MNIST(str(data_dir), train=train, download=False)  # raises when a file is missing
        counts = dataset.targets.bincount(minlength=10).tolist()
        if len(dataset) != size or tuple(dataset.data.shape[1:]) != (28, 28) or min(counts) == 0:
            raise SetupError(f"torchvision reads {len(dataset)} images {tuple(dataset.data.shape)}, labels {counts}")


# -- training, checkpoints, evaluation -----------------------------------------------------------------------------


def read_metrics(run_dir: Path) -> dict[str, list[tuple[int, float]]]:
    """Every logged value of the CSV logger, by column: ``[(step, value), ...]`` in logging order."""
    files = sorted(run_dir.rglob("metrics.csv"))
    if not files:
        return {}
    metrics: dict[str, list[tuple[int, float]]] = {}
    with files[0].open() as handle:
        for row in csv.DictReader(handle):
            for key, value in row.items():
                if key not in ("epoch", "step") and value not in ("", None):
                    metrics.setdefault(key, []).append((int(row.get("step") or 0), float(value)))
    return metrics


@dataclass
class Checkpoint:
    epoch: int
    global_step: int
    callback_states: list[str]  # the keys of its "callbacks" entry, e.g. GradModeGuard


def checkpoint_info(setup: Setup, files: Sequence[Path], logs: Path) -> dict[str, Checkpoint]:
    """Epoch, global step and callback state keys of each checkpoint (by file name), read in the template's
    environment (its checkpoints pickle the network, so loading needs the template's code)."""
    code = (
        "import json, sys, torch\n"
        "info = {}\n"
        "for path in sys.argv[1:]:\n"
        "    ckpt = torch.load(path, map_location='cpu', weights_only=False)\n"
        "    info[path] = {'epoch': ckpt['epoch'], 'global_step': ckpt['global_step'],\n"
        "                  'callback_states': sorted(str(k) for k in ckpt.get('callbacks', {}))}\n"
        "print('CKPT-INFO', json.dumps(info))\n"
    )
    result = run([setup.python, "-c", code, *files], setup.root, logs / "checkpoint-info.log", env=setup.env())
    match = re.search(r"^CKPT-INFO (.*)$", result.output, re.MULTILINE)
    if not result.ok or match is None:
        raise SetupError(f"reading the checkpoints failed ({result.status()}):\n{result.tail()}")
    return {Path(path).name: Checkpoint(**value) for path, value in json.loads(match.group(1)).items()}


@dataclass
class Check:
    name: str
    ok: bool
    detail: str


@dataclass
class Outcome:
    """What a run showed: the checks, figures for the summary, warnings that are not failures."""

    checks: list[Check] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def check(self, name: str, ok: bool, detail: str) -> bool:
        self.checks.append(Check(name, ok, detail))
        progress(f"  {'ok  ' if ok else 'FAIL'} {name}: {detail}")
        return ok

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


@dataclass
class GuardSeen:
    """What a run's output and CSV logs show of the guard."""

    stages: dict[str, str]  # stage -> "<grad context> (<why>)", from its INFO line "gradmode: <stage> runs under ..."
    violation_counts: dict[str, list[float]]  # gradmode/<stage>/violations, when the guard logs its counts
    violation_lines: list[str]  # its end-of-run warning, GradModeWarning or GradModeViolation lines
    entry_point: bool  # Lightning added a guard from the package's callback entry point (GRADMODE_GUARD)

    @property
    def active(self) -> bool:
        return bool(self.stages or self.violation_counts or self.violation_lines)

    @property
    def clean(self) -> bool:
        return not self.violation_lines and all(v == 0 for vs in self.violation_counts.values() for v in vs)

    def describe_stages(self) -> str:
        stages = "; ".join(f"{stage} under {how}" for stage, how in self.stages.items()) or "no 'gradmode:' log line"
        return stages + ("; added by its Lightning entry point (GRADMODE_GUARD)" if self.entry_point else "")

    def describe_findings(self) -> str:
        counts = ", ".join(f"{k} {[int(v) for v in vs]}" for k, vs in sorted(self.violation_counts.items()))
        found = " | ".join(self.violation_lines[:3]) or "no violation warning"
        return f"{counts or 'no counts logged'}; {found}"

    def describe(self) -> str:
        return f"{self.describe_stages()}; {self.describe_findings()}"


def guard_seen(output: str, metrics: dict[str, list[tuple[int, float]]]) -> GuardSeen:
    stages: dict[str, str] = {}
    for stage, context, why in GUARD_LINE.findall(output):
        stages.setdefault(stage, f"{context} ({why})")
    counts = {k: [v for _, v in vs] for k, vs in metrics.items() if k.startswith("gradmode/") and "violation" in k}
    lines = [line.strip() for line in output.splitlines() if any(marker in line for marker in VIOLATION_MARKERS)]
    return GuardSeen(stages, counts, list(dict.fromkeys(lines)), ENTRY_POINT_LINE in output)


def shipped_guard_config(wheel: Path) -> str:
    """The ``callbacks/gradmode.yaml`` the wheel ships (empty when it ships none)."""
    return acceptance.wheel_text(wheel, "callbacks/gradmode.yaml")


def _floats(values: Sequence[float]) -> str:
    return " -> ".join(f"{v:.3f}" for v in values) or "n/a"


def train_guarded(
    setup: Setup, workdir: Path, guard_overrides: Sequence[str], timeout: float, outcome: Outcome
) -> tuple[Path | None, float | None]:
    """Train with the guard; return (best checkpoint, its test accuracy) for the evaluation runs."""
    run_dir = workdir / "runs" / "train-guarded"
    overrides = [*TRAIN_OVERRIDES, *guard_overrides, f"hydra.run.dir={run_dir}"]
    progress(f"training in {setup.name}: src/train.py {' '.join(overrides[:-1])}")
    result = run(
        [setup.python, "src/train.py", *overrides],
        setup.root,
        workdir / "logs" / "train-guarded.log",
        env=setup.env(),
        timeout=timeout,
    )
    outcome.figures.append(f"training run: {result.status()} in {result.seconds:.0f}s, log {result.log}")
    if not outcome.check("train.py exits 0", result.ok, result.status()):
        progress(f"  output tail:\n{result.tail(40)}")
        return None, None

    metrics = read_metrics(run_dir)
    val_steps = [step for step, _ in metrics.get("val/acc", [])]
    val_acc, train_acc, test_acc, test_loss = (
        [v for _, v in metrics.get(key, [])] for key in ("val/acc", "train/acc", "test/acc", "test/loss")
    )
    outcome.check("validates twice per epoch", len(val_acc) == 4, f"{len(val_acc)} validations at steps {val_steps}")
    outcome.check(
        "trains",
        len(val_acc) >= 2 and val_acc[-1] > val_acc[0] and val_acc[-1] > 0.5,
        f"val/acc {_floats(val_acc)}; train/acc per epoch {_floats(train_acc)}",
    )
    outcome.check("tests", len(test_acc) == 1 and test_acc[0] > 0.5, f"test/acc {_floats(test_acc)} (chance 0.1)")
    outcome.figures.append(
        f"training metrics: val/acc {_floats(val_acc)}; train/acc per epoch {_floats(train_acc)}; "
        f"test/acc {_floats(test_acc)}, test/loss {_floats(test_loss)}"
    )

    ckpt_dir = run_dir / "checkpoints"
    files = sorted(ckpt_dir.glob("*.ckpt")) if ckpt_dir.is_dir() else []
    info = checkpoint_info(setup, files, workdir / "logs") if files else {}
    saved = sorted({ckpt.global_step for name, ckpt in info.items() if name != "last.ckpt"})
    expected = sorted({step + 1 for step in val_steps})  # the CSV logger logs validation at global_step - 1
    outcome.check(
        "checkpoints at every validation, mid-epoch included",
        bool(expected) and saved == expected and "last.ckpt" in info,
        f"{len(files)} files; saved at global steps {saved}, validations ended at steps {expected}",
    )
    for name, ckpt in sorted(info.items()):
        states = ", ".join(key.split("{")[0] for key in ckpt.callback_states)  # without the ones' options
        outcome.figures.append(
            f"checkpoint {name}: epoch {ckpt.epoch}, global_step {ckpt.global_step}, callback states {states}"
        )

    seen = guard_seen(result.output, metrics)
    outcome.check(
        "the guard ran validation and test", {"validation", "test"} <= set(seen.stages), seen.describe_stages()
    )
    outcome.check("the guard found no violation (on_violation=record)", seen.clean, seen.describe_findings())
    outcome.figures.append(f"guard in training: {seen.describe()}")
    best = re.search(r"Best ckpt path: (\S+\.ckpt)", result.output)
    best_path = Path(best.group(1)) if best else ckpt_dir / "last.ckpt"
    outcome.figures.append(f"best checkpoint (tested by train.py): {best_path.name}")
    return best_path, (test_acc[0] if test_acc else None)


def evaluate(
    setup: Setup, ckpt: Path, expected_acc: float | None, workdir: Path, timeout: float, outcome: Outcome
) -> None:
    """``src/eval.py ckpt_path=...`` with ``GRADMODE_GUARD=record``: the guard can only come from the package's
    Lightning callback entry point (eval.yaml has no callbacks); in the plain setup the package is not installed,
    and the checkpoint, written under the guard, must load all the same."""
    run_dir = workdir / "runs" / f"eval-{setup.name}"
    overrides = [f"ckpt_path={ckpt}", "logger=csv", "extras.print_config=false", f"hydra.run.dir={run_dir}"]
    progress(f"evaluating in {setup.name}: GRADMODE_GUARD=record src/eval.py ckpt_path={ckpt.name}")
    result = run(
        [setup.python, "src/eval.py", *overrides],
        setup.root,
        workdir / "logs" / f"eval-{setup.name}.log",
        env=setup.env("record"),
        timeout=timeout,
    )
    if not outcome.check(f"eval.py exits 0 ({setup.name})", result.ok, f"{result.status()}, log {result.log}"):
        progress(f"  output tail:\n{result.tail(40)}")
        return
    metrics = read_metrics(run_dir)
    test_acc = [v for _, v in metrics.get("test/acc", [])]
    outcome.check(
        f"eval.py reproduces train.py's test/acc ({setup.name})",
        bool(test_acc) and expected_acc is not None and abs(test_acc[0] - expected_acc) < 1e-3,
        f"{_floats(test_acc)} vs {_floats([expected_acc] if expected_acc is not None else [])}",
    )
    seen = guard_seen(result.output, metrics)
    if seen.active:
        outcome.check(f"GRADMODE_GUARD=record: no violation ({setup.name})", seen.clean, seen.describe())
        outcome.figures.append(f"eval ({setup.name}): test/acc {_floats(test_acc)}; guard ACTIVE: {seen.describe()}")
        return
    if setup.guarded:
        why = "no 'gradmode:' line in the output: the installed wheel added no guard for GRADMODE_GUARD"
    else:
        why = "gradmode-plugin is not installed in this setup"
    outcome.notes.append(f"eval ({setup.name}) with GRADMODE_GUARD=record: guard NOT active ({why})")
    outcome.figures.append(f"eval ({setup.name}): test/acc {_floats(test_acc)}; guard not active")
    progress(f"  note: GRADMODE_GUARD=record, guard not active in {setup.name}: {why}")


# -- the template's test suite -------------------------------------------------------------------------------------


@dataclass
class Suite:
    """Outcome per test id (``module::name``), why each non-passing test did not pass, and what each test's
    output (and its ``tmp_path``, where the sweep tests' runs write their logs) shows of the guard."""

    run: Run
    outcomes: dict[str, str]
    reasons: dict[str, str]
    guard: dict[str, list[str]]  # test id -> stages the guard announced, "GRADMODE_GUARD" when its entry point ran

    def counts(self) -> dict[str, int]:
        return acceptance.count_outcomes(self.outcomes)


def _guard_marks(text: str) -> list[str]:
    marks = [stage for stage, _, _ in GUARD_LINE.findall(text)]
    if ENTRY_POINT_LINE in text:
        marks.append("GRADMODE_GUARD")
    marks += ["VIOLATION" for marker in VIOLATION_MARKERS if marker in text]
    return list(dict.fromkeys(marks))


def _tmp_path_logs(basetemp: Path, test_name: str) -> str:
    """The ``*.log`` files of a test's ``tmp_path`` (pytest names it after the test: non-word characters replaced,
    30 characters at most, then a number)."""
    key = re.escape(re.sub(r"\W", "_", test_name)[:30])
    dirs = [d for d in basetemp.glob("*") if d.is_dir() and re.fullmatch(key + r"\d+", d.name)]
    return "\n".join(f.read_text(errors="replace") for d in dirs for f in sorted(d.rglob("*.log")))


def _reason(message: str, text: str) -> str:
    """Why a test did not pass, in a line: the Hydra job that failed and the last exception raised, when the report
    shows them (a sweep test's message is the child process's whole stderr), else the report's message."""
    lines = [line.removeprefix("E").strip() for line in text.splitlines()]
    job = [line for line in lines if line.startswith("Error executing job with overrides")]
    errors = [i for i, line in enumerate(lines) if EXCEPTION_LINE.match(line)]
    last: list[str] = []
    if errors:  # Hydra's InstantiationException ends with ":" and names the cause on the next line
        i = errors[-1]
        last = [" ".join(lines[i : i + 2]) if lines[i].endswith(":") else lines[i]]
    picked = job[-1:] + last or [message]
    return " | ".join(" ".join(line.split())[:240] for line in picked)


def parse_junit(result: Run, path: Path, basetemp: Path) -> Suite:
    """The suite's outcomes, reasons and guard marks from its JUnit report (test ids ``classname::name``)."""
    outcomes: dict[str, str] = {}
    reasons: dict[str, str] = {}
    guard: dict[str, list[str]] = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        name = case.get("name", "")
        test_id = f"{case.get('classname', '')}::{name}"
        outcome, element = acceptance.case_outcome(case)
        if acceptance.record_outcome(outcomes, test_id, outcome) and element is not None:
            reasons[test_id] = _reason(element.get("message") or "", element.text or "")
        captured = "\n".join(e.text or "" for tag in ("system-out", "system-err") for e in case.iter(tag))
        marks = _guard_marks(captured + "\n" + _tmp_path_logs(basetemp, name))
        guard[test_id] = list(dict.fromkeys([*guard.get(test_id, []), *marks]))
    return Suite(result, outcomes, reasons, guard)


def run_suite(setup: Setup, workdir: Path, timeout: float, test_timeout: float, guard_variable: str | None) -> Suite:
    """The template's pytest run as configured in its pyproject.toml (slow tests included), plus: a JUnit report
    with each test's output and INFO logs (the guard announces each stage at INFO), its ``tmp_path`` folders kept
    in the work directory, and a time limit per test."""
    junit = workdir / "junit" / f"{setup.name}.xml"
    basetemp = workdir / "pytest-tmp" / setup.name
    junit.parent.mkdir(parents=True, exist_ok=True)
    basetemp.parent.mkdir(parents=True, exist_ok=True)  # pytest creates basetemp itself, not its parents
    args = [
        *(setup.python, "-m", "pytest", "-p", "no:cacheprovider", "--color=no", "-rA", "--log-level=INFO"),
        *(f"--junitxml={junit}", "-o", "junit_logging=all", f"--basetemp={basetemp}", f"--timeout={test_timeout:.0f}"),
    ]
    label = f"GRADMODE_GUARD={guard_variable} " if guard_variable else ""
    progress(f"template test suite in {setup.name}: {label}pytest (slow tests included, {test_timeout:.0f}s per test)")
    result = run(
        args, setup.root, workdir / "logs" / f"pytest-{setup.name}.log", env=setup.env(guard_variable), timeout=timeout
    )
    if not junit.is_file():
        raise SetupError(f"pytest in {setup.name} wrote no report ({result.status()}):\n{result.tail()}")
    suite = parse_junit(result, junit, basetemp)
    counts = suite.counts()
    guarded = sum(1 for marks in suite.guard.values() if marks)
    progress(
        f"  {setup.name}: {result.status()} in {result.seconds:.0f}s: "
        + ", ".join(f"{n} {k}" for k, n in counts.items())
        + f"; the guard showed up in {guarded} test(s)"
    )
    return suite


def compare_suites(plain: Suite, guarded: Suite, outcome: Outcome) -> None:
    changes = acceptance.outcome_changes(plain.outcomes, guarded.outcomes)
    tests, differ, regressions = changes.tests, changes.differ, changes.regressions
    width = max((len(t) for t in tests), default=10)
    print(f"\n{'template test':<{width}}  {'without guard':>13}  {'with guard':>10}  guard seen (with guard)")
    for test in tests:
        before, after = plain.outcomes.get(test, MISSING), guarded.outcomes.get(test, MISSING)
        flag = "  <- differs" if before != after else ""
        seen = ", ".join(guarded.guard.get(test, [])) or "-"
        print(f"{test:<{width}}  {before:>13}  {after:>10}  {seen}{flag}")
    print(f"{'-' * width}")
    for kind in KINDS:
        print(f"{kind:<{width}}  {plain.counts()[kind]:>13}  {guarded.counts()[kind]:>10}")
    print(f"{'wall time':<{width}}  {plain.run.seconds:>12.0f}s  {guarded.run.seconds:>9.0f}s")

    print(f"\n{len(differ)} test(s) with a different outcome" + (":" if differ else ""))
    for test in differ:
        print(f"  {test}: {plain.outcomes.get(test, MISSING)} -> {guarded.outcomes.get(test, MISSING)}")
        for label, suite in (("with guard", guarded), ("without", plain)):
            if test in suite.reasons:
                print(f"      {label}: {suite.reasons[test]}")
    same_not_passing = [t for t in tests if t not in differ and plain.outcomes.get(t) != PASSED]
    if same_not_passing:
        print("not passing in either run (same outcome):")
        for test in same_not_passing:
            print(f"  {test}: {plain.outcomes[test]}: {plain.reasons.get(test, '')}")
    leaked = [t for t, marks in plain.guard.items() if marks]
    if leaked:
        print(f"the guard showed up WITHOUT the guard in: {', '.join(leaked)}")
    print()

    outcome.check(
        "template tests: every test that passes without the guard passes with it",
        not regressions,
        f"{len(regressions)} regression(s)" + (f": {', '.join(regressions)}" if regressions else ""),
    )
    outcome.check("template tests without the guard never see it", not leaked, ", ".join(leaked) or "none did")
    # The comparison says something only if the suite runs here and the guard took part in it.
    seen = [t for t, marks in guarded.guard.items() if set(marks) & {"validation", "test", "predict"}]
    outcome.check("the template's suite runs here", plain.counts()[PASSED] > 0, f"{plain.counts()[PASSED]} passed")
    outcome.check("the guard checked stages in the suite", bool(seen), f"in {len(seen)} test(s): {', '.join(seen)}")
    for name, suite in (("without guard", plain), ("with guard", guarded)):
        counts = suite.counts()
        seen = sum(1 for marks in suite.guard.values() if marks)
        outcome.figures.append(
            f"template tests {name}: {counts[PASSED]} passed, {counts[FAILED]} failed, {counts[ERROR]} errors, "
            f"{counts[SKIPPED]} skipped in {suite.run.seconds:.0f}s ({suite.run.status()}); guard seen in {seen}; "
            f"log {suite.run.log}"
        )


# -- main ----------------------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = acceptance.argument_parser(
        __doc__,
        "--template",
        "a clone of lightning-hydra-template: its work tree, its .git folder or a bare clone (its HEAD is used)",
        "the exports, venvs, runs and logs",
    )
    parser.add_argument("--skip-suite", action="store_true", help="skip the template's test suite (both runs)")
    parser.add_argument(
        "--timeout",
        type=float,
        default=1800,
        help="limit in seconds for each command: training, evaluation, each pytest run (default 1800)",
    )
    parser.add_argument(
        "--test-timeout",
        type=float,
        default=600,
        help="limit in seconds for each template test, through pytest-timeout (default 600)",
    )
    return acceptance.parse_arguments(parser, argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    workdir = acceptance.open_workdir(args.workdir, "gradmode-template-")
    outcome = Outcome()
    try:
        status = run_checks(args, workdir, outcome)
    except SetupError as err:
        progress(f"SETUP FAILED: {err}")
        status = 2
    print("\n== summary ==")
    for line in outcome.figures:
        print(f"  {line}")
    for note in outcome.notes:
        print(f"  note: {note}")
    failed = [c for c in outcome.checks if not c.ok]
    for c in failed:
        print(f"  FAILED: {c.name}: {c.detail}")
    verdict = {0: "PASS", 1: "FAIL", 2: "SETUP FAILED"}[status]
    passed = len(outcome.checks) - len(failed)
    print(f"  {verdict}: {passed}/{len(outcome.checks)} checks passed in {acceptance.elapsed():.0f}s")
    acceptance.close_workdir(workdir, args.keep)
    return status


def run_checks(args: argparse.Namespace, workdir: Path, outcome: Outcome) -> int:
    progress(f"work directory {workdir}")
    plain = Setup("plain", workdir / "plain" / "lightning-hydra-template", workdir / "plain" / "venv", guarded=False)
    guarded = Setup(
        "guarded", workdir / "guarded" / "lightning-hydra-template", workdir / "guarded" / "venv", guarded=True
    )
    commit = ""
    for setup in (plain, guarded):
        commit = acceptance.export(args.template, "HEAD", setup.root)
    progress(f"exported lightning-hydra-template {commit[:12]} twice (plain, guarded)")
    outcome.figures.append(f"lightning-hydra-template {commit} from {args.template}")

    wheel = acceptance.build_wheel(args.project.resolve(), workdir)
    entry_points = acceptance.wheel_entry_points(wheel)
    has_factory = "callbacks_factory" in entry_points
    progress(
        f"built {wheel.name} (Lightning callback entry point for GRADMODE_GUARD: {'yes' if has_factory else 'no'})"
    )
    outcome.figures.append(
        f"{wheel.name}: Lightning callbacks_factory entry point {'present' if has_factory else 'absent'}"
    )

    reuse = acceptance.reused_site_packages(workdir / "reused-site-packages")
    for setup in (plain, guarded):
        progress(
            f"creating the {setup.name} venv (reusing {sysconfig.get_paths()['purelib']}, gradmode-plugin left out)"
        )
        acceptance.make_venv(
            setup.venv, reuse, workdir / "logs" / setup.name, TEMPLATE_PACKAGES, wheel if setup.guarded else None
        )
    defaults = add_guard_to_callbacks(guarded.root / "configs" / "callbacks" / "default.yaml")
    progress(f"guarded: configs/callbacks/default.yaml defaults are now [{defaults}]")

    raw = write_data(workdir, (plain.root, guarded.root))
    progress(f"wrote a fake MNIST (60,000 + 10,000 images, idx format) into data/MNIST/raw; torchvision reads {raw}")

    guard_overrides = list(GUARD_OVERRIDES)
    if "log_metrics" in shipped_guard_config(wheel):
        guard_overrides.append(LOG_COUNTS_OVERRIDE)
    best, test_acc = train_guarded(guarded, workdir, guard_overrides, args.timeout, outcome)
    if best is not None:
        for setup in (guarded, plain):
            evaluate(setup, best, test_acc, workdir, args.timeout, outcome)

    if args.skip_suite:
        progress("template test suite skipped (--skip-suite)")
    else:
        plain_suite = run_suite(plain, workdir, args.timeout, args.test_timeout, None)
        guarded_suite = run_suite(guarded, workdir, args.timeout, args.test_timeout, "record")
        compare_suites(plain_suite, guarded_suite, outcome)
    return 0 if outcome.ok else 1


if __name__ == "__main__":
    sys.exit(main())
