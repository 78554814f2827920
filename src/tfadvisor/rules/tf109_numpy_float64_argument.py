"""TF109 numpy-float64-argument."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.module import is_model_call
from tfadvisor.analysis.scopes import Scope, walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import module_scope
from tfadvisor.rules.base import Rule, register

_ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.MatMult, ast.Pow, ast.FloorDiv, ast.Mod)
_TWO_TENSOR_OPS = frozenset({"tensorflow.matmul", "tensorflow.linalg.matmul", "tensorflow.tensordot",
                             "tensorflow.add", "tensorflow.subtract", "tensorflow.multiply",
                             "tensorflow.math.add", "tensorflow.math.subtract", "tensorflow.math.multiply",
                             "tensorflow.divide", "tensorflow.math.divide", "tensorflow.math.squared_difference"})


_CONVERSIONS = frozenset({"tensorflow.convert_to_tensor", "tensorflow.constant"})


def _asks_float32(call: ast.Call) -> bool:
    dtype = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "dtype"), None)
    return dtype is not None and "float32" in ast.unparse(dtype)


@register
class NumpyFloat64Argument(Rule):
    code = "TF109"
    name = "numpy-float64-argument"
    severity = Severity.WARNING
    summary = "NumPy arrays passed in meet float32 tensors: eager code converts them, a tf.function raises"
    why = """\
