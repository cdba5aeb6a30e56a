r"""Lightning's own test suite, with and without the guard on every Trainer.

The recipe takes a clone of Lightning's repository (its work tree, its ``.git`` folder or a bare clone; nothing of
Lightning is copied into this project), exports the tests of a tag (default 2.6.5) with ``git archive`` and runs a
selection of them against the Lightning installed in this environment, twice:

- plain: ``pytest`` as Lightning's CI runs it (gradmode-plugin installed, its pytest plugin loaded but not asked for);
- guarded: ``pytest --gradmode=record --gradmode-json ...``: every Trainer the tests build gets a recording
  ``GradModeGuard`` through Lightning's ``lightning.pytorch.callbacks_factory`` entry point.

Then it compares the outcome of every test, and lists the violations the guards recorded. It fails when a test that
passes without the guard fails, errors or is missing with it, or when any violation was recorded. Tests that fail or
error in both runs are Lightning's or this environment's business (the tests of a tag run against another patch
release of Lightning, without GPU or network): they are listed, not counted against the guard.

The run is a frozen snapshot: a wheel of gradmode-plugin is built from a copy of the working tree when the recipe
starts and installed (``--no-deps``) into a fresh virtual environment, so the entry points come from the wheel and
later edits of the checkout change nothing. The venv reuses this interpreter's site-packages (torch, Lightning,
pytest, ...) through a ``.pth`` path entry to a folder of links that leaves gradmode-plugin's own editable install
out, and adds what Lightning's tests need on top, at the versions its ``requirements/pytorch/{test,extra}.txt``
allow (see ``TEST_PACKAGES``); a constraints file pins every reused distribution, so pip replaces none of them.

The plugin's JSON covers every guard of the session: those of pytest's own process (one per Trainer, whether or not
it ran a stage) and those of the processes the tests start (``strategy="ddp_spawn"``, subprocesses), whose
violations and checked batches the plugin collects through its spool folder; the recipe reports both, and lists
every distinct finding.

Usage (from the repository root, with the project's environment), after
``git clone https://github.com/Lightning-AI/pytorch-lightning ~/src/pytorch-lightning`` (it has the tags)::

    .venv/bin/python scripts/check_lightning_suite.py --lightning-git ~/src/pytorch-lightning   # 25-50 min on 2 cores
    .venv/bin/python scripts/check_lightning_suite.py --lightning-git ~/src/pytorch-lightning \
        --paths models/test_hooks.py trainer/flags --keep
    .venv/bin/python scripts/check_lightning_suite.py --lightning-git ~/src/pytorch-lightning \
        --workdir /tmp/lsuite --keep --timeout 600

``--paths`` are relative to ``tests/tests_pytorch`` (where Lightning's CI runs pytest). No ``--jobs``: with
pytest-xdist the gradmode table is kept per worker and the controller would report no guard at all.

Exit status: 0 when every test that passes without the guard passes with it and no violation was recorded (and the
guard did check evaluation batches); 1 otherwise; 2 when the setup failed (wheel, venv, export, or a pass that wrote
no report) or the command line is wrong (e.g. ``--lightning-git`` is not a git repository).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import sysconfig
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final
from xml.etree import ElementTree

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _acceptance as acceptance
from _acceptance import ERROR, FAILED, KINDS, MISSING, Run, SetupError, checked, progress, run

DEFAULT_TAG: Final[str] = "2.6.5"
#: Relative to tests/tests_pytorch: the evaluation loops, the trainer flags (limit_*_batches, val_check_interval,
#: inference_mode, ...), optimisation and clipping, logging inside evaluation, hook order, every callback, the module.
DEFAULT_PATHS: Final[tuple[str, ...]] = (
    "loops",
    "trainer/flags",
    "trainer/optimization",
    "trainer/logging_",
    "models/test_hooks.py",
    "callbacks",
    "core/test_lightning_module.py",
    "trainer/test_trainer.py",
)
#: What the selected tests need beyond this environment, and why; versions from the tag's requirement files.
TEST_PACKAGES: Final[dict[str, str]] = {
    "cloudpickle": "imported by callbacks/test_early_stopping.py, trainer/test_trainer.py, helpers/test_datasets.py",
    "scikit-learn": "helpers/datamodules.py (ClassifDataModule, RegressDataModule: RunIf(sklearn=True) tests)",
    "rich": "RunIf(rich=True) tests (progress bar, model summary, eval loop logging)",
    "psutil": "RunIf(psutil=True): callbacks/test_device_stats_monitor.py",
    "tensorboard": "the Trainer's default logger in Lightning's CI; TensorBoardLogger tests in trainer/logging_",
    "pytest-timeout": "the recipe's per-test limit (--timeout)",
    "pytest-rerunfailures": "@pytest.mark.flaky(reruns=3) under --strict-markers (callbacks/test_spike.py, ...)",
}
REQUIREMENT_FILES: Final[tuple[str, ...]] = ("requirements/pytorch/test.txt", "requirements/pytorch/extra.txt")
TESTS_DIR: Final[str] = "tests/tests_pytorch"

# -- Lightning's tests -----------------------------------------------------------------------------------------------


def export_tests(git_dir: Path, tag: str, dest: Path) -> str:
    """``tests/`` and ``pyproject.toml`` (its ``[tool.pytest.ini_options]``: markers, filterwarnings, addopts) of
    ``tag`` into ``dest``; returns the commit."""
    commit = acceptance.export(git_dir, tag, dest, ["tests", "pyproject.toml"])
    if not (dest / "pyproject.toml").is_file():
        raise SetupError(f"Lightning {tag} has no pyproject.toml: its pytest settings are missing")
    return commit


def requirement_specs(git_dir: Path, commit: str, names: Sequence[str]) -> dict[str, str]:
    """The requirement line for each of ``names`` in the tag's requirement files (markers evaluated here), or the
    bare name when they do not list it."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    wanted = {canonicalize_name(n): n for n in names}
    specs = dict(wanted.items())
    for path in REQUIREMENT_FILES:
        try:
            text = acceptance.git(git_dir, "show", f"{commit}:{path}").decode()
        except SetupError:
            continue
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            try:
                req = Requirement(line)
            except InvalidRequirement:
                continue
            key = canonicalize_name(req.name)
            if key in wanted and (req.marker is None or req.marker.evaluate()):
                specs[key] = f"{req.name}{req.specifier}"
    return {wanted[k]: v for k, v in specs.items()}


