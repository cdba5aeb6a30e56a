"""The guard's structured-config schema (``callbacks/gradmode_schema`` in Hydra's ConfigStore).

Defined in ``hydra_plugins.gradmode_plugin_searchpath._schema``, which Hydra imports while discovering plugins and
which must not import torch; re-exported here for library users.
"""

from __future__ import annotations

from typing import Final

from hydra_plugins.gradmode_plugin_searchpath._schema import (
    SCHEMA_GROUP,
    SCHEMA_NAME,
    GradMode,
    GradModeGuardConf,
    OnViolation,
    register_configs,
)

#: The package holding the shipped configs (the repository's ``configs/`` folder).
CONFIGS_PACKAGE: Final[str] = "gradmode_plugin.configs"

__all__ = [
    "CONFIGS_PACKAGE",
    "SCHEMA_GROUP",
    "SCHEMA_NAME",
    "GradMode",
    "GradModeGuardConf",
    "OnViolation",
    "register_configs",
]
