"""Hydra plugin of gradmode-plugin: serves the guard's config-group entry, ``callbacks/gradmode``, to every Hydra app.

Nothing else of gradmode-plugin reaches other apps' search paths; the example app's configs are found only by
``gradmode-train``. Everything in this package stays free of torch and Lightning: Hydra imports it in every app.
"""
