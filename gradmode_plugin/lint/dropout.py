"""The dropout rules (GM101 to GM104): a dropout function or attention's ``dropout_p`` that drops activations in
evaluation, whatever ``model.eval()`` set.

A dropout under a test of ``self.training`` is where it belongs, and one under a test that proves its probability 0
drops nothing; one whose ``p`` or ``dropout_p`` is 0 in
evaluation, or whose ``training`` comes from a name, is decided once the whole module is walked.
"""

from __future__ import annotations

import ast

from gradmode_plugin.lint import names
from gradmode_plugin.lint.calls import constructions, passed_for, passed_to
from gradmode_plugin.lint.freezing import bindings
from gradmode_plugin.lint.nodes import parameters, subnodes
from gradmode_plugin.lint.rules import RULES_BY_CODE
from gradmode_plugin.lint.walk import (
    FUNCTIONS,
    ClassScope,
    Ctx,
    Scope,
    Walk,
    argument,
    dotted,
    is_true,
    mentions_training,
    written,
)


class DropoutRules(Walk):
    """Dropout that trains in evaluation: ``F.dropout`` without ``training=`` or with ``training=True``,
    ``torch.dropout(x, p, True)``, and ``scaled_dot_product_attention`` with a ``dropout_p`` that ignores the
    module's mode."""

    def _dropout_call(self, call: ast.Call, qualname: str, ctx: Ctx) -> None:
        if ctx.training:
            return  # `if self.training:` around it: dropout only where it belongs
        probability = argument(call, "dropout_p", 4) if qualname == names.SDPA else argument(call, "p", 1)
        key = dotted(probability) if ctx.tests and probability is not None else None
        if key is not None and any(key in _zero_in_test(test, ctx.scope.cls, 0, failed) for test, failed in ctx.tests):
            return  # a test around it proves the probability 0 (`if self.flash:`, set where `dropout == 0.0`)
        if any(not failed and _per_call_switch(test, ctx.scope, probability) for test, failed in ctx.tests):
            return  # `if dropout_switch:` handed in with the inputs: the caller turns it on to train
        if qualname in names.DROPOUT_FUNCTIONAL:
            self._functional_dropout(call, qualname, ctx)
        elif qualname in names.DROPOUT_TORCH:
            if is_true(argument(call, "train", 2)):
                ctx.scope.maybe_zero_dropouts.append((call, written(call.func), "GM103"))
        else:
            value = argument(call, "dropout_p", 4)
            if value is not None:
                ctx.scope.sdpa_calls.append((call, value, ctx.training))

    def _functional_dropout(self, call: ast.Call, qualname: str, ctx: Ctx) -> None:
        training = argument(call, "training", 2)
        short = written(call.func)
        if training is None:
            if qualname in names.DROPOUT_TRAINING_DEFAULT_TRUE and not _splat(call):
                ctx.scope.maybe_zero_dropouts.append((call, short, "GM101"))
        elif (
            isinstance(training, ast.Attribute)
            and ctx.cls is None
            and ctx.scope.cls is not None
            and dotted(training) in ctx.scope.cls.init_training
        ):
            ctx.scope.init_training_dropouts.append((call, short, training))
        elif is_true(training):
            ctx.scope.maybe_zero_dropouts.append((call, short, "GM102"))
        elif isinstance(training, ast.Name):
            ctx.scope.pending_dropouts.append((call, short, training))

    def _dropout_true(self, call: ast.Call, short: str) -> None:
        self.report(
            call,
            "GM102",
            RULES_BY_CODE["GM102"].message(call=short),
        )

    # -- decisions at a scope's end ------------------------------------------------------------------------------

    def _decide_dropouts(self, scope: Scope) -> None:
        for call, value, _ in scope.sdpa_calls:
            init = self._init_training_attribute(value, scope)
            if init is not None:
                self.report(
                    call,
                    "GM104",
                    RULES_BY_CODE["GM104"].message("init", value=written(value), line=init.lineno),
                )
            elif self._drops_in_evaluation(value, scope, 0):
                self.report(
                    call,
                    "GM104",
                    RULES_BY_CODE["GM104"].message(value=written(value)),
                )
        for call, short, name in scope.pending_dropouts:
            if self._constant_true(name.id, scope):
                self._dropout_true(call, short)
        for call, short, code in scope.maybe_zero_dropouts:
            if not self._zero_in_evaluation(argument(call, "p", 1), scope):
                self.report(call, code, RULES_BY_CODE[code].message(call=short))
        for call, short, training in scope.init_training_dropouts:
            init = scope.cls.init_training[dotted(training) or ""] if scope.cls else None
            self.report(
                call,
                "GM102",
                RULES_BY_CODE["GM102"].message(
                    "init", call=short, flag=written(training), line=getattr(init, "lineno", "?")
                ),
            )

    def _init_training_attribute(self, value: ast.expr, scope: Scope) -> ast.AST | None:
        """The ``__init__`` assignment of ``self.x`` from ``self.training`` that a ``dropout_p=self.x`` reads."""
        if scope.cls is None or not isinstance(value, ast.Attribute):
            return None
        return scope.cls.init_training.get(dotted(value) or "")

    def _zero_in_evaluation(self, p: ast.expr | None, scope: Scope) -> bool:
        """Whether a dropout probability is 0 whenever it matters: a name set to 0 under a test of training
        (``if not training: dropout_p = 0.0``, as torch's own functional attention does), or a parameter whose
        default is 0 that no call in the module passes anything else for (noise dropout a sampler's caller opts
        into), or a rate chosen by the mode itself (``self.p if self.training else 0.0``), or ``self.p`` 0 as every
        construction builds it (``_zero_as_built``); a literal 0 drops nothing at all."""
        if _is_zero(p) or _zero_unless_training(p):
            return True
        if isinstance(p, ast.Attribute):
            return self._zero_as_built(p, scope, handed_on=False)
        if not isinstance(p, ast.Name):
            return False
        if any(under_training and _is_zero(value) for value, under_training, _ in scope.assigned.get(p.id, ())):
            return True
        while scope.parent is not None and p.id not in scope.params and p.id not in scope.assigned:
            scope = scope.parent  # a closure's probability is its enclosing function's
        node = scope.node
        if not isinstance(node, FUNCTIONS) or p.id not in scope.params or p.id in scope.assigned:
            return False
        if not _zero_default(node, p.id):
            return False
        definition = self._definition(scope)
        if definition is None:
            return False
        for caller, _, call in self.index().callers(definition):
            if call is None:
                continue
            passed = passed_for(call, definition, p.id)
            if passed is None or _is_zero(passed) or _zero_unless_training(passed):
                continue
            if _bound_zero_unless_training(passed, caller.node if caller is not None else None):
                continue  # `dropout = self.dropout if self.training else 0`, then `f(..., dropout=dropout)`
            if _zero_parameter(passed, caller.node if caller is not None else None):
                continue  # handed on from the caller's own parameter, 0 by default
            if _zeroed_unless_training(passed, caller.node if caller is not None else None, call):
                continue  # `if not training: dropout_p = 0.0`, then `f(..., dropout_p)` (torch's functional MHA)
            return False
        return True

    def _drops_in_evaluation(self, value: ast.expr, scope: Scope, depth: int) -> bool:
        """Whether a ``dropout_p`` value is non-zero whatever the module's mode. Unknown values (calls, names
        from elsewhere) are taken as conditioned: no finding without evidence."""
        if isinstance(value, ast.Constant):
            return isinstance(value.value, (int, float)) and not isinstance(value.value, bool) and value.value != 0
        if mentions_training(value):
            return False
        if isinstance(value, (ast.Attribute, ast.Subscript)):
            return not self._zero_as_built(value, scope)
        if isinstance(value, ast.Name):
            if value.id in scope.params or depth >= 4:
                return False
            assignments = scope.assigned.get(value.id)
            if assignments is None:
                if scope is self.module:
                    return False
                return self._drops_in_evaluation(value, self.module, depth + 1)
            if any(under_training for _, under_training, _ in assignments):
                return False
            return any(self._drops_in_evaluation(assigned, scope, depth + 1) for assigned, _, _ in assignments)
        if isinstance(value, ast.BinOp):
            return self._drops_in_evaluation(value.left, scope, depth) or self._drops_in_evaluation(
                value.right, scope, depth
            )
        if isinstance(value, ast.IfExp):
            return self._drops_in_evaluation(value.body, scope, depth) or self._drops_in_evaluation(
                value.orelse, scope, depth
            )
        return False

    def _zero_as_built(self, value: ast.expr, scope: Scope, handed_on: bool = True) -> bool:
        """Whether ``self.x`` holds a literal 0 that only ``__init__`` assigns, or an ``__init__`` parameter that
        defaults to 0 (or has no default) and that every construction of the class leaves at 0: built at least once
        (in its own file, or where the run's files are known, in any of them), and wherever it is built, each call
        passes nothing for it, a literal 0, or a parameter of its own function that defaults to 0 (``Block(dim,
        attn_p=attn_p)`` in an ``__init__(self, dim, attn_p=0)``); never by ``*args``/``**kwargs``, never referred
        to otherwise, and not subclassed in its file. A rate the user never sets drops nothing. Without
        ``handed_on`` (a functional dropout's ``p``) a parameter handed on is not taken as 0: the class that hands
        it on may itself be built with a rate, from a config (``_target_``) that no call shows."""
        cls = scope.cls
        key = dotted(value)
        if cls is None or key is None or not key.startswith("self."):
            return False
        init = cls.methods.get("__init__")
        held = cls.init_value(key)
        if _is_zero(held):
            return True  # `self.dropout = 0.0` in `__init__`, assigned nowhere else in the class
        if (
            init is None
            or not isinstance(held, ast.Name)
            or held.id not in parameters(init)
            or not (_zero_default(init, held.id) or _required(init, held.id))
            or any(
                isinstance(n, ast.Name) and n.id == held.id and not isinstance(n.ctx, ast.Load) for n in ast.walk(init)
            )
        ):
            return False
        tree = self.full_tree()
        if any(
            isinstance(node, ast.ClassDef) and any(dotted(base) == cls.name for base in node.bases)
            for node in tree.body
        ):
            return False
        sites = constructions(tree, cls.name, own_file=True)
        if sites is None or (not sites and self.project is None):
            return False
        if self.project is not None:
            elsewhere = self.project.constructions_elsewhere(cls.name, self.path)
            if elsewhere is None:
                return False
            sites += elsewhere
        return bool(sites) and all(_leaves_zero(call, function, init, held.id, handed_on) for call, function in sites)

    def _constant_true(self, name: str, scope: Scope) -> bool:
        for where in (scope, self.module):
            if name in where.params:
                return False
            assignments = where.assigned.get(name)
            if assignments:
                return all(is_true(value) for value, _, _ in assignments)
        return False


