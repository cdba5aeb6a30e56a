"""Helpers shared by the Hydra tests: paths, a child-process runner, shrinking overrides, files for apps and data."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path

from tests.helpers.process import REPO, TORCH_THREADS, clean_env, run_process

__all__ = ["REPO", "TORCH_THREADS", "clean_env", "run_process"]

#: The example app's configs (shipped as gradmode_plugin.configs).
CONFIG_DIR = REPO / "configs"
#: The guard's own config folder: callbacks/gradmode.yaml only, served to every Hydra app by the plugin.
GUARD_CONFIG_DIR = REPO / "hydra_plugins" / "gradmode_plugin_searchpath" / "configs"
TRAIN_SCRIPT = REPO / "scripts" / "train.py"

#: Overrides that shrink a command-line run to a few seconds (the no-argument test runs without them).
SMALL = (
    "data.train_size=32",
    "data.val_size=16",
    "data.test_size=16",
    "data.predict_size=16",
    "data.batch_size=8",
    "trainer.max_epochs=1",
)


def run_dirs(root: Path) -> list[Path]:
    """The run directories below ``root`` (those holding a composed config)."""
    return sorted(p.parent.parent for p in root.rglob(".hydra/config.yaml"))


def write_files(root: Path, files: Mapping[str, str]) -> None:
    """Write ``{relative path: text}`` below ``root`` (the text dedented), making folders as needed."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))


def write_images(root: Path, classes: Sequence[str], per_class: int) -> None:
    """``root/<class>/<i>.png``: tiny images, a different grey per class and image."""
    import numpy as np
    from PIL import Image

    for c, name in enumerate(classes):
        folder = root / name
        folder.mkdir(parents=True)
        for i in range(per_class):
            pixels = np.full((12, 16, 3), 40 * c + i, dtype=np.uint8)
            Image.fromarray(pixels).save(folder / f"{i}.png")
