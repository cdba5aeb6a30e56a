"""The command-line run as a user runs it: ``scripts/train.py`` (and ``gradmode-train``) in a fresh folder."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from gradmode_plugin import KINDS
from tests.hydra._support import CONFIG_DIR, SMALL, TRAIN_SCRIPT, run_dirs, run_process

pytestmark = pytest.mark.slow  # every test runs the example app's command line in a child process

TrainCli = Callable[..., subprocess.CompletedProcess[str]]


def _only_run_dir(root: Path) -> Path:
    dirs = run_dirs(root / "outputs")
    assert len(dirs) == 1, f"expected one run directory under {root / 'outputs'}, found {dirs}"
    return dirs[0]


def _report(run_dir: Path) -> dict:
    return json.loads((run_dir / "gradmode_report.json").read_text())


@pytest.mark.slow
def test_no_argument_run(train_cli: TrainCli, tmp_path: Path) -> None:
    """The real default run, no overrides at all: a couple of epochs of ResNet-18 on generated images, then
    validate, test and predict; zero violations; config, report, logs and checkpoints in the run directory."""
    start = time.monotonic()
    proc = train_cli(timeout=240)
    elapsed = time.monotonic() - start
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    out = proc.stdout
    run_dir = _only_run_dir(tmp_path)
    assert run_dir.parent == tmp_path / "outputs" / "train" / "runs"

    # The printed report: every stage, its grad context and why, allow_train, violations by kind, the files.
    for stage, context in [
        ("sanity_check", "no_grad"),
        ("validation", "no_grad"),
        ("test", "inference_mode"),
        ("predict", "inference_mode"),
    ]:
        assert f"\n{stage}: " in out and context in out.split(f"\n{stage}: ")[1].splitlines()[0]
    assert re.search(r"allow_train\W*: none", out), "the modules allow_train kept in train mode are not listed"
    assert "total violations: 0 (none)" in out
    assert f"files written to {run_dir}" in out
    for name in ("gradmode_report.json", ".hydra/config.yaml", "checkpoints/last.ckpt", "csv/version_0/metrics.csv"):
        assert f"  {name}\n" in out, f"{name} not listed in the printed files"
        assert (run_dir / name).is_file(), f"{name} was not written"

    report = _report(run_dir)
    assert report["total"] == 0 and report["violations"] == []
    assert set(report["stages"]) == {"sanity_check", "validation", "test", "predict"}
    assert report["stages"]["predict"]["grad_context"] == "inference_mode"
    assert all(report["counts"][stage] == dict.fromkeys(KINDS, 0) for stage in report["counts"])
    # The guard's per-stage counts reach the CSV logger too (the app's callbacks=default sets log_metrics).
    assert "gradmode/validation/violations" in (run_dir / "csv/version_0/metrics.csv").read_text()
    # Each Lightning line printed once (by Hydra's handler, not also by Lightning's own), the guard's line once per
    # fit/validate/test/predict, and the last epoch shown as the second of two.
    both = proc.stdout + proc.stderr
    assert both.count("GPU available:") == 1 and both.count("`Trainer.fit` stopped: `max_epochs=2` reached.") == 1
    for entry in ("fit", "validate", "test", "predict"):
        assert both.count(f"gradmode: {entry} checked ") == 1, entry
    assert "Epoch 2/2" in both and "Epoch 1/1" not in both
    # "About two minutes on 2 CPU cores" (generous here: the test machine may be shared).
    assert elapsed < 240


def test_planted_bug_exits_non_zero_naming_the_violation(train_cli: TrainCli, tmp_path: Path) -> None:
    proc = train_cli("experiment=planted_bug", *SMALL)
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "[graph_built]" in proc.stderr and "stage 'sanity_check', batch 0" in proc.stderr
    assert "the run was stopped by a violation" in proc.stdout
    report = _report(_only_run_dir(tmp_path))  # written even though the run failed
    assert report["violations"][0]["kind"] == "graph_built"
    assert report["counts"]["sanity_check"]["graph_built"] == 1


@pytest.mark.slow
def test_planted_bug_under_record_finishes_and_lists_it(train_cli: TrainCli, tmp_path: Path) -> None:
    proc = train_cli("experiment=planted_bug", "callbacks.gradmode.on_violation=record", *SMALL)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    report = _report(_only_run_dir(tmp_path))
    assert report["total"] >= 2
    assert report["counts"]["validation"]["graph_built"] >= 1
    assert {(v["kind"], v["stage"]) for v in report["violations"]} >= {("graph_built", "validation")}
    assert "graph_built=" in proc.stdout
    assert "predict" in report["stages"]  # it went on to the end


@pytest.mark.parametrize(
    ("override", "told", "lines"),
    [
        # Found by Hydra while composing: the schema's value check, a key the schema lacks, a missing option (Hydra
        # lists the options there are and where it looked).
        ("callbacks.gradmode.grad_mode=bogus", "Invalid value 'bogus', expected one of [auto, inference, no_grad]", 8),
        ("callbacks.gradmode.grad_mod=auto", "Key 'grad_mod' not in 'GradModeGuardConf'", 8),
        ("trainer=nosuch", "Could not find 'trainer/nosuch'", 20),
        # Found by the app before anything is built: a '+' key, which Hydra lets in.
        ("+callbacks.gradmode.grad_mod=auto", "did you mean callbacks.gradmode.grad_mode?", 8),
    ],
)
def test_a_mistake_in_the_settings_exits_2_in_a_few_lines(
    train_cli: TrainCli, tmp_path: Path, override: str, told: str, lines: int
) -> None:
    """Exit status 2 is a mistake in the settings, whether Hydra finds it while composing or the app finds it."""
    proc = train_cli(override)
    assert proc.returncode == 2, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert told in proc.stderr and "Traceback" not in proc.stderr, proc.stderr
    assert len(proc.stderr.strip().splitlines()) <= lines, proc.stderr
    if not override.startswith("+"):
        assert not (tmp_path / "outputs").exists(), "composing fails before a run folder is made"


#: scripts/train.py, saying at exit which of torch and Lightning it imported.
IMPORTS_AT_EXIT = (
    "import atexit, runpy, sys\n"
    "heavy = ('torch', 'lightning', 'pytorch_lightning')\n"
    "atexit.register(lambda: print('imported:', [m for m in heavy if m in sys.modules], file=sys.stderr))\n"
    "sys.argv[0] = {script!r}\nrunpy.run_path({script!r}, run_name='__main__')"
)


@pytest.mark.parametrize(
    ("override", "told"),
    [
        ("+callbacks.gradmode.grad_mod=auto", "did you mean callbacks.gradmode.grad_mode?"),
        ("data=image_folder", "data.root is not set: data=image_folder reads your images from there"),
    ],
)
def test_a_mistake_the_config_shows_is_told_before_torch_is_imported(tmp_path: Path, override: str, told: str) -> None:
    """The app checks the composed config first: a mistake there is told in about a second, not after the ten that
    importing torch and Lightning takes."""
    proc = run_process([sys.executable, "-c", IMPORTS_AT_EXIT.format(script=str(TRAIN_SCRIPT)), override], cwd=tmp_path)
    assert proc.returncode == 2, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert told in proc.stderr and "imported: []" in proc.stderr, proc.stderr


#: gradmode-train with a bug planted in the app itself: every run raises an error that is no mistake of the user's.
WITH_A_BUG = (
    "import sys, gradmode_plugin.hydra.train as app\n"
    "def run(cfg):\n    raise RuntimeError('a bug in the app')\n"
    "app.run = run\nsys.argv[0] = 'gradmode-train'\napp.main(config_path={configs!r})"
)


def test_any_other_error_exits_3_with_its_traceback(tmp_path: Path) -> None:
    proc = run_process([sys.executable, "-c", WITH_A_BUG.format(configs=str(CONFIG_DIR)), *SMALL], cwd=tmp_path)
    assert proc.returncode == 3, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Traceback" in proc.stderr and "RuntimeError: a bug in the app" in proc.stderr


def test_console_script_uses_the_shipped_configs(tmp_path: Path) -> None:
    """``gradmode-train`` (installed with the package) composes from the shipped configs, as scripts/train.py
    composes from configs/ (the same files), and finds the guard's entry through its own search path even where
    Hydra finds no plugin (an editable install under Hydra 1.3, like this one)."""
    script = Path(sys.executable).with_name("gradmode-train")
    if not script.exists():
        pytest.skip(f"{script} is not installed (pip install -e .)")
    proc = run_process([str(script), "--cfg", "job", "experiment=mc_dropout"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "allow_train:\n    - head.mc_dropout" in proc.stdout
    assert "_target_: gradmode_plugin.GradModeGuard" in proc.stdout
    assert "task_name: mc_dropout" in proc.stdout


@pytest.mark.slow
def test_ddp_on_cpu_agrees_across_ranks_and_reports_once(train_cli: TrainCli, tmp_path: Path) -> None:
    """Two processes (gloo): Lightning relaunches the Hydra app per rank; rank zero alone prints and writes."""
    proc = train_cli("trainer=ddp_cpu", *SMALL, timeout=240)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert proc.stdout.count("\ngradmode report\n") == 1
    report = _report(_only_run_dir(tmp_path))
    assert report["total"] == 0
    assert set(report["stages"]["validation"]["rank_counts"]) == {"0", "1"}
    assert "gloo" in report["stages"]["test"]["reason"]


def test_sweep_ends_with_every_job(train_cli: TrainCli, tmp_path: Path) -> None:
    """One job finishes, one is stopped by the guard, one by a mistake: the sweep goes on to the end, names each
    job's fate last, and exits 1 (a job was stopped by a violation)."""
    proc = train_cli(
        "-m", "model.planted_bug=null,enable_grad_in_validation,bogus", "debug=fdr", "data.batch_size=4", "logger=none"
    )
    assert proc.returncode == 1, proc.stdout[-3000:] + proc.stderr[-3000:]
    summary = proc.stdout[proc.stdout.rindex("sweep summary: 3 job(s) in ") :].splitlines()
    assert summary[1] == "  job 0 [model.planted_bug=null]: finished, no violations"
    assert summary[2].startswith(
        "  job 1 [model.planted_bug=enable_grad_in_validation]: stopped by graph_built in stage 'validation', batch 0"
    )
    assert summary[3] == (
        "  job 2 [model.planted_bug=bogus]: failed: model.planted_bug='bogus' is not supported; allowed values: null, "
        "enable_grad_in_validation"
    )
    assert summary[4] == "1 finished, 1 stopped by a violation, 1 failed"
    assert summary[5].startswith("=====") and proc.stdout.rstrip().endswith(summary[5])  # the very last lines
    finished, stopped, _ = run_dirs(tmp_path / "outputs")
    assert _report(finished)["total"] == 0
    assert _report(stopped)["violations"][0]["kind"] == "graph_built"
    assert "gradmode-train: model.planted_bug='bogus' is not supported" in proc.stderr


