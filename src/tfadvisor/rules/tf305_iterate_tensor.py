"""TF305 iterate-tensor."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._keras_traced import keras_traces_unconverted
from tfadvisor.rules._util import is_tf_function_decorated, last_assignment_before, single_tensor
from tfadvisor.rules.base import Rule, register

_ITERATING = frozenset({"list", "tuple", "enumerate", "zip", "sum", "max", "min", "sorted", "any", "all",
                        "set", "reversed"})


@register
class IterateTensor(Rule):
    code = "TF305"
    name = "iterate-tensor"
    severity = Severity.ERROR
    summary = "Python iterates a symbolic tensor (comprehension, unpacking, list()/zip()): not allowed in graph code"
    why = """\
AutoGraph converts a `for` statement over a tensor into a TensorFlow loop, but nothing else that
iterates: a comprehension over a tensor, unpacking (`h, w = tf.shape(x)`), `list(t)`, `zip(t, u)`
or `enumerate(t)` ask Python to iterate a symbolic tensor, which fails while tracing with
`OperatorNotAllowedInGraphError: Iterating over a symbolic tf.Tensor is not allowed` (older
TensorFlow: `iterating over tf.Tensor is not allowed`). Index it (`s = tf.shape(x); h, w = s[0],
s[1]`), use `tf.unstack(t, num=n)`, or a `for` statement.
Keras 3 traces a layer's `call`, a model's `train_step` and the losses and metrics handed to
`compile` without AutoGraph: there even a `for` statement over a tensor raises, under `fit` and
whenever the layer runs in a graph.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def resize_half(image):
    h, w = tf.shape(image)[:2]  # TF305
    return tf.image.resize(image, [h // 2, w // 2])
""",
        """\
import tensorflow as tf

@tf.function
def row_norms(m):
    m = tf.convert_to_tensor(m)
    return [tf.norm(row) for row in m]  # TF305
""",
        """\
import tensorflow as tf

@tf.function
def pairs(x, y):
    a = tf.abs(x)
    return [u * v for u, v in zip(a, y)]  # TF305
""",
        """\
import tensorflow as tf

@tf.function
def row_sums(x):
    return tf.stack([tf.reduce_sum(r) for r in x])  # TF305

row_sums(tf.ones([3, 2]))
""",
        """\
import tensorflow as tf

class Rows(tf.keras.layers.Layer):
    def call(self, x):
        rows = []
        for row in x:  # TF305
            rows.append(row * 2.0)
        return tf.stack(rows)

layer = Rows()

@tf.function
def step(x):
    return layer(x)

step(tf.ones([4, 3]))
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def resize_half(image):
    shape = tf.shape(image)
    h, w = shape[0], shape[1]
    return tf.image.resize(image, [h // 2, w // 2])
""",
        """\
import tensorflow as tf

@tf.function
def train_step(data, model):
    x, y = data
    top, idx = tf.math.top_k(model(x), k=2)
    return [tf.reduce_sum(p) for p in tf.unstack(top, num=2)]
""",
        """\
import tensorflow as tf

def double(v):
    return v * 2.0

@tf.function
def expand(x):
    x = tf.concat([double(v) for v in x], 0)  # iterates the list passed in, not the new x
    return x

expand([tf.ones([2]), tf.ones([3])])
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        if ctx.function is None:
            return
        decorated = is_tf_function_decorated(ctx, ctx.function)
        for comp in ctx.scope.nodes(ast.comprehension):
            what, deps = _iterated_tensor(ctx, comp.iter, comp.iter.lineno)
            if what:
                # Over a parameter, it fails for sure in a tf.function; in an eager function it is
                # what would fail if it were decorated: a note, which holds no verdict back.
                yield self.hit(comp.iter, f"a comprehension iterates {what}: Python cannot iterate a "
                                          f"symbolic tensor (a for statement would be converted)", depends_on=deps,
                               speculative=not decorated and any(d.startswith("!") for d in deps))
        if keras_traces_unconverted(ctx, ctx.function):
            # what Keras traces itself gets no AutoGraph: a for statement is not converted there
            for loop in ctx.scope.nodes(ast.For):
                is_tensor, deps = _tensor_here(ctx, loop.iter, loop.iter.lineno)
                if is_tensor:
                    yield self.hit(loop.iter, "a for loop over a tensor in code Keras 3 traces without AutoGraph "
                                              "(a layer's call, a model's train_step, a compiled loss): Python "
                                              "cannot iterate a symbolic tensor; use tf.unstack, tf.map_fn or "
                                              "a tf.range loop in a decorated function", depends_on=deps)
        for node in ctx.scope.nodes(ast.Assign):
            if (any(isinstance(t, (ast.Tuple, ast.List)) for t in node.targets) and _single_tensor(ctx, node.value)
                    and not _type_tested(ctx, node.value)):
                yield self.hit(node, "unpacks a tensor: Python cannot iterate a symbolic tensor; index it "
                                     "(s[0], s[1]) or use tf.unstack(t, num=n)")
        for call in ctx.scope.nodes(ast.Call):
            name = ctx.call_name(call)
            if name in _ITERATING and any(_single_tensor(ctx, a) and not _type_tested(ctx, a) for a in call.args):
                if not _is_comp_iter(ctx, call):
                    yield self.hit(call, f"{name}() iterates a symbolic tensor: not allowed in graph code")


def _is_comp_iter(ctx: ScopeContext, call: ast.AST) -> bool:
    return any(comp.iter is call for comp in ctx.scope.nodes(ast.comprehension))


def _iterated_tensor(ctx: ScopeContext, it: ast.AST, line: int) -> tuple[str | None, tuple[str, ...]]:
    """What a comprehension iterates, if a tensor (and the parameters that must be tensors for it).
    Comprehensions are never converted by AutoGraph (analysis/autograph.py)."""
    if isinstance(it, ast.Call) and ctx.call_name(it) in ("zip", "enumerate", "reversed"):
        for arg in it.args:
            is_tensor, deps = _tensor_here(ctx, arg, line)
            if is_tensor:
                return f"{ctx.call_name(it)}() over a tensor", deps
        return None, ()
    is_tensor, deps = _tensor_here(ctx, it, line)
    return ("a tensor", deps) if is_tensor else (None, ())


def _tensor_here(ctx: ScopeContext, node: ast.AST, line: int) -> tuple[bool, tuple[str, ...]]:
    """Whether ``node`` is one tensor where it is read on ``line``: a name holds the value bound
    before that line (``x = tf.concat([f(v) for v in x])`` iterates the old ``x``); a parameter
    not bound before counts where a call site passes a tensor."""
    if isinstance(node, ast.Name) and (node.id in ctx.local_names or node.id in ctx.params):
        prior = last_assignment_before(ctx, node.id, line, node.col_offset if node.lineno == line else None)
        if prior is not None:
            return single_tensor(ctx, prior), ()
        if node.id in ctx.params:
            param = ctx.params[node.id]
            if param.evidence.startswith("annotated"):
                return param.kind == "tensor", ()
            if node.id in _type_checked(ctx):
                return False, ()  # ``if isinstance(x, list): [f(v) for v in x]``: a list there
            return True, (f"!{node.id}",)
        return False, ()
    return single_tensor(ctx, node), ()


def _type_checked(ctx: ScopeContext) -> frozenset[str]:
    """Names whose type the function tests (``isinstance(x, list)``, ``isinstance(x[0], list)``):
    a helper that takes tensors or lists and iterates only the lists."""
    return ctx.scope.cached("tf305_type_checked", lambda: frozenset(
        n.id for call in ctx.scope.nodes(ast.Call)
        if isinstance(call.func, ast.Name) and call.func.id == "isinstance" and call.args
        for n in walk(call.args[0]) if isinstance(n, ast.Name)))


def _type_tested(ctx: ScopeContext, node: ast.AST) -> bool:
    """A name the function tests with ``isinstance``: ``if isinstance(shape, (list, tuple)): h, w =
    shape`` unpacks a Python sequence, and tensors take the other branch (conformance variant
    unpack-in-an-isinstance-branch)."""
    return isinstance(node, ast.Name) and node.id in _type_checked(ctx)


def _single_tensor(ctx: ScopeContext, node: ast.AST) -> bool:
    return single_tensor(ctx, node)
