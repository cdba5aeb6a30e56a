"""What a name in a module refers to: its imports resolved to fully qualified names, whatever the alias.

``import torch.nn.functional as F``, ``from torch.nn import functional as nnf`` and
``from torch.nn.functional import dropout`` all make a call resolve to ``torch.nn.functional.dropout``.

Example:
    >>> import ast
    >>> imports = ImportTable()
    >>> imports.add(ast.parse("from torch.nn import functional as nnf").body[0])
    >>> imports.qualname(ast.parse("nnf.dropout", mode="eval").body)
    'torch.nn.functional.dropout'
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable
from typing import Final

from gradmode_plugin.lint.nodes import built_call

# Names torch re-exports at the top level, by where they are defined: one spelling for each.
_CANONICAL: Final[dict[str, str]] = {
    **{
        f"{module}.{name}": f"torch.{name}"
        for module in ("torch.autograd", "torch.autograd.grad_mode")
        for name in ("no_grad", "enable_grad", "set_grad_enabled", "inference_mode")
    },
    "torch.autograd.variable.Variable": "torch.autograd.Variable",
    "torch._C._nn.scaled_dot_product_attention": "torch.nn.functional.scaled_dot_product_attention",
    "torch.nn.modules.module.Module": "torch.nn.Module",
    "gradmode_plugin.allow.allow_grad": "gradmode_plugin.allow_grad",
    "gradmode_plugin.scope.evaluating": "gradmode_plugin.evaluating",
    "concurrent.futures.thread.ThreadPoolExecutor": "concurrent.futures.ThreadPoolExecutor",
}

#: What ``from module import *`` binds, of the names the rules read, for the torch modules that export them (each
#: module's ``__all__``, or its public names where it has none).
_STAR_EXPORTS: Final[dict[str, tuple[str, ...]]] = {
    "torch": (
        "no_grad", "enable_grad", "inference_mode", "is_grad_enabled",
        "dropout", "alpha_dropout", "feature_dropout", "feature_alpha_dropout", "dropout_",
    ),
    "torch.autograd": (
        "Variable", "Function", "backward", "grad", "no_grad", "enable_grad", "set_grad_enabled", "inference_mode",
    ),
    "torch.autograd.variable": ("Variable",),
    "torch.nn": ("Module", "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
                 "functional", "init"),
    "torch.nn.functional": (
        "dropout", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
        "scaled_dot_product_attention",
    ),
}  # fmt: skip

FUNCTIONAL: Final = "torch.nn.functional."
#: Functional dropouts whose ``training`` defaults to True.
DROPOUT_TRAINING_DEFAULT_TRUE: Final[frozenset[str]] = frozenset(
    FUNCTIONAL + name for name in ("dropout", "dropout1d", "dropout2d", "dropout3d")
)
#: Every functional dropout with a ``training`` argument (third positional).
DROPOUT_FUNCTIONAL: Final[frozenset[str]] = DROPOUT_TRAINING_DEFAULT_TRUE | {
    FUNCTIONAL + "alpha_dropout",
    FUNCTIONAL + "feature_alpha_dropout",
}
#: ``torch.dropout(input, p, train)`` and its relatives: ``train`` is required (third positional).
DROPOUT_TORCH: Final[frozenset[str]] = frozenset(
    f"{module}.{name}{suffix}"
    for module in ("torch", "torch._VF")
    for name in ("dropout", "alpha_dropout", "feature_dropout", "feature_alpha_dropout")
    for suffix in ("", "_")
)
SDPA: Final = FUNCTIONAL + "scaled_dot_product_attention"

NO_GRAD: Final = "torch.no_grad"
INFERENCE_MODE: Final = "torch.inference_mode"
ENABLE_GRAD: Final = "torch.enable_grad"
SET_GRAD_ENABLED: Final = "torch.set_grad_enabled"
#: Context managers that turn gradients off, and change nothing until entered (``with``) or applied (a decorator).
GRAD_OFF_CONTEXTS: Final[frozenset[str]] = frozenset({NO_GRAD, INFERENCE_MODE})
IS_GRAD_ENABLED: Final = "torch.is_grad_enabled"
ALLOW_GRAD: Final = "gradmode_plugin.allow_grad"
#: Context managers that run their body without gradients whatever their arguments.
NO_GRAD_CONTEXTS: Final[frozenset[str]] = frozenset({NO_GRAD, "gradmode_plugin.evaluating"})
VARIABLE: Final = "torch.autograd.Variable"
AUTOGRAD_BACKWARD: Final[frozenset[str]] = frozenset({"torch.autograd.backward"})
AUTOGRAD_GRAD: Final[frozenset[str]] = frozenset({"torch.autograd.grad"})
THREAD_POOL: Final = "concurrent.futures.ThreadPoolExecutor"
THREAD: Final = "threading.Thread"
PARTIAL: Final = "functools.partial"


#: The names a module goes by, matched on each part of a dotted name (``self.text_encoder``, ``gen_model``).
_MODULE_NAME: Final = re.compile(
    r"(?:^|_)(?:model|net|network|module|encoder|decoder|generator|discriminator|backbone|policy|actor|critic"
    r"|classifier|vocoder|transformer|predictor)s?$|(?:net|model)s?$",
    re.IGNORECASE,
)


def names_a_module(key: str) -> bool:
    """Whether a dotted name calls something named as a module: ``model``, ``self.net``, ``text_encoder``.

    >>> names_a_module("self.text_encoder"), names_a_module("self.formatter")
    (True, False)
    """
    return any(_MODULE_NAME.search(part) for part in key.split(".") if part != "self")


def dotted_parts(node: ast.expr) -> list[str] | None:
    """``["self", "model", "eval"]`` for a chain of names and attributes (``self.model.eval``), else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def last_name(node: ast.expr) -> str | None:
    """``model`` for ``self.model`` (the last of a chain of names and attributes), else None."""
    parts = dotted_parts(node)
    return parts[-1] if parts is not None else None


