"""The command-line run (``gradmode-train``, ``python scripts/train.py``): a Hydra app over ``configs/train.yaml``.

It builds the datamodule, model, callbacks (the guard among them), loggers and trainer from the config, runs fit,
validate, test and predict, writes the guard's report as JSON to the run directory and prints a per-stage summary.
A :class:`~gradmode_plugin.GradModeViolation` makes the command exit with status 1 after the report is written.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from omegaconf import DictConfig, OmegaConf

from gradmode_plugin.hydra.schema import CONFIGS_PACKAGE, register_configs

if TYPE_CHECKING:
    from gradmode_plugin.report import Report

log = logging.getLogger(__name__)

#: The shipped configs; ``scripts/train.py`` passes the repository's ``configs/`` folder instead (the same files).
CONFIG_PATH: Final[str] = f"pkg://{CONFIGS_PACKAGE}"
CONFIG_NAME: Final[str] = "train"
#: Exit status of a run stopped by a GradModeViolation.
EXIT_VIOLATION: Final[int] = 1


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


def _instantiate_group(cfg: DictConfig | None, what: str) -> list[Any]:
    """Instantiate every ``_target_`` entry of a ``callbacks``/``logger`` group (``null`` entries switch one off)."""
    from hydra.utils import instantiate

    if not cfg:
        return []
    if not isinstance(cfg, DictConfig):
        raise TypeError(f"{what} config must be a mapping of name -> {{_target_: ...}}, got {type(cfg).__name__}")
    objects = []
    for name, entry in cfg.items():
        if entry is None:
            continue
        if not isinstance(entry, DictConfig) or "_target_" not in entry:
            raise ValueError(f"{what}.{name} has no _target_: give it one or set {what}.{name}=null to drop it")
        objects.append(instantiate(entry))
    return objects


def _scalars(metrics: dict[str, Any]) -> dict[str, float]:
    return {name: float(value) for name, value in metrics.items() if getattr(value, "numel", lambda: 1)() == 1}


def _output_dir(cfg: DictConfig) -> Path:
    paths = cfg.get("paths")
    if paths is not None and paths.get("output_dir"):
        return Path(paths.output_dir)
    return Path.cwd()


def run(cfg: DictConfig) -> RunResult:
    """Run the stages ``cfg`` asks for, guarded; a GradModeViolation is caught and returned, not raised."""
    import pytorch_lightning as pl
    from hydra.utils import instantiate

    from gradmode_plugin import GradModeGuard, GradModeViolation

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
    trainer: pl.Trainer = instantiate(cfg.trainer, callbacks=callbacks, logger=loggers or False)

    guard = next((c for c in callbacks if isinstance(c, GradModeGuard)), None)
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


def format_summary(result: RunResult) -> str:
    """The text printed at the end of a run: per-stage report, metrics and the files in the run directory."""
    lines = ["", "=" * 100, "gradmode report"]
    if result.report is None:
        lines.append("no GradModeGuard was configured: nothing was checked")
    else:
        lines.append(result.report.summary())
        counts: dict[str, int] = {}
        for stage_counts in result.report.counts.values():
            for kind, n in stage_counts.items():
                counts[kind] = counts.get(kind, 0) + n
        by_kind = ", ".join(f"{kind}={n}" for kind, n in counts.items() if n) or "none"
        lines.append(f"total violations: {result.report.total} ({by_kind})")
    if result.violation is not None:
        lines += ["", "the run was stopped by a violation:", f"{type(result.violation).__name__}: {result.violation}"]
    if result.metrics:
        lines += ["", "metrics: " + ", ".join(f"{k}={v:.4g}" for k, v in sorted(result.metrics.items()))]
    files = sorted(p for p in result.output_dir.rglob("*") if p.is_file()) if result.output_dir.is_dir() else []
    lines += ["", f"files written to {result.output_dir}:"]
    lines += [f"  {p.relative_to(result.output_dir)}" for p in files] or ["  (none)"]
    lines.append("=" * 100)
    return "\n".join(lines)


def run_and_report(cfg: DictConfig) -> int:
    """One Hydra job: run, print the summary (rank zero) and return the exit status."""
    result = run(cfg)
    if result.is_global_zero:
        print(format_summary(result), flush=True)
        if result.violation is not None:
            print(f"gradmode: run stopped by {result.violation}", file=sys.stderr, flush=True)
    return result.exit_code


def main(config_path: str = CONFIG_PATH, config_name: str = CONFIG_NAME) -> None:
    """Entry point of ``gradmode-train``; exits with status 1 when the guard stopped a run."""
    import hydra

    register_configs()
    codes: list[int] = []

    def task(cfg: DictConfig) -> None:
        log.debug("composed config:\n%s", OmegaConf.to_yaml(cfg))
        codes.append(run_and_report(cfg))

    hydra.main(version_base="1.3", config_path=config_path, config_name=config_name)(task)()
    if any(codes):
        sys.exit(max(codes))


if __name__ == "__main__":
    main()
