"""A wheel of this repository, installed (regular, not editable) into a fresh virtual environment."""

from __future__ import annotations

import importlib.metadata
import shutil
import sys
import sysconfig
from pathlib import Path

from tests.helpers.process import REPO, run_process


def build_wheel(out: Path, tmp: Path) -> Path:
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


def install_in_fresh_venv(wheel: Path, root: Path) -> Path:
    """A fresh virtual environment with the wheel installed (regular, not editable, so Hydra 1.3 finds the
    search-path plugin); torch and the other dependencies come from this interpreter's site-packages, so nothing is
    downloaded."""
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
