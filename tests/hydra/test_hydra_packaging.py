"""Drop-in use: the wheel ships the guard's config and the search-path plugin; a repo that only pip-installs it
writes ``defaults: [callbacks: gradmode]`` (or ``+callbacks=gradmode``) and gets the guard, typed and validated.

The wheel and its fresh virtual environment are the ``wheel`` and ``venv_python`` fixtures of ``conftest.py``.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

import gradmode_plugin
from gradmode_plugin.hydra.schema import GUARD_CONFIGS_PACKAGE, SCHEMA_NAME
from tests.hydra._support import CONFIG_DIR, GUARD_CONFIG_DIR, REPO, run_process, write_files

PLUGIN_MODULE = "hydra_plugins.gradmode_plugin_searchpath.searchpath"

# The tiny app of a "template repo": its own config folder, nothing copied from gradmode-plugin.
APP = textwrap.dedent(
    """
    import sys

    import hydra
    from hydra.utils import instantiate


    @hydra.main(version_base="1.3", config_path="conf", config_name=sys.argv.pop(1))
    def main(cfg):
        import pytorch_lightning as pl
        import torch

        import gradmode_plugin

        guard = instantiate(cfg.callbacks.gradmode)
        print("GUARD", type(guard).__name__, guard.grad_mode, guard.on_violation, list(guard.allow_train))
        print("FROM", gradmode_plugin.__file__)

        class Tiny(pl.LightningModule):
            def __init__(self):
                super().__init__()
                self.net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5))

            def validation_step(self, batch, batch_idx):
                self.log("val", self.net(batch[0]).sum())

        data = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(8, 4)), batch_size=4)
        trainer = pl.Trainer(callbacks=[guard], logger=False, enable_progress_bar=False, enable_model_summary=False)
        trainer.validate(Tiny(), data)
        print("REPORT", guard.report.stage("validation").batches, guard.report.total)


    if __name__ == "__main__":
        main()
    """
)


def _app(tmp: Path, config_name: str, config: str) -> Path:
    write_files(tmp, {f"conf/{config_name}.yaml": config, "my_app.py": APP})
    return tmp / "my_app.py"


def _run_app(python: Path, tmp: Path, config_name: str, *overrides: str) -> subprocess.CompletedProcess[str]:
    return run_process([str(python), "my_app.py", config_name, "hydra.run.dir=out", *overrides], cwd=tmp)


# -- the wheel --------------------------------------------------------------------------------------------------

GUARD_PREFIX = GUARD_CONFIGS_PACKAGE.replace(".", "/")


@pytest.mark.slow
def test_wheel_ships_code_configs_plugin_and_entry_points(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    # Every module of the package, every config of the example app (configs/) and of the guard's own folder.
    for path in sorted((REPO / "gradmode_plugin").rglob("*.py")):
        name = path.relative_to(REPO).as_posix()
        assert name in names, f"{name} is missing from the wheel: add its package to [tool.setuptools] packages"
    for path in sorted(CONFIG_DIR.rglob("*.yaml")):
        name = "gradmode_plugin/configs/" + path.relative_to(CONFIG_DIR).as_posix()
        assert name in names, f"{name} is missing from the wheel"
    for path in sorted(GUARD_CONFIG_DIR.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            name = f"{GUARD_PREFIX}/{path.relative_to(GUARD_CONFIG_DIR).as_posix()}"
            assert name in names, f"{name} is missing from the wheel"
    assert f"{GUARD_PREFIX}/callbacks/gradmode.yaml" in names
    assert "gradmode_plugin/configs/callbacks/gradmode.yaml" not in names  # one copy, in the guard's folder
    assert "gradmode_plugin/configs/__init__.py" in names
    assert "hydra_plugins/gradmode_plugin_searchpath/searchpath.py" in names
    # hydra_plugins is a namespace package shared with other plugins: an __init__.py there would break them.
    assert "hydra_plugins/__init__.py" not in names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[hydra.plugins]" in text and f"{PLUGIN_MODULE}:GradModeSearchPathPlugin" in text
    assert "gradmode-train = gradmode_plugin.hydra.train:main" in text


def test_editable_install_reads_the_repository_configs() -> None:
    """In a development install, both config packages are the repository's folders themselves."""
    if Path(gradmode_plugin.__file__).resolve().parent.parent != REPO:
        pytest.skip("gradmode_plugin is not installed in editable mode from this repository")
    import importlib
    import importlib.resources

    for package, folder in [("gradmode_plugin.configs", CONFIG_DIR), (GUARD_CONFIGS_PACKAGE, GUARD_CONFIG_DIR)]:
        assert Path(importlib.import_module(package).__file__).resolve().parent == folder
    assert importlib.resources.files("gradmode_plugin.configs").joinpath("train.yaml").is_file()
    assert importlib.resources.files(GUARD_CONFIGS_PACKAGE).joinpath("callbacks/gradmode.yaml").is_file()


def test_entry_point_loads_the_plugin_and_the_schema_is_no_option() -> None:
    """What Hydra 1.4 does with the ``hydra.plugins`` entry point, in this environment; the schema the guard's
    config names is registered by its package, at the root of the ConfigStore, in no config group."""
    from hydra.core.config_store import ConfigStore
    from hydra.plugins.search_path_plugin import SearchPathPlugin

    (entry,) = [e for e in importlib.metadata.entry_points(group="hydra.plugins") if e.value.startswith(PLUGIN_MODULE)]
    plugin = entry.load()
    assert issubclass(plugin, SearchPathPlugin)
    importlib.import_module(GUARD_CONFIGS_PACKAGE)
    store = ConfigStore.instance()
    assert f"{SCHEMA_NAME}.yaml" in store.list("")
    assert "callbacks" not in store.repo, "the guard's schema would be listed as an option of callbacks"


