"""TF206 eager-only-call."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis import autograph, tfapi
from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import decorator_option
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
(`NotImplementedError: Cannot convert a symbolic tf.Tensor to a numpy array`). `float(t)` and
`int(t)` fail only with `autograph=False` (`TypeError: float() argument must be a string or a real
number, not 'SymbolicTensor'`): AutoGraph converts them to `tf.cast` (analysis/autograph.py). Use
TensorFlow ops (`tf.reduce_mean`, `tf.cast`) inside graph code.
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
        """\
import tensorflow as tf

@tf.function(autograph=False)
def loss_value(x):
    return float(tf.reduce_sum(x)) * 2.0  # TF206
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
        """\
import tensorflow as tf

@tf.function
def loss_value(x):
    return float(tf.reduce_sum(x)) * 2.0  # AutoGraph makes float() a tf.cast
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        option = decorator_option(ctx, ctx.function, "autograph") if ctx.function is not None else None
        converted = not (isinstance(option, ast.Constant) and option.value is False)
        for call in ctx.scope.nodes(ast.Call):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr in tfapi.EAGER_ONLY_METHODS and not call.args:
                is_tensor, deps = ctx.is_tensor(func.value)
                if is_tensor or func.attr == "numpy":
                    yield self.hit(call, f".{func.attr}() needs an eager tensor; graph code has symbolic ones",
                                   depends_on=deps if is_tensor else (), speculative=not is_tensor)
                continue
            name = ctx.call_name(call)
            if name in ("float", "int") and autograph.converts(name, converted):
                continue  # AutoGraph makes it a tf.cast (the evidence: analysis/autograph.py)
            if tfapi.is_numpy_call(name) or name in ("float", "int"):
                for arg in call.args:
                    is_tensor, deps = ctx.is_tensor(arg)
                    if is_tensor:
                        yield self.hit(call, f"{name}() on a tensor fails in graph code: use a TensorFlow op",
                                       depends_on=deps)
                        break
