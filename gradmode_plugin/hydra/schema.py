"""The guard's structured-config schema (``gradmode_guard_schema`` in Hydra's ConfigStore) and where configs live.

The schema is defined in ``hydra_plugins.gradmode_plugin_searchpath._schema``, which Hydra imports while
discovering plugins and which must not import torch; it is re-exported here for library users.
"""

from __future__ import annotations

from typing import Final

from hydra_plugins.gradmode_plugin_searchpath._schema import (
    OPTIONS,
    SCHEMA_NAME,
    GradMode,
    GradModeGuardConf,
    OnViolation,
    register_configs,
    unknown_options,
)
from hydra_plugins.gradmode_plugin_searchpath.searchpath import GUARD_CONFIGS

#: The example app's configs (the repository's ``configs/`` folder): found by ``gradmode-train`` only.
CONFIGS_PACKAGE: Final[str] = "gradmode_plugin.configs"
#: The guard's config-group entry (``callbacks/gradmode.yaml``), the one folder served to every Hydra app.
GUARD_CONFIGS_PACKAGE: Final[str] = GUARD_CONFIGS.removeprefix("pkg://")

__all__ = [
    "CONFIGS_PACKAGE",
    "GUARD_CONFIGS_PACKAGE",
    "OPTIONS",
    "SCHEMA_NAME",
    "GradMode",
    "GradModeGuardConf",
    "OnViolation",
    "register_configs",
    "unknown_options",
]
