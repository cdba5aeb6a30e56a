"""The search-path plugin: ``defaults: [callbacks: gradmode]`` works in any Hydra app once the package is installed.

Found by Hydra through the ``hydra.plugins`` entry point (Hydra >= 1.4) or by scanning the ``hydra_plugins``
namespace package (older Hydra). It appends one small folder holding only ``callbacks/gradmode.yaml``; importing
that folder's package registers the guard's schema, which ``callbacks/gradmode.yaml`` names in its defaults list.
"""

from typing import Final

from hydra.core.config_search_path import ConfigSearchPath
from hydra.plugins.search_path_plugin import SearchPathPlugin

#: The guard's config-group entry and nothing else (the example app's configs are not served to other apps).
GUARD_CONFIGS: Final[str] = "pkg://hydra_plugins.gradmode_plugin_searchpath.configs"


class GradModeSearchPathPlugin(SearchPathPlugin):
    """Appends the guard's config folder, so an app's own ``callbacks/gradmode.yaml``, if any, takes precedence."""

    def manipulate_search_path(self, search_path: ConfigSearchPath) -> None:
        search_path.append(provider="gradmode-plugin", path=GUARD_CONFIGS)
