"""TF102 function-created-repeatedly."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import graph_context, tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import called_repeatedly, is_tf_function_decorated, loop_names, module_scope, shape_follows
from tfadvisor.rules.base import Rule, register

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_ONCE = ("__init__", "build", "setUp", "setUpClass")


@register
class FunctionCreatedRepeatedly(Rule):
    code = "TF102"
    name = "function-created-repeatedly"
    severity = Severity.WARNING
    summary = "a new tf.function object is created again and again: each one starts with an empty cache and traces"
    why = """\
A `tf.function` keeps its traced graphs in the function object. Creating the object inside a loop,
applying `tf.function` to a lambda or a fresh closure each time a function runs, or writing
`tf.function(f)(x)` throws that cache away: every call traces again, which is far slower than
eager, and TensorFlow warns `5 out of the last 5 calls to <function ...> triggered tf.function
retracing. Tracing is expensive ...` ("... creating @tf.function repeatedly in a loop"). Create the
tf.function once, at module level or in `__init__`, and call it many times.
"""
    bad = (
        """\
import tensorflow as tf

def loss(x):
    return tf.reduce_sum(x * x)

for batch in [tf.ones([2]), tf.zeros([2])]:
    step = tf.function(loss)  # TF102
    step(batch)
""",
        """\
import tensorflow as tf

def predict(model, x):
    fast = tf.function(lambda v: model(v))  # TF102
    return fast(x)

def evaluate(model, batches):
    return [predict(model, x) for x in batches]
""",
        """\
import tensorflow as tf

def evaluate(batches):
    out = []
    for b in batches:
        @tf.function  # TF102
        def score(v):
            return tf.reduce_mean(v)
        out.append(score(b))
    return out
""",
        """\
import tensorflow as tf

def train(batches):
    @tf.function  # TF102
    def train_step(x):
        return tf.reduce_mean(x * 2.0)

    return [train_step(b) for b in batches]

for epoch in range(10):
    train([tf.ones([4]), tf.zeros([4])])
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def loss(x):
    return tf.reduce_sum(x * x)

for batch in [tf.ones([2]), tf.zeros([2])]:
    loss(batch)
""",
        """\
import tensorflow as tf

class Trainer:
    def __init__(self, model):
        self.model = model
        self.step = tf.function(self._step)

    def _step(self, x):
        return self.model(x)