Called eagerly, `w * x` with `w` a float32 tensor (a variable, a model's output) and `x` a NumPy
array converts the array to float32 on the spot. A tf.function instead turns each NumPy argument
into a tensor of the array's own dtype, and NumPy arrays are float64 unless made otherwise
(`np.array([1.5])`, `np.random.rand`, `np.linspace`, pandas values): the same line then raises
`TypeError: Input 'y' of 'Mul' Op has type float64 that does not match type float32 of argument 'x'`
(`MatMul`, `Sub`, ... alike). Keras layers cast their inputs and are not affected. Give the
function float32 (`x.astype(np.float32)`, `tf.convert_to_tensor(x, tf.float32)`) or `tf.cast` it
inside, then decorate. Flagged only where a call site of the project passes a NumPy array.
"""
    bad = (
        """\
import numpy as np
import tensorflow as tf

w = tf.Variable(tf.ones([3]))

@tf.function
def predict(x):
    return tf.reduce_sum(w * x)  # TF109

predict(np.array([1.0, 2.0, 3.0]))
""",
        """\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.SGD(0.01)

@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        pred = model(x)
        loss = tf.reduce_mean(tf.square(pred - y))  # TF109
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss

xs, ys = np.random.rand(64, 3), np.random.rand(64, 1)
for epoch in range(10):
    train_step(xs, ys)
""",
    )
    good = (
        """\
import numpy as np
import tensorflow as tf

w = tf.Variable(tf.ones([3]))

@tf.function
def predict(x):
    return tf.reduce_sum(w * tf.cast(x, tf.float32))

predict(np.array([1.0, 2.0, 3.0]))
""",
        """\
import numpy as np
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

@tf.function
def predict(x):
    return model(x)

predict(np.random.rand(8, 3))
""",
    )
    scope = "graph"
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        params = set(ctx.params)
        if not params:
            return
        # Cheap first: the places a parameter meets something else; only then what is float32.
        binops = [n for n in ctx.scope.nodes(ast.BinOp) if isinstance(n.op, _ARITHMETIC) and (
            _param_operand(n.left, params) or _param_operand(n.right, params))]
        calls = [c for c in ctx.scope.nodes(ast.Call) if c.args and (
            (ctx.call_name(c) in _TWO_TENSOR_OPS and len(c.args) > 1 and _param_operand(c.args[1], params))
            or (ctx.call_name(c) in _CONVERSIONS and _param_operand(c.args[0], params)))]
        if not binops and not calls:
            return
        candidates = params - {n.id for n in ctx.scope.nodes(ast.Name) if isinstance(n.ctx, ast.Store)}
        if not candidates:
            return
        for node in binops:
            hit = _mixed(ctx, node.left, node.right, candidates) or _mixed(ctx, node.right, node.left, candidates)
            if hit:
                yield self._hit(node, hit)
        for call in calls:
            name = ctx.call_name(call)
            if name in _CONVERSIONS:
                if _asks_float32(call):
                    # ``tf.convert_to_tensor(y, tf.float32)``: fine on an array, ValueError on a float64 tensor
                    yield self._hit(call, _param_operand(call.args[0], params))  # type: ignore[arg-type]
                continue
            # Eagerly the first argument sets the dtype: a float32 tensor first converts the array
            # after it; an array first fails eagerly too (not a tf.function matter).
            hit = _mixed(ctx, call.args[1], call.args[0], candidates)
            if hit:
                yield self._hit(call, hit)

    def _hit(self, node: ast.AST, param: str) -> Hit:
        return self.hit(node, f"`{param}` gets NumPy arrays from its callers and meets a float32 tensor here: "
                              f"eagerly the array is converted to float32, under tf.function it is a float64 "
                              f"tensor (NumPy's default) and the op raises TypeError; pass float32 or tf.cast it",
                        depends_on=(f"#{param}",))


def _targets(node: ast.Assign) -> list[ast.AST]:
    """What an assignment binds, tuples unpacked one level (``pred, state = model(x)``)."""
    out: list[ast.AST] = []
    for t in node.targets:
        out += list(t.elts) if isinstance(t, (ast.Tuple, ast.List)) else [t]
    return out


def _param_operand(node: ast.AST, candidates: set[str]) -> str | None:
    """``x`` or ``x[...]`` with ``x`` a parameter never rebound in the function."""
    while isinstance(node, ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) and node.id in candidates else None


def _mixed(ctx: ScopeContext, param_side: ast.AST, other: ast.AST, candidates: set[str]) -> str | None:
    param = _param_operand(param_side, candidates)
    if param is None or not _is_float32(ctx, other):
        return None
    return param


def _is_float32(ctx: ScopeContext, node: ast.AST, float32: set[str] | None = None) -> bool:
    """Holds a model's or layer's output, a name made from one, or a float32 variable (module level
    or ``self``): TensorFlow keeps that dtype through the ops around it. ``float32``: the local names
    known to hold one so far (by default all of them, found only when a local name is asked about)."""
    for sub in walk(node):
        if isinstance(sub, ast.Call) and is_model_call(ctx, sub):
            return True
        if isinstance(sub, ast.Name) and sub.id in ctx.local_names:
            if float32 is None:
                float32 = ctx.scope.cached("tf109_float32", lambda: _float32_names(ctx))
            if sub.id in float32:
                return True
        elif (isinstance(sub, ast.Name) and sub.id not in ctx.params
              and sub.id in _made_variables(ctx, module_scope(ctx.scope))):
            return True  # ``w = tf.Variable(...)`` at module level
        if (isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self"
                and ctx.scope.cls is not None
                and sub.attr in _made_variables(ctx, ctx.scope.cls.node, attributes=True)):
            return True  # ``self.w = tf.Variable(...)``
    return False


def _made_variables(ctx: ScopeContext, owner: ast.AST | Scope, attributes: bool = False) -> frozenset[str]:
    """Names (``w = tf.Variable(...)`` in the module body) or ``self`` attributes (anywhere in the
    class) bound to a ``tf.Variable``: float32 unless made from float64 values."""
    if isinstance(owner, Scope):
        return owner.cached("tf109_variables", lambda: _variables_in(ctx, owner.nodes(ast.Assign), attributes))
    return module_scope(ctx.scope).cached(f"tf109_attributes:{id(owner)}", lambda: _variables_in(
        ctx, [n for n in walk(owner) if isinstance(n, ast.Assign)], attributes))


def _variables_in(ctx: ScopeContext, assigns: list[ast.Assign], attributes: bool) -> frozenset[str]:
    out = set()
    for node in assigns:
        if not (isinstance(node.value, ast.Call) and ctx.call_name(node.value) == "tensorflow.Variable"
                and _float32_initial(ctx, node.value)):
            continue
        for target in node.targets:
            if attributes and isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                    and target.value.id == "self":
                out.add(target.attr)
            elif not attributes and isinstance(target, ast.Name):
                out.add(target.id)
    return frozenset(out)


def _float32_names(ctx: ScopeContext) -> set[str]:
    """Local names assigned a model's output, or something computed from one, in statement order."""
    names: set[str] = set()
    for node in sorted(ctx.scope.nodes(ast.Assign), key=lambda n: (n.lineno, n.col_offset)):
        if _is_float32(ctx, node.value, names):
            names.update(t.id for t in _targets(node) if isinstance(t, ast.Name))
    return names


def _float32_initial(ctx: ScopeContext, call: ast.Call) -> bool:
    """``tf.Variable(tf.ones([3]))``, ``tf.Variable(0.5)``, ``tf.Variable(x, dtype=tf.float32)``: a
    float32 variable. Made from a NumPy array (``np.ones(...)``), it is float64: not claimed."""
    for kw in call.keywords:
        if kw.arg == "dtype":
            return "float32" in ast.unparse(kw.value)
    if not call.args:
        return False
    first = call.args[0]
    if isinstance(first, ast.Constant):
        return isinstance(first.value, float)
    if isinstance(first, ast.Call):
        name = ctx.call_name(first) or ""
        return name.startswith("tensorflow.") and "float64" not in ast.unparse(first)
    return False
