"""A statement that unpacks a call's result into a number of names no return of the called function gives raises
each time it runs: the lines from it to the end of its block are unreachable, and nothing else is."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from gradmode_plugin.lint.analysis import check_source
from gradmode_plugin.lint.names import ImportTable
from gradmode_plugin.lint.unreachable import unreachable_lines
from tests.helpers.lint import lint_from, write_tree

NET = """
class Net:
    def forward(self, x):
        if x is None:
            return x, x
        return x, x * 2
"""


def lines_after(source: str, net: str = NET) -> set[int]:
    tree = ast.parse(textwrap.dedent(net + source))
    return unreachable_lines(tree, lambda name: None)


def line_of(source: str, text: str) -> int:
    return next(number for number, line in enumerate((NET + source).splitlines(), 1) if text in line)


BAD = """
def validate(model, xs):
    before = model(xs[0])
    for x in xs:
        early = model(x)
        a, b, c = model(x)
        late = model(x)
    after = model(xs[-1])


model = Net()
"""


def test_the_wrong_unpack_and_what_follows_it_in_its_block() -> None:
    found = lines_after(BAD)
    assert {line_of(BAD, "a, b, c"), line_of(BAD, "late =")} <= found
    for kept in ("before =", "early =", "after ="):
        assert line_of(BAD, kept) not in found, kept


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(BAD.replace("a, b, c", "a, b"), id="as many names as the returns give"),
        pytest.param(BAD.replace("a, b, c", "a, b, *rest"), id="a starred name takes the rest"),
        pytest.param(BAD.replace("model = Net()", "model = load()"), id="a model of unknown class"),
        pytest.param(
            BAD.replace(
                "        a, b, c = model(x)",
                "        try:\n            a, b, c = model(x)\n        except ValueError:\n            pass",
            ),
            id="inside a try",
        ),
    ],
)
def test_nothing_is_unreachable_where_the_file_does_not_show_the_unpack_raises(source: str) -> None:
    assert not lines_after(source)


def test_a_class_with_its_own_call_may_return_anything() -> None:
    assert lines_after(BAD)
    assert not lines_after(BAD, NET + "\n    def __call__(self, x):\n        return x, x, x\n")


#: A forward with two returns, the second ``{last}``.
BRANCHES = "    def forward(self, x):\n        if x:\n            return x, x\n        return {last}\n"


@pytest.mark.parametrize(
    ("callee", "why"),
    [
        ("    @staticmethod\n    def forward(x):\n        return x, x\n", "a decorator may change what it returns"),
        ("    def forward(self, x):\n        yield x\n        return x, x\n", "a generator"),
        (BRANCHES.format(last="x"), "a return of no tuple"),
        (BRANCHES.format(last="x, x, x, x"), "lengths differ"),
        ("    def forward(self, x):\n        return (*x, x)\n", "a starred value"),
    ],
)
def test_a_callee_whose_returns_are_not_all_one_tuple_length_decides_nothing(callee: str, why: str) -> None:
    source = "class Net:\n" + callee + BAD
    tree = ast.parse(source)
    assert not unreachable_lines(tree, lambda name: None), why


def test_a_function_of_the_file_and_a_method_of_the_class_are_read_too() -> None:
    source = """
def pair(x):
    return x, x


class Runner:
    def triple(self, x):
        return x, x, x

    def run(self, x):
        a, b = self.triple(x)
        c, d, e = pair(x)
"""
    tree = ast.parse(source)
    found = unreachable_lines(tree, lambda name: None)
    assert found == {11, 12}


def test_a_class_of_another_file_is_found_through_the_run() -> None:
    other = ast.parse(NET).body[0]
    assert isinstance(other, ast.ClassDef)
    tree = ast.parse("def check(model, x):\n    a, b, c = model(x)\n\n\nmodel = Net()\n")
    assert unreachable_lines(tree, lambda name: other if name == "Net" else None) == {2}


#: A PyTorch 0.3 script: its training loop reads ``loss.data[0]`` (``IndexError`` on a 0-dim loss since 1.0) before
#: the evaluation is ever called, so the evaluation, with its forward after ``eval()`` and gradients on, never runs.
LEGACY = """
import torch
import torch.nn as nn
import torch.nn.functional as F

criterion = nn.CrossEntropyLoss()


def train(model, loader, optimizer):
    model.train()
    for data, target in loader:
        optimizer.zero_grad()
        loss = criterion(model(data), target)
        loss.backward()
        optimizer.step()
        print(loss.data[0])


def test(model, loader):
    model.eval()
    correct = 0
    for data, target in loader:
        output = model(data)
        correct += output.max(1)[1].eq(target).sum().item()
    return correct


for epoch in range(10):
    train(model, loader, optimizer)
    accuracy = test(model, loader)
