"""Hydra plugin of gradmode-plugin: puts its shipped configs (``callbacks/gradmode`` ...) on every app's search path."""
