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
    """The one class of that name in the run's files; where there are several, the one the file imports by name;
    else unknown."""
    (tmp_path / "inception.py").write_text(INCEPTION)
    (tmp_path / "metrics.py").write_text(
        "from inception import InceptionV3\n\n\n" + USE.format(build="InceptionV3([3])")
    )
    (tmp_path / "metrics_star.py").write_text("from inception import *\n\n\n" + USE.format(build="InceptionV3([3])"))
    files = [str(tmp_path / name) for name in ("inception.py", "metrics.py", "metrics_star.py")]
    assert lint_files(files, select_codes()).findings == []
    (tmp_path / "other.py").write_text("class InceptionV3(nn.Module):\n    pass\n")
    found = lint_files([*files, str(tmp_path / "other.py")], select_codes()).findings
    # the by-name import decides which one metrics.py builds; the star import leaves it unknown
    assert [(Path(f.path).name, f.line, f.code) for f in found] == [("metrics_star.py", 6, "GM501")]


HELPERS = """\
import copy

import torch


def toggle_grad(model, requires_grad):
    for p in model.parameters():
        p.requires_grad_(requires_grad)


def freeze(model):
    model.requires_grad_(False)


def set_requires_grad(nets, requires_grad=False):
    if not isinstance(nets, list):
        nets = [nets]
    for net in nets:
        for p in net.parameters():
            p.requires_grad = requires_grad


def create_encoder(build):
    encoder = build().cuda()
    encoder.eval()
    for param in encoder.parameters():
        param.requires_grad = False
    return encoder


def create_then_replace(build):
    encoder = build()
    encoder.requires_grad_(False)
    encoder = build()
    encoder.eval()
    return encoder


def create_trainable(build):
    encoder = build()
    encoder.eval()
    return encoder


def frozen_copy(model):
    model = copy.deepcopy(model)
    model.requires_grad_(False)
    return model


def create_fresh(build, fresh):
    encoder = build()
    encoder.requires_grad_(False)
    if fresh:
        return build().eval()
    return encoder
"""

#: (the statements of a function, the lines (from its first) reported: GM701 for an update, GM501 for a forward)
HELPED = {
    "an EMA update after toggle_grad(ema, False)": (
        "toggle_grad(ema, False)\nfor p, q in zip(ema.parameters(), net.parameters()):\n    p.copy_(q)",
        [],
    ),
    "an EMA update after toggle_grad(ema, True)": (
        "toggle_grad(ema, True)\nfor p, q in zip(ema.parameters(), net.parameters()):\n    p.copy_(q)",
        [3],
    ),
    "an EMA update after toggle_grad(ema, requires_grad=False)": (
        "toggle_grad(ema, requires_grad=False)\nfor p, q in zip(ema.parameters(), net.parameters()):\n    p.copy_(q)",
        [],
    ),
    "an EMA update after freeze(ema)": (
        "freeze(ema)\nfor p, q in zip(ema.parameters(), net.parameters()):\n    p.copy_(q)",
        [],
    ),
    "an EMA update after a helper that rebinds its parameter first": (
        "set_requires_grad(ema, False)\nfor p, q in zip(ema.parameters(), net.parameters()):\n    p.copy_(q)",
        [3],
    ),
    "an EMA update after a helper that freezes a copy": (
        "frozen_copy(ema)\nfor p, q in zip(ema.parameters(), net.parameters()):\n    p.copy_(q)",
        [3],
    ),
    "a forward of a model a helper built frozen": ("encoder = create_encoder(Net)\nreturn encoder(x)", []),
    "a forward of a model a helper built frozen and moved": (
        "encoder = create_encoder(Net).to(device)\nreturn encoder(x)",
        [],
    ),
    "a forward of a model a helper froze and then replaced": (
        "encoder = create_then_replace(Net)\nreturn encoder(x)",
        [2],
    ),
    "a forward of a model a helper builds anew after freezing another": (
        "encoder = create_fresh(Net, True)\nreturn encoder(x)",
        [2],
    ),
    "a forward of a model a helper leaves trainable": ("encoder = create_trainable(Net)\nreturn encoder(x)", [2]),
    "a forward after freeze(model)": ("model = Net()\nmodel.eval()\nfreeze(model)\nreturn model(x)", []),
    "a forward after toggle_grad(model, True)": (
        "model = Net()\nmodel.eval()\ntoggle_grad(model, True)\nreturn model(x)",
        [4],
    ),
}


@pytest.mark.parametrize("case", list(HELPED))
def test_a_module_frozen_by_a_helper_of_the_file_records_no_graph(case: str) -> None:
    """GAN code's ``toggle_grad(model, False)`` before an EMA update, a ``create_enet()`` that returns the network
    it froze: silent; the helper asked to turn gradients on, one that rebinds what it freezes, a module replaced
    after its freezing: reported."""
    body, lines = HELPED[case]
    start = HELPERS.count("\n") + 3  # the line of `def use`: the body starts at 1
    source = HELPERS + "\n\ndef use(ema, net, x, device):\n" + textwrap.indent(body, "    ") + "\n"
    found = [f.line - start for f in check_source(source, "train.py") if f.code in ("GM501", "GM701")]
    assert found == lines


