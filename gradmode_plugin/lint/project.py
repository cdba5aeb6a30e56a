"""The other files of a run: where a function that nothing in its own file calls is called from.

A validation step defined in ``model.py`` and run only by ``train.py`` inside ``with torch.no_grad():`` records no
graph, though its own file shows no caller. The files linted in the same run are the project; a function is taken to
run with gradients off where at least one of them calls it (by its name, as a function or as a method) and every such
call runs under ``no_grad``/``inference_mode``: its ``with`` block, its function's decorator, a Lightning evaluation
step (a method named ``validation_step``, ``test_step``, ``predict_step``...), or, in that file, every call of its
function. Calls in test code do not count, nor calls of a function of the same name the calling file defines itself,
nor, for a module-level function, a method of that name called on an object (``trainer.evaluate()``: only
``evaluate(...)`` and ``module.evaluate(...)`` through a name an import binds can be it). A name only referred to
(passed as a callback) has unknown callers: nothing is concluded. The other way round, a function its own file runs
only under ``no_grad`` is reported where a file that imports its module calls it with gradients on. Files are read
only where they decide a finding, once per name and process.

Example:
    >>> import pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (root / "model.py").write_text("def check(model, x):\\n    model.eval()\\n    return model(x)\\n")
    >>> _ = (root / "train.py").write_text(
    ...     "import torch\\nfrom model import check\\nwith torch.no_grad():\\n    check(net, batch)\\n")
    >>> project = Project([str(root / "model.py"), str(root / "train.py")])
    >>> project.grad_where_called("check", str(root / "model.py")) == OFF
    True
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence

from gradmode_plugin.lint.calls import FREE, OFF, CallIndex, Def, constructions
from gradmode_plugin.lint.grad import grad_off_when_run, turns_grad_back_on
from gradmode_plugin.lint.names import ImportTable, dotted_parts, names_a_module
from gradmode_plugin.lint.stale import StaleImports, written_for_old_pytorch
from gradmode_plugin.lint.testcode import is_test_path
from gradmode_plugin.lint.walk import LIGHTNING_EVAL_STEPS, grad_set_by

__all__ = ["Project"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: A call of a name in a file: (its path, the grad mode at the call, whether a call rather than a reference, the
#: module names the file's imports name)
_Site = tuple[str, int, bool, frozenset[str]]


class Project:
    """The files of one run (``paths``), searched for the calls of a name when a rule asks; ``more``: other files
    of the project, listed only when first needed (a hook given the changed files alone: the rest of the
    repository)."""

    def __init__(self, paths: Sequence[str], more: Callable[[], Iterable[str]] | None = None) -> None:
        self._given = tuple(paths)
        self._more = more
        self._paths: tuple[str, ...] | None = None if more is not None else self._given
        #: (name, whether a module-level function, how many files further its callers' callers are followed) ->
        #: [(path, grad mode at the call, whether a call (not a mere reference), the modules that file imports)] over
        #: the non-test files
        self._sites: dict[tuple[str, bool, int], list[_Site]] = {}
        self._classes: dict[str, ast.ClassDef | None] = {}
        self._gradless: dict[str, bool] = {}
        #: every module ``forward`` of the project's non-test files: (its keyword parameters, whether it takes
        #: ``**kwargs``, whether it runs its submodules only with gradients off), read once
        self._forwards: list[tuple[frozenset[str], bool, bool]] | None = None
        #: path -> whether importing that file turns gradients off for the process and nothing in it turns them on
        self._off_at_import: dict[str, bool] = {}
        #: (class name, file) -> the class's constructions in the other files (``constructions_elsewhere``)
        self._constructions: dict[tuple[str, str], list[tuple[ast.Call, _Function | None]] | None] = {}
        self._normalised: dict[str, str] | None = None
        #: (imported files, class, method) -> whether that method runs something of `self` with gradients on
        self._imported_methods: dict[tuple[tuple[str, ...], str, str], bool] = {}
        #: (imported files, class) -> the class ``from module import cls`` binds (``imported_class``)
        self._imported_classes: dict[tuple[tuple[str, ...], str], ast.ClassDef | None] = {}
        self._stale: StaleImports | None = None
        #: file -> what ``from its_module import *`` binds (``star_names``)
        self._stars: dict[str, dict[str, str]] = {}
        #: every file of the project and its text, read once when a word is first looked for (``written_elsewhere``)
        self._texts: list[tuple[str, bytes]] | None = None

    @property
    def paths(self) -> tuple[str, ...]:
        """Every file of the project: those of the run first, then the others."""
        if self._paths is None:
            seen = {os.path.normpath(path) for path in self._given}
            more = [path for path in self._more() if os.path.normpath(path) not in seen] if self._more else []
            self._paths = (*self._given, *more)
        return self._paths

    def cannot_run(self, path: str, source: bytes) -> str | None:
        """Why the file at ``path`` (its ``source``) cannot run as written today, with what to change, where the
        project's files show it (a module it imports at its top level moved, does not define the name, or does not
        parse) or the file itself does (``loss.data[0]``): :mod:`gradmode_plugin.lint.stale`."""
        if self._stale is None:
            self._stale = StaleImports(self.paths)
        why = self._stale.reason(path, source)
        if why is not None:
            return f"the file cannot be imported: {why}; fix the import to have it checked"
        why = written_for_old_pytorch(path, source)
        if why is not None:
            return f"the file stops on today's PyTorch: {why}; read the loss with `.item()` to have it checked"
        return None

    def grad_where_called(self, name: str, path: str, function: bool = True) -> int:
        """``OFF`` where files other than ``path`` call ``name`` and each call runs with gradients off, else
        ``FREE`` (no call elsewhere, one with gradients on, or the name passed around). ``function``: ``name`` is a
        module-level function, which no method call on an object runs; else a method."""
        elsewhere = self._grads_elsewhere(name, path, function)
        return OFF if elsewhere and all(grad == OFF for grad in elsewhere) else FREE

    def called_elsewhere(self, name: str, path: str) -> bool:
        """Whether a non-test file other than ``path`` calls ``name`` or refers to it."""
        return bool(self._grads_elsewhere(name, path, False))

    def written_elsewhere(self, word: str, path: str) -> bool:
        """Whether ``word`` is a word of the text of a file of the project other than ``path`` (test files, and files
        that do not parse, too)."""
        if self._texts is None:
            texts = []
            for other in self.paths:
                try:
                    with open(other, "rb") as file:
                        texts.append((os.path.normpath(other), file.read()))
                except OSError:
                    continue
            self._texts = texts
        pattern = re.compile(rb"\b" + re.escape(word.encode()) + rb"\b")
        here = os.path.normpath(path)
        return any(other != here and pattern.search(text) is not None for other, text in self._texts)

    def called_without_grad_elsewhere(self, name: str, path: str, function: bool = True) -> bool:
        """Whether a non-test file other than ``path`` calls ``name`` with gradients off."""
        return OFF in self._grads_elsewhere(name, path, function)

    def called_with_grad_elsewhere(self, name: str, path: str, function: bool = True) -> bool:
        """Whether a non-test file other than ``path`` calls ``name`` with gradients on (or in a mode it does not
        set), or refers to it."""
        return any(grad != OFF for grad in self._grads_elsewhere(name, path, function))

    def called_with_grad_by_importers(self, name: str, path: str, function: bool = True) -> bool:
        """Whether a non-test file that imports ``path``'s module calls ``name`` with gradients on (not only refers to
        it): a method its own file runs only under ``no_grad``, called once more by ``main.py`` after training."""
        module = _module_name(path)
        return any(
            called and grad == FREE and module in imported
            for _, grad, called, imported in self._sites_elsewhere(name, path, function)
        )

    def _grads_elsewhere(self, name: str, path: str, function: bool) -> list[int]:
        """The grad mode at each call of ``name`` (``FREE`` for a reference) in the non-test files but ``path``."""
        return [grad for _, grad, _, _ in self._sites_elsewhere(name, path, function)]

    def _sites_elsewhere(self, name: str, path: str, function: bool, hops: int = 1) -> list[_Site]:
        sites = self._sites.get((name, function, hops))
        if sites is None:
            sites = self._sites[(name, function, hops)] = list(self._find(name, function, hops))
        here = os.path.normpath(path)
        return [site for site in sites if os.path.normpath(site[0]) != here]

    def runs_without_grad(self, name: str) -> bool:
        """Whether every function or method of this name in the project's non-test files runs its forward with
        gradients off: decorated ``no_grad``/``inference_mode``, or every ``self(...)``/``self.forward(...)``/
        ``self.net(...)`` inside a ``with`` of them (a ``test_step`` that wraps its forward in
        ``with torch.no_grad():``). False where none is found."""
        if name not in self._gradless:
            pattern = re.compile(rb"\bdef\s+" + re.escape(name.encode()) + rb"\b")
            found: list[bool] = []
            for _, tree in self._trees(pattern):
                imports = _imports(tree)
                found += [
                    _turns_grad_off(node, imports)
                    for node in ast.walk(tree)
                    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name
                ]
            self._gradless[name] = bool(found) and all(found)
        return self._gradless[name]

    def forwards_without_grad(self, keywords: frozenset[str]) -> bool:
        """Whether every module ``forward`` in the project's non-test files that accepts these keyword arguments
        runs its submodules only with gradients off (``with torch.no_grad():`` around them in its own body: a
        policy whose ``forward(obs, deterministic=True)`` acts and returns arrays). The keywords stand for the
        receiver's class where the call cannot name it (``policy.forward(obs, deterministic=True)`` on a
        parameter): False without keywords, and where no ``forward`` accepts them."""
        if not keywords:
            return False
        if self._forwards is None:
            self._forwards = []
            for _, tree in self._trees(re.compile(rb"\bdef\s+forward\b")):
                imports = _imports(tree)
                for cls in (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef)):
                    methods = {m.name: m for m in cls.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef))}
                    forward = methods.get("forward")
                    if forward is not None:
                        args = forward.args
                        named = frozenset(arg.arg for arg in (*args.args, *args.kwonlyargs))
                        gradless = _submodules_without_grad(forward, methods, imports)
                        self._forwards.append((named, args.kwarg is not None, gradless))
        found = [gradless for named, splat, gradless in self._forwards if splat or keywords <= named]
        return bool(found) and all(found)

    def imports_grad_off(self, importer: str, node: ast.Import | ast.ImportFrom) -> bool:
        """Whether an import in ``importer`` runs a module of the project whose top level turns gradients off for
        the whole process (``torch.set_grad_enabled(False)`` as a statement, outside its ``__main__`` block) and that
        never turns them back on: a course's ``tests.py`` imported by its solutions. The module is the file the
        import names beside ``importer`` (or relative to it), else the one file of the project at that path."""
        return any(self._grad_off_at_import(path) for path in self._imported_files(importer, node))

    def _imported_files(self, importer: str, node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import) or node.module is None:
            modules = [alias.name for alias in node.names]
        else:
            modules = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        here = os.path.dirname(os.path.normpath(importer))
        if isinstance(node, ast.ImportFrom) and node.level:
            for _ in range(node.level - 1):
                here = os.path.dirname(here)
        if self._normalised is None:
            self._normalised = {os.path.normpath(path): path for path in self.paths}
        known = self._normalised
        found: list[str] = []
        for module in modules:
            for tail in (module.replace(".", os.sep) + ".py", os.path.join(module.replace(".", os.sep), "__init__.py")):
                beside = os.path.normpath(os.path.join(here, tail))
                if beside in known:
                    found.append(known[beside])
                    continue
                if isinstance(node, ast.ImportFrom) and node.level:
                    continue
                matches = [path for norm, path in known.items() if norm == tail or norm.endswith(os.sep + tail)]
                if len(matches) == 1:
                    found.append(matches[0])
        return found

    def star_names(self, importer: str, node: ast.ImportFrom) -> dict[str, str]:
        """What ``from module import *`` in ``importer`` binds from a file of the project, of the names its imports
        bind (``import torch.nn.functional as F`` there: ``F``), with the qualified names they stand for; the
        names its ``__all__`` lists where it has one, else those without a leading ``_``. Empty where the import
        names no single file of the project."""
        files = self._imported_files(importer, node)
        if len(files) != 1:
            return {}
        path = files[0]
        if path not in self._stars:
            self._stars[path] = {}  # a module star-importing itself, or one that star-imports it back: nothing more
            try:
                with open(path, "rb") as file:
                    tree = ast.parse(file.read(), filename=path)
            except (OSError, SyntaxError, ValueError, RecursionError):
                return {}
            imports = ImportTable()
            imports.bound_in(tree, lambda star: self.star_names(path, star))
            public = _all_names(tree)
            self._stars[path] = {
                name: qualified
                for name, qualified in imports.bound().items()
                if (name in public if public is not None else not name.startswith("_"))
            }
        return self._stars[path]

    def imported_method_runs_with_grad(self, importer: str, node: ast.ImportFrom, cls: str, method: str) -> bool:
        """Whether the class ``cls`` that ``from module import cls`` brings into ``importer`` from a file of the
        project (its last class of that name at that file's top level) has a method ``method`` that runs something of
        ``self`` with gradients on: not decorated ``no_grad``/``inference_mode``, nor running it only inside such a
        ``with`` (RIFE's ``Model.inference`` running ``self.flownet(...)``, called by benchmark scripts after
        ``model.eval()``)."""
        key = (tuple(self._imported_files(importer, node)), cls, method)
        if key not in self._imported_methods:
            self._imported_methods[key] = self._method_runs_with_grad(key[0], cls, method)
        return self._imported_methods[key]

    def imported_class(self, importer: str, node: ast.ImportFrom, cls: str) -> ast.ClassDef | None:
        """The class ``cls`` that ``from module import cls`` brings into ``importer`` from a file of the project (its
        last class of that name at that file's top level), or None where the import names no file of the project, or
        several that define it. A script's ``from LeNet5 import LeNet5`` beside it, where other folders of the
        project define their own ``LeNet5``."""
        key = (tuple(self._imported_files(importer, node)), cls)
        if key not in self._imported_classes:
            found = [klass for _, klass in _bound_classes(key[0], cls)]
            self._imported_classes[key] = found[0] if len(found) == 1 else None
        return self._imported_classes[key]

    @staticmethod
    def _method_runs_with_grad(paths: tuple[str, ...], cls: str, method: str) -> bool:
        for tree, klass in _bound_classes(paths, cls):
            methods = {stmt.name: stmt for stmt in klass.body if isinstance(stmt, _Function)}
            found = methods.get(method)
            return found is not None and _runs_of_self(found, methods, _imports(tree), 0)[1]
        return False

    def _grad_off_at_import(self, path: str) -> bool:
        if path not in self._off_at_import:
            off = False
            try:
                with open(path, "rb") as file:
                    source = file.read()
                if b"set_grad_enabled" in source:
                    tree = ast.parse(source, filename=path)
                    imports = _imports(tree)
                    off = grad_off_when_run(tree.body, imports, imported=True) and not turns_grad_back_on(tree, imports)
            except (OSError, SyntaxError, ValueError, RecursionError):
                off = False  # unreadable: what it does is unknown
            self._off_at_import[path] = off
        return self._off_at_import[path]

    def constructions_elsewhere(self, name: str, path: str) -> list[tuple[ast.Call, _Function | None]] | None:
        """Every call of a class by its name in the project's non-test files, but ``path`` and those that define a class
        of that name themselves, with the function each is made in; None where one of them uses the name otherwise
        (``calls.constructions``). A file that does not parse is passed over (it is GM999 where it is linted). Read
        once per class and file."""
        here = os.path.normpath(path)
        if (name, here) not in self._constructions:
            found: list[tuple[ast.Call, _Function | None]] | None = []
            for where, tree in self._trees(re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")):
                if os.path.normpath(where) == here or any(
                    isinstance(node, ast.ClassDef) and node.name == name for node in ast.walk(tree)
                ):
                    continue  # this file, or one that builds its own class of that name
                sites = constructions(tree, name)
                if sites is None:
                    found = None
                    break
                found += sites
            self._constructions[(name, here)] = found
        return self._constructions[(name, here)]

    def class_named(self, name: str) -> ast.ClassDef | None:
        """The one class of this name defined at the top level of a non-test file of the project, else None (none,
        or several: which one a call builds is unknown)."""
        if name not in self._classes:
            found = [
                node
                for _, tree in self._trees(re.compile(rb"^class\s+" + re.escape(name.encode()) + rb"\b", re.MULTILINE))
                for node in tree.body
                if isinstance(node, ast.ClassDef) and node.name == name
            ]
            self._classes[name] = found[0] if len(found) == 1 else None
        return self._classes[name]

    def _find(self, name: str, function: bool, hops: int) -> list[_Site]:
        word = re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")
        found: list[_Site] = []
        for path, tree in self._trees(word):
            bound, imported = _import_names(tree)
            for grad, called, caller in _grad_at_calls(tree, name, function, bound):
                if caller is not None and hops > 0:
                    # a call in a function its own file never calls: that function runs where other files call it
                    # (a PPO's `process_env_step`, called by the runner inside `torch.inference_mode()`)
                    further = self._sites_elsewhere(caller.name, path, caller.cls is None, hops - 1)
                    if further and all(site[1] == OFF for site in further):
                        grad = OFF
                found.append((path, grad, called, imported))
        return found

    def _trees(self, pattern: re.Pattern[bytes]) -> Iterator[tuple[str, ast.Module]]:
        """The parsed non-test files whose text matches ``pattern``."""
        for path in self.paths:
            if is_test_path(path):
                continue
            try:
                with open(path, "rb") as file:
                    source = file.read()
            except OSError:
                continue
            if pattern.search(source) is None:
                continue
            try:
                yield path, ast.parse(source, filename=path)
            except (SyntaxError, ValueError, RecursionError):
                continue  # reported as GM999 where it is linted; what it holds is unknown


def _bound_classes(paths: Iterable[str], cls: str) -> Iterator[tuple[ast.Module, ast.ClassDef]]:
    """Each file of ``paths`` that parses and defines ``cls`` at its top level, with the class the name is bound to
    there (its last definition)."""
    for path in paths:
        try:
            with open(path, "rb") as file:
                tree = ast.parse(file.read(), filename=path)
        except (OSError, SyntaxError, ValueError, RecursionError):
            continue
        classes = [stmt for stmt in tree.body if isinstance(stmt, ast.ClassDef) and stmt.name == cls]
        if classes:
            yield tree, classes[-1]


def _all_names(tree: ast.Module) -> frozenset[str] | None:
    """The names a module's top-level ``__all__ = [...]`` (or tuple) lists, None where it has none it states so."""
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and any(isinstance(target, ast.Name) and target.id == "__all__" for target in stmt.targets)
            and isinstance(stmt.value, (ast.List, ast.Tuple))
        ):
            return frozenset(
                element.value
                for element in stmt.value.elts
                if isinstance(element, ast.Constant) and isinstance(element.value, str)
            )
    return None


def _imports(tree: ast.Module) -> ImportTable:
    imports = ImportTable()
    imports.bound_in(tree)
    return imports


def _gradless_nodes(node: ast.FunctionDef | ast.AsyncFunctionDef, imports: ImportTable) -> set[int] | None:
    """The ids of the nodes of a function that run with gradients off: those inside a ``with`` of
    ``no_grad``/``inference_mode``/``set_grad_enabled(False)``; None where a decorator turns them off for all."""
    if any(grad_set_by(decorator, imports, as_decorator=True) == OFF for decorator in node.decorator_list):
        return None
    inside: set[int] = set()
    for block in ast.walk(node):
        if isinstance(block, (ast.With, ast.AsyncWith)) and any(
            grad_set_by(item.context_expr, imports) == OFF for item in block.items
        ):
            inside.update(id(inner) for inner in ast.walk(block))
    return inside


def _turns_grad_off(node: ast.FunctionDef | ast.AsyncFunctionDef, imports: ImportTable) -> bool:
    """A function decorated ``no_grad``/``inference_mode``, or one that runs its forward (``self(...)``,
    ``self.forward(...)``, ``self.net(...)``: a module named as one) at least once and only inside such a ``with``."""
    inside = _gradless_nodes(node, imports)
    if inside is None:
        return True
    forwards = [call for call in ast.walk(node) if isinstance(call, ast.Call) and _runs_own_forward(call.func)]
    return bool(forwards) and all(id(call) in inside for call in forwards)


def _submodules_without_grad(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
    methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
    imports: ImportTable,
) -> bool:
    """Whether a class's method runs something of ``self`` (``self(...)``, ``self.head(...)``, anything not a
    plain method of the class, which may be a submodule or an inherited method) and only inside a ``with`` that turns
    gradients off; a plain method of the class it calls is followed (two calls deep) and must do the same or run
    nothing of ``self``."""
    any_run, on = _runs_of_self(node, methods, imports, 0)
    return any_run and not on


def _runs_of_self(
    fn: ast.FunctionDef | ast.AsyncFunctionDef,
    methods: dict[str, ast.FunctionDef | ast.AsyncFunctionDef],
    imports: ImportTable,
    depth: int,
) -> tuple[bool, bool]:
    """(whether a method runs something of ``self``, whether it runs it with gradients on), as
    ``_submodules_without_grad`` reads it."""
    inside = _gradless_nodes(fn, imports)
    if inside is None:
        return True, False
    any_run = on = False
    for call in ast.walk(fn):
        if not isinstance(call, ast.Call):
            continue
        parts = dotted_parts(call.func)
        if parts is None or parts[0] != "self":
            continue
        method = methods.get(parts[1]) if len(parts) == 2 and parts[1] != "forward" else None
        if method is fn:
            continue
        if method is not None and depth < 2:
            deeper_run, deeper_on = _runs_of_self(method, methods, imports, depth + 1)
            any_run = any_run or deeper_run
            on = on or (deeper_on and id(call) not in inside)
        else:  # a submodule, an inherited method, or a method too deep to follow: taken as a run
            any_run, on = True, on or id(call) not in inside
    return any_run, on


def _runs_own_forward(func: ast.expr) -> bool:
    if isinstance(func, ast.Name):
        return func.id == "self"
    parts = dotted_parts(func)
    return (
        parts is not None
        and parts[0] == "self"
        and (parts[-1] == "forward" or (len(parts) == 2 and names_a_module(parts[1])))
    )


def _grad_at_calls(
    tree: ast.Module, name: str, function: bool, bound: frozenset[str]
) -> list[tuple[int, bool, Def | None]]:
    """The grad mode at each call of ``name`` in a module, whether it is a call (``FREE`` for a mere reference:
    unknown callers), and, where that mode is not set there, the calling function if the module never calls it (a
    top-level function or method, not a dunder: who runs it is in other files); for a module-level ``function``, an
    attribute call counts only on a name an import binds (``bound``: ``evaluation.validate(...)``, not
    ``trainer.validate(...)``)."""
    imports = _imports(tree)
    index = CallIndex(
        tree,
        lambda node, as_decorator=False: grad_set_by(node, imports, as_decorator),
        lambda definition: definition.cls is not None and definition.name in LIGHTNING_EVAL_STEPS,
    )
    own = any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name for node in tree.body)
    grads: list[tuple[int, bool, Def | None]] = []
    for key, sites in index.sites.items():
        if key[-1] != name or (own and key[0] == "fn"):
            continue  # another function, or the file's own function of that name
        for caller, grad, call in sites:
            if function and call is not None and key[0] != "fn" and not _on_module(call, bound):
                continue  # a method of some object (`trainer.validate()`), or the caller's own (`self.validate()`)
            if call is None:
                grads.append((FREE, False, None))
                continue
            mode = grad if grad != FREE else index.effective(caller)
            uncalled = (
                mode == FREE
                and caller is not None
                and caller.parent is None
                and not caller.name.startswith("__")
                and not index.callers(caller)
            )
            grads.append((mode, True, caller if uncalled else None))
    return grads