@pytest.mark.slow  # a child process
def test_plugin_import_stays_light() -> None:
    """Hydra imports the plugin, and the config package it serves, for every app: neither may pull in torch or
    Lightning."""
    code = (
        f"import sys, {PLUGIN_MODULE}, {GUARD_CONFIGS_PACKAGE}; "
        "print(sorted(m for m in ('torch', 'lightning', 'pytorch_lightning') if m in sys.modules))"
    )
    proc = run_process([sys.executable, "-c", code], cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# -- a template repo using the installed wheel -------------------------------------------------------------------


@pytest.mark.slow
def test_installed_wheel_is_the_one_imported(venv_python: Path, tmp_path: Path) -> None:
    code = (
        f"import gradmode_plugin, gradmode_plugin.configs as c, {GUARD_CONFIGS_PACKAGE} as g; "
        "print(gradmode_plugin.__file__); print(c.__file__); print(g.__file__)"
    )
    proc = run_process([str(venv_python), "-c", code], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    venv = venv_python.parent.parent
    for line in proc.stdout.split():
        assert Path(line).is_relative_to(venv), f"{line} is not inside the new environment {venv}"
    assert (venv / "bin" / "gradmode-train").is_file()


@pytest.mark.slow
def test_installed_command_line_app_lists_its_own_options(venv_python: Path, tmp_path: Path) -> None:
    """gradmode-train finds the example app's configs (which other apps never see) and the guard's entry."""
    proc = run_process([str(venv_python.with_name("gradmode-train")), "--help"], cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "callbacks: default, early_stopping, gradmode, model_checkpoint, model_summary, none\n" in proc.stdout
    assert "experiment: mc_dropout, planted_bug, saliency\n" in proc.stdout
    assert "gradmode_guard_schema" not in proc.stdout


@pytest.mark.slow
def test_template_repo_defaults_list(venv_python: Path, tmp_path: Path) -> None:
    _app(tmp_path, "train", "defaults:\n  - callbacks: gradmode\n  - _self_\n")
    proc = _run_app(venv_python, tmp_path, "train", "callbacks.gradmode.allow_train=[net.1]")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "GUARD GradModeGuard auto raise ['net.1']" in proc.stdout
    assert f"FROM {venv_python.parent.parent}" in proc.stdout
    assert "REPORT 2 0" in proc.stdout  # the guard checked both validation batches, found nothing


@pytest.mark.slow
def test_template_repo_with_its_own_callbacks_adds_the_guard(venv_python: Path, tmp_path: Path) -> None:
    """lightning-hydra-template style: the repo has callbacks/default.yaml of its own; the guard joins it."""
    _app(tmp_path, "train", "defaults:\n  - callbacks: default\n  - _self_\n")
    write_files(
        tmp_path,
        {"conf/callbacks/default.yaml": "model_summary:\n  _target_: pytorch_lightning.callbacks.ModelSummary\n"},
    )
    proc = _run_app(
        venv_python, tmp_path, "train", "callbacks=[default,gradmode]", "callbacks.gradmode.grad_mode=no_grad"
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "GUARD GradModeGuard no_grad raise []" in proc.stdout


@pytest.mark.slow
def test_template_repo_command_line_append(venv_python: Path, tmp_path: Path) -> None:
    _app(tmp_path, "plain", "seed: 0\n")
    proc = _run_app(venv_python, tmp_path, "plain", "+callbacks=gradmode", "callbacks.gradmode.on_violation=record")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "GUARD GradModeGuard auto record []" in proc.stdout
    # The option comes from the installed package, put on the search path by its plugin: the guard's own folder,
    # not the example app's configs.
    info = run_process([str(venv_python), "my_app.py", "plain", "--info", "searchpath"], cwd=tmp_path)
    assert f"pkg://{GUARD_CONFIGS_PACKAGE}" in info.stdout and "gradmode-plugin" in info.stdout
    assert "pkg://gradmode_plugin.configs" not in info.stdout


@pytest.mark.slow
def test_template_repo_bad_value_is_rejected(venv_python: Path, tmp_path: Path) -> None:
    _app(tmp_path, "train", "defaults:\n  - callbacks: gradmode\n  - _self_\n")
    proc = _run_app(venv_python, tmp_path, "train", "callbacks.gradmode.grad_mode=bogus")
    assert proc.returncode != 0
    assert "grad_mode" in proc.stderr and "expected one of [auto, inference, no_grad]" in proc.stderr
    assert "GUARD" not in proc.stdout


@pytest.mark.slow
def test_template_repo_misspelled_key(venv_python: Path, tmp_path: Path) -> None:
    """Without '+', a misspelled key fails at compose time; with the '+' Hydra's error suggests, Hydra 1.3 adds it
    (an added key is not checked against the schema) and the guard's constructor rejects it, naming it."""
    _app(tmp_path, "train", "defaults:\n  - callbacks: gradmode\n  - _self_\n")
    proc = _run_app(venv_python, tmp_path, "train", "callbacks.gradmode.grad_mod=no_grad")
    assert proc.returncode != 0 and "GUARD" not in proc.stdout
    assert "Key 'grad_mod' not in 'GradModeGuardConf'" in proc.stderr
    assert "To append to your config use +callbacks.gradmode.grad_mod=no_grad" in proc.stderr

    proc = _run_app(venv_python, tmp_path, "train", "+callbacks.gradmode.grad_mod=no_grad")
    assert proc.returncode != 0 and "GUARD" not in proc.stdout
    assert "gradmode_plugin" in proc.stderr and "'grad_mod'" in proc.stderr
