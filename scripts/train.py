"""The command-line run from a clone: ``python scripts/train.py [overrides]``, the same app as ``gradmode-train``.

Composes from this repository's ``configs/`` folder (shipped in the wheel as ``gradmode_plugin.configs``); the guard's
own ``callbacks/gradmode.yaml`` comes from ``hydra_plugins/gradmode_plugin_searchpath/configs/``, which
``configs/train.yaml`` puts on the search path.
"""

from pathlib import Path

from gradmode_plugin.hydra.train import main

CONFIG_DIR = Path(__file__).resolve().parent.parent / "configs"

if __name__ == "__main__":
    main(config_path=str(CONFIG_DIR))