# -- the frozen gradmode-plugin and its environment ------------------------------------------------------------------


def _installed_version(name: str) -> str | None:
    """The version of distribution ``name`` in this environment, or None."""
    import importlib.metadata

    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def source_state(project: Path) -> str:
    """The commit the wheel's source tree is at, and how many files of the package differ from it (the copy is
    taken from the working tree, which may be ahead of the commit)."""
    head = subprocess.run(
        ["git", "-C", str(project), "rev-parse", "--short=12", "HEAD"], capture_output=True, text=True
    )
    if head.returncode != 0:
        return "not a git checkout"
    status = subprocess.run(
        ["git", "-C", str(project), "status", "--porcelain", "--", "gradmode_plugin", "pyproject.toml"],
        capture_output=True,
        text=True,
    )
    changed = len(status.stdout.splitlines())
    return f"commit {head.stdout.strip()}" + (f" + {changed} uncommitted file(s)" if changed else ", clean")


@dataclass
class Environment:
    venv: Path
    installed: dict[str, str] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def env(self) -> dict[str, str]:
        """The environment of pytest: the venv first on PATH, no PYTHONPATH, none of the guard's variables (the
        plugin sets GRADMODE_GUARD and its spool itself), none of Lightning's test-selection switches."""
        env = acceptance.venv_environ(
            self.venv, drop=("PL_RUN_STANDALONE_TESTS", "RUN_ONLY_CUDA_TESTS", "PL_RUN_TPU_TESTS")
        )
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        return env


def make_environment(workdir: Path, wheel: Path, packages: dict[str, str]) -> Environment:
    """The venv of both passes: the reused site-packages, ``packages`` (pinned around, by
    :func:`_acceptance.pin_distributions`) and the wheel; checked: gradmode-plugin and its two entry points come from
    the wheel, once each."""
    logs = workdir / "logs"
    venv = workdir / "venv"
    reuse = acceptance.reused_site_packages(workdir / "reused-site-packages")
    pins = acceptance.pin_distributions(workdir / "constraints.txt")
    acceptance.make_venv(venv, reuse, logs, list(packages.values()), wheel, constraints=pins)
    environment = Environment(venv)

    code = (
        "import json, importlib.metadata as m, gradmode_plugin, lightning, torch\n"
        "eps = [(g, e.name, e.value, str(e.dist.locate_file(''))) for g in ('pytest11',\n"
        "       'lightning.pytorch.callbacks_factory') for e in m.entry_points(group=g) if 'gradmode' in e.value]\n"
        "names = " + repr(sorted(packages)) + "\n"
        "print('ENV', json.dumps({'gradmode_plugin': gradmode_plugin.__file__, 'entry_points': eps,\n"
        "    'versions': {n: m.version(n) for n in ['torch', 'lightning', 'pytorch-lightning', 'pytest',\n"
        "                 'gradmode-plugin', *names]}}))\n"
    )
    result = checked(run([environment.python, "-c", code], workdir, logs / "venv-check.log"), "checking the venv")
    match = re.search(r"^ENV (.*)$", result.output, re.MULTILINE)
    if match is None:
        raise SetupError(f"checking the venv printed nothing:\n{result.tail()}")
    info = json.loads(match.group(1))
    if not Path(info["gradmode_plugin"]).is_relative_to(venv):
        raise SetupError(f"gradmode_plugin is imported from {info['gradmode_plugin']}, not from the wheel in {venv}")
    groups = Counter(group for group, *_ in info["entry_points"])
    foreign = [ep for ep in info["entry_points"] if not Path(ep[3]).is_relative_to(venv)]
    if groups != Counter({"pytest11": 1, "lightning.pytorch.callbacks_factory": 1}) or foreign:
        raise SetupError(f"expected gradmode's entry points once each, from the wheel: {info['entry_points']}")
    environment.versions = info["versions"]
    environment.installed = {name: info["versions"][name] for name in packages}
    return environment


