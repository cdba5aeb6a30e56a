"""Example LightningModule and DataModules used by the command-line run (``gradmode-train``) and its configs.

Needs torchvision (``pip install "gradmode-plugin[vision]"``).
"""

from gradmode_plugin.example.data import FakeImageDataModule, ImageFolderDataModule
from gradmode_plugin.example.model import PLANTED_BUGS, ImageClassifier

__all__ = ["PLANTED_BUGS", "FakeImageDataModule", "ImageClassifier", "ImageFolderDataModule"]
