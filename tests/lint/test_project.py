"""Callers in the other files of a run: a function nothing in its own file calls is silent where every call of it
elsewhere runs with gradients off, and reported where one does not, where it is only passed around, or where the
only callers are tests or another function of its name."""

from __future__ import annotations

from pathlib import Path

import pytest

from gradmode_plugin.lint.cli import main
from gradmode_plugin.lint.rules import select_codes
from gradmode_plugin.lint.runner import MIN_FILES_PER_JOB, lint_files
from tests.helpers.lint import EPOCH_BY_FLAG, Located, expected_findings, lint_from, write_tree

VALIDATE = """\
def validate(model, loader):
    model.eval()
    return [model(x) for x in loader]{mark}
"""
BUG = "  # expect: GM501"


def _found(root: Path, jobs: int = 1, code: str | None = "GM501") -> set[Located]:
    """The findings of one rule (``code``), or of all (None)."""
    result = lint_from(root, jobs)
    return {(Path(f.path).as_posix(), f.line, f.code) for f in result.findings if code in (None, f.code)}


CALLERS = {
    "under no_grad": (
        "import torch\nfrom evaluation import validate\n\nwith torch.no_grad():\n    validate(net, data)\n",
        "",
    ),
    "in a no_grad function": (
        "import torch\nimport evaluation\n\n\n@torch.no_grad()\ndef run(net, data):\n"
        "    return evaluation.validate(net, data)\n",
        "",
    ),
    "in a function its file calls under inference_mode": (
        "import torch\nfrom evaluation import validate\n\n\ndef run(net, data):\n    return validate(net, data)\n\n\n"
        "def main(net, data):\n    with torch.inference_mode():\n        run(net, data)\n",
        "",
    ),
    "in a Lightning step, through a helper": (
        "import lightning as L\nfrom evaluation import validate\n\n\nclass Model(L.LightningModule):\n"
        "    def _shared(self, batch):\n        return validate(self.net, [batch])\n\n"
        "    def validation_step(self, batch, batch_idx):\n        return self._shared(batch)\n\n"
        "    def test_step(self, batch, batch_idx):\n        return self._shared(batch)\n",
        "",
    ),
    "in a Lightning step's helper that training runs too": (
        "import lightning as L\nfrom evaluation import validate\n\n\nclass Model(L.LightningModule):\n"
        "    def _shared(self, batch):\n        return validate(self.net, [batch])\n\n"
        "    def validation_step(self, batch, batch_idx):\n        return self._shared(batch)\n\n"
        "    def training_step(self, batch, batch_idx):\n        return self._shared(batch)\n",
        BUG,
    ),
    "with gradients on": ("from evaluation import validate\n\nvalidate(net, data)\n", BUG),
    "passed as a callback": (
        "import torch\nfrom evaluation import validate\n\nwith torch.no_grad():\n    validate(net, data)\n"
        "hooks = [validate]\n",
        BUG,
    ),
    "in a training loop under enable_grad": (
        "import torch\nfrom evaluation import validate\n\nwith torch.enable_grad():\n    validate(net, data)\n",
        BUG,
    ),
    "beside an object's method of that name called with gradients on": (
        "import torch\nfrom evaluation import validate\n\nwith torch.no_grad():\n    validate(net, data)\n"
        "trainer.validate(data)\nself.validate()\n",
        "",
    ),
    "through its module, with gradients on once": (
        "import torch\nimport evaluation as ev\n\nwith torch.no_grad():\n    ev.validate(net, data)\n"
        "ev.validate(net, data)\n",
        BUG,
    ),
    "through a module imported relatively, with gradients on once": (
        "import torch\nfrom evaluation import validate\nfrom . import evaluation\n\nwith torch.no_grad():\n"
        "    validate(net, data)\nevaluation.validate(net, data)\n",
        BUG,
    ),
    "through a package's module, with gradients on once": (
        "import torch\nimport pkg.evaluation\n\nwith torch.no_grad():\n    pkg.evaluation.validate(net, data)\n"
        "pkg.evaluation.validate(net, data)\n",
        BUG,
    ),
}


@pytest.mark.parametrize("caller", list(CALLERS))
def test_a_function_is_judged_by_its_callers_in_other_files(tmp_path: Path, caller: str) -> None:
    text, mark = CALLERS[caller]
    write_tree(tmp_path, {"evaluation.py": VALIDATE.format(mark=mark), "train.py": text})
    assert _found(tmp_path) == expected_findings(tmp_path)


#: A call of ``validate`` in a function its own file never calls, judged where other files call that function:
#: (that function's file, the file calling it, whether the finding stays).
CALLERS_CALLERS = {
    "a function another file calls under inference_mode": (
        "from evaluation import validate\n\n\ndef step(net, data):\n    return validate(net, data)\n",
        "import torch\nfrom runner import step\n\nwith torch.inference_mode():\n    step(net, data)\n",
        "",
    ),
    "a method another file calls under no_grad": (
        "from evaluation import validate\n\n\nclass Algo:\n    def process(self, net, data):\n"
        "        return validate(net, data)\n",
        "import torch\n\n\ndef rollout(algo, net, data):\n    with torch.no_grad():\n        algo.process(net, data)\n",
        "",
    ),
    "a function another file calls with gradients on": (
        "from evaluation import validate\n\n\ndef step(net, data):\n    return validate(net, data)\n",
        "import torch\nfrom runner import step\n\nwith torch.inference_mode():\n    step(net, data)\nstep(net, data)\n",
        BUG,
    ),
    "a function no file calls": (
        "from evaluation import validate\n\n\ndef step(net, data):\n    return validate(net, data)\n",
        "",
        BUG,
    ),
    "a function its own file calls with gradients on": (
        "from evaluation import validate\n\n\ndef step(net, data):\n    return validate(net, data)\n\n\n"
        "def main(net, data):\n    return step(net, data)\n",
        "import torch\nfrom runner import step\n\nwith torch.inference_mode():\n    step(net, data)\n",
        BUG,
    ),
    "a function another file calls from a function nothing calls": (
        "from evaluation import validate\n\n\ndef step(net, data):\n    return validate(net, data)\n",
        "from runner import step\n\n\ndef outer(net, data):\n    return step(net, data)\n",
        BUG,
    ),
    "a nested function whose namesake another file calls under no_grad": (
        "from evaluation import validate\n\n\ndef outer(net, data):\n    def step():\n"
        "        return validate(net, data)\n\n    return data\n",
        "import torch\n\nwith torch.no_grad():\n    step(net, data)\n",
        BUG,
    ),
    "an __init__ a subclass elsewhere runs under no_grad, built with gradients on": (
        "from evaluation import validate\n\n\nclass Scores:\n    def __init__(self, net, data):\n"
        "        self.values = validate(net, data)\n",
        "import torch\nfrom runner import Scores\n\n\nclass Quiet(Scores):\n    def __init__(self, net, data):\n"
        "        with torch.no_grad():\n            super().__init__(net, data)\n\n\nScores(net, data)\n",
        BUG,
    ),
}