GAN_UTILS = """\
def toggle_grad(model, requires_grad):
    for p in model.parameters():
        p.requires_grad_(requires_grad)


def update_average(model_tgt, model_src, beta):
    toggle_grad(model_src, {flag})
    toggle_grad(model_tgt, {flag})
    for p_tgt, p_src in zip(model_tgt.parameters(), model_src.parameters()):
        p_tgt.copy_(beta * p_tgt + (1.0 - beta) * p_src)
"""


@pytest.mark.parametrize(("flag", "lines"), [("False", []), ("True", [10])])
def test_a_helper_freezing_in_a_file_without_eval(flag: str, lines: list[int]) -> None:
    """A GAN trainer's ``update_average`` in a file that never calls ``eval()``: its statements are walked quickly,
    and the freezing helper is still seen."""
    source = GAN_UTILS.format(flag=flag)
    assert [f.line for f in check_source(source, "train.py") if f.code == "GM701"] == lines


def test_a_helper_defined_twice_freezes_nothing() -> None:
    """Which of two ``create_encoder`` definitions runs is unknown: the one that leaves the encoder trainable may."""
    source = (
        HELPERS
        + "\n\nif TRAINABLE:\n    def create_encoder(build):\n        return build().eval()\n\n\n"
        + "def use(x):\n    encoder = create_encoder(Net)\n    return encoder(x)\n"
    )
    assert [f.code for f in check_source(source, "train.py")] == ["GM501"]


METRIC = """\
class QualityMetric(nn.Module):
    def __init__(self, trainable_head):
        super().__init__()
        self.backbone = timm.create_model("resnet50")
        self.head = trainable_head
        {freeze}

    def fix_network(self, model, flag=False):
        for p in model.parameters():
            p.requires_grad = flag

    @staticmethod
    def fix_static(model):
        for p in model.parameters():
            p.requires_grad = False

    def score(self, x):
        self.backbone.eval()
        features = self.backbone(x)
        return features.mean().item()
"""


@pytest.mark.parametrize(
    ("freeze", "lines"),
    [
        ("self.fix_network(self.backbone)", []),
        ("self.fix_network(model=self.backbone)", []),
        ("self.fix_network(self.head)", [19]),
        ("self.fix_network(self.backbone, True)", [19]),
        ("self.fix_static(self.backbone)", []),
        ("self.fix_static(self.head)", [19]),
        ("fix_network(self.backbone)", [19]),
        ("helper.fix_network(self.backbone)", [19]),
    ],
)
def test_a_module_frozen_by_a_method_of_its_class_records_no_graph(freeze: str, lines: list[int]) -> None:
    """An image-quality metric's ``self.fix_network(self.vit)`` in ``__init__``: its backbone run after ``eval()``
    records nothing; a static method's too (its first parameter is the module: no ``self``). Another module frozen,
    the freezing undone, or a function the file or the class does not define freezes nothing the class reads."""
    source = METRIC.format(freeze=freeze)
    assert [f.line for f in check_source(source, "metric.py") if f.code == "GM501"] == lines


DISTILLER = """\
class LearningWithoutForgetting(Finetune):
    def __init__(self, backbone, feat_dim, classes):
        super().__init__(backbone, feat_dim, classes)
        self.classifier = nn.Linear(feat_dim, classes)
        self.old_fc = None

    def freeze(self, module):
        for param in module.parameters():
            param.requires_grad = False
        module.eval()
        return module

    def keep(self, module):
        module.eval()
        return module

    def swap(self, module, other):
        for param in module.parameters():
            param.requires_grad = False
        other.eval()
        return other

    def before_task(self):
        self.old_fc = {made}

    def observe(self, x, y):
        logit = self.classifier(self.backbone(x))
        loss_kd = self._kd_loss(logit, self.old_fc(self.backbone(x)))
        return F.cross_entropy(logit, y) + loss_kd

    def _kd_loss(self, pred, soft):
        return -(F.log_softmax(pred, 1) * F.softmax(soft, 1)).sum(1).mean()
"""


@pytest.mark.parametrize(
    ("made", "lines"),
    [
        ("self.freeze(copy.deepcopy(self.classifier))", []),
        ("self.freeze(copy.deepcopy(self.classifier)).to(self.device)", []),
        ("self.keep(copy.deepcopy(self.classifier))", [28]),
        ("self.swap(self.backbone, copy.deepcopy(self.classifier))", [28]),
    ],
)
def test_a_module_a_method_freezes_and_gives_back_records_no_graph(made: str, lines: list[int]) -> None:
    """A continual learner's ``self.old_fc = self.freeze(copy.deepcopy(self.classifier))``: the old head, frozen
    and in ``eval()``, records nothing; a method that only puts it in ``eval()``, or one that freezes another module
    than the one it gives back, freezes nothing the class runs."""
    source = DISTILLER.format(made=made)
    assert [f.line for f in check_source(source, "lwf.py") if f.code == "GM501"] == lines