def test_mistake_ends_in_a_few_lines(train_cli: TrainCli) -> None:
    """An ordinary mistake (here a data folder that is not there) ends the run with exit status 2 and a few lines
    naming the fix, not a traceback (in-process tests cover each kind of mistake)."""
    proc = train_cli("data=image_folder", "data.root=no/such/folder")
    assert proc.returncode == 2, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr and "Error executing job" not in proc.stderr
    told = proc.stderr[proc.stderr.index("gradmode-train: ") :].splitlines()
    assert told[0] == "gradmode-train: data.root='no/such/folder' is not a folder"
    assert len(told) == 3 and told[1].startswith("fix: point data.root at your images")
    assert told[2] == "(HYDRA_FULL_ERROR=1 shows the traceback)"


def test_full_error_shows_the_traceback(tmp_path: Path) -> None:
    proc = run_process(
        [sys.executable, str(TRAIN_SCRIPT), "data=image_folder", "data.root=no/such/folder"],
        cwd=tmp_path,
        env={"HYDRA_FULL_ERROR": "1"},
    )
    assert proc.returncode == 2, "still a mistake in the settings, with its traceback shown"
    assert "Traceback (most recent call last)" in proc.stderr
    assert "gradmode_plugin.example.errors.SetupError: data.root='no/such/folder' is not a folder" in proc.stderr
    assert "gradmode-train: " not in proc.stderr


#: gradmode-train with only the standalone pytorch_lightning importable (``lightning`` hidden).
WITHOUT_LIGHTNING = (
    "import runpy, sys; sys.modules['lightning'] = None; sys.argv[0] = {script!r}; "
    "runpy.run_path({script!r}, run_name='__main__')"
)


@pytest.mark.slow
def test_runs_with_pytorch_lightning_alone(tmp_path: Path) -> None:
    """The configs name lightning.pytorch classes; without that package the model, Trainer, callbacks and logger
    all come from pytorch_lightning, and the run trains, checkpoints, logs and evaluates as usual."""
    code = WITHOUT_LIGHTNING.format(script=str(TRAIN_SCRIPT))
    proc = run_process([sys.executable, "-c", code, *SMALL], cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Lightning: pytorch_lightning " in proc.stdout
    run_dir = _only_run_dir(tmp_path)
    assert "lightning.pytorch.Trainer" in (run_dir / ".hydra/config.yaml").read_text()
    assert (run_dir / "checkpoints/last.ckpt").is_file()
    assert "gradmode/validation/violations" in (run_dir / "csv/version_0/metrics.csv").read_text()
    assert _report(run_dir)["total"] == 0
