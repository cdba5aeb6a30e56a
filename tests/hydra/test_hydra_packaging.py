"""Drop-in use: the wheel ships the configs and the search-path plugin; a repo that only pip-installs it writes
``defaults: [callbacks: gradmode]`` (or ``+callbacks=gradmode``) and gets the guard, typed and validated."""

from __future__ import annotations

import importlib.metadata
import shutil
import subprocess
import sys
import sysconfig
import textwrap
import zipfile
from pathlib import Path

import pytest

import gradmode_plugin
from tests.hydra._support import REPO, run_process

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


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("wheel")
    return _build_wheel(tmp / "dist", tmp)


@pytest.fixture(scope="module")
def venv_python(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed (regular, not editable); torch and the other
    dependencies come from this interpreter's site-packages, so nothing is downloaded."""
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


def _app(tmp: Path, config_name: str, config: str) -> Path:
    (tmp / "conf").mkdir(exist_ok=True)
    (tmp / "conf" / f"{config_name}.yaml").write_text(textwrap.dedent(config))
    (tmp / "my_app.py").write_text(APP)
    return tmp / "my_app.py"


def _run_app(python: Path, tmp: Path, config_name: str, *overrides: str) -> subprocess.CompletedProcess[str]:
    return run_process([str(python), "my_app.py", config_name, "hydra.run.dir=out", *overrides], cwd=tmp)


# -- the wheel --------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_wheel_ships_code_configs_plugin_and_entry_points(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    # Every module of the package and every config of the repository's configs/ folder (the one copy).
    for path in sorted((REPO / "gradmode_plugin").rglob("*.py")):
        name = path.relative_to(REPO).as_posix()
        assert name in names, f"{name} is missing from the wheel: add its package to [tool.setuptools] packages"
    for path in sorted((REPO / "configs").rglob("*.yaml")):
        name = "gradmode_plugin/configs/" + path.relative_to(REPO / "configs").as_posix()
        assert name in names, f"{name} is missing from the wheel"
    assert "gradmode_plugin/configs/__init__.py" in names
    assert "hydra_plugins/gradmode_plugin_searchpath/searchpath.py" in names
    # hydra_plugins is a namespace package shared with other plugins: an __init__.py there would break them.
    assert "hydra_plugins/__init__.py" not in names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[hydra.plugins]" in text and f"{PLUGIN_MODULE}:GradModeSearchPathPlugin" in text
    assert "gradmode-train = gradmode_plugin.hydra.train:main" in text


def test_editable_install_reads_the_repository_configs() -> None:
    """In a development install, pkg://gradmode_plugin.configs is the repository's configs/ folder itself."""
    if Path(gradmode_plugin.__file__).resolve().parent.parent != REPO:
        pytest.skip("gradmode_plugin is not installed in editable mode from this repository")
    import importlib
    import importlib.resources

    configs = importlib.import_module("gradmode_plugin.configs")
    assert Path(configs.__file__).resolve().parent == REPO / "configs"
    assert importlib.resources.files("gradmode_plugin.configs").joinpath("callbacks/gradmode.yaml").is_file()


def test_entry_point_loads_the_plugin_and_registers_the_schema() -> None:
    """What Hydra 1.4 does with the ``hydra.plugins`` entry point, in this environment."""
    from hydra.core.config_store import ConfigStore
    from hydra.plugins.search_path_plugin import SearchPathPlugin

    (entry,) = [e for e in importlib.metadata.entry_points(group="hydra.plugins") if e.value.startswith(PLUGIN_MODULE)]
    plugin = entry.load()
    assert issubclass(plugin, SearchPathPlugin)
    assert "gradmode_schema.yaml" in ConfigStore.instance().list("callbacks")


def test_plugin_import_stays_light() -> None:
    """Hydra imports plugins for every app: the plugin module must not pull in torch or Lightning."""
    code = f"import sys, {PLUGIN_MODULE}; print(sorted(m for m in ('torch', 'pytorch_lightning') if m in sys.modules))"
    proc = run_process([sys.executable, "-c", code], cwd=REPO)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


# -- a template repo using the installed wheel -------------------------------------------------------------------


@pytest.mark.slow
def test_installed_wheel_is_the_one_imported(venv_python: Path, tmp_path: Path) -> None:
    code = "import gradmode_plugin, gradmode_plugin.configs as c; print(gradmode_plugin.__file__); print(c.__file__)"
    proc = run_process([str(venv_python), "-c", code], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    venv = venv_python.parent.parent
    for line in proc.stdout.split():
        assert Path(line).is_relative_to(venv), f"{line} is not inside the new environment {venv}"
    assert (venv / "bin" / "gradmode-train").is_file()


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
    (tmp_path / "conf" / "callbacks").mkdir()
    (tmp_path / "conf" / "callbacks" / "default.yaml").write_text(
        "model_summary:\n  _target_: pytorch_lightning.callbacks.ModelSummary\n  max_depth: 1\n"
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
    # The option comes from the installed package, put on the search path by its plugin.
    info = run_process([str(venv_python), "my_app.py", "plain", "--info", "searchpath"], cwd=tmp_path)
    assert "pkg://gradmode_plugin.configs" in info.stdout and "gradmode-plugin" in info.stdout


@pytest.mark.slow
def test_template_repo_bad_value_is_rejected(venv_python: Path, tmp_path: Path) -> None:
    _app(tmp_path, "train", "defaults:\n  - callbacks: gradmode\n  - _self_\n")
    proc = _run_app(venv_python, tmp_path, "train", "callbacks.gradmode.grad_mode=bogus")
    assert proc.returncode != 0
    assert "grad_mode" in proc.stderr and "expected one of [auto, inference, no_grad]" in proc.stderr
    assert "GUARD" not in proc.stdout
