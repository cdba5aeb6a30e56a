"""The command-line run (``gradmode-train``, ``python scripts/train.py``): a Hydra app over ``configs/train.yaml``.

It builds the datamodule, model, callbacks (the guard among them), loggers and trainer from the config, runs fit,
validate, test and predict, writes the guard's report as JSON to the run directory and prints a per-stage summary;
a sweep (``-m``) ends with one line per job. Exit status, one meaning each (a sweep: 1 when the guard stopped any
job, else the largest of its jobs):

- 0: every run finished;
- 1: the guard stopped a run (a ``GradModeViolation``);
- 2: a mistake in the settings or the data, told in a few lines (``HYDRA_FULL_ERROR=1`` shows the traceback
  instead), whether Hydra found it while composing the config (a bad value, a misspelled key, a missing config)
  or the app did;
- 3: any other error, a bug somewhere, with its traceback.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import logging
import os
import sys
import traceback
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from omegaconf import DictConfig, ListConfig, OmegaConf

from gradmode_plugin.hydra.schema import CONFIGS_PACKAGE, OPTIONS, GradModeGuardConf, unknown_options

if TYPE_CHECKING:
    from gradmode_plugin.report import Report

log = logging.getLogger(__name__)

#: The app's configs; ``scripts/train.py`` passes the repository's ``configs/`` folder instead (the same files).
CONFIG_PATH: Final[str] = f"pkg://{CONFIGS_PACKAGE}"
CONFIG_NAME: Final[str] = "train"
#: Exit status of a run stopped by a GradModeViolation (of a sweep in which any job was).
EXIT_VIOLATION: Final[int] = 1
#: Exit status of a run stopped by a mistake in its settings or data, found by Hydra while composing or by the app
#: (and of a sweep with such a job, none stopped).
EXIT_MISTAKE: Final[int] = 2
#: Exit status of a run stopped by any other error: a bug, shown with its traceback.
EXIT_ERROR: Final[int] = 3
#: The guard's ``_target_``, as configs name it.
GUARD_TARGET: Final[str] = GradModeGuardConf._target_
_RULE: Final[str] = "=" * 100


@dataclasses.dataclass
class RunResult:
    """What one run did: the guard's report (``None`` without a guard), the violation that stopped it, if any,
    the metrics Lightning collected, the predictions of rank zero and the run directory."""

    report: Report | None
    violation: BaseException | None
    metrics: dict[str, float]
    predictions: list[Any] | None
    output_dir: Path
    is_global_zero: bool = True

    @property
    def exit_code(self) -> int:
        return EXIT_VIOLATION if self.violation is not None else 0


@dataclasses.dataclass
class Built:
    """The objects a run is made of, built from the config."""

    datamodule: Any
    model: Any
    callbacks: list[Any]
    loggers: list[Any]
    trainer: Any
    guard: Any


# -- mistakes ---------------------------------------------------------------------------------------------------


def _causes(err: BaseException) -> Iterator[BaseException]:
    seen: set[int] = set()
    current: BaseException | None = err
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__ or current.__context__


def _own_message(err: BaseException) -> str:
    """The message of ``err``; for one re-raised from a DataLoader worker, the worker's own message, not the
    traceback text the worker passed along."""
    text = str(err).strip()
    marker = f"{type(err).__name__}: "
    if "Original Traceback" in text and marker in text:
        text = text[text.rfind(marker) + len(marker) :]
    return text


def _allow_train_patterns(cfg: DictConfig) -> list[str]:
    callbacks = cfg.get("callbacks")
    entries = callbacks.values() if isinstance(callbacks, DictConfig) else []
    guards = [e for e in entries if isinstance(e, DictConfig) and e.get("_target_") == GUARD_TARGET]
    return [str(p) for guard in guards for p in (guard.get("allow_train") or [])]


def explain_mistake(err: BaseException, cfg: DictConfig) -> str | None:
    """A few lines telling an ordinary mistake (in the settings or the data of ``cfg``) and its fix, or ``None``
    when ``err`` is not one: a bug, or what the run cannot tell from one, keeps its traceback."""
    from omegaconf.errors import MissingMandatoryValue

    from gradmode_plugin.example.errors import SetupError

    patterns = _allow_train_patterns(cfg)
    for cause in _causes(err):
        if isinstance(cause, SetupError):
            return _own_message(cause)
        if isinstance(cause, MissingMandatoryValue):
            return f"{str(cause).splitlines()[0]}\nfix: set it on the command line, e.g. key=value"
        text = str(cause)
        if isinstance(cause, ValueError) and "allow_train" in text and any(p in text for p in patterns):
            # The guard's check at the first evaluation stage: a pattern that matches no module of the model.
            return (
                f"{text}\nfix: correct the pattern in callbacks.gradmode.allow_train (a glob over the module names "
                "above), e.g. 'callbacks.gradmode.allow_train=[head.mc_dropout]', or remove it"
            )
    return None


def _missing_values(node: Any, prefix: str = "") -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _missing_values(value, f"{prefix}{key}.")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _missing_values(value, f"{prefix}{i}.")
    elif node == "???":
        yield prefix[:-1]


def check_config(cfg: DictConfig) -> None:
    """Mistakes the composed config shows before anything is built: a value left unset (``???``), such as
    ``data.root`` of ``data=image_folder``, or a key the guard does not take (a ``+`` override adds any key)."""
    from gradmode_plugin.example.errors import LAYOUT, SetupError

    values = OmegaConf.to_container(cfg, resolve=False, throw_on_missing=False)
    missing = [key for key in _missing_values(values) if not key.startswith("hydra.")]
    if "data.root" in missing:
        raise SetupError(
            "data.root is not set: data=image_folder reads your images from there",
            fix=f"add data.root=/path/to/images; it must hold {LAYOUT}",
        )
    if missing:
        raise SetupError(
            f"{', '.join(missing)} not set (??? in the config)", fix=f"add {missing[0]}=... to the command"
        )
    callbacks = cfg.get("callbacks")
    for name, entry in callbacks.items() if isinstance(callbacks, DictConfig) else []:
        if not isinstance(entry, DictConfig) or entry.get("_target_") != GUARD_TARGET:
            continue
        unknown = unknown_options(entry.keys())
        if unknown:
            key, closest = unknown[0]
            guess = f"; did you mean callbacks.{name}.{closest}?" if closest else ""
            raise SetupError(
                f"callbacks.{name}.{key} is not an option of GradModeGuard{guess}\nits options: {', '.join(OPTIONS)}",
                fix=f"set callbacks.{name}.{closest or '<option>'}=... without a '+' (Hydra checks a key only "
                "when it is given without '+')",
            )


# -- building and running ---------------------------------------------------------------------------------------


def _in_namespace(node: Any) -> None:
    """Every ``_target_`` in ``node`` naming a Lightning class moved to the namespace the example model uses."""
    from gradmode_plugin.example._lightning import in_namespace

    if isinstance(node, DictConfig):
        target = node.get("_target_")
        if isinstance(target, str) and in_namespace(target) != target:
            node._target_ = in_namespace(target)
        for value in node.values():
            _in_namespace(value)
    elif isinstance(node, ListConfig):
        for value in node:
            _in_namespace(value)


def _instantiate_group(cfg: DictConfig | None, what: str) -> list[Any]:
    """Instantiate every ``_target_`` entry of a ``callbacks``/``logger`` group (``null`` entries switch one off)."""
    from hydra.utils import instantiate

    from gradmode_plugin.example.errors import SetupError

    if not cfg:
        return []
    if not isinstance(cfg, DictConfig):
        raise SetupError(f"{what} must be a mapping of name -> {{_target_: ...}}, got {type(cfg).__name__}")
    objects = []
    for name, entry in cfg.items():
        if entry is None:
            continue
        if not isinstance(entry, DictConfig) or "_target_" not in entry:
            raise SetupError(f"{what}.{name} has no _target_", fix=f"give it one, or set {what}.{name}=null to drop it")
        _in_namespace(entry)
        objects.append(instantiate(entry))
    return objects


#: The loggers Lightning's packages set up when imported (lightning/__init__.py, lightning/pytorch/__init__.py, ...).
_LIGHTNING_LOGGERS: Final[tuple[str, ...]] = (
    "lightning",
    "lightning.pytorch",
    "lightning.fabric",
    "pytorch_lightning",
    "lightning_fabric",
)


def _one_handler_per_line() -> None:
    """Each Lightning log line printed once, by Hydra's job logging (the console and the run's log file).

    Hydra configures the root logger before the app imports Lightning; the unified ``lightning`` package then gives
    its logger a console handler of its own and still passes every record on to the root, so each line came out
    twice, on stderr by Lightning's handler and on stdout by Hydra's. A namespace imported before Hydra's logging
    keeps its lines to its own handler, and out of the log file. With Hydra's handlers in place (``hydra/job_logging``
    not disabled), Lightning's console handlers go and its records reach the root.
    """
    if not logging.getLogger().handlers:
        return
    for name in _LIGHTNING_LOGGERS:
        logger = logging.getLogger(name)
        for handler in list(logger.handlers):
            if type(handler) is logging.StreamHandler:  # Lightning's own console handler, no file handler
                logger.removeHandler(handler)
        logger.propagate = True


def _progress_bar(cfg: DictConfig) -> list[Any]:
    """The app's progress bar, epochs counted from one (``Epoch 2/2`` beside "``max_epochs=2`` reached"), unless the
    trainer config turns the bar off."""
    from gradmode_plugin.example.progress import progress_bar

    return [progress_bar()] if cfg.trainer.get("enable_progress_bar", True) else []


def build(cfg: DictConfig) -> Built:
    """The datamodule, model, callbacks, loggers and trainer of ``cfg``; the Lightning ones in the namespace of the
    example model (``lightning.pytorch`` when installed, else ``pytorch_lightning``), whichever the config names. A
    mistake the config shows is told before torch and Lightning are imported (in a second, not in ten)."""
    check_config(cfg)
    from hydra.utils import instantiate

    from gradmode_plugin import GradModeGuard
    from gradmode_plugin.example._lightning import pl

    _one_handler_per_line()
    log.info("Lightning: %s %s", pl.__name__, pl.__version__)
    if cfg.get("seed") is not None:
        pl.seed_everything(cfg.seed, workers=True)
    datamodule = instantiate(cfg.data)
    model_kwargs: dict[str, Any] = {}
    if cfg.model.get("num_classes") is None:
        # e.g. an image folder: the datamodule counted the class folders.
        model_kwargs["num_classes"] = getattr(datamodule, "num_classes", None)
    model = instantiate(cfg.model, **model_kwargs)
    callbacks = _instantiate_group(cfg.get("callbacks"), "callbacks")
    loggers = _instantiate_group(cfg.get("logger"), "logger")
    _in_namespace(cfg.trainer)
    bar = [] if any(isinstance(c, pl.callbacks.ProgressBar) for c in callbacks) else _progress_bar(cfg)
    trainer = instantiate(cfg.trainer, callbacks=[*callbacks, *bar], logger=loggers or False)
    guard = next((c for c in callbacks if isinstance(c, GradModeGuard)), None)
    return Built(datamodule, model, callbacks, loggers, trainer, guard)


def run(cfg: DictConfig) -> RunResult:
    """Run the stages ``cfg`` asks for, guarded; a GradModeViolation is caught and returned, not raised."""
    from gradmode_plugin import GradModeViolation

    built = build(cfg)
    trainer, model, datamodule, guard = built.trainer, built.model, built.datamodule, built.guard
    if guard is None and trainer.is_global_zero:
        log.warning("no GradModeGuard among the callbacks: evaluation runs unchecked (use callbacks=default)")

    predictions: list[Any] | None = None
    violation: BaseException | None = None
    metrics: dict[str, float] = {}
    ckpt_path = cfg.get("ckpt_path")
    try:
        if cfg.get("fit", True):
            trainer.fit(model, datamodule=datamodule, ckpt_path=ckpt_path)
            metrics.update(_scalars(trainer.callback_metrics))
            # Evaluate the weights fit ended with (loading a checkpoint would also replace the guard's report
            # with the one saved in it).
            ckpt_path = None
        if cfg.get("validate", True):
            trainer.validate(model, datamodule=datamodule, ckpt_path=ckpt_path)
            metrics.update(_scalars(trainer.callback_metrics))
        if cfg.get("test", True):
            trainer.test(model, datamodule=datamodule, ckpt_path=ckpt_path)
            metrics.update(_scalars(trainer.callback_metrics))
        if cfg.get("predict", True):
            predictions = trainer.predict(model, datamodule=datamodule, ckpt_path=ckpt_path)
    except GradModeViolation as err:
        violation = err

    output_dir = _output_dir(cfg)
    report = guard.report if guard is not None else None
    if report is not None and trainer.is_global_zero:
        path = output_dir / cfg.get("report_file", "gradmode_report.json")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(report.to_dict(), indent=2) + "\n")
        log.info("gradmode report written to %s", path)
    return RunResult(report, violation, metrics, predictions, output_dir, trainer.is_global_zero)


def _scalars(metrics: dict[str, Any]) -> dict[str, float]:
    return {name: float(value) for name, value in metrics.items() if getattr(value, "numel", lambda: 1)() == 1}


def _output_dir(cfg: DictConfig) -> Path:
    paths = cfg.get("paths")
    if paths is not None and paths.get("output_dir"):
        return Path(paths.output_dir)
    return Path.cwd()


# -- what is printed --------------------------------------------------------------------------------------------


def _violation_counts(report: Report) -> dict[str, int]:
    counts: dict[str, int] = {}
    for stage_counts in report.counts.values():
        for kind, n in stage_counts.items():
            counts[kind] = counts.get(kind, 0) + n
    return {kind: n for kind, n in counts.items() if n}


def format_summary(result: RunResult) -> str:
    """The text printed at the end of a run: per-stage report, metrics and the files in the run directory."""
    lines = ["", _RULE, "gradmode report"]
    if result.report is None:
        lines.append("no GradModeGuard was configured: nothing was checked")
    else:
        lines.append(result.report.summary())
        by_kind = ", ".join(f"{kind}={n}" for kind, n in _violation_counts(result.report).items()) or "none"
        lines.append(f"total violations: {result.report.total} ({by_kind})")
    if result.violation is not None:
        lines += ["", "the run was stopped by a violation:", f"{type(result.violation).__name__}: {result.violation}"]
    if result.metrics:
        lines += ["", "metrics: " + ", ".join(f"{k}={v:.4g}" for k, v in sorted(result.metrics.items()))]
    files = sorted(p for p in result.output_dir.rglob("*") if p.is_file()) if result.output_dir.is_dir() else []
    lines += ["", f"files written to {result.output_dir}:"]
    lines += [f"  {p.relative_to(result.output_dir)}" for p in files] or ["  (none)"]
    lines.append(_RULE)
    return "\n".join(lines)


def describe_violation(err: BaseException) -> str:
    """``graph_built in stage 'validation', batch 0, module 'head'``: what stopped a run, in one line."""
    found = getattr(err, "violation", None)
    if found is None:
        return f"{getattr(err, 'kind', type(err).__name__)}: {str(err).splitlines()[0]}"
    where = f"{err.kind} in stage {found.stage!r}, batch {found.batch_idx}"  # type: ignore[attr-defined]
    return where + (f", module {found.module!r}" if found.module is not None else "")


@dataclasses.dataclass
class JobOutcome:
    """How one job ended, for the sweep's closing lines: ``finished``, ``stopped`` (by a violation) or ``failed``."""

    status: str
    detail: str
    exit_code: int
    num: int = 0
    overrides: list[str] = dataclasses.field(default_factory=list)
    multirun: bool = False
    sweep_dir: str | None = None
    is_global_zero: bool = True


