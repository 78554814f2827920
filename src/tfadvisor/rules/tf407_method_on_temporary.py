"""TF407 method-on-temporary."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register

_LIBRARIES = ("tensorflow", "keras", "numpy")


@register
class MethodOnTemporary(Rule):
    code = "TF407"
    name = "method-on-temporary"
    severity = Severity.ERROR
    summary = "a tf.function method called on a temporary object: the instance can be collected while tracing"
    why = """\
A tf.function method holds its instance by weak reference (so that the function does not keep the
object alive). Calling it on an object nothing else holds, `Model().step(x)` or
`Helper().f(x)`, lets Python collect the instance while TensorFlow is still tracing or calling,
which fails with `AttributeError: 'NoneType' object has no attribute ...` (or a weak-reference
error), and a new instance per call retraces anyway. Keep the object in a variable and call the
method on it.
"""
    bad = (
        """\
import tensorflow as tf

class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @tf.function
    def apply(self, x):
        return x * self.factor

y = Scaler(2.0).apply(tf.ones([3]))  # TF407
""",
        """\
import tensorflow as tf

class Loss:
    @tf.function
    def __call__(self, y, p):
        return tf.reduce_mean(tf.square(y - p))

    @tf.function
    def value(self, y, p):
        return tf.reduce_mean(tf.abs(y - p))

def evaluate(y, p):
    return Loss().value(y, p)  # TF407

def train(y, p):
    return Loss()(y, p)  # TF407
""",
    )
    good = (
        """\
import tensorflow as tf

class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @tf.function
    def apply(self, x):
        return x * self.factor

scaler = Scaler(2.0)
y = scaler.apply(tf.ones([3]))
""",
        """\
import tensorflow as tf

class Scaler:
    def __init__(self, factor):
        self.factor = factor

    def apply(self, x):
        return x * self.factor

y = Scaler(2.0).apply(tf.ones([3]))
""",
    )
    scope = "always"
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        for call in ctx.scope.nodes(ast.Call):
            func = call.func
            if isinstance(func, ast.Call):  # Cls(...)(x): __call__ on a temporary
                cls, method = ctx.resolve(func.func), "__call__"
            elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call):
                cls, method = ctx.resolve(func.value.func), func.attr
            else:
                continue
            if not cls or cls.rsplit(".", 1)[-1][:1].islower() or cls.split(".", 1)[0] in _LIBRARIES:
                continue
            short = cls.rsplit(".", 1)[-1]
            what = f"{short}(...)(...)" if method == "__call__" else f"{short}(...).{method}()"
            hit = self.hit(call, f"{what} calls a tf.function method on a temporary {short}: "
                                 f"keep the instance in a variable first")
            hit.callee = f"{cls}.{method}"
            yield hit

    def check_module(self, ctx: ScopeContext) -> Iterator[Hit]:
        yield from self.check(ctx)
