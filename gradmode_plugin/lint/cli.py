"""The ``gradmode-lint`` command: ``gradmode-lint [PATH ...]``; exit 0 when clean, 1 with findings, 2 on a usage
error (a bad option, a missing path, invalid settings).

Example:
    $ gradmode-lint src tests --format github
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from gradmode_plugin.lint.config import KEYS, TABLE, ConfigError, load_settings
from gradmode_plugin.lint.files import SKIPPED_FOLDERS, python_files
from gradmode_plugin.lint.output import FORMATS, render
from gradmode_plugin.lint.project import Project
from gradmode_plugin.lint.rules import RULES, Rule, select_codes
from gradmode_plugin.lint.runner import MIN_FILES_PER_JOB, lint_files, usable_cpus

EXIT_CLEAN, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


def _codes(value: str) -> list[str]:
    return [code for code in value.replace(" ", ",").split(",") if code]


def _jobs(value: str) -> int:
    if value == "auto":
        return usable_cpus()
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number of processes: give a whole number >= 1 or auto")
    return jobs


def _parser() -> argparse.ArgumentParser:
    settings = "; ".join(f"{key}: {meaning}" for key, meaning in KEYS.items())
    parser = argparse.ArgumentParser(
        prog="gradmode-lint",
        description="Static check for evaluation code that trains or records gradients (dropout left on, .train() "
        "in a validation step, enable_grad, eval() without no_grad, ...). Standard library only: no torch import.",
        epilog=f"Settings: [tool.{TABLE}] in pyproject.toml ({settings}). Folders walked skip hidden ones and "
        f"{', '.join(sorted(SKIPPED_FOLDERS))}. Silence one line with '# noqa: GM101'.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files and folders to check (default: .)")
    parser.add_argument(
        "--select",
        type=_codes,
        metavar="CODES",
        help="codes or prefixes to check, e.g. GM1,GM201 (default: every rule but the opt-in GM401)",
    )
    parser.add_argument("--ignore", type=_codes, default=[], metavar="CODES", help="codes or prefixes not to check")
    parser.add_argument("--format", choices=sorted(FORMATS), default="text", help="output format (default: text)")
    parser.add_argument("--config", type=Path, metavar="PYPROJECT", help="the pyproject.toml to read settings from")
    parser.add_argument("--exclude", type=_codes, default=[], metavar="PATTERNS", help="further paths to skip")
    parser.add_argument(
        "--eval-functions", type=_codes, default=[], metavar="NAMES", help="further evaluation function names"
    )
    parser.add_argument(
        "--tests",
        action="store_true",
        help="also check test code for GM402, GM501, GM502, GM503 and GM801 (off there by default)",
    )
    parser.add_argument(
        "-j",
        "--jobs",
        type=_jobs,
        default="auto",
        metavar="N",
        help=f"check files on N processes at once, or auto: one per usable CPU (the default); at most one per "
        f"{MIN_FILES_PER_JOB} files. The findings are the same whatever N is",
    )
    parser.add_argument("--list-rules", action="store_true", help="print the rules and exit")
    parser.add_argument("--exit-zero", action="store_true", help="exit 0 even with findings")
    return parser


def _list_rules() -> str:
    def opt_in(rule: Rule) -> str:
        return f" (opt-in: --select {rule.code})" if rule.opt_in else ""

    return "".join(f"{rule.code}  {rule.kind or '-':<13} {rule.what}{opt_in(rule)}\n" for rule in RULES)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.list_rules:
        sys.stdout.write(_list_rules())
        return EXIT_CLEAN
    try:
        settings = load_settings(args.config)
        codes = select_codes(
            args.select if args.select is not None else settings.select, [*settings.ignore, *args.ignore]
        )
    except (ConfigError, ValueError) as err:
        parser.exit(EXIT_USAGE, f"gradmode-lint: error: {err}\n")
    paths = args.paths or ["."]
    missing = [path for path in paths if not Path(path).exists()]
    if missing:
        parser.exit(EXIT_USAGE, f"gradmode-lint: error: no such file or folder: {', '.join(missing)}\n")
    exclude = [*settings.exclude, *args.exclude]
    files = list(python_files(paths, exclude, settings.root))
    # files named one by one (a pre-commit hook's changed files): their callers are in the rest of the project
    rest = (lambda: python_files(["."], exclude, settings.root)) if any(Path(p).is_file() for p in paths) else None
    result = lint_files(
        files,
        codes,
        (*settings.eval_functions, *args.eval_functions),
        settings.tests or args.tests,
        args.jobs,
        Project(files, rest),
    )
    sys.stdout.write(render(result.findings, args.format))
    for path, reason in result.unparsable:
        sys.stderr.write(f"gradmode-lint: {path}: skipped, {reason}\n")
    for path, reason, count in result.stale:
        sys.stderr.write(f"gradmode-lint: {path}: {count} finding(s) left out, {reason}\n")
    if args.format == "text":
        skipped = f", {len(result.unparsable)} not checked" if result.unparsable else ""
        if result.stale:
            skipped += f", {len(result.stale)} left out (cannot run as written)"
        sys.stderr.write(
            f"gradmode-lint: {len(result.findings)} finding(s) in {len({f.path for f in result.findings})} "
            f"file(s), {result.files - len(result.unparsable)} file(s) checked{skipped}\n"
        )
    # a file that could not be read was not checked: not a clean run
    failed = result.findings or result.unparsable
    return EXIT_FINDINGS if failed and not args.exit_zero else EXIT_CLEAN
