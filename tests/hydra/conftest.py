"""Shared fixtures of the Hydra tests: in-process composition and command-line runs. (The wheel installed in a fresh
virtual environment, for apps that only pip-install gradmode-plugin, is the ``venv_python`` fixture of
``tests/conftest.py``.)"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from omegaconf import DictConfig, open_dict

from tests.hydra._support import CONFIG_DIR, TORCH_THREADS, TRAIN_SCRIPT, run_process


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
