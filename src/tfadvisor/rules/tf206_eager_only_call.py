"""TF206 eager-only-call."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class EagerOnlyCall(Rule):
    code = "TF206"
    name = "eager-only-call"
    severity = Severity.ERROR
    summary = "eager-only call on a tensor: fails on the symbolic tensors of graph code"
    why = """\
Inside a tf.function, tensors are symbolic: they have no value while the graph is traced.
`.numpy()` raises `AttributeError: 'Tensor' object has no attribute 'numpy'` (newer TensorFlow:
`'SymbolicTensor' object has no attribute 'numpy'`), NumPy functions fail on them
(`NotImplementedError: Cannot convert a symbolic tf.Tensor to a numpy array`), and `float(t)` /
`int(t)` cannot work. Use TensorFlow ops (`tf.reduce_mean`, `tf.cast`) inside graph code.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def accuracy(logits, labels):
    hits = tf.equal(tf.argmax(logits, 1), labels)
    return hits.numpy().mean()  # TF206
""",
        """\
import numpy as np
import tensorflow as tf

@tf.function
def normalise(x):
    y = tf.abs(x)
    return y / np.max(y)  # TF206
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def accuracy(logits, labels):
    hits = tf.equal(tf.argmax(logits, 1), labels)
    return tf.reduce_mean(tf.cast(hits, tf.float32))
""",
        """\
import tensorflow as tf

def report(metric):
    value = metric.result()
    print(value.numpy())
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        for call in ctx.scope.nodes(ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in tfapi.EAGER_ONLY_METHODS and not call.args:
                is_tensor, deps = ctx.is_tensor(func.value)
                if is_tensor or func.attr == "numpy":
                    yield self.hit(call, f".{func.attr}() needs an eager tensor; graph code has symbolic ones",
                                   depends_on=deps if is_tensor else (), speculative=not is_tensor)
                continue
            name = ctx.call_name(call)
            if tfapi.is_numpy_call(name) or name in ("float", "int"):
                for arg in call.args:
                    is_tensor, deps = ctx.is_tensor(arg)
                    if is_tensor:
                        yield self.hit(call, f"{name}() on a tensor fails in graph code: use a TensorFlow op",
                                       depends_on=deps)
                        break
