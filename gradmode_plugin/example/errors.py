"""The error the example raises for a mistake in a run's settings or files."""

from __future__ import annotations


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
