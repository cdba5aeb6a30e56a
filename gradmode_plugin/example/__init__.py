"""Example LightningModule and DataModules used by the command-line run (``gradmode-train``) and its configs.

Needs torchvision and Lightning (``pip install "gradmode-plugin[lightning,vision]"``): ``lightning.pytorch`` when it
is installed, else the standalone ``pytorch_lightning``. The configs name the classes by their modules:
``gradmode_plugin.example.model.ImageClassifier``, ``gradmode_plugin.example.data.FakeImageDataModule`` ...
"""