def _job(status: str, detail: str, exit_code: int, is_global_zero: bool = True) -> JobOutcome:
    """An outcome of the current Hydra job: its number, task overrides, and whether it is part of a sweep."""
    from hydra.core.hydra_config import HydraConfig
    from hydra.types import RunMode

    outcome = JobOutcome(status, detail, exit_code, is_global_zero=is_global_zero)
    if HydraConfig.initialized():
        hydra_cfg = HydraConfig.get()
        outcome.num = int(hydra_cfg.job.get("num") or 0)
        outcome.overrides = list(hydra_cfg.overrides.task)
        outcome.multirun = hydra_cfg.get("mode") == RunMode.MULTIRUN
        outcome.sweep_dir = OmegaConf.select(hydra_cfg, "sweep.dir", default=None) if outcome.multirun else None
    return outcome


def _finished(result: RunResult) -> JobOutcome:
    if result.violation is not None:
        detail = f"stopped by {describe_violation(result.violation)}"
        return _job("stopped", detail, EXIT_VIOLATION, result.is_global_zero)
    if result.report is None:
        return _job("finished", "finished, unchecked (no GradModeGuard)", 0, result.is_global_zero)
    counts = _violation_counts(result.report)
    detail = "finished, no violations"
    if counts:
        found = ", ".join(f"{kind}={n}" for kind, n in counts.items())
        detail = f"finished, {sum(counts.values())} violation(s) recorded ({found})"
    return _job("finished", detail, 0, result.is_global_zero)


