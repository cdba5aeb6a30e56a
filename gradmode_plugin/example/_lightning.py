"""The Lightning namespace of the example: ``lightning.pytorch`` when it is installed, else ``pytorch_lightning``.

A LightningModule of one namespace must be trained by a Trainer of the same one, so the example model and
datamodules subclass ``pl`` from here, and ``gradmode-train`` builds its Trainer, callbacks and loggers in the same
namespace (:func:`in_namespace`).
"""

from __future__ import annotations

from typing import Final

try:
    import lightning.pytorch as pl
except ImportError:  # only the standalone package is installed
    import pytorch_lightning as pl

#: The import name of PyTorch Lightning not in use.
OTHER_NAMESPACE: Final[str] = "pytorch_lightning" if pl.__name__ == "lightning.pytorch" else "lightning.pytorch"


def in_namespace(target: str) -> str:
    """``target`` (a dotted path) moved to the namespace in use, when it names a class of the other one.

    Example:
        >>> in_namespace(f"{OTHER_NAMESPACE}.callbacks.ModelCheckpoint") == f"{pl.__name__}.callbacks.ModelCheckpoint"
        True
        >>> in_namespace("torch.optim.Adam")
        'torch.optim.Adam'
    """
    if target == OTHER_NAMESPACE or target.startswith(OTHER_NAMESPACE + "."):
        return pl.__name__ + target[len(OTHER_NAMESPACE) :]
    return target


__all__ = ["OTHER_NAMESPACE", "in_namespace", "pl"]