"""


def legacy_lines(source: str, named_elsewhere: bool = False) -> set[int]:
    tree = ast.parse(source)
    imports = ImportTable()
    imports.bound_in(tree)
    return unreachable_lines(tree, lambda name: None, imports.qualname, lambda name: named_elsewhere)


def legacy_line(source: str, text: str) -> int:
    return next(number for number, line in enumerate(source.splitlines(), 1) if text in line)


def test_an_evaluation_called_only_after_a_training_loop_that_raises_never_runs() -> None:
    found = legacy_lines(LEGACY)
    for text in ("print(loss.data[0])", "def test(", "output = model(data)", "accuracy = test("):
        assert legacy_line(LEGACY, text) in found, text
    for text in ("loss = criterion(", "optimizer.step()", "train(model, loader, optimizer)\n"):
        assert legacy_line(LEGACY, text.strip()) not in found, text
    findings = check_source(LEGACY, "legacy.py")
    assert not [f for f in findings if f.code == "GM501"], findings


def test_the_same_script_with_item_is_found() -> None:
    source = LEGACY.replace("loss.data[0]", "loss.item()")
    assert not legacy_lines(source)
    findings = check_source(source, "legacy.py")
    assert [f.line for f in findings if f.code == "GM501"] == [legacy_line(source, "output = model(data)")]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("nn.CrossEntropyLoss()", "nn.CrossEntropyLoss(reduction='none')", id="a loss per sample"),
        pytest.param(
            "nn.CrossEntropyLoss()", "nn.CrossEntropyLoss(None, None, -100, False)", id="reduce=False by position"
        ),
        pytest.param("nn.CrossEntropyLoss()", "MyLoss()", id="a loss the file does not show"),
        pytest.param("nn.CrossEntropyLoss()", "nn.Softmax(dim=1)", id="a module of torch.nn that is no loss"),
        pytest.param("print(loss.data[0])", "print(F.log_softmax(data, 1).data[0])", id="a function that is no loss"),
        pytest.param(
            "        print(loss.data[0])", "        if epoch:\n            print(loss.data[0])", id="under an if"
        ),
        pytest.param(
            "        optimizer.zero_grad()",
            "        if data is None:\n            continue\n        optimizer.zero_grad()",
            id="a continue before it",
        ),
        pytest.param(
            "        loss.backward()",
            "        loss.backward()\n        loss = loss.detach().view(1)",
            id="the name assigned again",
        ),
        pytest.param("def train(", "@log\ndef train(", id="a decorator may catch"),
        pytest.param(
            "for epoch in range(10):",
            "accuracy = test(model, loader)\nfor epoch in range(10):",
            id="also called before training",
        ),
    ],
)
def test_where_the_file_does_not_show_the_raise_the_evaluation_is_kept(old: str, new: str) -> None:
    source = LEGACY.replace(old, new)
    assert source != LEGACY
    assert legacy_line(LEGACY, "output = model(data)") not in legacy_lines(source)


def test_an_evaluation_another_file_names_is_kept() -> None:
    found = legacy_lines(LEGACY, named_elsewhere=True)
    assert legacy_line(LEGACY, "accuracy = test(") in found  # after the call that raises
    assert legacy_line(LEGACY, "output = model(data)") not in found  # another file may call it


def test_a_functional_loss_and_a_loss_called_inline_raise_too() -> None:
    for statement in (
        "        print(F.nll_loss(model(data), target).data[0])",
        "        print(nn.MSELoss()(data, target).data[0])",
    ):
        source = LEGACY.replace("        print(loss.data[0])", statement)
        assert legacy_line(LEGACY, "output = model(data)") in legacy_lines(source), statement
    source = LEGACY.replace(
        "        print(loss.data[0])", "        print(F.nll_loss(model(data), target, reduce=False).data[0])"
    )
    assert legacy_line(LEGACY, "output = model(data)") not in legacy_lines(source)


#: A script whose `evaluate` nothing names: the eval-mode forward with gradients on (GM501) never runs.
SCRIPT = """\
import torch


def _forward(model, x):
    model.eval()
    return model(x)


def evaluate(model, x):
    return _forward(model, x)


def train(model, x):
    model.train()
    model(x).sum().backward()


if __name__ == "__main__":
    model = torch.nn.Linear(2, 2)
    train(model, torch.ones(2))
"""


def _script_findings(tmp_path: Path, files: dict[str, str]) -> list[tuple[str, str]]:
    write_tree(tmp_path, files)
    return [(Path(f.path).as_posix(), f.code) for f in lint_from(tmp_path).findings]


@pytest.mark.parametrize("guard", ['if __name__ == "__main__":', 'if "__main__" == __name__:'])
def test_a_function_of_a_script_that_nothing_names_never_runs_nor_what_only_it_calls(
    tmp_path: Path, guard: str
) -> None:
    script = SCRIPT.replace('if __name__ == "__main__":', guard)
    assert _script_findings(tmp_path, {"train.py": script}) == []


NAMED = {
    "called by the script": (
        "    train(model, torch.ones(2))\n",
        "    train(model, torch.ones(2))\n    evaluate(model, 1)\n",
    ),
    "no `__main__` block (a module: its functions are its API)": ('if __name__ == "__main__":\n', "if True:\n"),
    "a test that is no `__main__` block": ('if __name__ == "__main__":\n', 'if __name__ != "__main__":\n'),
    "decorated (a decorator may register it)": ("def evaluate(", "@register\ndef evaluate("),
    "named in a string of the file": ("import torch\n", "import torch\nCOMMANDS = ['evaluate']\n"),
    "reached through `globals()`": (
        "    train(model, torch.ones(2))\n",
        "    globals()[input()](model, torch.ones(2))\n",
    ),
    "every function a command of `fire`": ("    train(model, torch.ones(2))\n", "    fire.Fire()\n"),
}


@pytest.mark.parametrize("case", list(NAMED))
def test_a_function_that_may_run_is_still_checked(tmp_path: Path, case: str) -> None:
    old, new = NAMED[case]
    assert old in SCRIPT
    assert _script_findings(tmp_path, {"train.py": SCRIPT.replace(old, new)}) == [("train.py", "GM501")]


@pytest.mark.parametrize(
    "other",
    [
        pytest.param({"run.py": "from train import evaluate\n"}, id="imported by another file"),
        pytest.param({"tests/test_train.py": "from train import evaluate\n"}, id="named by a test"),
        pytest.param({"notes.py": "evaluate(\n"}, id="named in a file that does not parse"),
    ],
)
def test_a_function_another_file_names_is_still_checked(tmp_path: Path, other: dict[str, str]) -> None:
    found = _script_findings(tmp_path, {"train.py": SCRIPT, **other})
    assert ("train.py", "GM501") in found