def class_name(func: ast.expr) -> str | None:
    """``Net`` for ``Net(...)``, ``Linear`` for ``nn.Linear(...)``: a name that starts with a capital."""
    name = last_name(func)
    return name if name is not None and name[:1].isupper() else None


def classes_built(nodes: Iterable[ast.AST]) -> dict[str, str]:
    """Each name (its last part: ``model`` for ``self.model``) and the class it is first built from among ``nodes``
    (``model = Net(...)``, also through a chain: ``Net(...).to(device)``)."""
    built: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            cls = class_name(built_call(node.value).func)
            if cls is not None:
                for name in filter(None, map(last_name, node.targets)):
                    built.setdefault(name, cls)
    return built


#: torch functions that make a new tensor from shapes or constants alone: ``torch.zeros(...).requires_grad_()`` in a
#: ``forward`` (an LSTM's initial state, a widely copied idiom) asks for no gradient of anything the caller passes.
TENSOR_FACTORIES: Final = frozenset(
    f"torch.{name}"
    for name in ("zeros", "ones", "empty", "full", "rand", "randn", "randint", "arange", "linspace", "eye")
)

#: Frameworks whose modules have ``eval()``/``train()`` like torch's (``paddle.nn.Layer``, ``jittor.Module``...).
OTHER_FRAMEWORKS: Final = frozenset({"paddle", "jittor", "oneflow", "megengine", "mindspore"})


