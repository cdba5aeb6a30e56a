"""Shared fixtures of the Hydra tests: in-process composition, command-line runs, and a wheel installed in a fresh
virtual environment (for apps that only pip-install gradmode-plugin)."""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from omegaconf import DictConfig, open_dict

from tests.hydra._support import CONFIG_DIR, REPO, TORCH_THREADS, TRAIN_SCRIPT, run_process


@pytest.fixture(autouse=True)
def _few_torch_threads() -> Iterator[None]:
    """In-process runs use as many threads as the command-line ones (see TORCH_THREADS)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(TORCH_THREADS)
    yield
    torch.set_num_threads(before)


@pytest.fixture
def train_cli(tmp_path: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """``train_cli(*overrides)`` runs ``scripts/train.py`` in ``tmp_path`` (outputs go to tmp_path/outputs)."""

    def run(*overrides: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return run_process([sys.executable, str(TRAIN_SCRIPT), *overrides], cwd=tmp_path, timeout=timeout)

    return run


@pytest.fixture
def compose_cfg(tmp_path: Path) -> Iterator[Callable[..., DictConfig]]:
    """``compose_cfg(*overrides)``: ``train.yaml`` composed in-process, its outputs redirected to ``tmp_path``,
    with Hydra's runtime config set so ``${hydra:...}`` resolves (as inside a run)."""
    from hydra import compose, initialize_config_dir
    from hydra.core.hydra_config import HydraConfig

    # Nothing registered by hand: train.yaml's hydra.searchpath names the guard's config package, whose import
    # registers the schema.
    with initialize_config_dir(config_dir=str(CONFIG_DIR), version_base="1.3"):

        def compose_train(*overrides: str) -> DictConfig:
            cfg = compose("train", overrides=list(overrides), return_hydra_config=True)
            with open_dict(cfg):
                cfg.hydra.runtime.output_dir = str(tmp_path)
                cfg.hydra.job.num = 0
                cfg.paths.output_dir = str(tmp_path)
                cfg.paths.log_dir = str(tmp_path)
            HydraConfig.instance().set_config(cfg)
            return cfg

        yield compose_train


# -- a wheel in a fresh virtual environment -------------------------------------------------------------------------


def _build_wheel(out: Path, tmp: Path) -> Path:
    """A wheel built from a copy of the working tree (nothing written into the repository)."""
    src = tmp / "src"
    ignore = shutil.ignore_patterns(
        ".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", "outputs", "multirun"
    )
    shutil.copytree(REPO, src, ignore=ignore)
    args = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(src)]
    try:  # the installed setuptools will do: no download for an isolated build environment
        if int(importlib.metadata.version("setuptools").split(".")[0]) >= 68:
            args.insert(4, "--no-build-isolation")
    except importlib.metadata.PackageNotFoundError:
        pass
    proc = run_process(args, cwd=tmp, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (wheel,) = out.glob("gradmode_plugin-*.whl")
    return wheel


@pytest.fixture(scope="session")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    return _build_wheel(tmp / "dist", tmp)


@pytest.fixture(scope="session")
def venv_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed (regular, not editable, so Hydra 1.3 finds the
    search-path plugin); torch and the other dependencies come from this interpreter's site-packages, so nothing is
    downloaded."""
    root = tmp_path_factory.mktemp("venv")
    venv = root / "venv"
    proc = run_process([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=root)
    assert proc.returncode == 0, proc.stderr
    python = venv / "bin" / "python"
    site = Path(
        run_process(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=root
        ).stdout.strip()
    )
    # A plain path entry, not a site dir: the .pth files there (this project's editable finder) stay inactive,
    # so they cannot shadow the installed wheel.
    (site / "zz_reuse_parent_site_packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    proc = run_process(
        [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", "--ignore-installed", str(wheel)],
        cwd=root,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return python
