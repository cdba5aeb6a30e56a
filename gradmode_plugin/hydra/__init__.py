"""Hydra integration: the guard's structured-config schema and the ``gradmode-train`` command-line run.

The configs themselves ship as ``gradmode_plugin.configs`` (``pkg://gradmode_plugin.configs``) and are put on every
Hydra app's search path by the ``hydra_plugins.gradmode_plugin_searchpath`` plugin.
"""

from gradmode_plugin.hydra.schema import (
    CONFIGS_PACKAGE,
    GradMode,
    GradModeGuardConf,
    OnViolation,
    register_configs,
)

__all__ = ["CONFIGS_PACKAGE", "GradMode", "GradModeGuardConf", "OnViolation", "register_configs"]
