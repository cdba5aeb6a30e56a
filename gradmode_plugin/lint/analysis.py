"""The AST analysis of one source file: every rule of :mod:`gradmode_plugin.lint.rules`, in one walk of the tree.

The shared walk (:mod:`gradmode_plugin.lint.walk`) hands each node to the rule family that looks at it; each family
is one module (``dropout``, ``modes``, ``grad``, ``params``, ``threads``, ``legacy``, ``loops``, as a rule's
``family`` says),
and this module mixes them into the analysis that :func:`check_source` runs.

Example:
    >>> findings = check_source("import torch.nn.functional as F\\nF.dropout(x, 0.5)\\n", "model.py")
    >>> [(f.line, f.code) for f in findings]
    [(2, 'GM101')]
"""

from __future__ import annotations

from gradmode_plugin.lint.dropout import DropoutRules
from gradmode_plugin.lint.grad import GradRules
from gradmode_plugin.lint.legacy import LegacyRules
from gradmode_plugin.lint.loops import LoopRules
from gradmode_plugin.lint.modes import ModeRules
from gradmode_plugin.lint.params import ParamRules
from gradmode_plugin.lint.parsing import parse_relevant
from gradmode_plugin.lint.project import Project
from gradmode_plugin.lint.threads import ThreadRules
from gradmode_plugin.lint.triggers import Triggers, aliased_import
from gradmode_plugin.lint.walk import Finding

__all__ = ["Finding", "check_source"]


class _Analysis(DropoutRules, ModeRules, GradRules, ParamRules, ThreadRules, LegacyRules, LoopRules):
    """One walk over a module's tree with every rule family, then the decisions at every scope's end."""


def check_source(
    source: str | bytes,
    path: str,
    eval_functions: tuple[str, ...] = (),
    tests: bool = False,
    compiled: bool = False,
    project: Project | None = None,
) -> list[Finding]:
    """Every finding in a module's source, sorted by position (``noqa`` not applied); ``compiled``: this Python has
    compiled the file already, so the pieces no rule looks at need no syntax check; ``project``: the other files of
    the run, where the functions this file never calls are looked for.

    Raises:
        SyntaxError: the source does not parse (also for null bytes).
    """
    data = source.encode() if isinstance(source, str) else source
    triggers = Triggers(data)
    try:
        # threads: a worker may be any function of the module; an aliased trigger name: the alias is found in
        # the imports, once parsed
        # `.eval()`: the module may be run in any function, and followed into the functions it is passed to
        whole = b"Thread" in data or aliased_import(data) or triggers.any_eval()
        tree = parse_relevant(data, triggers, whole, path, compiled)
    except ValueError as err:  # null bytes
        raise SyntaxError(str(err)) from err
    return _Analysis(tree, data, triggers, path, eval_functions, tests, whole, project).run()
