"""Parsing only the definitions that name a trigger word finds what parsing the whole file finds, whatever the
file holds: docstrings with a ``def`` at column 0, decorators, encodings, aliases."""

from __future__ import annotations

import ast
import textwrap

import pytest

from gradmode_plugin.lint import analysis
from gradmode_plugin.lint.parsing import parse_relevant
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