@pytest.mark.parametrize("case", list(CALLERS_CALLERS))
def test_a_function_is_judged_by_its_callers_callers_in_other_files(tmp_path: Path, case: str) -> None:
    """One file further: ``validate`` called in ``runner.py``'s ``step``, which ``runner.py`` never calls, runs where
    ``main.py`` calls ``step``; not two files further, nor for a nested function or a dunder."""
    runner, main, mark = CALLERS_CALLERS[case]
    write_tree(tmp_path, {"evaluation.py": VALIDATE.format(mark=mark), "runner.py": runner, "main.py": main})
    assert _found(tmp_path) == expected_findings(tmp_path)


def test_callers_are_followed_one_file_further_only(tmp_path: Path) -> None:
    """``step`` runs where ``main.py``'s ``outer`` calls it; ``outer`` runs under ``no_grad`` only in a fourth file,
    beyond the one file further followed: the finding stays."""
    write_tree(
        tmp_path,
        {
            "evaluation.py": VALIDATE.format(mark=BUG),
            "runner.py": CALLERS_CALLERS["a function no file calls"][0],
            "main.py": CALLERS_CALLERS["a function another file calls from a function nothing calls"][1],
            "entry.py": "import torch\nfrom main import outer\n\nwith torch.no_grad():\n    outer(net, data)\n",
        },
    )
    assert _found(tmp_path) == expected_findings(tmp_path)


FEATURES = """\
class Features:
    def __init__(self, model):
        self.model = model

    def eval(self):
        self.model.eval()

    def get_outputs(self, x):
        return self.model(x){mark}
"""
METRIC = """\
import torch


def fid(eval_model, images):
    with torch.no_grad():
        return eval_model.get_outputs(images)
"""


@pytest.mark.parametrize(
    ("other", "mark"),
    [
        ("", ""),
        ("def report(eval_model, images):\n    return eval_model.get_outputs(images)\n", BUG),
        ("def report(eval_model, images):\n    return [eval_model.get_outputs]\n", BUG),
    ],
)
def test_a_method_whose_module_another_method_evaluates_is_judged_by_its_callers(
    tmp_path: Path, other: str, mark: str
) -> None:
    """A metric's ``eval_model.get_outputs(x)``, called only inside ``no_grad`` by the other files: silent; one call
    with gradients on, or the method handed on, keeps the finding."""
    write_tree(tmp_path, {"features.py": FEATURES.format(mark=mark), "fid.py": METRIC, "report.py": other})
    assert _found(tmp_path) == expected_findings(tmp_path)


def test_one_call_with_gradients_on_among_calls_under_no_grad_is_enough(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "evaluation.py": VALIDATE.format(mark=BUG),
            "train.py": CALLERS["under no_grad"][0],
            "report.py": CALLERS["with gradients on"][0],
        },
    )
    assert _found(tmp_path) == expected_findings(tmp_path) != set()


def test_callers_in_tests_and_namesakes_do_not_decide(tmp_path: Path) -> None:
    """A test that calls it under no_grad, and a script that calls its own `validate` under no_grad: neither runs
    this one, which no code of the project runs with gradients off."""
    own = "import torch\n\n\ndef validate(a, b):\n    return a\n\n\nwith torch.no_grad():\n    validate(1, 2)\n"
    write_tree(
        tmp_path,
        {
            "evaluation.py": VALIDATE.format(mark=BUG),
            "tests/test_evaluation.py": CALLERS["under no_grad"][0],
            "other.py": own,
        },
    )
    assert _found(tmp_path) == expected_findings(tmp_path) != set()


def test_a_file_linted_alone_has_no_callers_elsewhere(tmp_path: Path) -> None:
    write_tree(tmp_path, {"evaluation.py": VALIDATE.format(mark=""), "train.py": CALLERS["under no_grad"][0]})
    result = lint_files([str(tmp_path / "evaluation.py")], select_codes())
    assert [f.code for f in result.findings] == ["GM501"]


def test_worker_processes_see_the_whole_run(tmp_path: Path) -> None:
    """The function and its caller in different chunks, checked by different processes."""
    write_tree(tmp_path, {"evaluation.py": VALIDATE.format(mark=""), "train.py": CALLERS["under no_grad"][0]})
    write_tree(tmp_path, {f"f{i:03d}.py": "x = 1\n" for i in range(2 * MIN_FILES_PER_JOB)})  # sorted between them
    assert _found(tmp_path, jobs=2) == _found(tmp_path) == set()
    (tmp_path / "report.py").write_text(CALLERS["with gradients on"][0])
    assert _found(tmp_path, jobs=2) == _found(tmp_path) == {("evaluation.py", 3, "GM501")}


def test_files_named_one_by_one_are_judged_by_the_rest_of_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pre-commit hook passes the changed files alone: their callers are looked for in the rest of the folder it
    runs in, so the hook says what ``gradmode-lint .`` says."""
    write_tree(tmp_path, {"evaluation.py": VALIDATE.format(mark=""), "train.py": CALLERS["under no_grad"][0]})
    monkeypatch.chdir(tmp_path)
    assert main(["evaluation.py"]) == 0
    (tmp_path / "report.py").write_text(CALLERS["with gradients on"][0])
    assert main(["evaluation.py"]) == 1
    assert "evaluation.py:3:" in capsys.readouterr().out


SCRIPT = """\
from model import Net

