"""A Hydra app of someone else's, with config groups named like the example app's (``experiment/``, ``trainer/``),
on a machine where gradmode-plugin is installed (a regular install of the wheel): it sees its own options and
``callbacks: gradmode``, nothing else of gradmode-plugin, and composing it imports neither torch nor Lightning."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.hydra._support import run_dirs, run_process, write_files

pytestmark = pytest.mark.slow

#: The app prints, per job, its experiment choice and whether composing loaded torch or Lightning.
FOREIGN_APP = {
    "foreign_app.py": """
        import sys

        import hydra
        from hydra.core.hydra_config import HydraConfig


        @hydra.main(version_base="1.3", config_path="conf", config_name="config")
        def main(cfg):
            heavy = sorted(m for m in ("torch", "lightning", "pytorch_lightning") if m in sys.modules)
            experiment = HydraConfig.get().runtime.choices.experiment
            print("JOB", experiment, cfg.trainer.name, cfg.callbacks.gradmode._target_, heavy)


        if __name__ == "__main__":
            main()
        """,
    "conf/config.yaml": """
        defaults:
          - trainer: small
          - callbacks: gradmode
          - experiment: alpha
          - _self_
        """,
    "conf/trainer/small.yaml": "name: small\n",
    "conf/trainer/large.yaml": "name: large\n",
    "conf/experiment/alpha.yaml": "# @package _global_\nlr: 0.1\n",
    "conf/experiment/beta.yaml": "# @package _global_\nlr: 0.01\n",
}


def _foreign(python: Path, tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    write_files(tmp, FOREIGN_APP)
    return run_process([str(python), "foreign_app.py", *args], cwd=tmp)


def test_help_lists_only_its_own_options_and_the_guard(venv_python: Path, tmp_path: Path) -> None:
    proc = _foreign(venv_python, tmp_path, "--help")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    groups = proc.stdout.split("== Configuration groups ==")[1].split("== Config ==")[0]
    listed = re.findall(r"^(\w[\w/]*): (.*)$", groups, flags=re.MULTILINE)
    assert listed == [("callbacks", "gradmode"), ("experiment", "alpha, beta"), ("trainer", "large, small")]
    assert "schema" not in proc.stdout


def test_glob_sweep_runs_only_its_own_experiments(venv_python: Path, tmp_path: Path) -> None:
    proc = _foreign(venv_python, tmp_path, "-m", "experiment=glob(*)", "hydra.sweep.dir=sweep")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    jobs = sorted(line for line in proc.stdout.splitlines() if line.startswith("JOB "))
    assert jobs == [
        "JOB alpha small gradmode_plugin.GradModeGuard []",
        "JOB beta small gradmode_plugin.GradModeGuard []",
    ]
    assert len(run_dirs(tmp_path / "sweep")) == 2
