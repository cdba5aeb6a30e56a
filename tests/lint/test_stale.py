"""A file that cannot be imported: its findings are left out, named apart with the import that fails, only where the
project's own files show the failure (a module moved, a name its module no longer defines, a module that does not
parse); every look-alike that may import is still reported."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gradmode_plugin.lint.runner import LintResult
from tests.helpers.lint import lint_from, run_lint, write_tree

#: An evaluation that records a graph (GM501 at line 5 after the import lines).
SCRIPT = """\
{imports}
import torch

model.eval()
model(torch.ones(1))
"""

#: The project beside every script: a package whose `loader` module moved into `data/sets/`.
PROJECT = {
    "data/__init__.py": "",
    "data/sets/__init__.py": "",
    "data/sets/loader.py": "class Loader:\n    pass\n",
    "data/model.py": "import torch\n\nclass Net(torch.nn.Module):\n    pass\n\nif torch.cuda.is_available():\n"
    "    Fast = Net\n\ndef setup():\n    global Late\n    Late = Net\n",
    "data/broken.py": "def f(:\n    pass\n",
    "data/legacy.py": "from scipy.misc import imread\n\nLOADER = imread\n",
    "data/guarded.py": "try:\n    from scipy.misc import imread\nexcept ImportError:\n    imread = None\n",
    "data/cycle_a.py": "from data.cycle_b import b\n\na = 1\n",
    "data/cycle_b.py": "from data.cycle_a import a\n\nb = 1\n",
    "data/star.py": "from torch.nn import *\n",
    "data/lazy.py": "def __getattr__(name):\n    return name\n",
    "data/dynamic.py": "globals()['Made'] = 1\n",
    "data/more/ext.py": "",
    "data/sets/stage/__init__.py": "",
    "src/pkg/__init__.py": "",
    "src/pkg/sub/__init__.py": "",
    "src/pkg/sub/model.py": "",
    "tools/reader.py": "",
    "lib/__init__.py": "",
    "lib/torch/__init__.py": "",
    "lib/torch/sub/distributions.py": "",
    "plugins/__init__.py": "from .impl import *\n",
    "plugins/impl.py": "class Plugin:\n    pass\n\n_hidden = 1\n",
    "listed/__init__.py": "from .impl import *\n",
    "listed/impl.py": "__all__ = ['Public']\nPublic = 1\nOther = 2\n",
    "backend/__init__.py": "import sys\n\n\ndef load(name):\n    setattr(sys.modules[__name__], name, 1)\n",
    "tracker/pyproject.toml": "[project]\nname = 'tracker'\n",
    "tracker/tracker/__init__.py": "",
    "tracker/tracker/datasets/sets.py": "class Sets:\n    pass\n",
    "plain/plain/datasets/sets.py": "class Sets:\n    pass\n",
    "packaged/__init__.py": "",
    "packaged/setup.py": "",
    "packaged/packaged/datasets/sets.py": "class Sets:\n    pass\n",
}


def _lint(root: Path, files: dict[str, str]) -> LintResult:
    write_tree(root, {**PROJECT, **files})
    return lint_from(root)


LEFT_OUT = {
    "a moved module": ("from data.loader import Loader", "imports `data.loader`, which the project does not have"),
    "a moved module, plain import": ("import data.loader", "imports `data.loader`"),
    "a name the module does not define": ("from data.model import Gone", "imports `Gone` from `data.model`"),
    "a module that does not parse": ("from data.broken import f", "whose file `data/broken.py` cannot be parsed"),
    "a module that does not parse, imported whole": (
        "import data.broken",
        "imports `data.broken`, whose file `data/broken.py` cannot be parsed",
    ),
    "a module that does not parse, imported from its package": (
        "from data import star, broken",
        "imports `data.broken`, whose file `data/broken.py` cannot be parsed",
    ),
    "a package moved into a folder": ("from data.stage import Stage", "imports `data.stage`"),
    "a relative import of a moved module": (
        "from ..data.loader import Loader",
        "imports `..data.loader`, which the project does not have",
    ),
    "a relative import of a name the module does not define": (
        "from ..data.model import Gone",
        "imports `Gone` from `..data.model`",
    ),
    "a name a package's `__init__` does not define": (
        "from data import Anything",
        "imports `Anything` from `data`, which `data/__init__.py` does not define",
    ),
    "a private name a relative `import *` does not bind": ("from plugins import _hidden", "imports `_hidden`"),
    "a name left out of the `__all__` of a module imported with `*`": ("from listed import Other", "imports `Other`"),
    "a module of a folder that is no project of its own": ("from plain.datasets.sets import Sets", "`plain.datasets"),
    "a module moved in a package with a setup.py": ("from packaged.datasets.sets import Sets", "`packaged.datasets"),
    "a name its library removed": (
        "from scipy.misc import imsave, imread",
        "imports `imsave` from `scipy.misc`, which SciPy 1.3 removed",
    ),
    "a module its library removed": ("import torch.utils.ffi", "imports `torch.utils.ffi`, which PyTorch 1.0 removed"),
    "a module scikit-learn removed": (
        "from sklearn.externals import joblib",
        "imports `joblib` from `sklearn.externals`, which scikit-learn 0.23 removed",
    ),
    "a module of the project that cannot be imported itself": (
        "from data.legacy import LOADER",
        "imports `data.legacy`, which cannot be imported (`data/legacy.py`: line 1 imports `imread` from `scipy.misc`",
    ),
    "such a module, from its package": ("from data import legacy", "imports `data.legacy`, which cannot be imported"),
}


@pytest.mark.parametrize("imports", list(LEFT_OUT))
def test_the_findings_of_a_file_that_cannot_be_imported_are_left_out_and_named(tmp_path: Path, imports: str) -> None:
    line, reason = LEFT_OUT[imports]
    result = _lint(tmp_path, {"scripts/old.py": SCRIPT.format(imports=line)})
    assert [(Path(f.path).as_posix(), f.code) for f in result.findings] == [("data/broken.py", "GM999")]
    assert [(Path(path).as_posix(), count) for path, _, count in result.stale] == [("scripts/old.py", 1)]
    assert result.stale[0][1].startswith("the file cannot be imported: line 1 ") and reason in result.stale[0][1]


STILL_REPORTED = {
    "a module of the project": "from data.sets.loader import Loader",
    "a name bound under an `if`": "from data.model import Fast",
    "a name bound by `global` in a function": "from data.model import Late",
    "a class and a function": "from data.model import Net, torch",
    "everything of a module": "from data.model import *",
    "a missing module whose namesake lies outside its package": "from data.reader import Reader",
    "a missing module with a compiled file of its name beside": "from data.ext import kernel",
    "a module outside the project": "from torchvision.models import resnet18",
    "a single name (a folder on sys.path may hold it)": "import loader",
    "a relative import of a module of the project": "from ..data.sets.loader import Loader",
    "a relative import of a module that lies nowhere under its package": "from .data.loader import Loader",
    "a relative import above the run's root": "from ...data.loader import Loader",
    "an import inside `try`": "try:\n    from data.loader import Loader\nexcept ImportError:\n    Loader = None",
    "an import inside a function": "def load():\n    from data.loader import Loader",
    "a module with `import *`": "from data.star import Anything",
    "a module with `__getattr__`": "from data.lazy import Anything",
    "a module writing `globals()`": "from data.dynamic import Made",
    "a module of a package": "from data import sets",
    "a module of a package that parses": "from data import star",
    "a module that parses, imported whole": "import data.model, data.sets.loader",
    "a name a package's `__init__` binds by a relative `import *`": "from plugins import Plugin",
    "a name in the `__all__` of a module imported with `*`": "from listed import Public",
    "a package that writes `sys.modules` in a function": "from backend import anything",
    "a module's `__dict__`": "from data.model import __dict__",
    "a package installed from a project of its own (its `pyproject.toml`)": "from tracker.datasets.sets import Sets",
    "a removed name where it lives now": "from scipy.special import comb",
    "the module whose names were removed, whole": "import scipy.misc",
    "a name of that module not removed then": "from scipy.misc import central_diff_weights",
    "a removed name imported under `try`": "try:\n    from scipy.misc import imread\nexcept ImportError:\n    pass",
    "a name Python removed (its project may run on an older Python)": "from collections import Iterable",
    "a module of the project that imports a removed name under `try`": "from data.guarded import imread",
    "a module of the project in a cycle of imports (not known)": "from data.cycle_a import a",
}


def test_a_package_in_a_source_folder_is_looked_for_beside_itself(tmp_path: Path) -> None:
    result = _lint(tmp_path, {"src/pkg/train.py": SCRIPT.format(imports="from pkg.model import Net")})
    assert [(Path(path).as_posix(), count) for path, _, count in result.stale] == [("src/pkg/train.py", 1)]


def test_a_folder_of_a_package_named_like_another_package_does_not_shadow_it(tmp_path: Path) -> None:
    script = SCRIPT.format(imports="from torch.distributions import Normal")
    result = _lint(tmp_path, {"lib/torch/vae.py": script})
    assert [(Path(f.path).as_posix(), f.code) for f in result.findings if f.code != "GM999"] == [
        ("lib/torch/vae.py", "GM501")
    ]
    assert result.stale == []


@pytest.mark.parametrize("imports", list(STILL_REPORTED))
def test_a_file_that_may_import_is_reported(tmp_path: Path, imports: str) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "ext.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    result = _lint(tmp_path, {"scripts/new.py": SCRIPT.format(imports=STILL_REPORTED[imports])})
    assert [(Path(f.path).as_posix(), f.code) for f in result.findings if f.code != "GM999"] == [
        ("scripts/new.py", "GM501")
    ]
    assert result.stale == []


@pytest.mark.parametrize(
    ("stated", "left_out"),
    [
        pytest.param(
            {"pyproject.toml": "[project]\nname = 'p'\nrequires-python = '>=3.8'\n"}, False, id="pyproject 3.8"
        ),
        pytest.param(
            {"pyproject.toml": "[project]\nname = 'p'\nrequires-python = '>=3.10'\n"}, True, id="pyproject 3.10"
        ),
        pytest.param(
            {"setup.py": "REQUIRES_PYTHON = '>=3.6.0'\nsetup(python_requires=REQUIRES_PYTHON)\n"}, False, id="setup.py"
        ),
        pytest.param({"setup.cfg": "[options]\npython_requires = >=3.7\n"}, False, id="setup.cfg"),
        pytest.param({}, True, id="nothing stated"),
    ],
)
@pytest.mark.parametrize("imports", ["from sklearn.externals import joblib", "from scipy.misc import imread"])
def test_a_removed_name_counts_unless_the_project_states_an_older_python(
    tmp_path: Path, stated: dict[str, str], left_out: bool, imports: str
) -> None:
    files = {"scripts/old.py": SCRIPT.format(imports=imports), **stated}
    result = _lint(tmp_path, files)
    assert [Path(path).as_posix() for path, _, _ in result.stale] == (["scripts/old.py"] if left_out else [])


def test_a_module_that_only_a_newer_python_than_this_one_parses_is_not_known_to_fail(tmp_path: Path) -> None:
    script = {"scripts/new.py": SCRIPT.format(imports="from data import broken")}
    newer = {"pyproject.toml": "[project]\nname = 'p'\nrequires-python = '>=3.99'\n"}
    assert _lint(tmp_path / "newer", {**script, **newer}).stale == []
    result = _lint(tmp_path / "unstated", {**script, "pyproject.toml": ""})
    assert [Path(path).as_posix() for path, _, _ in result.stale] == ["scripts/new.py"]


def test_a_package_whose_init_does_not_parse_fails_when_imported_whole(tmp_path: Path) -> None:
    files = {
        "brokenpkg/__init__.py": "def f(:\n    pass\n",
        "scripts/old.py": SCRIPT.format(imports="import brokenpkg"),
    }
    result = _lint(tmp_path, files)
    assert [(Path(path).as_posix(), why) for path, why, _ in result.stale] == [
        (
            "scripts/old.py",
            "the file cannot be imported: line 1 imports `brokenpkg`, whose file `brokenpkg/__init__.py` cannot be "
            "parsed; fix the import to have it checked",
        )
    ]


def test_the_command_line_names_the_file_and_the_import_and_passes(tmp_path: Path) -> None:
    _lint(tmp_path, {"scripts/old.py": SCRIPT.format(imports="from data.loader import Loader")})
    (tmp_path / "data" / "broken.py").unlink()
    run = run_lint(tmp_path, ".")
    assert run.returncode == 0, run.stderr
    assert (
        f"{os.path.join('scripts', 'old.py')}: 1 finding(s) left out, the file cannot be imported: line 1 imports "
        "`data.loader`, which the project does not have (it has a `loader` elsewhere: moved?); fix the import to "
        "have it checked" in run.stderr
    )
    assert "1 left out (cannot run as written)" in run.stderr


def test_several_processes_leave_out_the_same_files(tmp_path: Path) -> None:
    files = {f"scripts/old{i}.py": SCRIPT.format(imports="from data.loader import Loader") for i in range(120)}
    alone = _lint(tmp_path, files)
    together = lint_from(tmp_path, jobs=2)
    assert len(alone.stale) == 120
    assert together.stale == alone.stale and together.findings == alone.findings


#: A PyTorch 0.3 script: it reads a loss with `.data[0]`, an IndexError since PyTorch 1.0, and its evaluation records
#: a graph (GM501 at line 13).
OLD_PYTORCH = """\
import torch
import torch.nn.functional as F