def format_sweep_summary(outcomes: Sequence[JobOutcome]) -> str:
    """The closing lines of a sweep: one per job, named by the overrides that set it apart, then the counts."""
    sweep_dir = next((o.sweep_dir for o in outcomes if o.sweep_dir), None)
    shared = set.intersection(*(set(o.overrides) for o in outcomes)) if len(outcomes) > 1 else set()
    lines = ["", _RULE, f"sweep summary: {len(outcomes)} job(s)" + (f" in {sweep_dir}" if sweep_dir else "")]
    for o in outcomes:
        own = " ".join(x for x in o.overrides if x not in shared)
        lines.append(f"  job {o.num}" + (f" [{own}]" if own else "") + f": {o.detail}")
    counts = {status: sum(o.status == status for o in outcomes) for status in ("finished", "stopped", "failed")}
    lines.append(
        f"{counts['finished']} finished, {counts['stopped']} stopped by a violation, {counts['failed']} failed"
    )
    lines.append(_RULE)
    return "\n".join(lines)


def exit_code(outcomes: Sequence[JobOutcome]) -> int:
    """1 if the guard stopped any job; else the largest status of the others (2: a mistake, 3: an error), or 0."""
    if any(o.status == "stopped" for o in outcomes):
        return EXIT_VIOLATION
    return max((o.exit_code for o in outcomes), default=0)