# -- the two passes ------------------------------------------------------------------------------------------------


@dataclass
class Pass:
    """One pytest run over the selection: outcome and reason per test id (the pytest node id)."""

    name: str
    run: Run
    outcomes: dict[str, str]
    reasons: dict[str, str]
    gradmode: dict[str, Any] | None = None

    def counts(self, tests: Sequence[str] | None = None) -> dict[str, int]:
        return acceptance.count_outcomes(self.outcomes, tests)


def parse_junit(path: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Outcome and reason per node id (rebuilt from the xunit1 ``file``, ``classname`` and ``name``)."""
    outcomes: dict[str, str] = {}
    reasons: dict[str, str] = {}
    for case in ElementTree.parse(path).getroot().iter("testcase"):
        classname, name, file = case.get("classname", ""), case.get("name", ""), case.get("file", "")
        if file.endswith(".py"):
            module = file[:-3].replace("/", ".")
            inner = classname[len(module) + 1 :] if classname.startswith(module + ".") else ""
            test_id = "::".join([file, *([inner.replace(".", "::")] if inner else []), name])
        else:
            test_id = f"{classname}::{name}"
        outcome, element = acceptance.case_outcome(case)
        if acceptance.record_outcome(outcomes, test_id, outcome) and element is not None:
            text = (element.get("message") or element.text or "").strip()
            reasons[test_id] = " ".join(text.split())[:400]
    return outcomes, reasons


def run_pass(
    name: str,
    environment: Environment,
    lightning: Path,
    paths: Sequence[str],
    workdir: Path,
    args: argparse.Namespace,
    guarded: bool,
) -> Pass:
    junit = workdir / "junit" / f"{name}.xml"
    junit.parent.mkdir(parents=True, exist_ok=True)
    gradmode_json = workdir / "gradmode" / f"{name}.json"
    argv: list[str | Path] = [
        environment.python,
        "-m",
        "pytest",
        *paths,
        "-p",
        "no:cacheprovider",
        "--color=no",
        "-v",
        "-rfE",
        f"--junitxml={junit}",
        "-o",
        "junit_family=xunit1",
        f"--timeout={args.timeout:.0f}",
        *args.pytest_arg,
    ]
    if guarded:
        gradmode_json.parent.mkdir(parents=True, exist_ok=True)
        argv += ["--gradmode=record", f"--gradmode-json={gradmode_json}"]
    flags = "--gradmode=record " if guarded else ""
    progress(f"{name} pass: pytest {flags}{' '.join(paths)} ({args.timeout:.0f}s per test), log {name}.log")
    result = run(
        argv,
        lightning / TESTS_DIR,
        workdir / "logs" / f"pytest-{name}.log",
        env=environment.env(),
        timeout=args.run_timeout,
    )
    if not junit.is_file():
        raise SetupError(f"the {name} pass wrote no junit report ({result.status()}):\n{result.tail()}")
    outcomes, reasons = parse_junit(junit)
    data = json.loads(gradmode_json.read_text()) if guarded and gradmode_json.is_file() else None
    if guarded and data is None:
        raise SetupError(f"the {name} pass wrote no gradmode JSON ({result.status()}):\n{result.tail()}")
    this = Pass(name, result, outcomes, reasons, data)
    counts = this.counts()
    progress(
        f"  {name}: {result.status()} in {result.seconds:.0f}s: " + ", ".join(f"{n} {k}" for k, n in counts.items())
    )
    return this


# -- report --------------------------------------------------------------------------------------------------------


def short(test: str) -> str:
    return test.removeprefix(f"{TESTS_DIR}/")


def selected_path(test: str, paths: Sequence[str]) -> str:
    rel = short(test)
    for path in paths:
        if rel == path or rel.startswith(path.rstrip("/") + "/") or rel.startswith(path + "::"):
            return path
    return "(other)"


def compare(plain: Pass, guarded: Pass, paths: Sequence[str]) -> tuple[acceptance.OutcomeChanges, list[str]]:
    """Print the comparison; return (how the outcomes changed, violation lines)."""
    changes = acceptance.outcome_changes(plain.outcomes, guarded.outcomes)
    tests, differ, regressions = changes.tests, changes.differ, changes.regressions
    print("\n== outcomes ==")
    print(f"{'':<34} {'without guard':>14} {'with guard':>11}")
    pc, gc = plain.counts(), guarded.counts()
    for kind in KINDS:
        print(f"{kind:<34} {pc[kind]:>14} {gc[kind]:>11}")
    print(f"{'tests':<34} {len(plain.outcomes):>14} {len(guarded.outcomes):>11}")
    print(f"{'wall time':<34} {plain.run.seconds:>13.0f}s {guarded.run.seconds:>10.0f}s")
    print(f"{'pytest exit status':<34} {plain.run.status():>14} {guarded.run.status():>11}")

    print("\nper path (passed/failed/errors/skipped):")
    for path in [*paths, "(other)"]:
        chosen = [t for t in tests if selected_path(t, paths) == path]
        if not chosen:
            continue
        a, b = plain.counts(chosen), guarded.counts(chosen)
        print(f"  {path:<32} {'/'.join(str(a[k]) for k in KINDS):>14} {'/'.join(str(b[k]) for k in KINDS):>11}")

    data = guarded.gradmode or {}
    rows = list(data.get("findings", []))
    batches, child_batches = int(data.get("batches", 0)), int(data.get("child_batches", 0))
    print("\n== the guard ==")
    print(
        f"the plugin: {data.get('guards', 0)} guard(s) in pytest's process (every guard built, stage or not) and "
        f"{data.get('child_guards', 0)} in {data.get('child_processes', 0)} child process(es) that ran one; "
        f"{batches} evaluation batch(es) checked ({batches - child_batches} in pytest's process, {child_batches} in "
        f"child processes); {data.get('violations', 0)} violation(s), {len(rows)} distinct, in "
        f"{len({r['test'] for r in rows})} test(s)"
    )
    violation_lines = []
    for row in rows:
        where = str(row.get("where", "")).split(" <- ")[0]
        violation_lines.append(
            f"{short(row['test'])} | {row['stage']} | {row['kind']} | batch {row['batch']} | {where} | {row['seen']}"
        )
    by_kind = Counter(line.split(" | ")[2] for line in violation_lines)
    if by_kind:
        print("violations by kind: " + ", ".join(f"{k}={n}" for k, n in sorted(by_kind.items())))
    for line in violation_lines:
        print(f"  {line}")

    print(f"\n== {len(differ)} test(s) with a different outcome ({len(regressions)} pass only without the guard) ==")
    for test in differ:
        print(
            f"  {short(test)}: without guard {plain.outcomes.get(test, MISSING)}, with guard "
            f"{guarded.outcomes.get(test, MISSING)}"
        )
        if test in guarded.reasons:
            print(f"      with guard: {guarded.reasons[test]}")
        if test in plain.reasons:
            print(f"      without:    {plain.reasons[test]}")

    both = [t for t in tests if t not in differ and plain.outcomes.get(t) in (FAILED, ERROR)]
    print(
        f"\n== {len(both)} test(s) failing or erroring in both runs (Lightning {DEFAULT_TAG}-vs-installed or "
        "environment issues, not counted against the guard) =="
    )
    for test in both:
        print(f"  {short(test)}: {plain.outcomes[test]}: {plain.reasons.get(test, '')[:240]}")
    return changes, violation_lines


# -- main ----------------------------------------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = acceptance.argument_parser(
        __doc__,
        "--lightning-git",
        "a clone of https://github.com/Lightning-AI/pytorch-lightning with its tags: its work tree, its .git folder or "
        "a bare clone",
        "the wheel, venv, export, reports and logs",
    )
    parser.add_argument("--tag", default=DEFAULT_TAG, help=f"the tag whose tests run (default {DEFAULT_TAG})")
    parser.add_argument(
        "--paths",
        nargs="+",
        default=list(DEFAULT_PATHS),
        help="test files or folders relative to tests/tests_pytorch (default: %(default)s)",
    )
    parser.add_argument(
        "--timeout", type=float, default=300, help="limit per test in seconds, through pytest-timeout (default 300)"
    )
    parser.add_argument(
        "--run-timeout", type=float, default=4 * 3600, help="limit per pytest pass in seconds (default 14400)"
    )
    parser.add_argument(
        "--pytest-arg",
        action="append",
        default=[],
        metavar="ARG",
        help="an extra argument for both pytest passes, e.g. --pytest-arg=-k --pytest-arg=early_stopping (repeat)",
    )
    return acceptance.parse_arguments(parser, argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    return acceptance.run_check(args, "gradmode-lightning-suite-", check)


def check(args: argparse.Namespace, workdir: Path) -> int:
    progress(f"work directory {workdir}")
    source = source_state(args.project.resolve())
    wheel = acceptance.build_wheel(args.project.resolve(), workdir, ("pytest11", "lightning.pytorch.callbacks_factory"))
    progress(f"built {wheel.name} from a copy of {args.project.resolve()} ({source})")

    lightning = workdir / "lightning"
    commit = export_tests(args.lightning_git, args.tag, lightning)
    progress(f"exported tests/ and pyproject.toml of Lightning {args.tag} ({commit[:12]}) into {lightning}")
    missing = [p for p in args.paths if not (lightning / TESTS_DIR / p).exists()]
    if missing:
        raise SetupError(f"not in {TESTS_DIR} of {args.tag}: {', '.join(missing)}")

    packages = requirement_specs(args.lightning_git, commit, list(TEST_PACKAGES))
    # A package this environment already has is reused at its version (the constraints pin every reused
    # distribution, so asking pip for the tag's range of it could only conflict).
    reused = {name: spec for name, spec in packages.items() if _installed_version(name) is not None}
    if reused:
        progress("reused at this environment's version: " + ", ".join(f"{n} {_installed_version(n)}" for n in reused))
    packages = {name: spec for name, spec in packages.items() if name not in reused}
    progress(
        f"creating the venv: reusing {sysconfig.get_paths()['purelib']} (gradmode-plugin left out), adding "
        + ", ".join(packages.values())
    )
    environment = make_environment(workdir, wheel, packages)
    progress("venv ready: " + ", ".join(f"{k} {v}" for k, v in environment.versions.items()))

    plain = run_pass("plain", environment, lightning, args.paths, workdir, args, guarded=False)
    guarded = run_pass("guarded", environment, lightning, args.paths, workdir, args, guarded=True)

    print(f"\nLightning {args.tag} ({commit[:12]}) tests {' '.join(args.paths)}")
    print(
        f"against lightning {environment.versions.get('lightning')}, torch {environment.versions.get('torch')}, "
        f"pytest {environment.versions.get('pytest')}, gradmode-plugin {environment.versions.get('gradmode-plugin')} "
        f"({wheel.name}, from {source})"
    )
    changes, violations = compare(plain, guarded, args.paths)
    regressions = changes.regressions

    data = guarded.gradmode or {}
    checked_batches = int(data.get("batches", 0))
    verdicts = [
        (not regressions, f"{len(regressions)} test(s) pass without the guard and not with it"),
        (not violations, f"{len(violations)} distinct finding(s) recorded"),
        (checked_batches > 0, f"the guard checked {checked_batches} evaluation batch(es)"),
        (plain.run.returncode is not None and guarded.run.returncode is not None, "both passes ran to completion"),
    ]
    summary = {
        "tag": args.tag,
        "commit": commit,
        "paths": list(args.paths),
        "versions": environment.versions,
        "wheel": wheel.name,
        "source": source,
        "passes": {
            p.name: {
                "seconds": round(p.run.seconds),
                "status": p.run.status(),
                "counts": p.counts(),
                "log": str(p.run.log),
            }
            for p in (plain, guarded)
        },
        "guard": {
            "guards": data.get("guards", 0),
            "batches": data.get("batches", 0),
            "child_processes": data.get("child_processes", 0),
            "child_guards": data.get("child_guards", 0),
            "child_batches": data.get("child_batches", 0),
        },
        "violations": violations,
        "regressions": regressions,
        "differ": {t: [plain.outcomes.get(t, MISSING), guarded.outcomes.get(t, MISSING)] for t in changes.differ},
    }
    (workdir / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    print("\n== verdict ==")
    for ok, text in verdicts:
        print(f"  {'ok  ' if ok else 'FAIL'} {text}")
    print(f"  summary: {workdir / 'summary.json'}; logs: {workdir / 'logs'}; total {acceptance.elapsed():.0f}s")
    return 0 if all(ok for ok, _ in verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
