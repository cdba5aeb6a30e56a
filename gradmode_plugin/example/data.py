"""DataModules for the command-line run: generated images (torchvision ``FakeData``) and a local ImageFolder."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Final

import pytorch_lightning as pl
import torch
from torch.utils.data import DataLoader, Dataset, Subset

log = logging.getLogger(__name__)

#: Per-channel mean and std used to normalise ImageFolder images (the usual ImageNet statistics).
IMAGENET_MEAN: Final[tuple[float, float, float]] = (0.485, 0.456, 0.406)
IMAGENET_STD: Final[tuple[float, float, float]] = (0.229, 0.224, 0.225)
#: Names accepted for the validation folder of a pre-split ImageFolder root.
VAL_DIRS: Final[tuple[str, ...]] = ("val", "valid", "validation")


def _loader(dataset: Dataset[Any], batch_size: int, num_workers: int, shuffle: bool) -> DataLoader[Any]:
    return DataLoader(
        dataset,
        batch_size=batch_size,
        shuffle=shuffle,
        num_workers=num_workers,
        # Workers that outlive an epoch: starting them again every validation would dominate short runs.
        persistent_workers=num_workers > 0,
        pin_memory=torch.cuda.is_available(),
    )


class FakeImageDataModule(pl.LightningDataModule):
    """Generated noise images with random labels, the same for the same ``seed``; nothing is downloaded.

    Each split draws its images from its own range of ``FakeData`` indices, so no image is in two splits.

    Example:
        >>> dm = FakeImageDataModule(train_size=4, batch_size=2)
        >>> dm.setup("fit")
        >>> x, y = next(iter(dm.train_dataloader()))
        >>> tuple(x.shape), y.dtype
        ((2, 3, 32, 32), torch.int64)
    """

    def __init__(
        self,
        num_classes: int = 10,
        image_size: int = 32,
        train_size: int = 256,
        val_size: int = 64,
        test_size: int = 64,
        predict_size: int = 64,
        batch_size: int = 32,
        num_workers: int = 0,
        seed: int = 0,
    ) -> None:
        super().__init__()
        sizes = {"train_size": train_size, "val_size": val_size, "test_size": test_size, "predict_size": predict_size}
        for name, value in {**sizes, "image_size": image_size, "batch_size": batch_size}.items():
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}={value!r}: expected a positive integer")
        self.num_classes = num_classes
        self.image_size = image_size
        self.sizes = sizes
        self.batch_size = batch_size
        self.num_workers = num_workers
        self.seed = seed
        self.splits: dict[str, Dataset[Any]] = {}

    def _split(self, name: str) -> Dataset[Any]:
        from torchvision import datasets, transforms

        if name not in self.splits:
            # Disjoint index ranges: FakeData seeds image i with (i + random_offset).
            order = ["train", "val", "test", "predict"]
            offset = self.seed * 1_000_003 + sum(self.sizes[f"{n}_size"] for n in order[: order.index(name)])
            self.splits[name] = datasets.FakeData(
                size=self.sizes[f"{name}_size"],
                image_size=(3, self.image_size, self.image_size),
                num_classes=self.num_classes,
                transform=transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5,) * 3, (0.5,) * 3)]),
                random_offset=offset,
            )
        return self.splits[name]

    def setup(self, stage: str) -> None:
        wanted = {"fit": ["train", "val"], "validate": ["val"], "test": ["test"], "predict": ["predict"]}
        for name in wanted.get(stage, []):
            self._split(name)

    def train_dataloader(self) -> DataLoader[Any]:
        return _loader(self._split("train"), self.batch_size, self.num_workers, shuffle=True)

    def val_dataloader(self) -> DataLoader[Any]:
        return _loader(self._split("val"), self.batch_size, self.num_workers, shuffle=False)

    def test_dataloader(self) -> DataLoader[Any]:
        return _loader(self._split("test"), self.batch_size, self.num_workers, shuffle=False)

    def predict_dataloader(self) -> DataLoader[Any]:
        return _loader(self._split("predict"), self.batch_size, self.num_workers, shuffle=False)


class ImageFolderDataModule(pl.LightningDataModule):
    """Images from a local folder in the torchvision ImageFolder layout (one sub-folder per class).

    ``root`` holds either ``train/`` and ``val/`` (or ``valid/``, ``validation/``) and optionally ``test/``,
    each of class sub-folders, or only class sub-folders, split at random (``seed``) into train, validation and
    test by ``val_fraction`` and ``test_fraction``. Predict uses the test split; without one, the validation split.
    """

    def __init__(
        self,
        root: str | Path,
        num_classes: int | None = None,
        image_size: int = 64,
        val_fraction: float = 0.1,
        test_fraction: float = 0.1,
        batch_size: int = 32,
        num_workers: int = 2,
        seed: int = 0,
    ) -> None:
        super().__init__()
        from torchvision.datasets.folder import find_classes

        self.root = Path(root).expanduser()
        if not self.root.is_dir():
            raise FileNotFoundError(
                f"data.root={str(root)!r} is not a folder; point it at images in the ImageFolder layout "
                "(root/<class>/*.png, or root/train/<class>/... and root/val/<class>/...)"
            )
        if not (0 <= val_fraction < 1 and 0 <= test_fraction < 1 and val_fraction + test_fraction < 1):
            raise ValueError(
                f"val_fraction={val_fraction!r}, test_fraction={test_fraction!r}: expected fractions in [0, 1) "
                "whose sum is below 1"
            )
        val_dir = next((self.root / d for d in VAL_DIRS if (self.root / d).is_dir()), None)
        self.presplit = (self.root / "train").is_dir() and val_dir is not None
        self.dirs = {
            "train": self.root / "train" if self.presplit else self.root,
            "val": val_dir,
            "test": self.root / "test" if (self.root / "test").is_dir() else None,
        }
        try:
            self.classes, _ = find_classes(str(self.dirs["train"]))
        except FileNotFoundError as err:
            raise FileNotFoundError(f"data.root={str(root)!r}: {err}; expected one sub-folder per class") from err
        if num_classes is not None and num_classes != len(self.classes):
            raise ValueError(
                f"num_classes={num_classes} but {self.dirs['train']} has {len(self.classes)} class folders "
                f"({', '.join(self.classes[:5])}...); set data.num_classes=null to count them"
            )
        self.num_classes = len(self.classes)
        self.image_size = image_size
        self.val_fraction = val_fraction
        self.test_fraction = test_fraction
        self.batch_size = batch_size
        self.num_workers = num_workers
        self.seed = seed
        self.splits: dict[str, Dataset[Any]] = {}

    def _transform(self, train: bool) -> Any:
        from torchvision import transforms

        steps: list[Any] = [transforms.Resize((self.image_size, self.image_size))]
        if train:
            steps.append(transforms.RandomHorizontalFlip())
        steps += [transforms.ToTensor(), transforms.Normalize(IMAGENET_MEAN, IMAGENET_STD)]
        return transforms.Compose(steps)

    def setup(self, stage: str) -> None:
        from torchvision.datasets import ImageFolder

        if self.splits:
            return
        if self.presplit:
            self.splits["train"] = ImageFolder(str(self.dirs["train"]), transform=self._transform(True))
            self.splits["val"] = ImageFolder(str(self.dirs["val"]), transform=self._transform(False))
            if self.dirs["test"] is not None:
                self.splits["test"] = ImageFolder(str(self.dirs["test"]), transform=self._transform(False))
        else:
            # Two views of the same files, so held-out images are not augmented.
            train_view = ImageFolder(str(self.root), transform=self._transform(True))
            eval_view = ImageFolder(str(self.root), transform=self._transform(False))
            n = len(train_view)
            order = torch.randperm(n, generator=torch.Generator().manual_seed(self.seed)).tolist()
            n_val, n_test = round(n * self.val_fraction), round(n * self.test_fraction)
            if n_val < 1 or n - n_val - n_test < 1:
                raise ValueError(
                    f"{self.root} has {n} image(s): too few to split with val_fraction={self.val_fraction}, "
                    f"test_fraction={self.test_fraction}; every split needs an image: add images or change the "
                    "fractions (or use train/ and val/ folders)"
                )
            self.splits["val"] = Subset(eval_view, order[:n_val])
            if n_test:
                self.splits["test"] = Subset(eval_view, order[n_val : n_val + n_test])
            self.splits["train"] = Subset(train_view, order[n_val + n_test :])
        self.splits.setdefault("test", self.splits["val"])
        sizes = {name: len(split) for name, split in self.splits.items()}  # type: ignore[arg-type]
        log.info("image folder %s: images per split %s", self.root, sizes)

    def train_dataloader(self) -> DataLoader[Any]:
        return _loader(self.splits["train"], self.batch_size, self.num_workers, shuffle=True)

    def val_dataloader(self) -> DataLoader[Any]:
        return _loader(self.splits["val"], self.batch_size, self.num_workers, shuffle=False)

    def test_dataloader(self) -> DataLoader[Any]:
        return _loader(self.splits["test"], self.batch_size, self.num_workers, shuffle=False)

    def predict_dataloader(self) -> DataLoader[Any]:
        return _loader(self.splits["test"], self.batch_size, self.num_workers, shuffle=False)