def _zero_in_test(test: ast.expr, cls: ClassScope | None, depth: int, negated: bool = False) -> frozenset[str]:
    """The values (as written) that a test proves 0 where it holds, or where it fails when ``negated``:
    ``p == 0``, ``not p`` and each operand of an ``and``; ``p > 0``, ``p != 0`` and ``p`` failing, each operand of an
    ``or`` failing; a ``self.x`` flag set once, in ``__init__``, from such a test (``self.flash = ... and
    self.dropout == 0.0``)."""
    if depth > 3:
        return frozenset()
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _zero_in_test(test.operand, cls, depth, not negated)
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or if negated else ast.And):
        return frozenset().union(*(_zero_in_test(value, cls, depth, negated) for value in test.values))
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        left, op, right = test.left, test.ops[0], test.comparators[0]
        if _is_zero(left):
            left, right = right, left
            op = {ast.Gt: ast.Lt(), ast.Lt: ast.Gt()}.get(type(op), op)
        key = dotted(left)
        if key is None or not _is_zero(right):
            return frozenset()
        proves = (ast.NotEq, ast.Gt) if negated else (ast.Eq, ast.LtE)
        return frozenset({key}) if isinstance(op, proves) else frozenset()
    key = dotted(test)
    if key is None:
        return frozenset()
    found = {key} if negated else set()
    if cls is not None and key.startswith("self."):
        value = cls.init_value(key)
        if value is not None:
            found |= _zero_in_test(value, cls, depth + 1, negated)
    return frozenset(found)