def run_job(cfg: DictConfig, outcomes: list[JobOutcome]) -> JobOutcome:
    """One Hydra job: run, print the summary (rank zero), and add how it ended to ``outcomes``. An ordinary
    mistake is told in a few lines on stderr; any other error, and every error under ``HYDRA_FULL_ERROR=1``, is
    raised, for Hydra to report with its traceback."""
    try:
        result = run(cfg)
    except Exception as err:
        gc.collect()
        mistake = explain_mistake(err, cfg)
        detail = (mistake or f"{type(err).__name__}: {err}").splitlines()[0]
        outcomes.append(_job("failed", f"failed: {detail}", EXIT_MISTAKE if mistake else EXIT_ERROR))
        if mistake is None or os.environ.get("HYDRA_FULL_ERROR") == "1":
            raise
        print(f"gradmode-train: {mistake}\n(HYDRA_FULL_ERROR=1 shows the traceback)", file=sys.stderr, flush=True)
        return outcomes[-1]
    # The job's trainer and model go now, not during the next job: their memory, and what a stopped run left open
    # (its progress bars print their last state when they go). The violation's traceback keeps its frames, not
    # their variables.
    for err in _causes(result.violation) if result.violation is not None else ():
        traceback.clear_frames(err.__traceback__)
    gc.collect()
    if result.is_global_zero:
        print(format_summary(result), flush=True)
        if result.violation is not None:
            print(f"gradmode: run stopped by {result.violation}", file=sys.stderr, flush=True)
    outcomes.append(_finished(result))
    return outcomes[-1]


