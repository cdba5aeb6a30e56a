"""The Lightning adapter (``GradModeGuard``); import it from ``gradmode_plugin``."""
