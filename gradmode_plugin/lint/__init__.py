"""``gradmode-lint``: a static check for the bugs the runtime guard finds, before anything runs.

Standard library only: it imports neither torch nor Lightning. Rules and the runtime kinds they prevent are listed
in :mod:`gradmode_plugin.lint.rules`.

Example:
    $ gradmode-lint src tests
    src/model.py:42:13: GM101 `F.dropout` without `training=` drops activations in evaluation too ...
"""

from __future__ import annotations

from gradmode_plugin.lint.cli import main

__all__ = ["main"]