def main(config_path: str = CONFIG_PATH, config_name: str = CONFIG_NAME) -> None:
    """Entry point of ``gradmode-train``: exit status 1 when the guard stopped a run, 2 when a mistake in the
    settings or the data did (found by Hydra or by the app), 3 on any other error."""
    import hydra

    outcomes: list[JobOutcome] = []

    def task(cfg: DictConfig) -> None:
        log.debug("composed config:\n%s", OmegaConf.to_yaml(cfg))
        run_job(cfg, outcomes)

    hydra_failed = False
    try:
        hydra.main(version_base="1.3", config_path=config_path, config_name=config_name)(task)()
    except SystemExit as err:
        if err.code in (0, None):  # --help, --info, ...
            raise
        # Hydra has told what went wrong: a job's error (in ``outcomes``) or its own finding before or between
        # jobs, a mistake in the command line or the configs (an override, a key, a config group option).
        hydra_failed = True
    except Exception:
        # Under HYDRA_FULL_ERROR=1 Hydra raises instead of exiting: the traceback is what was asked for.
        traceback.print_exc()
        hydra_failed = True
    finally:
        # Also when Hydra ends the process after a job's unexpected error: every job of a sweep is listed.
        if any(o.multirun for o in outcomes) and any(o.is_global_zero for o in outcomes):
            print(format_sweep_summary(outcomes), flush=True)
    code = exit_code(outcomes)
    if hydra_failed and not code:
        code = EXIT_MISTAKE
    if code:
        sys.exit(code)


if __name__ == "__main__":
    main()