def _module_name(path: str) -> str:
    """The name a file's module is imported by, last component only (a package's ``__init__.py``: the package)."""
    stem = os.path.splitext(os.path.basename(path))[0]
    return os.path.basename(os.path.dirname(os.path.abspath(path))) if stem == "__init__" else stem


def _import_names(tree: ast.Module) -> tuple[frozenset[str], frozenset[str]]:
    """What a module's import statements, anywhere in it (relative ones too), name: the names they bind (``import
    a.b as c``: c; ``from a import b``: b), and each dotted component of the modules and names they import (a, b; a,
    b, c for ``from a.b import c``), so that whether the file may import a given module of the project is a lookup."""
    bound: set[str] = set()
    components: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                bound.add(alias.asname or alias.name.partition(".")[0])
                components.update(alias.name.split("."))
        elif isinstance(node, ast.ImportFrom):
            bound.update(alias.asname or alias.name for alias in node.names)
            components.update((node.module or "").split("."))
            components.update(alias.name for alias in node.names)
    return frozenset(bound), frozenset(components)


def _on_module(call: ast.Call, modules: frozenset[str]) -> bool:
    """Whether an attribute call's receiver is rooted in a name an import binds (a module, or what it holds)."""
    parts = dotted_parts(call.func)
    return parts is not None and parts[0] in modules
