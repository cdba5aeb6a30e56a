"""Shared machinery of the acceptance checks ``check_template.py`` and ``check_lightning_suite.py``.

Both checks run someone else's project (lightning-hydra-template, Lightning's own test suite) unmodified against a
frozen gradmode-plugin, once without and once with the guard, and compare what a user would see. What they share
lives here, once:

- console progress with the time since start, and :class:`SetupError` for "could not prepare what is checked"
  (exit status 2 in both);
- :func:`run`: a command in its own process group, output into a log file, the whole group killed on time-out;
- the other project's repository: :func:`git_directory` (an argparse type that accepts a clone's work tree, its
  ``.git`` folder or a bare repository), :func:`git` and :func:`export` (``git archive`` of a revision, checked);
- the frozen plugin and its environment: :func:`build_wheel` (from a copy of the checkout), and :func:`make_venv`,
  a virtual environment that reuses this interpreter's site-packages through a ``.pth`` path entry to a folder of
  links (:func:`reused_site_packages`, gradmode-plugin left out) and installs the wheel regularly;
- JUnit reports: outcomes (:data:`PASSED` ...), :func:`case_outcome`, :func:`record_outcome`, :func:`count_outcomes`,
  and :func:`outcome_changes` between the run without the guard and the run with it;
- the command line (:func:`argument_parser`: the repository, ``--workdir``, ``--keep``, ``--project``) and the
  work directory's life.

Private to ``scripts/``: imported by the checks, never by gradmode-plugin.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Final
from xml.etree import ElementTree

#: The gradmode-plugin checkout these scripts belong to: the default source tree of the wheel.
PROJECT: Final[Path] = Path(__file__).resolve().parents[1]

ANSI: Final[re.Pattern[str]] = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")

PASSED, FAILED, ERROR, SKIPPED, MISSING = "passed", "failed", "error", "skipped", "missing"
#: The outcomes a JUnit report can give a test, in the order the tables print them.
KINDS: Final[tuple[str, ...]] = (PASSED, FAILED, ERROR, SKIPPED)
_SEVERITY: Final[dict[str, int]] = {SKIPPED: 0, PASSED: 1, ERROR: 2, FAILED: 3}

# Git's own variables would point every git command at another repository than the one asked for.
_GIT_VARIABLES: Final[tuple[str, ...]] = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR")

_START: Final[float] = time.monotonic()


def elapsed() -> float:
    """Seconds since the check started (since this module was imported, at the script's start)."""
    return time.monotonic() - _START


def progress(message: str) -> None:
    """A progress line with the time since start; flushed, as the checks run for many minutes."""
    print(f"[{elapsed():7.1f}s] {message}", flush=True)


class SetupError(RuntimeError):
    """The check could not prepare or run what it checks (exit status 2)."""


# -- commands ------------------------------------------------------------------------------------------------------


@dataclass
class Run:
    """One finished command: exit status (``None`` after the time limit), output (also in ``log``), seconds, and the
    process id (which tells its spool files from those of the processes it started)."""

    args: list[str]
    returncode: int | None
    output: str
    seconds: float
    log: Path
    pid: int = 0

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def status(self) -> str:
        return f"timed out after {self.seconds:.0f}s" if self.returncode is None else f"exit {self.returncode}"

    def tail(self, lines: int = 25) -> str:
        """The last ``lines`` lines of the output, indented for a progress message."""
        return "\n".join("    " + line for line in self.output.rstrip().splitlines()[-lines:])


def run(
    args: Sequence[str | Path], cwd: Path, log: Path, env: Mapping[str, str] | None = None, timeout: float = 900
) -> Run:
    """Run a command in its own process group, stdout and stderr into ``log``; ANSI colour codes are removed from
    the output. On time-out the whole group is killed, the processes the command started included."""
    argv = [str(a) for a in args]
    log.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    with log.open("w") as out:
        out.write(f"$ cd {cwd} && {' '.join(argv)}\n")
        out.flush()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            returncode: int | None = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            returncode = None
        # Whatever is left running in the group (spawned workers, a hung training run's loaders) goes too.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    output = ANSI.sub("", log.read_text(errors="replace"))
    return Run(argv, returncode, output, time.monotonic() - start, log, proc.pid)


def checked(result: Run, what: str) -> Run:
    """``result`` when it exited 0; else a :class:`SetupError` naming ``what``, the log and the output's tail."""
    if not result.ok:
        raise SetupError(f"{what} failed ({result.status()}), log {result.log}:\n{result.tail()}")
    return result


# -- the other project's repository --------------------------------------------------------------------------------


def _git_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in _GIT_VARIABLES}


def _rev_parse(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "-C", str(path), "rev-parse", *args], capture_output=True, text=True, env=_git_env(), check=False
    )


