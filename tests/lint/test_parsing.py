"""Parsing only the definitions that name a trigger word finds what parsing the whole file finds, whatever the
file holds: docstrings with a ``def`` at column 0, decorators, encodings, aliases."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from gradmode_plugin.lint import analysis
from gradmode_plugin.lint.parsing import parse_relevant
from gradmode_plugin.lint.rules import select_codes
from gradmode_plugin.lint.runner import lint_files
from gradmode_plugin.lint.triggers import Triggers

SOURCES = {
    "docstring_with_code": '''
        """Example:

        def validation_step(self, batch, i):
            self.train()
        """
        import torch.nn.functional as F


        def quiet(x):
            return x


        def forward(x):
            return F.dropout(x)
        ''',
    "decorated": """
        import torch


        @torch.enable_grad()
        def test_step(self, batch, i):
            return batch


        @torch.no_grad()
        @staticmethod
        def other(model, x):
            model.eval()
            return model(x)
        """,
    "multiline_decorator": """
        import torch
        import torch.nn.functional as F


        @decorate(
            1,
        )
        def forward(x):
            return F.dropout(x)
        """,
    "latin1": (
        "# -*- coding: latin-1 -*-\nimport torch.nn.functional as F\n\n\ndef f(x):\n    return F.dropout(x)  # \xe9\n"
    ),
    "constant_after_definition": """
        import torch.nn.functional as F


        def forward(x):
            return F.dropout(x, 0.5, training=TRAIN)


        TRAIN = True
        """,
}


def _whole(source: bytes) -> list[analysis.Finding]:
    tree = ast.parse(source)
    return analysis._Analysis(tree, source, Triggers(source), "m.py", ()).run()


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_same_findings_as_the_whole_file(name: str) -> None:
    text = SOURCES[name]
    source = text.encode("latin-1") if name == "latin1" else textwrap.dedent(text).encode()
    assert analysis.check_source(source, "m.py") == _whole(source)
    assert analysis.check_source(source, "m.py"), "each source has a finding"


def test_only_definitions_with_a_trigger_are_parsed() -> None:
    source = textwrap.dedent(
        """
        import torch


        class Config:
            hidden = 8


        def forward(x):
            return x.eval()
        """
    ).encode()
    tree = parse_relevant(source, Triggers(source), whole=False)
    assert [type(node).__name__ for node in tree.body] == ["Import", "FunctionDef"]
    assert tree.body[1].lineno == 9


UNPARSABLE = {
    # a file naming no rule's word, which the rules never parse
    "no_trigger_word": ("import os\n\n\ndef f(:\n    return os.sep\n", 4),
    # the error in a definition naming no trigger word, next to one that does
    "error_beside_a_trigger": (
        "import torch.nn.functional as F\n\n\ndef f(x):\n    return F.dropout(x, 0.1, training=False)\n\n\n"
        "def g(x)\n    return x\n",
        8,
    ),
    # a name declared impossibly: the compiler refuses the file
    "nonlocal_at_the_top": ("import os\n\n\ndef f():\n    nonlocal x\n", 5),
    "null_byte": ("x = 1\x00\n", 1),
}


@pytest.mark.parametrize("name", sorted(UNPARSABLE))
def test_a_file_that_does_not_parse_is_gm999_whatever_words_it_names(tmp_path: Path, name: str) -> None:
    source, line = UNPARSABLE[name]
    path = tmp_path / "m.py"
    path.write_bytes(source.encode())
    found = [(f.line, f.code) for f in lint_files([str(path)], select_codes()).findings]
    assert found == [(line, "GM999")]


def test_a_file_that_parses_is_not_gm999_when_cut_in_a_docstring(tmp_path: Path) -> None:
    """A piece cut inside a docstring does not parse alone; the whole file decides, and it parses."""
    path = tmp_path / "m.py"
    path.write_text(textwrap.dedent(SOURCES["docstring_with_code"]).replace("F.dropout(x)", "x"))
    assert lint_files([str(path)], select_codes()).findings == []
