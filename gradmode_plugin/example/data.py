"""DataModules for the command-line run: generated images (torchvision ``FakeData``) and a local ImageFolder."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any, Final

import torch
from torch.utils.data import DataLoader, Dataset, Subset

from gradmode_plugin.example._lightning import pl
from gradmode_plugin.example.errors import LAYOUT, SetupError

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


def _names(names: list[str], most: int = 8) -> str:
    return ", ".join(names[:most]) + (f", ... ({len(names)} in all)" if len(names) > most else "")


def _class_folders(folder: Path) -> list[str]:
    """The class folders of ``folder`` (sorted, as ImageFolder numbers them); a ``SetupError`` for fewer than two,
    naming the folders found and, where a sub-folder holds class folders itself, suggesting it as ``data.root``."""
    classes = sorted(entry.name for entry in folder.iterdir() if entry.is_dir())
    if len(classes) >= 2:
        return classes
    what = f"{folder} has no class folder" if not classes else f"{folder} has one class folder, {classes[0]!r}"
    inner = sorted(entry.name for entry in (folder / classes[0]).iterdir() if entry.is_dir()) if classes else []
    if len(inner) >= 2:
        fix = f"did you mean data.root={str(folder / classes[0])!r}? it holds the class folders {_names(inner)}"
    else:
        fix = f"give data.root {LAYOUT}"
    raise SetupError(f"{what}: a classifier needs images of two classes or more", fix=fix)


def _read_image(path: str) -> Any:
    """torchvision's image loader, with an error naming the file when it is not an image PIL can read."""
    from PIL import UnidentifiedImageError
    from torchvision.datasets.folder import default_loader

    try:
        return default_loader(path)
    except OSError as err:  # not an image, a truncated image, an unreadable file
        reason = "not an image PIL can read" if isinstance(err, UnidentifiedImageError) else str(err)
        raise SetupError(
            f"cannot read the image {path}: {reason}",
            fix="remove or replace that file: every file with an image extension under data.root must be an image",
        ) from err


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
                raise SetupError(f"data.{name}={value!r}: expected a positive integer")
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
        self.root = Path(root).expanduser()
        if not self.root.is_dir():
            raise SetupError(
                f"data.root={str(root)!r} is not a folder", fix=f"point data.root at your images, {LAYOUT}"
            )
        if not (0 <= val_fraction < 1 and 0 <= test_fraction < 1 and val_fraction + test_fraction < 1):
            raise SetupError(
                f"data.val_fraction={val_fraction!r}, data.test_fraction={test_fraction!r}: expected fractions in "
                "[0, 1) whose sum is below 1"
            )
        val_dir = next((self.root / d for d in VAL_DIRS if (self.root / d).is_dir()), None)
        self.presplit = (self.root / "train").is_dir() and val_dir is not None
        self.dirs = {
            "train": self.root / "train" if self.presplit else self.root,
            "val": val_dir,
            "test": self.root / "test" if (self.root / "test").is_dir() else None,
        }
        self.classes = _class_folders(self.dirs["train"])
        for split in ("val", "test"):
            folder = self.dirs[split]
            if self.presplit and folder is not None and (classes := _class_folders(folder)) != self.classes:
                # ImageFolder numbers the classes of each folder on its own: the labels would not match.
                raise SetupError(
                    f"{folder} has the class folders {_names(classes)}, but {self.dirs['train']} has "
                    f"{_names(self.classes)}: the labels would not match",
                    fix=f"give {folder.name}/ the same class folders as train/",
                )
        if num_classes is not None and num_classes != len(self.classes):
            raise SetupError(
                f"data.num_classes={num_classes} but {self.dirs['train']} has {len(self.classes)} class folders "
                f"({_names(self.classes)})",
                fix="set data.num_classes=null to count them",
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

    def _images(self, folder: Path, train: bool) -> Dataset[Any]:
        from torchvision.datasets import ImageFolder

        try:
            return ImageFolder(str(folder), transform=self._transform(train), loader=_read_image)
        except FileNotFoundError as err:  # a class folder without image files
            raise SetupError(
                f"{folder}: {err}", fix="put images in every class folder, or remove the empty ones"
            ) from err

    def setup(self, stage: str) -> None:
        if self.splits:
            return
        if self.presplit:
            self.splits["train"] = self._images(self.dirs["train"], train=True)
            self.splits["val"] = self._images(self.dirs["val"], train=False)
            if self.dirs["test"] is not None:
                self.splits["test"] = self._images(self.dirs["test"], train=False)
        else:
            # Two views of the same files, so held-out images are not augmented.
            train_view = self._images(self.root, train=True)
            eval_view = self._images(self.root, train=False)
            n = len(train_view)  # type: ignore[arg-type]
            order = torch.randperm(n, generator=torch.Generator().manual_seed(self.seed)).tolist()
            n_val, n_test = round(n * self.val_fraction), round(n * self.test_fraction)
            if n_val < 1 or n - n_val - n_test < 1:
                raise SetupError(
                    f"{self.root} has {n} image(s): too few to split with data.val_fraction={self.val_fraction}, "
                    f"data.test_fraction={self.test_fraction}; every split needs an image",
                    fix="add images, change the fractions, or use train/ and val/ folders",
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