def git_directory(value: str | Path) -> Path:
    """The git directory of a repository given as a clone's work tree, its ``.git`` folder or a bare repository.

    An argparse ``type``: anything else is an :class:`argparse.ArgumentTypeError`, which argparse reports as a usage
    error. A folder inside a repository is refused too (git would answer for the enclosing repository).
    """
    path = Path(value).expanduser()
    what = "a clone's work tree, its .git folder or a bare repository"
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"{path} is not a folder (expected {what})")
    found = _rev_parse(path, "--absolute-git-dir")
    if found.returncode != 0:
        raise argparse.ArgumentTypeError(f"{path} is not a git repository ({what}): {found.stderr.strip()}")
    git_dir = Path(found.stdout.strip())
    if git_dir.resolve() == path.resolve():  # a .git folder or a bare repository
        return git_dir
    top = _rev_parse(path, "--show-toplevel")
    if top.returncode == 0 and Path(top.stdout.strip()).resolve() == path.resolve():  # a work tree
        return git_dir
    where = top.stdout.strip() if top.returncode == 0 else git_dir
    raise argparse.ArgumentTypeError(f"{path} is a folder inside the git repository {where}, not the repository")


def git(git_dir: Path, *args: str) -> bytes:
    """The output of ``git --git-dir git_dir args...``; a :class:`SetupError` when it fails."""
    proc = subprocess.run(["git", "--git-dir", str(git_dir), *args], capture_output=True, env=_git_env(), check=False)
    if proc.returncode != 0:
        raise SetupError(f"git {' '.join(args)} failed: {proc.stderr.decode(errors='replace').strip()}")
    return proc.stdout


def export(git_dir: Path, revision: str, dest: Path, paths: Sequence[str] = ()) -> str:
    """Write ``paths`` (default: the whole tree) of ``revision`` into ``dest`` (created) with ``git archive``;
    return the commit. Nothing of the repository is copied elsewhere, and nothing is written into it.

    Checked: ``dest`` holds as many files (links included) as git lists for them, so a partial extraction, or an
    ``export-ignore`` attribute that leaves files out, cannot go unnoticed.
    """
    commit = git(git_dir, "rev-parse", "--verify", f"{revision}^{{commit}}").decode().strip()
    dest.mkdir(parents=True)
    archive = git(git_dir, "archive", "--format=tar", commit, *paths)
    # tar rather than tarfile: it restores the archive's symbolic links as they are, wherever they point.
    extract = subprocess.run(["tar", "-xf", "-", "-C", str(dest)], input=archive, capture_output=True, check=False)
    if extract.returncode != 0:
        raise SetupError(f"extracting {revision} into {dest} failed: {extract.stderr.decode(errors='replace').strip()}")
    listing = git(git_dir, "ls-tree", "-r", "-z", commit, "--", *paths).split(b"\0")
    expected = sum(1 for entry in listing if entry.split(b" ", 2)[1:2] == [b"blob"])  # submodules are not exported
    found = sum(1 for p in dest.rglob("*") if p.is_file() or p.is_symlink())
    if found != expected:
        raise SetupError(f"export of {revision} into {dest}: {found} files, git lists {expected}")
    return commit


# -- the frozen gradmode-plugin and its environment ----------------------------------------------------------------


def wheel_text(wheel: Path, suffix: str) -> str:
    """The first file of ``wheel`` whose name ends with ``suffix``, as text (empty when there is none): what the
    wheel ships decides what a check can ask of it, e.g. an option of the guard's config."""
    with zipfile.ZipFile(wheel) as archive:
        names = [n for n in archive.namelist() if n.endswith(suffix)]
        return archive.read(names[0]).decode() if names else ""


def wheel_entry_points(wheel: Path) -> str:
    """The wheel's ``entry_points.txt`` (empty when it has none)."""
    return wheel_text(wheel, ".dist-info/entry_points.txt")


def build_wheel(project: Path, workdir: Path, required_groups: Iterable[str] = ()) -> Path:
    """A wheel of gradmode-plugin built from a copy of ``project`` (nothing is written into the checkout, and later
    edits of it change nothing); a :class:`SetupError` when it lacks an entry point group of ``required_groups``."""
    src = workdir / "gradmode-src"
    ignore = shutil.ignore_patterns(
        ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "outputs", "multirun"
    )
    shutil.copytree(project, src, ignore=ignore)
    out = workdir / "wheel"
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", out, src]
    checked(run(pip_wheel, workdir, workdir / "logs" / "pip-wheel.log"), "building the gradmode-plugin wheel")
    wheels = sorted(out.glob("gradmode_plugin-*.whl"))
    if len(wheels) != 1:
        raise SetupError(f"expected one gradmode_plugin wheel in {out}, found {wheels}")
    entry_points = wheel_entry_points(wheels[0])
    for group in required_groups:
        if f"[{group}]" not in entry_points:
            raise SetupError(f"{wheels[0].name} declares no [{group}] entry point: the guard could not be dropped in")
    return wheels[0]


