"""A statement that unpacks a call's result into a number of names no return of the called function gives raises
each time it runs: the lines from it to the end of its block are unreachable, and nothing else is."""

from __future__ import annotations

import ast
import textwrap

import pytest

from gradmode_plugin.lint.unreachable import unreachable_lines

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