net = Net.load_from_checkpoint("last.ckpt")
net.eval()
print(net.test_step(batch, 0))  # expect: GM501
"""
STEPS = {
    "runs its forward with gradients on": ("def test_step(self, batch, i):\n        return self(batch)\n", BUG),
    "wraps its forward in no_grad": (
        "def test_step(self, batch, i):\n        x = batch\n        with torch.no_grad():\n"
        "            return self(x)\n",
        "",
    ),
    "is decorated inference_mode": (
        "@torch.inference_mode()\n    def test_step(self, batch, i):\n        return self(batch)\n",
        "",
    ),
    "turns gradients off only around a part": (
        "def test_step(self, batch, i):\n        with torch.no_grad():\n            x = batch * 2\n"
        "        return self(x)\n",
        BUG,
    ),
    "wraps its network's forward in no_grad": (
        "def test_step(self, batch, i):\n        self.eval()\n        with torch.no_grad():\n"
        "            out = self.net(batch)\n        return self.metrics.update(out)\n",
        "",
    ),
    "runs only helpers": ("def test_step(self, batch, i):\n        return self.shared_step(batch)\n", BUG),
}


@pytest.mark.parametrize("step", list(STEPS))
def test_a_step_called_by_hand_is_judged_by_its_definitions(tmp_path: Path, step: str) -> None:
    """``net.eval(); net.test_step(batch, 0)`` outside Lightning runs the step in the caller's grad mode: reported,
    unless every ``test_step`` of the project turns gradients off for its body (a ``with`` among its top-level
    statements, or a decorator)."""
    body, mark = STEPS[step]
    model = "import torch\nimport lightning as L\n\n\nclass Net(L.LightningModule):\n    " + body
    script = SCRIPT if mark else SCRIPT.replace("  # expect: GM501", "")
    write_tree(tmp_path, {"model.py": model, "predict.py": script})
    assert _found(tmp_path) == expected_findings(tmp_path)


def test_one_step_of_that_name_with_gradients_on_keeps_the_finding(tmp_path: Path) -> None:
    """Which class's step runs is unknown: one ``test_step`` in the project that leaves gradients on is enough."""
    gradless = "    @torch.no_grad()\n    def test_step(self, batch, i):\n        return self(batch)\n"
    plain = "    def test_step(self, batch, i):\n        return self(batch)\n"
    header = "import torch\nimport lightning as L\n\n\nclass {name}(L.LightningModule):\n"
    write_tree(
        tmp_path,
        {
            "model.py": header.format(name="Net") + gradless,
            "other.py": header.format(name="Other") + plain,
            "predict.py": SCRIPT,
        },
    )
    assert _found(tmp_path) == expected_findings(tmp_path)


EVALUATE_POLICY = """\
def evaluate_policy(env, policy, steps):
    policy = policy.eval()
    obs = env.reset()
    for _ in range(steps):
        actions, values = policy.forward(obs, deterministic=True){mark}
        obs = env.step(actions)
"""
POLICY = "import numpy as np\nimport torch\nfrom torch import nn\n\n\nclass Policy(nn.Module):\n"
POLICIES = {
    "acts under its own no_grad": (
        "    def forward(self, obs, deterministic=False):\n"
        "        with torch.no_grad():\n"
        "            features = self.features(torch.as_tensor(obs))\n"
        "            values = self.value_head(features)\n"
        "            actions = self._act(features, deterministic)\n"
        "        return self.unscale(actions.numpy()), values.numpy()\n"
        "\n"
        "    def _act(self, features, deterministic):\n"
        "        return self.action_head(features)\n"
        "\n"
        "    def unscale(self, actions):\n"
        "        return np.clip(actions, -1, 1)\n",
        "",
    ),
    "runs its value head with gradients on": (
        "    def forward(self, obs, deterministic=False):\n"
        "        with torch.no_grad():\n"
        "            features = self.features(torch.as_tensor(obs))\n"
        "        return self.action_head(features), self.value_head(features)\n",
        BUG,
    ),
    "calls a method that runs a head with gradients on": (
        "    def forward(self, obs, deterministic=False):\n"
        "        with torch.no_grad():\n"
        "            features = self.features(torch.as_tensor(obs))\n"
        "        return self._act(features), None\n"
        "\n"
        "    def _act(self, features):\n"
        "        return self.action_head(features)\n",
        BUG,
    ),
    "uses its weight directly": (
        "    def forward(self, obs, deterministic=False):\n        return obs @ self.weight, None\n",
        BUG,
    ),
    "takes other keywords": (
        "    def forward(self, obs, sample=False):\n"
        "        with torch.no_grad():\n"
        "            return self.action_head(obs), None\n",
        BUG,
    ),
}


@pytest.mark.parametrize("policy", list(POLICIES))
def test_a_forward_called_with_keywords_is_judged_by_the_forwards_that_accept_them(tmp_path: Path, policy: str) -> None:
    """``policy.forward(obs, deterministic=True)`` on a parameter names no class: silent where every ``forward`` of
    the project that accepts those keywords runs its submodules only under its own ``no_grad`` (an agent's policy
    acting), reported where one runs a submodule with gradients on, directly or through a method of its class,
    and where no ``forward`` accepts them."""
    body, mark = POLICIES[policy]
    write_tree(tmp_path, {"policy.py": POLICY + body, "evaluation.py": EVALUATE_POLICY.format(mark=mark)})
    assert _found(tmp_path) == expected_findings(tmp_path)


def test_one_forward_accepting_the_keywords_with_gradients_on_keeps_the_finding(tmp_path: Path) -> None:
    gradless = "    def forward(self, obs, deterministic=False):\n        with torch.no_grad():\n"
    gradless += "            return self.head(obs), None\n"
    plain = "    def forward(self, obs, **kwargs):\n        return self.head(obs), None\n"
    write_tree(
        tmp_path,
        {
            "policy.py": POLICY + gradless,
            "other.py": POLICY.replace("Policy", "Other") + plain,
            "evaluation.py": EVALUATE_POLICY.format(mark=BUG),
        },
    )
    assert _found(tmp_path) == expected_findings(tmp_path)


EVALUATOR = """\
class Evaluator:
    def __init__(self, policy):
        self.policy = policy
        self.policy.eval()

    def evaluate(self, env, steps):
        obs = env.reset()
        for _ in range(steps):
            actions, values = self.policy.forward(obs, deterministic=True){mark}
            obs = env.step(actions)
"""


@pytest.mark.parametrize("policy", ["acts under its own no_grad", "runs its value head with gradients on"])
def test_a_policy_held_by_a_class_is_judged_the_same_way(tmp_path: Path, policy: str) -> None:
    body, mark = POLICIES[policy]
    write_tree(tmp_path, {"policy.py": POLICY + body, "evaluation.py": EVALUATOR.format(mark=mark)})
    assert _found(tmp_path) == expected_findings(tmp_path)


FLOW = """\
{imports}


class NodeClassification({base}):
    def train_step(self):
        self.model.train()
        loss = self.loss_fn(self.model(self.graph), self.labels)
        loss.backward()

    def test_step(self):
        self.model.eval()
        logits = self.model(self.graph){mark}
        return self.evaluate(logits)
"""
BASES = {
    "a base class of the project on ABC": ("from base import BaseFlow", "BaseFlow", BUG),
    "no base": ("", "", BUG),
    "torch's Module": ("from torch import nn", "nn.Module", BUG),
    "a base class of the project on LightningModule": ("from base import LitFlow", "LitFlow", ""),
    "Lightning's module": ("import lightning as L", "L.LightningModule", ""),
    "a base from another package": ("from graphlib_flows import Flow", "Flow", ""),
}
BASE = """\
from abc import ABC

import lightning as L


class BaseFlow(ABC):
    pass


class LitFlow(L.LightningModule):
    pass
"""