def _own_entry(name: str) -> bool:
    """An entry of site-packages that belongs to gradmode-plugin (regular or editable install), or a .pth file
    (inert in a plain path entry anyway)."""
    return "gradmode_plugin" in name.lower().replace("-", "_") or name.endswith(".pth")


def reused_site_packages(dest: Path) -> Path:
    """A folder of links to everything installed in this interpreter's site-packages except gradmode-plugin.

    A new venv reads it through a ``.pth`` path entry, so torch, Lightning, Hydra and pytest are not installed
    again. Leaving gradmode-plugin out matters: its metadata (entry points for Lightning and pytest) would otherwise
    reach a setup meant to run without it, and add a second set of entry points next to the wheel's.
    """
    dest.mkdir(parents=True)
    for site in sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}):
        for entry in sorted(Path(site).iterdir()):
            if _own_entry(entry.name) or (dest / entry.name).exists():
                continue
            if entry.name == "hydra_plugins" and entry.is_dir():  # a namespace package shared by plugins
                (dest / entry.name).mkdir()
                for plugin in entry.iterdir():
                    if not plugin.name.startswith("gradmode"):
                        (dest / entry.name / plugin.name).symlink_to(plugin)
                continue
            (dest / entry.name).symlink_to(entry)
    return dest


def make_venv(
    venv: Path,
    reuse: Path,
    logs: Path,
    requirements: Sequence[str],
    wheel: Path | None,
    constraints: Path | None = None,
    timeout: float = 1800,
) -> Path:
    """A venv that sees the packages linked from ``reuse`` (see :func:`reused_site_packages`), plus
    ``requirements`` (pip, under ``constraints`` when given), plus ``wheel`` installed regularly: not editable, so
    Hydra 1.3 finds its search-path plugin, and with ``--no-deps`` so it changes nothing else. Returns the venv's
    site-packages folder; the logs go to ``logs/{venv,pip-install,pip-install-wheel}.log``."""
    checked(run([sys.executable, "-m", "venv", "--without-pip", venv], venv.parent, logs / "venv.log"), "venv")
    python = venv / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            cwd=venv,
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # A plain path entry, not a site dir: the .pth files of the parent environment stay inactive there.
    (purelib / "zz_reuse_parent_site_packages.pth").write_text(f"{reuse}\n")
    # pip itself comes from the parent environment too; it installs into the new venv (sys.prefix).
    pip: list[str | Path] = [python, "-m", "pip", "install", "--disable-pip-version-check"]
    if requirements:
        options = ["-c", constraints] if constraints is not None else []
        install = [*pip, *options, *requirements]
        checked(run(install, venv.parent, logs / "pip-install.log", timeout=timeout), "pip install")
    if wheel is not None:
        install = [*pip, "--no-deps", "--no-index", wheel]
        checked(run(install, venv.parent, logs / "pip-install-wheel.log"), "installing the gradmode-plugin wheel")
        # Where it is found, without importing it (an import error is the guard's to report, in the runs).
        code = "import importlib.util; print(importlib.util.find_spec('gradmode_plugin').origin)"
        where = subprocess.run([python, "-c", code], cwd=venv, capture_output=True, text=True, check=False)
        if not Path(where.stdout.strip()).is_relative_to(venv):
            raise SetupError(f"gradmode_plugin is not found in {venv}: {where.stdout.strip()} {where.stderr.strip()}")
    return purelib


def pin_distributions(dest: Path) -> Path:
    """Write ``name==version`` for every distribution of this environment but gradmode-plugin into ``dest``, as pip
    constraints: pip may add packages to a new venv, never replace (shadow) torch, numpy, pytest or Lightning."""
    pins = set()
    for dist in metadata.distributions():
        name = dist.metadata["Name"]
        if name and name.lower().replace("_", "-") != "gradmode-plugin":
            pins.add(f"{name}=={dist.version}")
    dest.write_text("\n".join(sorted(pins, key=str.lower)) + "\n")
    return dest


def venv_environ(venv: Path, drop: Iterable[str] = ()) -> dict[str, str]:
    """This process's environment for the commands of ``venv``: its ``bin`` first on PATH (tests that run
    ``python`` get the venv's), unbuffered output, and none of PYTHONPATH, PYTHONHOME, the guard's ``GRADMODE_*``
    variables (each run sets those it wants) and ``drop``."""
    dropped = {"PYTHONPATH", "PYTHONHOME", *drop}
    env = {k: v for k, v in os.environ.items() if k not in dropped and not k.startswith("GRADMODE_")}
    env["VIRTUAL_ENV"] = str(venv)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    env["PYTHONUNBUFFERED"] = "1"
    return env


