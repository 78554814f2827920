"""TF401 variable-per-call."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.state import guarded_nodes, is_create_once_guard
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import is_tf_function_decorated, last_assignment_before
from tfadvisor.rules.base import Rule, register

_GUARD_FREE = ("__init__", "build")
# Keras 3 layers with no weights that still make a variable: the seed generator of their random
# draws (tests/conformance/variants/tf401.py, dropout-per-call).
_SEEDED_LAYERS = frozenset({"Dropout", "SpatialDropout1D", "SpatialDropout2D", "SpatialDropout3D", "GaussianNoise",
                            "GaussianDropout", "AlphaDropout", "RandomFlip", "RandomRotation", "RandomZoom",
                            "RandomCrop", "RandomTranslation", "RandomContrast", "RandomBrightness"})


def _guarded(ctx: ScopeContext, node: ast.AST) -> bool:
    """Under a create-once guard, or in ``tf.init_scope()`` (which creates outside the graph)."""
    return id(node) in guarded_nodes(ctx)


# Keras objects that make their weights when first called (built), not when made: one made and
# never called in the trace makes none (tests/conformance/variants/tf401.py).
_INPUTS = ("keras.Input", "keras.layers.Input", "keras.layers.InputLayer")


def _builds_nothing_here(ctx: ScopeContext, call: ast.Call, name: str | None, seeded: bool) -> bool:
    """``keras.Input(...)`` (a symbolic placeholder), or a layer or model made but neither called,
    returned nor given an input shape in this function (``critic = keras.Sequential([Conv2D(16, 1),
    ...])`` only counted): no variable exists until something calls it."""
    if name in _INPUTS:
        return True
    if not name or not name.startswith(("keras.layers.", "keras.Sequential", "keras.models.Sequential")):
        return False
    if seeded or any(k.arg in ("input_shape", "input_dim", "batch_input_shape") for k in call.keywords):
        return False
    if any(ctx.call_name(n) in _INPUTS for arg in call.args for n in walk(arg) if isinstance(n, ast.Call)):
        return False  # ``Sequential([keras.Input((4,)), Dense(3)])`` is built on the spot
    return not _called_here(ctx, call)


def _called_here(ctx: ScopeContext, made: ast.Call) -> bool:
    """``Dense(3)(x)``, ``layer = Dense(3)`` then ``layer(x)``, or one stored on ``self`` (another
    method may call it): the layer runs, and makes its weights, in a trace."""
    parent = ctx.parent(made)
    if isinstance(parent, ast.Call) and parent.func is made:
        return True
    while isinstance(parent, (ast.List, ast.Tuple, ast.Starred, ast.BinOp)):
        parent = ctx.parent(parent)  # ``[Dense(3), Dense(1)]`` handed to Sequential: its caller decides
    if isinstance(parent, ast.Call) and ctx.call_name(parent) and tfapi.is_keras_builder(ctx.call_name(parent)):
        return _called_here(ctx, parent)
    if isinstance(parent, (ast.Assign, ast.AnnAssign)):
        targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
        names = {t.id for t in targets if isinstance(t, ast.Name)}
        if len(names) < len(targets):
            return True  # stored elsewhere (``self.head = Dense(3)``)
        return any(isinstance(c.func, ast.Name) and c.func.id in names for c in ctx.scope.nodes(ast.Call))
    # Returned: the caller may well call it (``self._shortcut(c)(x)`` over a ``_projection`` that
    # returns ``Conv2D(c, 1)``), so it counts as used
    return parent is not None and not isinstance(parent, ast.Expr)


@register
class VariablePerCall(Rule):
    code = "TF401"
    name = "variable-per-call"
    severity = Severity.ERROR
    summary = "creates a variable (or a Keras layer, model or optimizer) on every call of graph code"
    why = """\
A tf.function may create `tf.Variable`s only on its first call. Creating one on every call fails
on the second with `ValueError: tf.function-decorated function tried to create variables on
non-first call.` (newer TensorFlow: `tf.function only supports singleton tf.Variables created on
the first call ...`). Keras layers, models and optimizers create variables too, and so does a TF1
optimizer (`tf.compat.v1.train.AdamOptimizer()`) when it first applies gradients. Create them once,
outside (in `__init__`), or behind a create-once guard such as `if self.v is None:`. A guard that
tests the object passed in (`if not hasattr(var, "velocity"):`, `if var.ref() not in self.slots:`)
creates one variable per object: the second object's trace raises, or, when one trace serves two
objects of one shape, they share the first one's variable. Make such slots before the first call.
The rule reads that guard in a tf.function whose parameter the object is, and a variable made from
that object (`tf.zeros_like(var)`); it does not read which objects callers pass: with one object
only, the slot is made on the first trace and TensorFlow runs it (a known miss of its conformance).
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def f(x):
    v = tf.Variable(1)  # TF401
    return tf.add(x, v)
""",
        """\
import tensorflow as tf

@tf.function
def predict(x):
    layer = tf.keras.layers.Dense(4)  # TF401
    return layer(x)
""",
        """\
import tensorflow as tf

w = tf.Variable(tf.ones([4, 1]))

@tf.function
def backward(x, y):
    optimizer = tf.compat.v1.train.AdamOptimizer(1e-3)  # TF401
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((tf.matmul(x, w) - y) ** 2)
    optimizer.apply_gradients(zip(tape.gradient(loss, [w]), [w]))
    return loss
