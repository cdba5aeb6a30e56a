"""The error the example raises for a mistake in a run's settings or files, and the data layout its messages
describe (standard library only: a mistake is told before torch and Lightning are imported)."""

from __future__ import annotations

from typing import Final

#: The layout ImageFolderDataModule reads, as the error messages describe it.
LAYOUT: Final[str] = (
    "one sub-folder per class: root/<class>/*.png (e.g. root/cats/..., root/dogs/...), or root/train/<class>/... "
    "and root/val/<class>/..."
)


class SetupError(ValueError):
    """A mistake in the settings or the data (a folder that is not there, a class folder too few, a file that is
    not an image ...), with what to change; ``gradmode-train`` prints it in a few lines, without a traceback.

    Example:
        >>> print(SetupError("data.root='/nowhere' is not a folder", fix="point data.root at your images"))
        data.root='/nowhere' is not a folder
        fix: point data.root at your images
    """

    def __init__(self, message: str, fix: str | None = None) -> None:
        super().__init__(f"{message}\nfix: {fix}" if fix else message)
        self.fix = fix
