"""A small, learnable stand-in for MNIST, written in MNIST's raw idx format (nothing is downloaded).

torchvision's ``MNIST(root, download=True)`` looks for four uncompressed files in ``<root>/MNIST/raw/`` and, when
they are all there, downloads nothing. This module writes those files: 28 x 28 greyscale "glyphs", one random
stroke pattern per class (drawn once from a fixed seed), shifted by a few pixels, dimmed and covered in noise per
image, so that a small MLP learns them well above chance within an epoch but not perfectly after a few batches.

    write_fake_mnist(Path("data/MNIST/raw"))           # 60,000 training and 10,000 test images, as MNIST
"""

from __future__ import annotations

import itertools
import struct
from pathlib import Path
from typing import Final

import numpy as np

#: The file names torchvision's MNIST reads from ``<root>/MNIST/raw/`` (the download URLs without ``.gz``).
FILES: Final[dict[str, str]] = {
    "train_images": "train-images-idx3-ubyte",
    "train_labels": "train-labels-idx1-ubyte",
    "test_images": "t10k-images-idx3-ubyte",
    "test_labels": "t10k-labels-idx1-ubyte",
}

SIZE: Final[int] = 28
NUM_CLASSES: Final[int] = 10
MAX_SHIFT: Final[int] = 3

# idx magic numbers: two zero bytes, the element type (0x08: unsigned byte), the number of dimensions.
_IMAGES_MAGIC: Final[int] = 0x00000803
_LABELS_MAGIC: Final[int] = 0x00000801


def _segment_distance(points: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """Distance of each ``(y, x)`` point to the segment from ``start`` to ``end``."""
    direction = end - start
    t = np.clip(((points - start) @ direction) / max(float(direction @ direction), 1e-9), 0.0, 1.0)
    return np.linalg.norm(points - (start + t[:, None] * direction), axis=1)


def prototypes(rng: np.random.Generator, strokes: int = 3) -> np.ndarray:
    """One glyph per class, ``(10, 28, 28)`` floats in [0, 1]: a few anti-aliased strokes, about 2 pixels wide."""
    grid = np.stack(np.meshgrid(np.arange(SIZE), np.arange(SIZE), indexing="ij"), axis=-1).reshape(-1, 2)
    glyphs = np.zeros((NUM_CLASSES, SIZE * SIZE))
    for glyph in glyphs:
        ends = rng.uniform(6, SIZE - 7, size=(strokes + 1, 2))  # a connected pen path inside the centre
        for start, end in itertools.pairwise(ends):
            np.maximum(glyph, np.clip(1.6 - _segment_distance(grid.astype(float), start, end), 0.0, 1.0), out=glyph)
    return glyphs.reshape(NUM_CLASSES, SIZE, SIZE)


def make_images(labels: np.ndarray, glyphs: np.ndarray, rng: np.random.Generator, noise: float = 0.45) -> np.ndarray:
    """``uint8`` images ``(n, 28, 28)``: each label's glyph shifted by up to 3 pixels, dimmed, plus noise."""
    n = len(labels)
    shifts = rng.integers(-MAX_SHIFT, MAX_SHIFT + 1, size=(n, 2))
    padded = np.pad(glyphs, ((0, 0), (MAX_SHIFT, MAX_SHIFT), (MAX_SHIFT, MAX_SHIFT)))
    images = np.empty((n, SIZE, SIZE), dtype=np.float32)
    for i, (label, (dy, dx)) in enumerate(zip(labels, shifts)):
        y, x = MAX_SHIFT - dy, MAX_SHIFT - dx
        images[i] = padded[label, y : y + SIZE, x : x + SIZE]
    images *= rng.uniform(0.5, 1.0, size=(n, 1, 1)).astype(np.float32)
    images += rng.normal(0.0, noise, size=images.shape).astype(np.float32) * (rng.random(images.shape) < 0.5)
    return np.round(np.clip(images, 0.0, 1.0) * 255).astype(np.uint8)


def write_idx_images(path: Path, images: np.ndarray) -> None:
    """An idx3 file: magic, count, rows, columns (big-endian int32), then the pixels row by row."""
    count, rows, cols = images.shape
    path.write_bytes(struct.pack(">4i", _IMAGES_MAGIC, count, rows, cols) + images.astype(np.uint8).tobytes())


def write_idx_labels(path: Path, labels: np.ndarray) -> None:
    """An idx1 file: magic, count (big-endian int32), then one byte per label."""
    path.write_bytes(struct.pack(">2i", _LABELS_MAGIC, len(labels)) + labels.astype(np.uint8).tobytes())


def write_fake_mnist(
    raw_dir: Path, train_size: int = 60_000, test_size: int = 10_000, seed: int = 0
) -> dict[str, Path]:
    """Write the four idx files into ``raw_dir`` (created); return their paths by role (keys of :data:`FILES`).

    Labels are balanced (every class ``size // 10`` times, the rest spread over the first classes) and shuffled.
    """
    rng = np.random.default_rng(seed)
    glyphs = prototypes(rng)
    raw_dir.mkdir(parents=True, exist_ok=True)
    paths = {role: raw_dir / name for role, name in FILES.items()}
    for split, size in (("train", train_size), ("test", test_size)):
        labels = rng.permutation(np.arange(size) % NUM_CLASSES)
        write_idx_images(paths[f"{split}_images"], make_images(labels, glyphs, rng))
        write_idx_labels(paths[f"{split}_labels"], labels)
    return paths
