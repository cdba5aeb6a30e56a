"""One module per violation kind: what each kind watches and when it decides it has found one.

Each check is a :class:`~gradmode_plugin.checks.base.Check` subclass named by a registry entry in
:mod:`gradmode_plugin.kinds`; an evaluation scope creates one of each for every stage run.
"""
