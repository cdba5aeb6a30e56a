"""Every private torch internal the guard relies on lives in one module, checked when it is imported."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import tokenize
from pathlib import Path

import pytest
import torch

PACKAGE = Path(__file__).resolve().parents[1] / "gradmode_plugin"
#: What counts as a private torch internal in the package's sources.
PRIVATE = re.compile(
    r"torch\._C\b|torch\._VF\b|_python_dispatch|_contextlib|_NormBase|\._version\b|\._parameters\b|\._buffers\b"
    r"|_saved_tensors_default_hooks|_wrapped_call_impl|torch\._dynamo"
)
#: The module-call probe repeats torch's own ``__call__`` body (two attributes of a module, read per call): the
#: internals module checks that body (``is_torchs_call``) before the probe uses it.
REPEATED_CALL = re.compile(r"module\._compiled_call_impl|module\._call_impl")


def code_lines(source: str) -> dict[int, str]:
    """Each line's code, strings and comments left out (docs may name what the code must not touch)."""
    lines: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (tokenize.STRING, tokenize.COMMENT):
            lines[token.start[0]] = lines.get(token.start[0], "") + token.string
    return lines


def test_no_module_but_the_internals_one_touches_a_private_torch_internal() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "_torch_internals.py" or "lint" in path.parts:
            continue
        for number, code in code_lines(path.read_text()).items():
            if PRIVATE.search(code) or (REPEATED_CALL.search(code) and path.name != "probes.py"):
                offenders.append(f"{path.relative_to(PACKAGE.parent)}:{number}: {code}")
    assert not offenders, "\n".join(offenders)


@pytest.mark.slow  # a child process
def test_a_torch_without_an_internal_is_refused_at_import_naming_the_version() -> None:
    code = (
        "import torch.nn.modules.batchnorm as batchnorm\n"
        "del batchnorm._NormBase\n"
        "import gradmode_plugin._torch_internals\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith("gradmode_plugin._torch_internals.UnsupportedTorchError: gradmode: the guard relies on")
    assert "torch.nn.modules.batchnorm._NormBase" in last and f"torch {torch.__version__}" in last
    assert "remove the guard" in last
