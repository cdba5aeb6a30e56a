"""The search-path plugin: ``defaults: [callbacks: gradmode]`` works in any Hydra app once the package is installed.

Found by Hydra through the ``hydra.plugins`` entry point (Hydra >= 1.4) or by scanning the ``hydra_plugins``
namespace package (older Hydra). Importing this module also registers the guard's schema, which
``callbacks/gradmode.yaml`` names in its defaults list.
"""

from typing import Final

from hydra.core.config_search_path import ConfigSearchPath
from hydra.plugins.search_path_plugin import SearchPathPlugin

from hydra_plugins.gradmode_plugin_searchpath._schema import register_configs

#: The configs shipped in the wheel: the repository's ``configs/`` folder, packaged as ``gradmode_plugin.configs``.
CONFIGS: Final[str] = "pkg://gradmode_plugin.configs"

register_configs()


class GradModeSearchPathPlugin(SearchPathPlugin):
    """Appends gradmode-plugin's configs, so an app's own configs of the same name take precedence."""

    def manipulate_search_path(self, search_path: ConfigSearchPath) -> None:
        search_path.append(provider="gradmode-plugin", path=CONFIGS)
