"""Example LightningModule and DataModules used by the command-line run (``gradmode-train``) and its configs.

Needs torchvision and Lightning (``pip install "gradmode-plugin[lightning,vision]"``): ``lightning.pytorch`` when it
is installed, else the standalone ``pytorch_lightning``.
"""

from gradmode_plugin.example.data import FakeImageDataModule, ImageFolderDataModule
from gradmode_plugin.example.errors import SetupError
from gradmode_plugin.example.model import PLANTED_BUGS, ImageClassifier

__all__ = ["PLANTED_BUGS", "FakeImageDataModule", "ImageClassifier", "ImageFolderDataModule", "SetupError"]
