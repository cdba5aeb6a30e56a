"""The Hugging Face adapter (needs ``transformers``: the ``hf`` extra, ``pip install 'gradmode-plugin[hf]'``).

:class:`~gradmode_plugin.hf.callback.HFGradModeGuard` guards every evaluation of a ``transformers.Trainer``;
transformers internals live in :mod:`gradmode_plugin.hf._internals` only.
"""

from __future__ import annotations

try:
    import transformers  # noqa: F401  (the adapter's one requirement, checked when it is imported)
except ImportError as err:
    raise ImportError("HFGradModeGuard needs transformers: pip install 'gradmode-plugin[hf]'") from err
