"""Files that cannot be imported: a module-level import names a module the project has moved, or a name its module
no longer defines. Such a file raises ``ImportError`` before any of its code runs; what the rules find in it is
left out of the findings and named apart (``LintResult.stale``), with the import that fails.

Only what the project's own files show counts, so that nothing is left out on a guess:

- ``from a.b.c import x`` / ``import a.b.c`` where ``a`` is a folder in the folder holding the file's package (the
  file's own folder where it is no package) or in the run's root (not a project of its own, a ``pyproject.toml``,
  ``setup.py`` or ``setup.cfg`` in it and no ``__init__.py``: installed, its inner package is what the import names),
  the chain breaks at ``c`` (no ``c.py``, no folder
  ``c``, and no other file named ``c.*`` there: a compiled extension, a stub), and a ``c.py`` or a folder ``c``
  lies elsewhere under ``a`` (the module was moved);
- ``from a.b import x`` where ``a/b.py`` is a file of the project that cannot be parsed, or that binds no ``x`` at
  its top level and leaves no way to make one (no ``import *`` but a relative one of a module of the project, whose
  public names or ``__all__`` it then binds; no module ``__getattr__``, no ``globals()``, ``exec`` or
  ``sys.modules``); the same where ``a/b`` is a package, for its ``__init__.py``, unless ``x`` is a module of it;
- ``import a.b`` or ``from a import b`` where ``a/b.py`` (or, for a package, ``a/b/__init__.py``) is a file of the
  project that cannot be parsed;
- ``from ..a.b import x``: the same, the module looked for only where the dots put it (the package that many
  levels up, within the run's root).

A module of the project that cannot be imported itself, for any of these reasons, makes its importers fail too
(followed through the project's modules; a cycle of imports is not known). A module that does not parse is not known
to fail where the project states a newer Python than the one running.

One more thing counts, known of libraries rather than shown by the project: an import of a name or module its library
removed in a release before any that installs on a Python this linter runs on (``from scipy.misc import imread``,
removed in SciPy 1.3; ``torch.utils.ffi``, removed in PyTorch 1.0; ``from sklearn.externals import joblib``, removed in
scikit-learn 0.23), unless the project states an older Python (``requires-python``, ``python_requires``), where an
older release may install.

A file written for PyTorch 0.4 or older counts too, where it indexes the ``.data`` of a loss, a 0-dim tensor
(``loss.data[0]``, PyTorch 0.3's way to read one; an ``IndexError`` since PyTorch 1.0): today it stops there, and on
the PyTorch it was written for, ``Variable(x, volatile=True)`` still turned gradients off. The loss is what
unreachable.py takes as one (a ``torch.nn`` loss, or a call of a ``criterion``/``loss_fn`` the file neither builds
nor defines), read anywhere in the file. Not where the project states an older Python than 3.10, where such a
PyTorch may install (``python_requires=">=3.6"``).

Imports inside ``try``, ``if`` or a function are not read (their failure may be handled), nor ``from . import x``,
nor a module that is no folder of the project (``import eval_metrics``: a folder put on ``sys.path`` may hold it).

Example:
    >>> import pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("data/__init__.py", "data/sets/loader.py", "train.py"):
    ...     (root / name).parent.mkdir(parents=True, exist_ok=True)
    ...     _ = (root / name).write_text("")
    >>> source = b"from data.loader import Loader\\n"
    >>> paths = [str(root / name) for name in ("data/__init__.py", "data/sets/loader.py", "train.py")]
    >>> print(StaleImports(paths).reason(str(root / "train.py"), source))
    line 1 imports `data.loader`, which the project does not have (it has a `loader` elsewhere: moved?)
"""

from __future__ import annotations

import ast
import functools
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final

from gradmode_plugin.lint.config import required_python
from gradmode_plugin.lint.names import ImportTable
from gradmode_plugin.lint.unreachable import zero_dim_loss_read

__all__ = ["StaleImports", "written_for_old_pytorch"]