def train(model, loader, criterion):
    for data, target in loader:
        loss = criterion(model(data), target)
        loss.backward()
        print(loss.data[0])


model.eval()
model(torch.ones(1))
"""


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("", "", id="a criterion handed in"),
        pytest.param("print(loss.data[0])", "print(self.loss_fn(model(data), target).data[0])", id="a loss_fn"),
        pytest.param("print(loss.data[0])", "print(F.nll_loss(model(data), target).data[0])", id="a torch loss"),
        pytest.param("import torch\n", "import torch\nfrom torch import nn\ncriterion = nn.MSELoss()\n", id="built"),
        pytest.param(
            "loss.data[0])\n\n\nmodel.eval()",
            "loss.item())\n\n\nloss = F.mse_loss(model(x), y)\nprint(loss.data[0])\nmodel.eval()",
            id="top level",
        ),
    ],
)
def test_a_file_that_indexes_a_loss_as_pytorch_0_3_did_is_left_out_and_named(
    tmp_path: Path, old: str, new: str
) -> None:
    source = OLD_PYTORCH.replace(old, new)
    result = _lint(tmp_path, {"scripts/old.py": source})
    assert [f for f in result.findings if f.code != "GM999"] == []  # the project's data/broken.py aside
    line = next(number for number, text in enumerate(source.splitlines(), 1) if ".data[0]" in text)
    [(path, why, count)] = result.stale
    assert (Path(path).as_posix(), count) == ("scripts/old.py", 1)
    assert why.startswith(f"the file stops on today's PyTorch: line {line} reads `")
    assert why.endswith("raises IndexError since 1.0; read the loss with `.item()` to have it checked")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        pytest.param("loss.data[0]", "loss.item()", id="read with item"),
        pytest.param("print(loss.data[0])", "print(model(data).data[0])", id="an output, no loss"),
        pytest.param(
            "import torch\n",
            "import torch\nfrom torch import nn\ncriterion = nn.CrossEntropyLoss(reduction='none')\n",
            id="a criterion the file builds per sample",
        ),
        pytest.param("target)\n", "target, reduction='none')\n", id="a loss per sample"),
        pytest.param("import torch\n", "import torch\nfrom losses import criterion\n", id="a criterion imported"),
        pytest.param("\n\nmodel.eval()", "\n\ndef criterion(x, y):\n    return x\n\n\nmodel.eval()", id="defined"),
    ],
)
def test_a_file_that_may_run_on_todays_pytorch_is_checked(tmp_path: Path, old: str, new: str) -> None:
    source = OLD_PYTORCH.replace(old, new)
    assert source != OLD_PYTORCH
    result = _lint(tmp_path, {"scripts/new.py": source})
    assert [(Path(f.path).as_posix(), f.code) for f in result.findings if f.code != "GM999"] == [
        ("scripts/new.py", "GM501")
    ]
    assert result.stale == []


def test_a_project_stating_an_older_python_may_install_an_older_pytorch(tmp_path: Path) -> None:
    files = {"scripts/old.py": OLD_PYTORCH, "setup.py": "setup(python_requires='>=3.6')\n"}
    assert [f.code for f in _lint(tmp_path, files).findings if f.code != "GM999"] == ["GM501"]


def test_the_command_line_names_the_read_and_the_way_out(tmp_path: Path) -> None:
    write_tree(tmp_path, {"old.py": OLD_PYTORCH})
    run = run_lint(tmp_path, ".")
    assert run.returncode == 0, run.stderr
    assert (
        "old.py: 1 finding(s) left out, the file stops on today's PyTorch: line 9 reads `loss.data[0]`, which indexes "
        "a loss, a 0-dim tensor: written for PyTorch 0.4 or older, it raises IndexError since 1.0; read the loss with "
        "`.item()` to have it checked" in run.stderr
    )