@pytest.mark.parametrize("base", list(BASES))
def test_a_step_of_a_class_that_is_no_lightning_module_is_an_evaluation_function(tmp_path: Path, base: str) -> None:
    """A trainer's own ``test_step`` (its class built on no base, or on plain bases of the project) is run by its
    own loop, not by Lightning under ``no_grad``: ``eval()`` and a forward with gradients on there is reported.
    Silent where the class is a ``LightningModule``, directly or through a project class, and where a base from
    another package may be one."""
    imports, name, mark = BASES[base]
    flow = FLOW.format(imports=imports, base=name, mark=mark).replace("class NodeClassification():", "class Flow:")
    write_tree(tmp_path, {"base.py": BASE, "flow.py": flow})
    assert _found(tmp_path) == expected_findings(tmp_path)


def test_a_plain_class_step_run_by_its_loop_under_no_grad_stays_silent(tmp_path: Path) -> None:
    flow = FLOW.format(imports="", base="", mark="").replace("class NodeClassification():", "class Flow:")
    flow += "\n    def fit(self):\n        self.train_step()\n"
    flow += "        with torch.no_grad():\n            self.test_step()\n"
    write_tree(tmp_path, {"flow.py": "import torch\n" + flow})
    assert _found(tmp_path) == set()


CHECKS = "import torch as t\n\nt.set_grad_enabled(False)\n\n\ndef check(x):\n    return x\n"
SOLUTIONS = """\
import torch
import part4.checks as checks

model = torch.nn.Linear(2, 2)
model.eval()
out = model(torch.ones(2)){mark}


def run_model_on_data(model, data):
    model.eval()
    return model(data){mark}
"""
DETECTOR = """\
import torch


class Detector:
    def __init__(self):
        {init}
        self.net = torch.nn.Linear(2, 2)
        self.net.eval()

    def detect(self, x):
        return self.net(x){mark}
"""
PROCESS_WIDE = {
    "an imported module turns gradients off at its top level": (
        {"part4/checks.py": CHECKS, "part4/solutions.py": SOLUTIONS.format(mark="")}
    ),
    "a module imported relatively turns gradients off at its top level": (
        {
            "part4/__init__.py": "",
            "part4/checks.py": CHECKS,
            "part4/solutions.py": SOLUTIONS.format(mark="").replace(
                "import part4.checks as checks", "from . import checks"
            ),
        }
    ),
    "a package whose __init__ turns gradients off at its top level": (
        {
            "part4/__init__.py": CHECKS,
            "part4/solutions.py": SOLUTIONS.format(mark="").replace("import part4.checks as checks", "import part4"),
        }
    ),
    "a module of that name elsewhere, not the one imported, turns gradients off": (
        {
            "part4/checks.py": "def check(x):\n    return x\n",
            "part5/checks.py": CHECKS,
            "part4/solutions.py": SOLUTIONS.format(mark=BUG).replace(
                "import part4.checks as checks", "from . import checks"
            ),
        }
    ),
    "an import that two modules of the project could be": (
        {
            "lib_a/checks.py": CHECKS,
            "lib_b/checks.py": "def check(x):\n    return x\n",
            "scripts/solutions.py": SOLUTIONS.format(mark=BUG).replace(
                "import part4.checks as checks", "import checks"
            ),
        }
    ),
    "the imported module turns them off only when run as a script": (
        {
            "part4/checks.py": CHECKS.replace(
                "t.set_grad_enabled(False)", 'if __name__ == "__main__":\n    t.set_grad_enabled(False)'
            ),
            "part4/solutions.py": SOLUTIONS.format(mark=BUG),
        }
    ),
    "the imported module turns them back on": (
        {
            "part4/checks.py": CHECKS + "\n\ndef train():\n    t.set_grad_enabled(True)\n",
            "part4/solutions.py": SOLUTIONS.format(mark=BUG),
        }
    ),
    "the importing file turns them back on": (
        {
            "part4/checks.py": CHECKS,
            "part4/solutions.py": SOLUTIONS.format(mark=BUG) + "\n\ntorch.set_grad_enabled(True)\n",
        }
    ),
    "the imported module turns them off in a function": (
        {
            "part4/checks.py": "import torch as t\n\n\ndef check(x):\n    t.set_grad_enabled(False)\n    return x\n",
            "part4/solutions.py": SOLUTIONS.format(mark=BUG),
        }
    ),
    "the file's own top level turns them off": (
        {"run.py": "import torch\n\ntorch.set_grad_enabled(False)\n\n\n" + VALIDATE.format(mark="")}
    ),
    "the file's own top level turns them off, and a function turns them on again": (
        {
            "run.py": "import torch\n\ntorch.set_grad_enabled(False)\n\n\n"
            + VALIDATE.format(mark=BUG)
            + "\n\ndef train():\n    torch.set_grad_enabled(True)\n"
        }
    ),
    "the class's __init__ turns them off for the process": (
        {"detector.py": DETECTOR.format(init="torch.set_grad_enabled(False)", mark="")}
    ),
    "the class's __init__ turns them off, and the file turns them on again": (
        {
            "detector.py": DETECTOR.format(init="torch.set_grad_enabled(False)", mark=BUG)
            + "\n\ndef train():\n    torch.set_grad_enabled(True)\n"
        }
    ),
    "the class's __init__ turns them off only in a with": (
        {"detector.py": DETECTOR.format(init="with torch.set_grad_enabled(False):\n            pass", mark=BUG)}
    ),
    "another class's __init__ turns them off": (
        {
            "detector.py": DETECTOR.format(init="pass", mark=BUG)
            + "\n\nclass Other:\n    def __init__(self):\n        torch.set_grad_enabled(False)\n"
        }
    ),
}


@pytest.mark.parametrize("case", list(PROCESS_WIDE))
def test_gradients_turned_off_for_the_process_silence_the_forwards_after_it(tmp_path: Path, case: str) -> None:
    """A statement that turns gradients off for the whole process, run before a forward can run (an imported
    module's top level, the file's own, the class's ``__init__``), with nothing in those files turning them on
    again: no graph is recorded. Reported where the statement does not run first (a ``__main__`` block of the module
    imported, a function of it, another class) or where the module or file turns gradients back on. The module
    imported is the file beside the importer (a relative import, a package's ``__init__.py``), else the one file of
    the project at that path: an import two of its modules could be decides nothing."""
    write_tree(tmp_path, PROCESS_WIDE[case])
    assert _found(tmp_path) == expected_findings(tmp_path)


ATTENTION = """\
import torch.nn.functional as F
from torch import nn


class SelfAttention(nn.Module):
    def __init__(self, dim, attn_p={default}):
        super().__init__()
        self.attn_p = attn_p

    def forward(self, q, k, v):
        return F.scaled_dot_product_attention(q, k, v, dropout_p=self.attn_p){mark}


class Block(nn.Module):
    def __init__(self, dim, attn_p={block_default}):
        super().__init__()
        self.attn = {build}
"""
GM104 = "  # expect: GM104"