#: What every module has without binding it (``from .models import __dict__`` reads the module's namespace).
_IMPLICIT: Final = frozenset(
    {"__dict__", "__name__", "__doc__", "__file__", "__package__", "__loader__", "__spec__", "__path__", "__builtins__"}
)
#: What lets a module make names that its top level does not bind where they can be read.
_DYNAMIC_NAMES = frozenset({"globals", "exec", "modules", "__getattr__", "setattr", "vars", "locals"})
#: Of those, what makes module names from inside a function too (a backend loader's
#: ``setattr(sys.modules[__name__], api, ...)``); ``setattr``/``vars``/``locals`` there are mostly about objects.
_DYNAMIC_IN_FUNCTIONS = frozenset({"globals", "exec", "modules"})


class StaleImports:
    """The imports of the files of one run (``paths``: every file of the project) that cannot succeed; modules read
    once per run."""

    def __init__(self, paths: Sequence[str]) -> None:
        self._paths = [os.path.normpath(os.path.abspath(path)) for path in paths]
        self._root = os.path.commonpath(self._paths) if self._paths else ""
        if len(self._paths) == 1:
            self._root = os.path.dirname(self._root)
        #: module file -> the names its top level binds, None where it may make others (or cannot be parsed: "")
        self._bound: dict[str, frozenset[str] | str | None] = {}
        #: module file -> the names its ``__all__`` lists, where it is a literal list or tuple of strings
        self._all: dict[str, frozenset[str]] = {}
        #: module file -> why it cannot be imported (None: nothing shows it), for the files that import it
        self._reasons: dict[str, str | None] = {}

    def reason(self, path: str, source: bytes) -> str | None:
        """Why the file at ``path`` cannot be imported, naming the line and the import; None where nothing shows
        that it cannot."""
        try:
            tree = ast.parse(source, filename=path)
        except (SyntaxError, ValueError, RecursionError):
            return None
        here = os.path.dirname(os.path.normpath(os.path.abspath(path)))
        floor = _stated_python(Path(here))
        older_python = floor is not None and floor < _PYTHON_LINTED  # the project states it runs on 3.9 or older
        for stmt in tree.body:
            if isinstance(stmt, ast.Import):
                modules = [alias.name for alias in stmt.names]
            elif isinstance(stmt, ast.ImportFrom) and stmt.module:
                modules = [stmt.module]
            else:
                continue
            for module in modules:
                removed = (
                    None if isinstance(stmt, ast.ImportFrom) and stmt.level else _removed(stmt, module, older_python)
                )
                if removed is not None:
                    return f"line {stmt.lineno} imports {removed}"
                if isinstance(stmt, ast.ImportFrom) and stmt.level:
                    found = self._resolve_relative(here, stmt.level, module.split("."))
                    module = "." * stmt.level + module
                else:
                    found = self._resolve(here, module.split("."))
                if found is None:
                    continue
                if found == "":
                    return (
                        f"line {stmt.lineno} imports `{module}`, which the project does not have (it has a "
                        f"`{module.rpartition('.')[2]}` elsewhere: moved?)"
                    )
                package = os.path.join(found, "__init__.py")
                if isinstance(stmt, ast.ImportFrom) and (found.endswith(".py") or os.path.isfile(package)):
                    source_file = found if found.endswith(".py") else package
                    bound = self._names(source_file)
                    if isinstance(bound, frozenset) and source_file == package:  # its modules import as its names
                        bound |= _modules_in(found)
                    shown = os.path.relpath(source_file, self._root)
                    if bound == "":
                        return f"line {stmt.lineno} imports `{module}`, whose file `{shown}` cannot be parsed"
                    wanted = [alias.name for alias in stmt.names if alias.name != "*"]
                    missing = [] if bound is None else [name for name in wanted if name not in bound]
                    if missing:
                        return (
                            f"line {stmt.lineno} imports `{missing[0]}` from `{module}`, which `{shown}` does not "
                            "define"
                        )
                failing = self._failing_module(stmt, module, found)
                if failing is not None:
                    return f"line {stmt.lineno} imports {failing}"
        return None

    def _failing_module(self, stmt: ast.Import | ast.ImportFrom, module: str, found: str) -> str | None:
        """What fails, where ``stmt`` imports a module of the project that does not parse or cannot be imported
        itself (``reason`` of its file): the module ``found`` is (its ``__init__.py`` for a package), or, for ``from
        a import b`` of a package ``a``, its module ``b.py``."""
        own = found if found.endswith(".py") else os.path.join(found, "__init__.py")
        candidates = [(module, own)]
        if isinstance(stmt, ast.ImportFrom) and os.path.isdir(found):
            candidates += [(f"{module}.{alias.name}", os.path.join(found, alias.name + ".py")) for alias in stmt.names]
        for name, path in candidates:
            if not os.path.isfile(path):
                continue
            shown = os.path.relpath(path, self._root)
            if self._names(path) == "":
                return f"`{name}`, whose file `{shown}` cannot be parsed"
            why = self._file_reason(path)
            if why is not None:
                return f"`{name}`, which cannot be imported (`{shown}`: {why})"
        return None

    def _file_reason(self, path: str) -> str | None:
        """``reason`` of the project's file at ``path``, read once; None inside a cycle of imports (not known)."""
        if path not in self._reasons:
            self._reasons[path] = None
            try:
                with open(path, "rb") as file:
                    source = file.read()
            except OSError:
                return None
            self._reasons[path] = self.reason(path, source)
        return self._reasons[path]

    def _resolve(self, here: str, parts: list[str]) -> str | None:
        """The file (or folder) of the project a dotted module is, looked for where Python would: in the folder that
        holds the importer's package (the importer's own folder where it is no package) and in the run's root; ""
        where such a folder holds its first part, the chain breaks, and a module of the broken part's name lies
        elsewhere under that first part (moved); None where it is not the project's or anything else may hold it."""
        while os.path.isfile(os.path.join(here, "__init__.py")) and len(here) > len(self._root):
            here = os.path.dirname(here)
        moved = False
        for folder in dict.fromkeys((here, self._root)):
            top = os.path.join(folder, parts[0])
            if not os.path.isdir(top):
                continue
            if _project_of_its_own(top):
                return None  # installed, its package is what the import names (`tracker/tracker/`, `tracker/src/`)
            found = _walk(top, parts[1:])
            if found is None:
                return None
            if found:
                return found
            moved = moved or self._elsewhere_under(top, parts[-1])
        return "" if moved else None

    def _resolve_relative(self, here: str, level: int, parts: list[str]) -> str | None:
        """As ``_resolve``, for ``from .parts import x`` at ``level`` dots in a file of the folder ``here``: the module
        can only be in the package that many levels up, which must lie in the run's root."""
        for _ in range(level - 1):
            here = os.path.dirname(here)
        if not (here + os.sep).startswith(self._root + os.sep) or not os.path.isdir(here):
            return None
        found = _walk(here, parts)
        if found == "":
            return "" if self._elsewhere_under(here, parts[-1]) else None
        return found

    def _elsewhere_under(self, top: str, name: str) -> bool:
        """Whether a module ``name`` (``name.py``, or a folder ``name`` of Python files) lies anywhere under ``top``."""
        prefix = top + os.sep
        return any(
            path.startswith(prefix)
            and (os.path.basename(path) == name + ".py" or name in path[len(prefix) :].split(os.sep)[:-1])
            for path in self._paths
        )

    def _names(self, path: str) -> frozenset[str] | str | None:
        """The names the module at ``path`` binds at its top level (``_top_level_names``); "" where it cannot be
        parsed; None where it may bind others."""
        if path not in self._bound:
            self._bound[path] = None  # a cycle of star imports: not known
            try:
                with open(path, "rb") as file:
                    tree = ast.parse(file.read(), filename=path)
            except (SyntaxError, ValueError):
                # a project that states a newer Python than this one may use its syntax: not known to fail
                floor = _stated_python(Path(path).parent)
                self._bound[path] = None if floor is not None and floor > sys.version_info[:2] else ""
            except (OSError, RecursionError):
                self._bound[path] = None
            else:
                listed = _listed(tree)
                if listed is not None:
                    self._all[path] = listed
                self._bound[path] = _top_level_names(tree, lambda node: self._star(path, node))
        return self._bound[path]

    def _star(self, path: str, node: ast.ImportFrom) -> frozenset[str] | None:
        """What ``from .x import *`` in the module at ``path`` binds: the public names of ``x`` (its ``__all__``
        where it lists them), when ``x`` is a module of the project; None where that is not known."""
        if not node.level or not node.module:
            return None
        found = self._resolve_relative(os.path.dirname(path), node.level, node.module.split("."))
        if not found:
            return None
        target = found if found.endswith(".py") else os.path.join(found, "__init__.py")
        names = self._names(target) if os.path.isfile(target) else None
        if not isinstance(names, frozenset):
            return None
        listed = self._all.get(target)
        return listed if listed is not None else frozenset(name for name in names if not name.startswith("_"))


