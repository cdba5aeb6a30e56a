#!/usr/bin/env python3
"""The pre-commit hook's entry (``language: script``): ``gradmode-lint`` run from the hook's own checkout.

Standard library only, nothing installed: pre-commit would otherwise pip-install the package, and with it torch,
into the hook's environment.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from gradmode_plugin.lint.cli import main

    raise SystemExit(main())