def _attention(build: str, mark: str, default: str = "0", block_default: str = "0") -> str:
    return ATTENTION.format(build=build, mark=mark, default=default, block_default=block_default)


RATES = {
    "built only with its default": {"model.py": _attention("SelfAttention(dim)", "")},
    "built with a literal 0": {"model.py": _attention("SelfAttention(dim, 0.0)", "")},
    "handed a parameter that defaults to 0": {"model.py": _attention("SelfAttention(dim, attn_p=attn_p)", "")},
    "its __init__ names the class in super()": {
        "model.py": _attention("SelfAttention(dim)", "").replace(
            "super().__init__()\n        self.attn_p", "super(SelfAttention, self).__init__()\n        self.attn_p"
        )
    },
    "another file builds its own class of that name with a rate": {
        "model.py": _attention("SelfAttention(dim)", ""),
        "other.py": "class SelfAttention:\n    def __init__(self, dim, attn_p=0.1):\n        self.attn_p = attn_p\n\n\n"
        "layer = SelfAttention(64, attn_p=0.3)\n",
    },
    "handed a parameter that defaults to a rate": {
        "model.py": _attention("SelfAttention(dim, attn_p=attn_p)", GM104, block_default="0.1")
    },
    "built with a rate by position": {"model.py": _attention("SelfAttention(dim, 0.1)", GM104)},
    "built with keyword arguments unpacked": {"model.py": _attention("SelfAttention(dim, **cfg)", GM104)},
    "its default is a rate": {"model.py": _attention("SelfAttention(dim)", GM104, default="0.1")},
    "another file builds it with a rate": {
        "model.py": _attention("SelfAttention(dim)", GM104),
        "train.py": "from model import SelfAttention\n\nlayer = SelfAttention(64, attn_p=0.1)\n",
    },
    "another file builds it from a config": {
        "model.py": _attention("SelfAttention(dim)", GM104),
        "train.py": "import model\n\nlayer = getattr(model, 'SelfAttention')\nbuilt = model.SelfAttention\n",
    },
    "its own file never builds it": {"model.py": _attention("nn.Identity()", GM104)},
    "its __init__ replaces the parameter": {
        "model.py": _attention("SelfAttention(dim)", GM104).replace(
            "        self.attn_p = attn_p", "        attn_p = attn_p or 0.1\n        self.attn_p = attn_p"
        )
    },
    "its file subclasses it": {
        "model.py": _attention("SelfAttention(dim)", GM104)
        + "\n\nclass Wider(SelfAttention):\n    def __init__(self, dim):\n        super().__init__(dim, attn_p=0.1)\n"
    },
    "a rate with no default, built with a literal 0": {
        "model.py": _attention("SelfAttention(dim, attn_p=0.0)", "").replace("attn_p=0):", "attn_p):", 1)
    },
    "a rate with no default, built with a rate": {
        "model.py": _attention("SelfAttention(dim, attn_p=0.1)", GM104).replace("attn_p=0):", "attn_p):", 1)
    },
    "a rate with no default, handed on from a parameter with no default": {
        "model.py": _attention("SelfAttention(dim, attn_p=attn_p)", GM104).replace("attn_p=0):", "attn_p):")
    },
    "its own file builds another package's class of that name with a rate": {
        "model.py": "try:\n    import vendor.layers as mdl\nexcept ImportError:\n    mdl = None\n"
        + _attention("SelfAttention(dim)", "")
        + "\n\ndef vendor_block(dim):\n    return mdl.SelfAttention(dim, 0.1)\n"
    },
    "another file builds torch's class of that name with a rate": {
        "model.py": _attention("SelfAttention(dim)", ""),
        "train.py": "import torch\nfrom torch import nn\n\nlayer = nn.SelfAttention(64, 0.1)\n"
        "other = torch.nn.SelfAttention(64, 0.1)\n",
    },
    "another file builds it through its module with a rate": {
        "model.py": _attention("SelfAttention(dim)", GM104),
        "train.py": "import model as layers\n\nlayer = layers.SelfAttention(64, 0.1)\n",
    },
    "built only in another file": {
        "model.py": _attention("nn.Identity()", ""),
        "train.py": "from model import SelfAttention\n\nlayer = SelfAttention(64)\n",
    },
    "built only in another file, with a rate": {
        "model.py": _attention("nn.Identity()", GM104),
        "train.py": "from model import SelfAttention\n\nlayer = SelfAttention(64, attn_p=0.1)\n",
    },
    "another file tests modules for the class": {
        "model.py": _attention("SelfAttention(dim)", ""),
        "init.py": "from torch import nn\nfrom model import SelfAttention\n\n\ndef init(m):\n"
        "    if isinstance(m, (SelfAttention, nn.Linear)):\n        m.reset_parameters()\n",
    },
    "a rate its __init__ sets to 0": {
        "model.py": _attention("nn.Identity()", "").replace("self.attn_p = attn_p", "self.attn_p = 0.0")
    },
    "a rate its __init__ sets to 0 and a method sets again": {
        "model.py": _attention("nn.Identity()", GM104).replace(
            "self.attn_p = attn_p\n", "self.attn_p = 0.0\n\n    def set_rate(self, p):\n        self.attn_p = p\n"
        )
    },
    "its file refers to the class without building it": {
        "model.py": _attention("SelfAttention(dim)", GM104) + "\n\nLAYERS = {'attention': SelfAttention}\n"
    },
}


@pytest.mark.parametrize("case", list(RATES))
def test_an_attention_rate_every_construction_leaves_at_0_drops_nothing(tmp_path: Path, case: str) -> None:
    """``dropout_p=self.attn_p`` where ``attn_p`` is an ``__init__`` parameter defaulting to 0 and every
    construction of the class in the project leaves it at 0 (nothing passed, a literal 0, a parameter of the
    building function that defaults to 0): no dropout ever. Reported where a construction passes a rate (here or
    in another file), unpacks its arguments, where the class is referred to without being built, subclassed, never
    built in its own file, or where the default is a rate."""
    write_tree(tmp_path, RATES[case])
    assert _found(tmp_path, code="GM104") == expected_findings(tmp_path)


FUNCTIONAL = """\
import torch.nn.functional as F
from torch import nn


class Head(nn.Module):
    def __init__(self, dim, drop=0.0):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        self.drop = drop

    def forward(self, x):
        return F.dropout(self.proj(x), self.drop){mark}
"""


