"""The user's module inside the wrappers frameworks put around it, so that findings and ``allow_train`` patterns use
the user's own module names (``head.dropout``, not ``_forward_module.module.head.dropout``).

One helper, :func:`user_module`, for every wrapper: torch's ``DistributedDataParallel`` and ``DataParallel`` (what
``accelerator.prepare(model)`` returns on several processes), ``torch.compile``'s ``OptimizedModule`` and Lightning
Fabric's ``_FabricModule`` (what ``fabric.setup(model)`` returns), nested in any order.
"""

from __future__ import annotations

from torch import nn

from gradmode_plugin._fabric_internals import fabric_original
from gradmode_plugin._torch_internals import compiled_original


def _inside(module: nn.Module) -> nn.Module | None:
    """The module one wrapper wraps, or None when ``module`` is no wrapper."""
    if isinstance(module, (nn.parallel.DistributedDataParallel, nn.DataParallel)):
        return module.module
    return compiled_original(module) or fabric_original(module)


def user_module(model: nn.Module) -> nn.Module:
    """The module inside every wrapper around ``model`` (``model`` itself when it is not wrapped).

    Example:
        >>> net = nn.Linear(2, 2)
        >>> user_module(nn.DataParallel(net)) is net, user_module(net) is net
        (True, True)
    """
    inner = _inside(model)
    while inner is not None:
        model, inner = inner, _inside(inner)
    return model
