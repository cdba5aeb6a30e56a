"""Hydra integration of gradmode-plugin.

- :mod:`gradmode_plugin.hydra.schema`: the guard's structured-config schema (``GradModeGuardConf``) and where the
  configs live.
- :mod:`gradmode_plugin.hydra.train`: the command-line run, ``gradmode-train``.

The guard's config-group entry, ``callbacks/gradmode.yaml``, ships in
``hydra_plugins.gradmode_plugin_searchpath.configs``, which the search-path plugin of the same package puts on every
Hydra app's search path; the example app's own configs ship as ``gradmode_plugin.configs``.
"""
