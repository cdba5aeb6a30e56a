"""transformers stays optional: ``import gradmode_plugin`` works without it, and the adapter names the extra."""

from __future__ import annotations

import importlib
import sys

import pytest

from tests.helpers.process import REPO, run_process, this_checkout


def test_without_transformers_the_adapter_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "transformers", None)  # `import transformers` now raises ImportError
    for name in [m for m in sys.modules if m.startswith("gradmode_plugin.hf")]:
        monkeypatch.delitem(sys.modules, name)
    with pytest.raises(ImportError, match=r"HFGradModeGuard needs transformers: pip install 'gradmode-plugin\[hf\]'"):
        importlib.import_module("gradmode_plugin.hf.callback")


@pytest.mark.slow
def test_without_transformers_the_package_imports_and_lists_no_hf_guard() -> None:
    code = (
        "import sys; sys.modules['transformers'] = None\n"
        "import gradmode_plugin\n"
        "print('LISTED', 'HFGradModeGuard' in gradmode_plugin.__all__)\n"
        "try:\n    gradmode_plugin.HFGradModeGuard\nexcept ImportError as err:\n    print('ERROR', err)\n"
    )
    proc = run_process([sys.executable, "-c", code], cwd=REPO, env=this_checkout(), timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "LISTED False" in proc.stdout
    assert "ERROR HFGradModeGuard needs transformers: pip install 'gradmode-plugin[hf]'" in proc.stdout