class ImportTable:
    """Local names bound by import statements, mapped to the fully qualified names they stand for."""

    __slots__ = ("_names",)

    def __init__(self) -> None:
        self._names: dict[str, str] = {}

    def add(self, node: ast.Import | ast.ImportFrom) -> None:
        """Record the names an import statement binds (relative imports are the module's own: left out)."""
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self._names[alias.asname] = alias.name
                else:  # `import torch.nn.functional` binds `torch`
                    top = alias.name.partition(".")[0]
                    self._names[top] = top
        elif node.module and not node.level:
            for alias in node.names:
                if alias.name != "*":
                    self._names[alias.asname or alias.name] = f"{node.module}.{alias.name}"

    def aliases(self, words: Iterable[bytes]) -> list[str]:
        """Local names naming none of ``words`` bound to qualified names that name one (``as sdpa``)."""
        texts = [word.decode() for word in words]
        return [
            local
            for local, qualified in self._names.items()
            if not any(word in local for word in texts) and any(word in qualified for word in texts)
        ]

    def is_import(self, name: str) -> bool:
        """Whether ``name`` was bound by an import (a module or an imported object, not a local variable)."""
        return name in self._names

    def another_framework(self) -> bool:
        """Whether the module imports a framework whose modules share torch's ``eval()``/``train()`` and
        ``no_grad`` names (PaddlePaddle, Jittor, OneFlow, MegEngine, MindSpore) and not torch: its modes and grad
        modes are that framework's, which torch's rules do not describe."""
        roots = {qualified.partition(".")[0] for qualified in self._names.values()}
        return "torch" not in roots and not roots.isdisjoint(OTHER_FRAMEWORKS)

    def qualname(self, node: ast.expr) -> str | None:
        """The canonical fully qualified name of a dotted expression rooted in an import, else None."""
        parts = dotted_parts(node)
        base = self._names.get(parts[0]) if parts else None
        if base is None:
            return None
        name = ".".join([base, *parts[1:]])
        return _CANONICAL.get(name, name)

    def bound_in(self, tree: ast.Module, star: Callable[[ast.ImportFrom], dict[str, str]] | None = None) -> None:
        """Record the module-level imports, also those under ``if``/``try``/``with`` (not inside functions), and
        module-level aliases of what they import (``F = nn.functional``).

        ``from module import *`` binds what a torch module exports (``from torch.autograd import *``: ``Variable``),
        or, for another module, what ``star`` says it binds (the project's own module: its imports), where no
        explicit import and no definition of the module binds the name.

        >>> imports = ImportTable()
        >>> imports.bound_in(ast.parse("from torch.autograd import *\\ndef grad(x): ..."))
        >>> imports.qualname(ast.parse("Variable", mode="eval").body), imports.is_import("grad")
        ('torch.autograd.Variable', False)

        A module name bound again at the top level to what a call returns holds that object from there on:

        >>> imports.bound_in(ast.parse("import model\\nmodel = model.RNNModel(3)"))
        >>> imports.is_import("model")
        False
        """
        stack: list[ast.stmt] = list(tree.body)
        aliases: list[ast.Assign] = []
        stars: list[ast.ImportFrom] = []
        defined: set[str] = set()
        built: set[str] = set()  # names a module-level call's result is bound to
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self.add(node)
                if isinstance(node, ast.ImportFrom) and any(alias.name == "*" for alias in node.names):
                    stars.append(node)
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Attribute)
            ):
                aliases.append(node)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                defined.update(target.id for target in targets if isinstance(target, ast.Name))
                if isinstance(node.value, ast.Call):
                    built.update(target.id for target in targets if isinstance(target, ast.Name))
            elif isinstance(node, (ast.If, ast.Try, ast.With, ast.AsyncWith)) or type(node).__name__ == "TryStar":
                for field in ("body", "orelse", "finalbody"):
                    stack.extend(getattr(node, field, ()))
                for handler in getattr(node, "handlers", ()):
                    stack.extend(handler.body)
        for node in stars:
            if node.module in _STAR_EXPORTS and not node.level:
                names = {name: f"{node.module}.{name}" for name in _STAR_EXPORTS[node.module]}
            else:
                names = star(node) if star is not None else {}
            for local, qualified in names.items():
                if local not in self._names and local not in defined:
                    self._names[local] = qualified
        for node in sorted(aliases, key=lambda node: node.lineno):  # `F = nn.functional`, once the imports are known
            qualified = self.qualname(node.value)
            if qualified is not None and qualified.startswith("torch."):
                self._names[node.targets[0].id] = qualified  # type: ignore[union-attr]
        for name in built:
            # `import model` then `model = model.RNNModel(...)`: the name holds what the call built, not the module
            self._names.pop(name, None)

    def bound(self) -> dict[str, str]:
        """Each local name an import binds, with the qualified name it stands for."""
        return dict(self._names)


def top_level_imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The imports a module runs when it is run: at its top level, and in its top-level ``try``/``if`` blocks."""
    found: list[ast.Import | ast.ImportFrom] = []
    for stmt in body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            found.append(stmt)
        elif isinstance(stmt, ast.Try):
            for block in (stmt.body, *(handler.body for handler in stmt.handlers), stmt.orelse, stmt.finalbody):
                found += top_level_imports(block)
        elif isinstance(stmt, ast.If):
            found += top_level_imports(stmt.body) + top_level_imports(stmt.orelse)
    return found