def _per_call_switch(test: ast.expr, scope: Scope, probability: ast.expr | None) -> bool:
    """Whether a test reads a flag the caller hands in with each call, as a bare name (alone or in an ``and``; not
    the probability, ``if p:``): a parameter of the function, or a name unpacked from one (``x, dropout_switch =
    inputs``; deepchem's models turn it on for training and Monte-Carlo dropout only), which says in what mode the
    call runs as ``training`` does."""
    node = scope.node
    flags = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    switches = {flag.id for flag in flags if isinstance(flag, ast.Name)} - {
        dotted(probability) if probability else None
    }
    if not switches or not isinstance(node, FUNCTIONS):
        return False
    if switches & scope.params:
        return True
    for sub in subnodes(node):
        if not isinstance(sub, ast.Assign) or len(sub.targets) != 1:
            continue
        target, value = sub.targets[0], sub.value
        source = value.value if isinstance(value, ast.Subscript) else value
        if not (isinstance(source, ast.Name) and source.id in scope.params):
            continue
        bound = target.elts if isinstance(target, ast.Tuple) else [target]
        if any(isinstance(name, ast.Name) and name.id in switches for name in bound):
            return True
    return False


def _leaves_zero(
    call: ast.Call,
    function: ast.FunctionDef | ast.AsyncFunctionDef | None,
    init: ast.FunctionDef | ast.AsyncFunctionDef,
    name: str,
    handed_on: bool = True,
) -> bool:
    """Whether a construction of a class passes 0 for a parameter of its ``__init__`` that defaults to 0 or has no
    default: nothing (where it defaults to 0), a literal 0, or a parameter of the function it is made in that
    defaults to 0."""
    if _splat(call):
        return False
    passed = passed_to(call, init, name, bound=1)  # a construction passes no `self`
    if passed is None:
        return _zero_default(init, name)
    return _is_zero(passed) or (handed_on and _zero_parameter(passed, function))