#: The oldest Python this linter runs on: the removals below hold for every release of their library that installs on
#: it, not for a project that states an older Python (``requires-python``, ``python_requires``), where an older
#: release may.
_PYTHON_LINTED: Final = (3, 10)
#: Modules, or names of modules, that a library has removed, with the release that removed them: an import of one
#: fails with every version of the library that installs on a Python this linter runs on (3.10 and later).
_REMOVED: Final[dict[str, tuple[frozenset[str] | None, str]]] = {
    "scipy.misc": (
        frozenset(
            [
                "bytescale",
                "comb",
                "factorial",
                "factorial2",
                "factorialk",
                "fromimage",
                "imfilter",
                "imread",
                "imresize",
                "imrotate",
                "imsave",
                "imshow",
                "info",
                "logsumexp",
                "pade",
                "source",
                "toimage",
                "who",
            ]
        ),
        "SciPy 1.3",
    ),
    "torch.utils.ffi": (None, "PyTorch 1.0"),
    "sklearn.externals": (frozenset(["joblib", "six"]), "scikit-learn 0.23"),
    "sklearn.externals.joblib": (None, "scikit-learn 0.23"),
    "sklearn.externals.six": (None, "scikit-learn 0.23"),
}


#: ``python_requires=">=3.6"`` in a ``setup.py`` or ``setup.cfg`` (also through ``REQUIRES_PYTHON = ">=3.6"``).
_PYTHON_REQUIRES: Final = re.compile(
    r"(?i)(?:python_requires|requires_python)\s*[=:]\s*[\"']?\s*(?:>=|~=|==|>)\s*3\.(\d+)"
)


