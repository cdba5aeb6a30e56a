"""The guard's config-group entry, ``callbacks/gradmode.yaml``: the one folder the search-path plugin serves.

Importing it (Hydra does, through ``pkg://hydra_plugins.gradmode_plugin_searchpath.configs``) registers the schema
``callbacks/gradmode.yaml`` names, so the folder works on any search path, with or without the plugin.
"""

from hydra_plugins.gradmode_plugin_searchpath._schema import register_configs

register_configs()