def _zero_parameter(passed: ast.expr, function: ast.FunctionDef | ast.AsyncFunctionDef | None) -> bool:
    """Whether a value passed on is a parameter of the function it is passed in that defaults to 0."""
    return (
        isinstance(passed, ast.Name)
        and function is not None
        and passed.id in parameters(function)
        and _zero_default(function, passed.id)
    )


def _bound_zero_unless_training(passed: ast.expr, function: ast.FunctionDef | ast.AsyncFunctionDef | None) -> bool:
    """Whether a value passed on is a name the calling function binds only by plain assignments of a rate chosen
    by the mode (``dropout = self.dropout if self.training else 0``)."""
    if not isinstance(passed, ast.Name) or function is None or passed.id in parameters(function):
        return False
    plain = [
        node.value
        for node in ast.walk(function)
        if isinstance(node, ast.Assign) and [dotted(target) for target in node.targets] == [passed.id]
    ]
    return len(plain) == len(bindings(function).get(passed.id, ())) > 0 and all(map(_zero_unless_training, plain))


def _zeroed_unless_training(
    passed: ast.expr, function: ast.FunctionDef | ast.AsyncFunctionDef | None, call: ast.Call
) -> bool:
    """Whether a name passed on is set to 0 by ``if not training: name = 0.0`` in the calling function's own body
    before the call, and bound nowhere else in it (a parameter rebound so, as torch's functional attention does)."""
    if not isinstance(passed, ast.Name) or function is None:
        return False
    zeroed = [
        assign.targets[0].lineno
        for statement in function.body
        if isinstance(statement, ast.If)
        and not statement.orelse
        and isinstance(statement.test, ast.UnaryOp)
        and isinstance(statement.test.op, ast.Not)
        and _training_flag(statement.test.operand)
        and (statement.end_lineno or statement.lineno) < call.lineno
        for assign in statement.body
        if isinstance(assign, ast.Assign)
        and [dotted(t) for t in assign.targets] == [passed.id]
        and _is_zero(assign.value)
    ]
    return bool(zeroed) and sorted(bindings(function).get(passed.id, ())) == sorted(zeroed)


def _splat(call: ast.Call) -> bool:
    """Whether arguments are passed by ``*args``/``**kwargs`` (what they hold is unknown)."""
    return any(isinstance(arg, ast.Starred) for arg in call.args) or any(kw.arg is None for kw in call.keywords)


def _zero_unless_training(value: ast.expr | None) -> bool:
    """``rate if self.training else 0.0`` (or ``0.0 if not training else rate``, or ``rate if self.training and
    flag else 0``): a value that is 0 whenever the module evaluates."""
    if not isinstance(value, ast.IfExp):
        return False
    test, negated = value.test, False
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, negated = test.operand, True
    flags = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) and not negated else [test]
    if not any(_training_flag(flag) for flag in flags):
        return False
    return _is_zero(value.body if negated else value.orelse)


def _training_flag(node: ast.expr) -> bool:
    """``self.training``, ``model.training`` or a ``training`` argument: the module's mode itself."""
    return (isinstance(node, ast.Attribute) and node.attr == "training") or (
        isinstance(node, ast.Name) and node.id == "training"
    )


def _is_zero(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and not isinstance(node.value, bool) and node.value == 0


def _required(node: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether a parameter has no default (every call passes it)."""
    args = node.args
    named = {arg.arg for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
    return name in named and name not in _defaults(node)


def _zero_default(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, name: str) -> bool:
    """Whether a parameter defaults to 0 (or None)."""
    value = _defaults(node).get(name)
    return value is not None and (_is_zero(value) or (isinstance(value, ast.Constant) and value.value is None))


def _defaults(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> dict[str, ast.expr]:
    """Each parameter that has a default, positional or keyword-only, with its default."""
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    defaults = dict(zip([arg.arg for arg in positional[len(positional) - len(args.defaults) :]], args.defaults))
    defaults.update(
        {arg.arg: default for arg, default in zip(args.kwonlyargs, args.kw_defaults) if default is not None}
    )
    return defaults
