"""Every Lightning Fabric internal the guard relies on, each naming the Fabric file it depends on.

Paths are relative to ``src/lightning/fabric/`` (the standalone ``lightning_fabric`` package has the same files).
Fabric is never imported here: a module can be Fabric's only once the user's code imported Fabric.
"""

from __future__ import annotations

import sys
from typing import Final

from torch import nn

#: The Fabric versions this module was written against (each touchpoint is also checked when it is used).
SUPPORTED: Final[str] = "2.2 to 2.6"
#: wrappers.py in either namespace: ``_FabricModule``, what ``fabric.setup(model)`` returns.
_WRAPPERS: Final[tuple[str, ...]] = ("lightning.fabric.wrappers", "lightning_fabric.wrappers")


class UnsupportedFabricError(RuntimeError):
    """The installed Fabric changed something the guard relies on; the guard refuses to guess."""


def fabric_original(module: nn.Module) -> nn.Module | None:
    """The module the user passed to ``fabric.setup`` when ``module`` is the ``_FabricModule`` it returned
    (``_original_module``, wrappers.py: the forward runs through ``_forward_module``, the strategy's wrapper around
    that same module, e.g. ``DistributedDataParallel``); None for any other module."""
    for name in _WRAPPERS:
        fabric_module = getattr(sys.modules.get(name), "_FabricModule", None)
        if isinstance(fabric_module, type) and isinstance(module, fabric_module):
            original = vars(module).get("_modules", {}).get("_original_module")
            if not isinstance(original, nn.Module):
                raise UnsupportedFabricError(
                    f"gradmode: a {type(module).__name__} without the _original_module the guard relies on "
                    f"(lightning/fabric/wrappers.py, Fabric {SUPPORTED}): pass the module you gave fabric.setup(...) "
                    "to evaluating(...) instead"
                )
            return original
    return None