@pytest.mark.parametrize(
    ("built", "mark"),
    [
        ("Head(64)", ""),
        ("Head(64, drop=0)", ""),
        ("Head(64, 0.1)", "  # expect: GM101"),
        ("Head(64, **cfg)", "  # expect: GM101"),
        (
            "None\n\n\nclass GraphNet:\n    def __init__(self, drop=0.0):\n        self.head = Head(64, drop=drop)\n",
            "  # expect: GM101",
        ),
    ],
)
def test_a_functional_dropout_rate_every_construction_leaves_at_0_drops_nothing(
    tmp_path: Path, built: str, mark: str
) -> None:
    """``F.dropout(x, self.drop)`` (no ``training=``) where every construction of the class in the run's files leaves
    ``drop`` at its default 0 (the attention layers of a diffusion re-implementation): no dropout ever, as for
    ``dropout_p`` (GM104). A construction with a rate, with unpacked arguments, or handing on its own class's
    parameter (a model a config builds with a rate, ``_target_``), is reported."""
    write_tree(
        tmp_path,
        {"head.py": FUNCTIONAL.format(mark=mark), "net.py": f"from head import Head\n\nhead = {built}\n"},
    )
    assert _found(tmp_path, code="GM101") == expected_findings(tmp_path)


INCEPTION = """\
import torch
from torch import nn


class InceptionV3(nn.Module):
    def __init__(self, blocks, requires_grad=False):
        super().__init__()
        self.body = nn.Sequential(*[nn.Linear(2, 2) for _ in blocks])
        for param in self.parameters():
            param.requires_grad = requires_grad

    def forward(self, x):
        return [self.body(x)]
"""
FID = """\
import torch
from inception import InceptionV3


def get_activations(images, model, batch_size=50):
    model.eval()
    return [model(batch)[0] for batch in images.split(batch_size)]{mark}


def activation_statistics(images, model, batch_size=50):
    act = get_activations(images, model, batch_size)
    return act.mean(0), act.std(0)


def fid_given_images(real, fake):
    model = InceptionV3([3]{built})
    return activation_statistics(real, model), activation_statistics(fake, model=model)
"""


def _fid(mark: str = "", built: str = "", **more: str) -> dict[str, str]:
    return {"inception.py": INCEPTION, "fid_score.py": FID.format(mark=mark, built=built), **more}


FROZEN_HANDED = {
    "a frozen model handed down two calls": _fid(),
    "the model is built trainable": _fid(BUG, ", requires_grad=True"),
    "another file calls the function with its own model": _fid(
        BUG, **{"train.py": "from fid_score import get_activations\n\nget_activations(images, net)\n"}
    ),
    "the function is passed around": _fid(BUG)
    | {"fid_score.py": FID.format(mark=BUG, built="") + "\nSTATS = {'fid': activation_statistics}\n"},
    "a call unpacks its arguments": _fid(BUG)
    | {
        "fid_score.py": FID.format(mark=BUG, built="")
        + "\n\ndef again(parts):\n    frozen = InceptionV3([3])\n    return get_activations(*parts, frozen)\n"
    },
    "a call hands over a name built otherwise": _fid(BUG)
    | {
        "fid_score.py": FID.format(mark=BUG, built="")
        + "\n\ndef again(images, net):\n    return get_activations(images, net.eval())\n"
    },
    "a test calls it with its own model": _fid(
        **{
            "tests/test_fid.py": (
                "from fid_score import get_activations\n\n\ndef test_fid():\n    get_activations(images, net)\n"
            )
        }
    ),
}


@pytest.mark.parametrize("case", list(FROZEN_HANDED))
def test_a_frozen_model_handed_in_through_parameters_records_no_graph(tmp_path: Path, case: str) -> None:
    """FID's ``get_activations(images, model)`` runs ``model`` after ``eval()`` without ``no_grad``, and every call
    of it (and of the function calling it) passes a model built by a class that freezes its parameters when built so:
    no graph is recorded. Reported where one construction asks for trainable parameters, where another non-test file
    of the project calls the function (its model is unknown), where the function is passed around, a call unpacks its
    arguments, or a call passes something other than a name built frozen."""
    write_tree(tmp_path, FROZEN_HANDED[case])
    assert _found(tmp_path) == expected_findings(tmp_path)


SOFT_UPDATE = """\
def soft_update(source, target, tau):
    for p, q in zip(target.parameters(), source.parameters()):
        p.copy_(p * (1.0 - tau) + q * tau){mark}
"""
UPDATE_CALLERS = {
    "under no_grad": (
        "import torch\nimport utils as U\n\n\ndef step(net, ema):\n    with torch.no_grad():\n"
        "        U.soft_update(net, ema, 0.01)\n",
        "",
    ),
    "with gradients on": (
        "from utils import soft_update\n\n\ndef step(net, ema):\n    soft_update(net, ema, 0.01)\n",
        "  # expect: GM701",
    ),
}


@pytest.mark.parametrize("caller", list(UPDATE_CALLERS))
def test_an_update_is_judged_by_its_callers_in_other_files(tmp_path: Path, caller: str) -> None:
    """robomimic's ``soft_update(source, target, tau)``: every caller runs it under ``no_grad``, in other files."""
    text, mark = UPDATE_CALLERS[caller]
    write_tree(tmp_path, {"utils.py": SOFT_UPDATE.format(mark=mark), "algo.py": text})
    assert _found(tmp_path, code="GM701") == expected_findings(tmp_path)


GAN = """\
import torch


class GAN:
    def train(self):
        for epoch in range(3):
            self.G.train()
            with torch.no_grad():
                self.visualize_results(epoch)

    {decorator}def visualize_results(self, epoch):
        self.G.eval()
        return self.G(self.z).cpu().numpy(){mark}
"""
AFTER_TRAINING = {
    "called again with gradients on by a script importing it": (
        "from GAN import GAN\n\ngan = GAN()\ngan.train()\ngan.visualize_results(10)\n",
        "",
        BUG,
    ),
    "called again under no_grad": (
        "import torch\nfrom GAN import GAN\n\ngan = GAN()\nwith torch.no_grad():\n    gan.visualize_results(10)\n",
        "",
        "",
    ),
    "a namesake called by a script that does not import it": (
        "from other import Plotter\n\nPlotter().visualize_results(10)\n",
        "",
        "",
    ),
    "handed on by a script importing it": (
        "from GAN import GAN\n\nhooks = [GAN().visualize_results]\n",
        "",
        "",
    ),
    "decorated no_grad, called with gradients on": (
        "from GAN import GAN\n\nGAN().visualize_results(10)\n",
        "@torch.no_grad()\n    ",
        "",
    ),
}


@pytest.mark.parametrize("case", list(AFTER_TRAINING))
def test_a_method_its_file_runs_under_no_grad_is_reported_where_an_importer_runs_it_with_gradients(
    tmp_path: Path, case: str
) -> None:
    """A GAN collection's ``visualize_results``: its class's training loop wraps it in ``no_grad``, and ``main.py``
    calls it once more after training with gradients on. Only a file that imports its module counts, and only a
    call, not a reference."""
    script, decorator, mark = AFTER_TRAINING[case]
    write_tree(tmp_path, {"GAN.py": GAN.format(decorator=decorator, mark=mark), "main.py": script})
    assert _found(tmp_path) == expected_findings(tmp_path)