@functools.lru_cache(maxsize=256)
def _stated_python(folder: Path) -> tuple[int, int] | None:
    """The oldest Python the project around ``folder`` states it runs on: its ``pyproject.toml``'s
    ``requires-python``, else the ``python_requires`` of the nearest ``setup.py`` or ``setup.cfg``; None where none
    states one."""
    required = required_python(folder)
    if required is not None:
        return required[1]
    for candidate in (folder, *folder.parents):
        for name in ("setup.py", "setup.cfg"):
            path = candidate / name
            if not path.is_file():
                continue
            try:
                match = _PYTHON_REQUIRES.search(path.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
            if match is not None:
                return (3, int(match[1]))
    return None


def written_for_old_pytorch(path: str, source: bytes) -> str | None:
    """Where a file indexes a 0-dim loss (``loss.data[0]``), written for PyTorch 0.4 or older, as the reason says it;
    None where it does not, or where its project states an older Python than 3.10 (such a PyTorch may install)."""
    if b".data[" not in source:
        return None
    try:
        tree = ast.parse(source, filename=path)
    except (SyntaxError, ValueError, RecursionError):
        return None
    imports = ImportTable()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            imports.add(node)
    read = zero_dim_loss_read(tree, imports.qualname)
    if read is None:
        return None
    floor = _stated_python(Path(os.path.dirname(os.path.abspath(path))))
    if floor is not None and floor < _PYTHON_LINTED:
        return None
    return (
        f"line {read.lineno} reads `{ast.unparse(read)}`, which indexes a loss, a 0-dim tensor: written for PyTorch "
        "0.4 or older, it raises IndexError since 1.0"
    )


def _removed(stmt: ast.Import | ast.ImportFrom, module: str, older_python: bool = False) -> str | None:
    """What a module-level import names that its library removed (``from scipy.misc import imread``), as the
    reason says it; None where it names nothing removed, or where the project states that it runs on a Python older
    than any this linter runs on (``older_python``: there, a release from before the removal may install)."""
    entry = _REMOVED.get(module)
    if entry is None:
        return None
    if older_python:  # on the older Python the project states, an older release of the library may install
        return None
    names, release = entry
    if names is None:
        return f"`{module}`, which {release} removed"
    gone = next((alias.name for alias in stmt.names if alias.name in names), None)  # `import scipy.misc`: none
    return None if gone is None else f"`{gone}` from `{module}`, which {release} removed"


def _project_of_its_own(folder: str) -> bool:
    """Whether a folder is no package but a project of its own (a ``pyproject.toml``, ``setup.py`` or ``setup.cfg``
    in it), which is installed rather than imported from where it lies."""
    return not os.path.isfile(os.path.join(folder, "__init__.py")) and any(
        os.path.isfile(os.path.join(folder, name)) for name in ("pyproject.toml", "setup.py", "setup.cfg")
    )


def _walk(top: str, rest: list[str]) -> str | None:
    """Follows ``rest`` down from the folder ``top``: the module's file or folder; "" where a part is missing with
    nothing of its name there; None where a part is a module file with more parts after it, or a file of its name
    that is not Python (a compiled extension) may be it."""
    current = top
    for index, part in enumerate(rest):
        module = os.path.join(current, part + ".py")
        if os.path.isfile(module):
            return module if index == len(rest) - 1 else None
        if os.path.isdir(os.path.join(current, part)):
            current = os.path.join(current, part)
            continue
        try:
            entries = os.listdir(current)
        except OSError:
            return None
        if any(entry.startswith(part + ".") for entry in entries):
            return None
        return ""
    return current


def _top_level_names(
    tree: ast.Module, star: Callable[[ast.ImportFrom], frozenset[str] | None] = lambda node: None
) -> frozenset[str] | None:
    """The names a module's top level binds (inside its ``if``/``try``/``with``/loops too); None where it may bind
    others (``globals()``, ``exec``, a module ``__getattr__``, ``sys.modules``, an ``import *`` of which ``star``
    does not tell the names)."""
    names: set[str] = set(_IMPLICIT)
    for node in ast.walk(tree):  # anywhere, functions included: `global` names, and what makes names dynamically
        if isinstance(node, ast.Global):
            names.update(node.names)
        elif (isinstance(node, ast.Name) and node.id in _DYNAMIC_IN_FUNCTIONS) or (
            isinstance(node, ast.Attribute) and node.attr in _DYNAMIC_IN_FUNCTIONS
        ):
            return None
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                if alias.name == "*":
                    starred = star(node) if isinstance(node, ast.ImportFrom) else None
                    if starred is None:
                        return None
                    names |= starred
                else:
                    names.add(alias.asname or alias.name.partition(".")[0])
            continue
        if isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        if isinstance(node, ast.Name):
            if node.id in _DYNAMIC_NAMES:
                return None
            if isinstance(node.ctx, ast.Store):
                names.add(node.id)
        elif isinstance(node, ast.Attribute) and node.attr in _DYNAMIC_NAMES:
            return None
        pending.extend(ast.iter_child_nodes(node))
    return None if "__getattr__" in names else frozenset(names)


def _listed(tree: ast.Module) -> frozenset[str] | None:
    """The names a module's top-level ``__all__ = [...]`` lists, where it is one literal list or tuple of strings."""
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and any(isinstance(target, ast.Name) and target.id == "__all__" for target in stmt.targets)
            and isinstance(stmt.value, ast.List | ast.Tuple)
            and all(isinstance(elt, ast.Constant) and isinstance(elt.value, str) for elt in stmt.value.elts)
        ):
            return frozenset(elt.value for elt in stmt.value.elts)  # type: ignore[attr-defined]
    return None


def _modules_in(folder: str) -> frozenset[str]:
    """The modules of a package folder, importable as its names (``from pkg import sub``): every file and folder
    in it, by the name before its first dot (a compiled extension too; a data file's name only errs on silence)."""
    try:
        entries = os.listdir(folder)
    except OSError:
        return frozenset()
    return frozenset(
        entry.partition(".")[0] for entry in entries if "." in entry or os.path.isdir(os.path.join(folder, entry))
    )
