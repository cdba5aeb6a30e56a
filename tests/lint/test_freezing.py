"""Module classes that freeze themselves when built (FID's InceptionV3, LPIPS' VGG): running one after ``eval()``
without ``no_grad`` records nothing, so GM501 stays silent; built trainable, or with a submodule added after the
freezing loop, it is reported."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from gradmode_plugin.lint.analysis import check_source
from gradmode_plugin.lint.freezing import freezes_when_built
from gradmode_plugin.lint.rules import select_codes
from gradmode_plugin.lint.runner import lint_files

INCEPTION = """\
class InceptionV3(nn.Module):
    def __init__(self, blocks, resize_input=True, requires_grad=False):
        super().__init__()
        self.blocks = nn.ModuleList(blocks)
        for param in self.parameters():
            param.requires_grad = requires_grad
"""
USE = """\
def fid_features(images):
    model = {build}.eval()
    return model(images)
"""


def _gm501(source: str) -> list[int]:
    return [f.line for f in check_source(textwrap.dedent(source), "metrics.py") if f.code == "GM501"]


@pytest.mark.parametrize(
    ("build", "found"),
    [
        ("InceptionV3([3])", []),
        ("InceptionV3([3], resize_input=False)", []),
        ("InceptionV3([3], True, False)", []),
        ("InceptionV3([3], requires_grad=not frozen)", [4]),
        ("InceptionV3([3], True, True)", [4]),
        ("InceptionV3([3], requires_grad=flag)", [4]),
        ("InceptionV3(*blocks)", [4]),
        ("InceptionV3([3], True, False, 4)", [4]),
        ("Other([3])", [4]),
    ],
)
def test_a_model_built_frozen_is_silent_and_one_built_trainable_is_reported(build: str, found: list[int]) -> None:
    assert _gm501(INCEPTION + "\n\n" + USE.format(build=build)) == [line + 7 for line in found]


CONSTRUCTORS = {
    "requires_grad_ on self": ("self.net = make()\n        self.requires_grad_(False)", True),
    "requires_grad_ on each parameter": (
        "self.net = make()\n        for p in self.parameters():\n            p.requires_grad_(False)",
        True,
    ),
    "under a test of a flag that is off": (
        "self.net = make()\n        if not train:\n            self.requires_grad_(False)",
        True,
    ),
    "under a test of a flag that is on": (
        "self.net = make()\n        if train:\n            self.requires_grad_(False)",
        False,
    ),
    "under an unknown test": (
        "self.net = make()\n        if make.frozen:\n            self.requires_grad_(False)",
        False,
    ),
    "before a submodule is added": ("self.requires_grad_(False)\n        self.head = nn.Linear(2, 2)", False),
    "some parameters only": (
        "self.net = make()\n        for p in self.net.parameters():\n            p.requires_grad = False",
        False,
    ),
    "turned on": ("self.net = make()\n        for p in self.parameters():\n            p.requires_grad = True", False),
}


@pytest.mark.parametrize("constructor", list(CONSTRUCTORS))
def test_which_constructors_freeze_everything(constructor: str) -> None:
    body, frozen = CONSTRUCTORS[constructor]
    cls = ast.parse(f"class Net(nn.Module):\n    def __init__(self, train=False):\n        {body}\n").body[0]
    assert isinstance(cls, ast.ClassDef)
    call = ast.parse("Net()").body[0].value  # type: ignore[attr-defined]
    assert freezes_when_built(cls, call) is frozen


def test_a_class_of_another_file_is_found_once_and_only_if_unique(tmp_path: Path) -> None:
    (tmp_path / "inception.py").write_text(INCEPTION)
    (tmp_path / "metrics.py").write_text(
        "from inception import InceptionV3\n\n\n" + USE.format(build="InceptionV3([3])")
    )
    files = [str(tmp_path / "inception.py"), str(tmp_path / "metrics.py")]
    assert lint_files(files, select_codes()).findings == []
    (tmp_path / "other.py").write_text("class InceptionV3(nn.Module):\n    pass\n")  # which one is built: unknown
    found = lint_files([*files, str(tmp_path / "other.py")], select_codes()).findings
    assert [(Path(f.path).name, f.line, f.code) for f in found] == [("metrics.py", 6, "GM501")]