""",
    )
    fix = "none"
    scope = "always"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        fn = ctx.function
        in_function = fn is not None and fn.name not in _ONCE
        for call in ctx.scope.nodes(ast.Call):
            if not tfapi.is_tf_function(ctx.call_name(call)):
                continue
            in_loop = any(isinstance(n, _LOOPS) for n in ctx.enclosing(call))
            target = call.args[0] if call.args else None
            if _needed_anyway(ctx, call) or _captures_loop_value(ctx, call, target):
                continue
            if in_loop and _used_in_loop(ctx, call):
                yield self.hit(call, "tf.function(...) inside a loop creates a new tf.function (and a new "
                                     "trace) on every iteration: create it once, before the loop")
            elif in_function and not in_loop and isinstance(target, ast.Lambda) and called_repeatedly(ctx, call):
                yield self.hit(call, "tf.function(lambda ...) inside a function creates a new tf.function "
                                     "on every call, and each one traces: define it once, outside")
            elif (in_function and not in_loop and target is not None and _called_at_once(ctx, call)
                  and called_repeatedly(ctx, call)):
                yield self.hit(call, "tf.function(f)(...) creates a new tf.function and traces it on every "
                                     "call: wrap f once, outside, and call the result")
        # Decorated nested functions defined inside a loop and called there: a new tf.function per
        # iteration. One made per host or per task in a setup loop, kept and called later, is not.
        for node in ctx.scope.nodes(ast.FunctionDef, ast.AsyncFunctionDef):
            loops = [n for n in ctx.enclosing(node) if isinstance(n, _LOOPS)]
            if (is_tf_function_decorated(ctx, node) and loops and _name_called_in(ctx, node.name, loops[-1])  # type: ignore[attr-defined]
                    and not _captures_loop_value(ctx, node, node)
                    and not _gets_new_object(ctx, node, loops[-1])):  # type: ignore[arg-type]
                dec = node.decorator_list[0]  # type: ignore[attr-defined]
                hit = self.hit(dec, f"@tf.function on {node.name} inside a loop creates a new tf.function "  # type: ignore[attr-defined]
                                    f"(and a new trace) on every iteration: define it once, before the loop")
                hit.callee = node.name  # type: ignore[attr-defined]  # about that tf.function (a hazard of it)
                yield hit
            elif (is_tf_function_decorated(ctx, node) and not loops and in_function and fn is not None
                  and not _traced_once(ctx, fn)
                  and called_repeatedly(ctx, node) and _name_called_in(ctx, node.name, ctx.scope.node)  # type: ignore[attr-defined]
                  and not _gets_new_object(ctx, node, ctx.scope.node)  # type: ignore[arg-type]
                  and not _outer_gets_new_object(ctx, fn, node)):  # type: ignore[arg-type]
                # ``def train(...): @tf.function def step(...)`` with train() called once per epoch:
                # every epoch makes a new tf.function, and each traces again
                dec = node.decorator_list[0]  # type: ignore[attr-defined]
                yield self.hit(dec, f"{made_per_call(node.name)} {fn.name}(), which runs many times: "  # type: ignore[attr-defined]
                                    f"each call makes a new tf.function that traces again; define it once, "
                                    f"outside, and pass what it uses")

    def check_module(self, ctx: ScopeContext) -> Iterator[Hit]:
        yield from self.check(ctx)


def made_per_call(name: str) -> str:
    """How this rule's hit on a tf.function made anew by each call of its enclosing function
    begins: the advice reads it to say reconfigure for that function (advice/static.py), so the
    decision stays here."""
    return f"@tf.function on {name} inside"


def _traced_once(ctx: ScopeContext, fn: ast.AST) -> bool:
    return graph_context.traced_once(ctx.resolve(d.func if isinstance(d, ast.Call) else d) or ""
                                     for d in getattr(fn, "decorator_list", ()))


def _name_called_in(ctx: ScopeContext, name: str, loop: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
               for stmt in loop.body for n in ctx.walk(stmt))  # type: ignore[attr-defined]


def _used_in_loop(ctx: ScopeContext, call: ast.Call) -> bool:
    """The created function is called in the loop that creates it (at once, or through the name it
    is bound to); one appended to a list or stored for later is made once per item, on purpose."""
    if _called_at_once(ctx, call):
        return True
    loop = [n for n in ctx.enclosing(call) if isinstance(n, _LOOPS)][-1]
    for stmt in loop.body:
        for node in ctx.walk(stmt):
            if isinstance(node, ast.Assign) and node.value is call:
                names = {t.id for t in node.targets if isinstance(t, ast.Name)}
                return any(_name_called_in(ctx, name, loop) for name in names)
    return False


def _captures_loop_value(ctx: ScopeContext, where: ast.AST, target: ast.AST | None) -> bool:
    """The function made in the loop closes over (or wraps) something the loop changes: another
    layer or model each iteration. A tf.function made once could not serve them (it would keep the
    first one it traced with), so one per iteration, and its trace, is needed
    (tests/conformance/variants/tf102.py)."""
    names = loop_names(ctx, where)
    if not names or target is None:
        return False
    if isinstance(target, (ast.Name, ast.Attribute)):  # ``tf.function(layer)``, ``tf.function(model.call)``
        root: ast.expr = target
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and root.id in names
    body = target.body if isinstance(target, ast.Lambda) else target
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in names for n in walk(body))


def _gets_new_object(ctx: ScopeContext, fn: ast.FunctionDef | ast.AsyncFunctionDef, loop: ast.AST) -> bool:
    """Called with a model the same iteration builds (``model = build_model()`` then
    ``step(model, x, y)``, one pruning round per iteration; the function calls that parameter): a
    tf.function made once, before the loop, would trace again for each new model too, so one per
    iteration costs nothing more (tests/conformance/variants/tf102.py)."""
    params = [a.arg for a in fn.args.args]
    called = {i for i, p in enumerate(params) if any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == p for n in walk(fn))}
    if not called:
        return False
    built = _built_in(ctx, loop)
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == fn.name
               and any(i < len(n.args) and getattr(n.args[i], "id", None) in built for i in called)
               for stmt in loop.body for n in ctx.walk(stmt))  # type: ignore[attr-defined]


def _outer_gets_new_object(ctx: ScopeContext, outer: ast.FunctionDef | ast.AsyncFunctionDef,
                           nested: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The nested tf.function uses a parameter of the function that makes it as an object
    (``model(img)``, ``train_param.optimizer``), and the loop that calls that function passes an
    object the same iteration builds (``model = HyperModel(...)`` then ``train_model(model, ...)``,
    one model per hyperparameter setting): a tf.function made once would trace again for each new
    model, and its optimizer could not make variables on that later trace, so one per call costs
    nothing more (heldout26: a hypernetwork notebook, judged twice; tests/check/test_heldout26_shapes.py)."""
    params = [a.arg for a in outer.args.args]
    used = {p for p in params if any(
        (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == p)
        or (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == p)
        for n in walk(nested))}
    if not used:
        return False
    root = module_scope(ctx.scope)
    stack = [root]
    while stack:
        scope = stack.pop()
        stack.extend(scope.children)
        for loop in scope.nodes(*_LOOPS):
            built = _built_in(ctx, loop)
            for stmt in loop.body:  # type: ignore[attr-defined]
                for n in ctx.walk(stmt):
                    if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == outer.name):
                        continue
                    passed = {params[i]: a for i, a in enumerate(n.args) if i < len(params)}
                    passed.update({k.arg: k.value for k in n.keywords if k.arg})
                    if any(isinstance(arg := passed.get(p), ast.Name) and arg.id in built for p in used):
                        return True
    return False


def _built_in(ctx: ScopeContext, loop: ast.AST) -> set[str]:
    """Names the loop's body binds to a new object on every pass (``model = build_model()``; not
    to a tensor op's result)."""
    return {t.id for stmt in loop.body for node in ctx.walk(stmt)  # type: ignore[attr-defined]
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
            and not tfapi.is_tensor_op(ctx.call_name(node.value))
            for t in node.targets if isinstance(t, ast.Name)}


def _needed_anyway(ctx: ScopeContext, call: ast.Call) -> bool:
    """``tf.function(f)(tf.ones([n]))`` with n new on every iteration: each call has a new shape
    and would trace even with one tf.function (tests/conformance/variants/tf102.py)."""
    names = loop_names(ctx, call)
    if not names:
        return False
    users = [c for c in ctx.scope.nodes(ast.Call) if c.func is call]
    return any(shape_follows(ctx, c, names) for c in users)


def _called_at_once(ctx: ScopeContext, call: ast.AST) -> bool:
    """``tf.function(f)(x)``: the created function is called right away and thrown away."""
    parents = _call_parents(ctx)
    return id(call) in parents


def _call_parents(ctx: ScopeContext) -> set[int]:
    return ctx.scope.cached("tf102_called", lambda: {id(c.func) for c in ctx.scope.nodes(ast.Call)})