def test_a_method_run_with_gradients_only_by_an_importer_is_reported_once(tmp_path: Path) -> None:
    """Which of its branches the importer's call runs is not followed: the first forward says it, once."""
    gan = (
        GAN.format(decorator="", mark="")
        .replace(
            "        return self.G(self.z).cpu().numpy()\n",
            "        if fix:\n            out = self.G(self.z)  # expect: GM501\n        else:\n"
            "            out = self.G(torch.rand(4, 8))\n        return out.cpu().numpy()\n",
        )
        .replace("def visualize_results(self, epoch):", "def visualize_results(self, epoch, fix=True):")
    )
    write_tree(
        tmp_path,
        {"GAN.py": gan, "main.py": AFTER_TRAINING["called again with gradients on by a script importing it"][0]},
    )
    assert _found(tmp_path) == expected_findings(tmp_path) != set()


def test_an_importer_is_recognised_by_the_module_it_imports_from_a_package(tmp_path: Path) -> None:
    """``from pkg import GAN as module``: the script imports the module itself, by the package's name."""
    script = "from pkg import GAN as module\n\ngan = module.GAN()\ngan.visualize_results(10)\n"
    write_tree(tmp_path, {"pkg/__init__.py": "", "pkg/GAN.py": GAN.format(decorator="", mark=BUG), "main.py": script})
    assert _found(tmp_path) == expected_findings(tmp_path) != set()


@pytest.mark.parametrize("call", ["run_epoch(model, loader)", "run_epoch(model, loader, True)"])
def test_an_epoch_function_evaluated_without_grad_by_its_file_is_judged_by_its_importers_too(
    tmp_path: Path, call: str
) -> None:
    """One epoch function for both phases, its evaluation calls under ``no_grad`` in its file: a script that imports it
    and evaluates with gradients on is a bug there (reported once, at the first forward); one that trains with it is
    not followed (which branch a call from another file takes is not read), so it is reported as well."""
    fit = """
        def fit(model, loaders, optimizer):
            for epoch in range(10):
                run_epoch(model, loaders["train"], True, optimizer)
                with torch.no_grad():
                    run_epoch(model, loaders["valid"], False)
    """
    files = {
        "epochs.py": EPOCH_BY_FLAG.format(mark=BUG) + fit,
        "main.py": f"from epochs import run_epoch\n\ndef test(model, loader):\n    return {call}\n",
    }
    write_tree(tmp_path, files)
    assert _found(tmp_path) == expected_findings(tmp_path) != set()
    (tmp_path / "main.py").unlink()
    assert _found(tmp_path) == set()


RIFE_MODEL = """
    import torch


    class Model:
        def __init__(self):
            self.flownet = IFNet()

        def train(self):
            self.flownet.train()

        def eval(self):
            self.flownet.eval()

        {decorator}def inference(self, img0, img1):
            {body}
"""
BENCHMARK = """\
import torch
from {module} import Model as {alias}

model = {alias}()
model.eval()
for img0, img1 in pairs:
    pred = model.{method}(img0, img1){mark}
"""
IMPORTED_METHODS = {
    "a method of the imported class runs its network with gradients on": ("", "", "model.RIFE", "inference", BUG),
    "the method is decorated no_grad": ("@torch.no_grad()\n        ", "", "model.RIFE", "inference", ""),
    "the method runs its network inside no_grad": ("", "with", "model.RIFE", "inference", ""),
    "a method not named for a forward": ("", "", "model.RIFE", "interpolate", ""),
    "a class from a package outside the run": ("", "", "rife", "inference", ""),
}


@pytest.mark.parametrize("case", list(IMPORTED_METHODS))
def test_a_forward_method_of_a_class_imported_from_the_run_is_a_forward(tmp_path: Path, case: str) -> None:
    """RIFE's benchmark scripts: ``model = Model()`` imported from ``model/RIFE.py``, ``model.eval()``, then
    ``model.inference(img0, img1)`` with gradients on, the class's method running its network unguarded."""
    decorator, body, module, method, mark = IMPORTED_METHODS[case]
    run = "return self.flownet(torch.cat((img0, img1), 1))"
    if body == "with":
        run = "with torch.no_grad():\n                " + run
    model = RIFE_MODEL.format(decorator=decorator, body=run).replace("inference", method)
    script = BENCHMARK.format(module=module, alias="Model", method=method, mark=mark)
    write_tree(tmp_path, {"model/__init__.py": "", "model/RIFE.py": model, "benchmark.py": script})
    assert _found(tmp_path) == expected_findings(tmp_path)


def test_a_name_built_from_two_classes_is_not_followed(tmp_path: Path) -> None:
    """Which class built the module is unknown where the name is given two values; an alias is followed."""
    model = RIFE_MODEL.format(decorator="", body="return self.flownet(torch.cat((img0, img1), 1))")
    script = BENCHMARK.format(module="model.RIFE", alias="Model", method="inference", mark="").replace(
        "model = Model()", "if fast:\n    model = Model()\nelse:\n    model = Other()"
    )
    write_tree(tmp_path, {"model/__init__.py": "", "model/RIFE.py": model, "benchmark.py": script})
    assert _found(tmp_path) == set()
    script = BENCHMARK.format(module="model.RIFE", alias="Interpolator", method="inference", mark=BUG)
    (tmp_path / "benchmark.py").write_text(script)
    assert _found(tmp_path) == expected_findings(tmp_path) != set()


@pytest.mark.parametrize(
    ("moved", "mark"),
    [
        ("if torch.cuda.is_available():\n    model = model.cuda()", BUG),
        ("model = model.to(device).eval()", BUG),
        ("model = model.cuda().compile()", ""),
        ("model = other.cuda()", ""),
    ],
)
def test_a_module_moved_onto_its_own_name_is_still_the_class_built(tmp_path: Path, moved: str, mark: str) -> None:
    """A VAE's sampling script: ``model = SentenceVAE(...)``, ``model = model.cuda()``, ``model.eval()``, then
    ``model.inference(n=10)`` with gradients on: the name still holds the module the class built. A method that may
    give back something else (``compile``), or another name moved onto it, leaves the class unknown."""
    model = RIFE_MODEL.format(decorator="", body="return self.flownet(torch.cat((img0, img1), 1))")
    script = BENCHMARK.format(module="model.RIFE", alias="Model", method="inference", mark=mark).replace(
        "model = Model()\n", "model = Model()\n" + moved + "\n"
    )
    write_tree(tmp_path, {"model/__init__.py": "", "model/RIFE.py": model, "benchmark.py": script})
    assert _found(tmp_path) == expected_findings(tmp_path)