""",
        """\
import tensorflow as tf

class Momentum:
    @tf.function
    def apply(self, grad, var):
        if not hasattr(var, "velocity"):
            var.velocity = tf.Variable(tf.zeros_like(var))  # TF401
        var.velocity.assign(0.9 * var.velocity + grad)
        var.assign_sub(0.01 * var.velocity)
""",
    )
    good = (
        """\
import tensorflow as tf

class C(object):
    def __init__(self):
        self.v = None

    @tf.function
    def f(self, x):
        if self.v is None:
            self.v = tf.Variable(1)
        return tf.add(x, self.v)
""",
        """\
import tensorflow as tf

dense = tf.keras.layers.Dense(4)

@tf.function
def predict(x):
    return dense(x)
""",
        """\
import tensorflow as tf

@tf.function
def count_layers():
    critic = tf.keras.Sequential([tf.keras.layers.Conv2D(16, 1), tf.keras.layers.Dense(1)])
    return tf.constant(len(critic.layers))  # unbuilt: no weights until something calls it
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        fn = ctx.function
        if fn is None or fn.name in _GUARD_FREE:
            return
        for call in ctx.scope.nodes(ast.Call):
            name = ctx.call_name(call)
            seeded = (name or "").rsplit(".", 1)[-1] in _SEEDED_LAYERS and tfapi.is_keras_builder(name)
            if not (tfapi.creates_variable(name) or tfapi.is_keras_builder(name)) or (
                    tfapi.is_stateless_layer(name) and not seeded):
                continue  # a Concatenate or Flatten made per call has no weights to create
            what = "tf.Variable" if tfapi.makes_variable(name) else name
            if _guarded(ctx, call):
                keyed = _guard_keyed_by_a_parameter(ctx, call)
                if keyed:
                    yield self.hit(call, f"creates {what} once per object passed as `{keyed}` (the guard "
                                         f"tests that object): a tf.function creates variables on its first "
                                         f"trace only, so a second object raises ValueError, or, traced once "
                                         f"for both, shares the first one's variable")
                continue
            if _builds_nothing_here(ctx, call, name, seeded):
                continue
            yield self.hit(call, f"creates {what} on every call of graph code: tf.function allows "
                                 f"variables only on the first call")


def _guard_keyed_by_a_parameter(ctx: ScopeContext, call: ast.Call) -> str | None:
    """The parameter (not ``self``) a create-once guard around ``call`` tests: ``if not
    hasattr(var, "velocity"):`` or ``if var.ref() not in self.slots:`` makes one variable per object
    passed, the textbook custom optimizer's slots. TensorFlow 2.21 raises on the second object's
    trace, or shares the first's variable when one trace serves both (conformance variants
    slot-variable-guarded-by-hasattr-on-the-argument, slot-variable-keyed-by-the-argument)."""
    fn = ctx.function
    if fn is None or not is_tf_function_decorated(ctx, fn):
        return None  # a helper a trace calls once per object makes them all in that trace
    params = {n for n in ctx.params if n not in ("self", "cls")}
    # a slot made from the object (``tf.zeros_like(var)``): one per object by design; a counter
    # hung on the one model passed (``model.steps = tf.Variable(0)``) is made on the first trace
    made_from = set().union(*(_names_in(ctx, a, call.lineno) for a in [
        *call.args, *(k.value for k in call.keywords if k.arg in ("initial_value", "shape"))]))
    for node in ctx.enclosing(call):
        if not (isinstance(node, ast.If) and is_create_once_guard(node.test) and ctx.in_branch(call, node) == "body"):
            continue
        for test in _guard_tests(node.test):
            subject = _guarded_subject(test)
            names = _names_in(ctx, subject, node.lineno) if subject is not None else set()
            keyed = sorted(names & params & made_from)
            if keyed and not names & {"self", "cls"}:
                return keyed[0]
    return None


def _names_in(ctx: ScopeContext, node: ast.AST, line: int) -> set[str]:
    """The names ``node`` reads, a local bound just before read through (``key = var.ref()``)."""
    names = {n.id for n in walk(node) if isinstance(n, ast.Name)}
    for name in list(names):
        if name in ctx.local_names and name not in ctx.params:
            value = last_assignment_before(ctx, name, line)
            if value is not None:
                names |= {n.id for n in walk(value) if isinstance(n, ast.Name)}
    return names


def _guard_tests(test: ast.AST) -> list[ast.AST]:
    """The tests a guard combines (``not a and b``: ``a``, ``b``), without their ``not``."""
    if isinstance(test, ast.BoolOp):
        return [t for v in test.values for t in _guard_tests(v)]
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return _guard_tests(test.operand)
    return [test]


def _guarded_subject(test: ast.AST) -> ast.AST | None:
    """What a guard asks about: the object of ``hasattr(obj, ...)``/``getattr(obj, ...)``, the
    object whose attribute ``obj.v is None`` reads, the key of ``key not in table``."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id in ("hasattr", "getattr") \
            and test.args:
        return test.args[0]
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        if isinstance(test.ops[0], (ast.NotIn, ast.In)):
            return test.left
        if isinstance(test.ops[0], (ast.Is, ast.IsNot)):
            left = test.left
            if isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "getattr" and left.args:
                return left.args[0]
            if isinstance(left, ast.Attribute):
                return left.value
    return None
