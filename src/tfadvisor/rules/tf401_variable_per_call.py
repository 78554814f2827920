"""TF401 variable-per-call."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.state import guarded_nodes
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
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
outside (in `__init__`), or behind a create-once guard such as `if self.v is None:`.
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
            if _guarded(ctx, call):
                continue
            what = "tf.Variable" if tfapi.creates_variable(name) and not tfapi.is_tf1_optimizer(name) else name
            yield self.hit(call, f"creates {what} on every call of graph code: tf.function allows "
                                 f"variables only on the first call")
