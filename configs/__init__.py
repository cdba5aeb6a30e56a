"""The Hydra configs of gradmode-plugin, shipped in the wheel as ``gradmode_plugin.configs`` (a ``pkg://`` path)."""