# -- JUnit reports -------------------------------------------------------------------------------------------------


def case_outcome(case: ElementTree.Element) -> tuple[str, ElementTree.Element | None]:
    """The outcome of a JUnit ``<testcase>`` and the element that says why it did not pass (``None`` when it
    passed): a failure outweighs an error, an error a skip."""
    for tag, kind in (("failure", FAILED), ("error", ERROR), ("skipped", SKIPPED)):
        element = case.find(tag)
        if element is not None:
            return kind, element
    return PASSED, None


def record_outcome(outcomes: MutableMapping[str, str], test_id: str, outcome: str) -> bool:
    """Record ``outcome`` for ``test_id`` unless it already has a worse one; return whether it was recorded.

    A test can stand twice in a report (a failed call and an error in teardown): the worse outcome wins.
    """
    if _SEVERITY[outcome] < _SEVERITY[outcomes.get(test_id, SKIPPED)]:
        return False
    outcomes[test_id] = outcome
    return True


def count_outcomes(outcomes: Mapping[str, str], tests: Iterable[str] | None = None) -> dict[str, int]:
    """How many of ``tests`` (default: all) had each outcome of :data:`KINDS` (a missing test counts in none)."""
    counter = Counter(outcomes.values() if tests is None else (outcomes.get(t, MISSING) for t in tests))
    return {kind: counter.get(kind, 0) for kind in KINDS}


@dataclass(frozen=True)
class OutcomeChanges:
    """How the outcomes of a run with the guard differ from those of the run without it."""

    tests: list[str]  # every test of either run, sorted
    differ: list[str]  # tests whose outcome differs (a test missing from one run differs)
    regressions: list[str]  # of them, tests that pass without the guard and not with it


def outcome_changes(without: Mapping[str, str], with_guard: Mapping[str, str]) -> OutcomeChanges:
    """Compare the outcomes per test id of the run without the guard and the run with it."""
    tests = sorted(set(without) | set(with_guard))
    differ = [t for t in tests if without.get(t, MISSING) != with_guard.get(t, MISSING)]
    regressions = [t for t in differ if without.get(t) == PASSED]
    return OutcomeChanges(tests, differ, regressions)


# -- the command line ----------------------------------------------------------------------------------------------


def argument_parser(
    doc: str | None, repo_option: str, repo_help: str, workdir_contents: str
) -> argparse.ArgumentParser:
    """A parser with the options both checks have: the other project's repository (``repo_option``, required; see
    :func:`git_directory`), ``--workdir`` (what goes there: ``workdir_contents``), ``--keep`` and ``--project``. Its
    description is the first paragraph of ``doc`` (the script's docstring)."""
    parser = argparse.ArgumentParser(
        description=(doc or "").split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(repo_option, type=git_directory, required=True, metavar="REPO", help=repo_help)
    parser.add_argument(
        "--workdir",
        type=Path,
        default=None,
        help=f"where {workdir_contents} go (default: a new temporary directory); must not exist or be empty",
    )
    parser.add_argument("--keep", action="store_true", help="keep the work directory (default: removed at the end)")
    parser.add_argument(
        "--project",
        type=Path,
        default=PROJECT,
        help=f"the gradmode-plugin source tree the wheel is built from (default: this checkout, {PROJECT})",
    )
    return parser


def parse_arguments(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse ``argv``; a ``--workdir`` that is a file or not empty is a usage error (exit status 2), as the check
    removes its work directory at the end and nothing already there may be lost."""
    args = parser.parse_args(argv)
    workdir = args.workdir
    if workdir is not None and workdir.exists() and (not workdir.is_dir() or any(workdir.iterdir())):
        parser.error(f"--workdir {workdir} exists and is not an empty folder")
    return args


def open_workdir(requested: Path | None, prefix: str) -> Path:
    """The work directory: ``requested`` (created when missing) or a new temporary one, as an absolute path."""
    workdir = (requested or Path(tempfile.mkdtemp(prefix=prefix))).resolve()
    workdir.mkdir(parents=True, exist_ok=True)
    return workdir


def close_workdir(workdir: Path, keep: bool) -> None:
    """Remove the work directory, or say where it is kept."""
    if keep:
        print(f"work directory kept: {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)


def run_check(args: argparse.Namespace, prefix: str, check: Callable[[argparse.Namespace, Path], int]) -> int:
    """``check(args, workdir)`` in the work directory ``args.workdir`` names (or a new one starting with ``prefix``):
    its exit status, or 2 after a :class:`SetupError` (said as a progress line); the folder removed unless
    ``args.keep``."""
    workdir = open_workdir(args.workdir, prefix)
    try:
        status = check(args, workdir)
    except SetupError as err:
        progress(f"SETUP FAILED: {err}")
        status = 2
    close_workdir(workdir, args.keep)
    return status
