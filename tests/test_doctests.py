"""The examples in the package's docstrings run with the suite: ``python -m pytest`` collects them as doctests."""

from __future__ import annotations

import pytest


def test_the_suite_runs_the_packages_doctests(pytestconfig: pytest.Config) -> None:
    assert pytestconfig.getoption("doctestmodules"), "pyproject.toml's addopts lack --doctest-modules"
    assert "gradmode_plugin" in pytestconfig.getini("testpaths"), "pyproject.toml's testpaths lack gradmode_plugin"