SCRIPT_FUNCTION = """\
from model.RIFE import Model

model = Model()
model.eval()


def evaluate(pairs, outputs):
    for a, b in pairs:
        outputs.append(model.inference(a, b).cpu()){mark}


class Runner:
    def __init__(self):
        self.model = Model()
        self.model.eval()

    def run(self, a, b):
        return self.model.inference(a, b).cpu().numpy()
"""


def test_a_global_built_from_an_imported_class_is_followed_into_functions(tmp_path: Path) -> None:
    """The script's function runs the global module; an attribute holding one (``self.model``) is not followed."""
    model = RIFE_MODEL.format(decorator="", body="return self.flownet(torch.cat((img0, img1), 1))")
    write_tree(tmp_path, {"model/__init__.py": "", "model/RIFE.py": model, "run.py": SCRIPT_FUNCTION.format(mark=BUG)})
    assert _found(tmp_path) == expected_findings(tmp_path) != set()


COMMON = "import torch.nn as nn\nimport torch.nn.functional as F\nfrom torch.autograd import *\n"

#: Code that reads names a star import binds: ``Variable`` (GM601 where it is torch's) and ``no_grad``.
STAR_CALLS = """\
def evaluate(model, x):
    return model(Variable(x, volatile=True)){volatile}


def predict(model, x):
    model.eval()
    with no_grad():
        return model(x)
"""

STAR_MODEL = (
    """\
from common import *


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        return F.dropout(self.fc(x), 0.5){mark}


"""
    + STAR_CALLS
)

STARS = {
    "the project's module's imports": ({"common.py": COMMON}, " # expect: GM101", " # expect: GM601"),
    "through a module that star-imports another": (
        {"common.py": "from base import *\n", "base.py": COMMON},
        " # expect: GM101",
        " # expect: GM601",
    ),
    "names its `__all__` lists": ({"common.py": COMMON + "__all__ = ['nn', 'F']\n"}, " # expect: GM101", ""),
    "a module that names no file of the project": ({}, "", ""),
    "two modules star-importing each other": (
        {"common.py": COMMON + "from model import *\n"},
        " # expect: GM101",
        " # expect: GM601",
    ),
}


@pytest.mark.parametrize("case", list(STARS))
def test_names_a_star_import_of_the_projects_module_binds_are_its_imports(tmp_path: Path, case: str) -> None:
    """``from common import *`` binds what ``common.py`` imports (``F``, and ``Variable`` and ``no_grad`` from its own
    ``from torch.autograd import *``), as far as its ``__all__`` lets through: ``F.dropout`` without ``training=`` is
    found, ``with no_grad():`` turns gradients off. A module the project does not have binds nothing known."""
    files, mark, volatile = STARS[case]
    write_tree(tmp_path, {**files, "model.py": STAR_MODEL.format(mark=mark, volatile=volatile)})
    assert _found(tmp_path, code=None) == expected_findings(tmp_path)


STAR_TORCH = (
    "{imports}\n\n\n"
    + STAR_CALLS
    + """

def drop(x):
    return dropout(x, 0.5){dropout}
"""
)

TORCH_STARS = {
    "from torch.autograd import *": ("from torch.autograd import *", " # expect: GM601", ""),
    "from torch.nn.functional import *": (
        "from torch.autograd import *\nfrom torch.nn.functional import *",
        " # expect: GM601",
        " # expect: GM101",
    ),
    "an explicit import of the name wins": (
        "from torch.autograd import *\nfrom mylib import Variable, no_grad",
        "",
        "",
    ),
    "a definition of the module wins": (
        "from torch.nn.functional import *\nfrom torch.autograd import *\n\n\ndef dropout(x, p):\n    return x\n\n\n"
        "class Variable:\n    def __init__(self, x, volatile=False):\n        self.x = x",
        "",
        "",
    ),
}


@pytest.mark.parametrize("case", list(TORCH_STARS))
def test_a_star_import_of_torch_binds_what_torch_exports(tmp_path: Path, case: str) -> None:
    """``from torch.autograd import *`` binds ``Variable`` and ``no_grad``, ``from torch.nn.functional import *``
    binds ``dropout``, unless the module imports or defines the name itself. ``predict`` stays silent throughout:
    ``no_grad`` from a star import turns gradients off."""
    imports, volatile, dropout = TORCH_STARS[case]
    write_tree(tmp_path, {"run.py": STAR_TORCH.format(imports=imports, volatile=volatile, dropout=dropout)})
    assert _found(tmp_path, code=None) == expected_findings(tmp_path)


@pytest.mark.parametrize(("caller", "found"), [("report", True), ("train", False)])
def test_gradients_given_back_are_reported_where_another_file_calls_without_them(
    tmp_path: Path, caller: str, found: bool
) -> None:
    """An evaluation that turns gradients off and back on before it returns is silent where every call of it runs
    with them on, and reported where another file calls it under ``no_grad`` (on again would leak there)."""
    lines = {"off": 5, "on": 7}
    write_tree(
        tmp_path,
        {
            "evaluation.py": """\
                import torch

                def eval_model(model, env):
                    model.eval()
                    torch.set_grad_enabled(False)
                    reward = sum(model(obs).sum().item() for obs in env)
                    torch.set_grad_enabled(True)
                    return reward


                def train(model, loader, env):
                    for x in loader:
                        model.train()
                        model(x).sum().backward()
                    print(eval_model(model, env))
                """,
            "report.py": f"""\
                import torch

                from evaluation import eval_model


                def {caller}(model, env):
                    with torch.{"no_grad" if found else "enable_grad"}():
                        return eval_model(model, env)
                """,
        },
    )
    expected = {("evaluation.py", line, "GM401") for line in lines.values()} if found else set()
    assert _found(tmp_path, code="GM401") == expected


@pytest.mark.parametrize(("grad", "found"), [("enable_grad", True), ("no_grad", False)])
def test_gradients_taken_back_are_reported_where_another_file_calls_with_them(
    tmp_path: Path, grad: str, found: bool
) -> None:
    """A step that turns gradients on and back off before it returns, called under ``no_grad`` in its file, is
    reported where another file calls it with them on (off again would leak there)."""
    write_tree(
        tmp_path,
        {
            "sampling.py": """\
                import torch

                def guided_step(model, x):
                    torch.set_grad_enabled(True)
                    x = x.detach().requires_grad_(True)
                    grad = torch.autograd.grad(model(x).sum(), x)[0]
                    torch.set_grad_enabled(False)
                    return x + grad


                def sample(model, x):
                    with torch.no_grad():
                        return guided_step(model, x)
                """,
            "refine.py": f"""\
                import torch

                from sampling import guided_step


                def refine(model, x):
                    with torch.{grad}():
                        return guided_step(model, x)
                """,
        },
    )
    expected = {("sampling.py", line, "GM401") for line in (4, 7)} if found else set()
    assert _found(tmp_path, code="GM401") == expected
