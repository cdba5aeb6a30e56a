"""The pre-commit hook: declared at the repository root, a script that runs with nothing installed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from tests.helpers.process import REPO, run_process


def test_hook_is_declared() -> None:
    text = (REPO / ".pre-commit-hooks.yaml").read_text()
    assert "- id: gradmode-lint\n" in text and "language: script\n" in text and "types: [python]\n" in text
    entry = next(line.split(":", 1)[1].strip() for line in text.splitlines() if line.strip().startswith("entry:"))
    script = REPO / entry
    assert script.is_file() and os.access(script, os.X_OK), f"{entry} must exist and be executable"
    assert script.read_text().startswith("#!/usr/bin/env python3\n")


def test_hook_script_runs_without_site_packages(tmp_path: Path) -> None:
    """``python -S``: no installed package can be imported, torch included."""
    (tmp_path / "model.py").write_text("import torch.nn.functional as F\n\n\ndef f(x):\n    return F.dropout(x, 0.5)\n")
    (tmp_path / "clean.py").write_text("x = 1\n")
    script = str(REPO / "gradmode_plugin" / "lint" / "_precommit.py")
    proc = run_process([sys.executable, "-S", script, "model.py", "clean.py"], cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout.startswith("model.py:5:12: GM101 "), proc.stdout + proc.stderr
    proc = run_process([sys.executable, "-S", script, "clean.py"], cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout == "", proc.stdout + proc.stderr
