"""TF407 method-on-temporary."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.scopes import walk
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import module_scope
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
and the method's first read of `self` fails with `AttributeError: 'NoneType' object has no
attribute ...`; a new instance per call retraces anyway. (`Loss()(y, p)`, calling the instance,
keeps it alive, and a method that never reads `self` does not notice: TensorFlow 2.21 runs both.) Keep the object in a variable and call the
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
    def __init__(self, weight):
        self.weight = weight

    @tf.function
    def value(self, y, p):
        return self.weight * tf.reduce_mean(tf.abs(y - p))

def evaluate(y, p):
    return Loss(0.5).value(y, p)  # TF407
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
            if method == "__call__" or not _reads_self(ctx, cls, method):
                # Calling the instance keeps it alive; a method that never reads self does not
                # notice it is gone (TensorFlow 2.21, tests/conformance/variants/tf407.py).
                continue
            short = cls.rsplit(".", 1)[-1]
            what = f"{short}(...)(...)" if method == "__call__" else f"{short}(...).{method}()"
            hit = self.hit(call, f"{what} calls a tf.function method on a temporary {short}: "
                                 f"keep the instance in a variable first")
            hit.callee = f"{cls}.{method}"
            yield hit

    def check_module(self, ctx: ScopeContext) -> Iterator[Hit]:
        yield from self.check(ctx)


def _reads_self(ctx: ScopeContext, cls: str, method: str) -> bool:
    """Whether ``cls.method`` reads an attribute of ``self`` (True when the class is not here)."""
    root = module_scope(ctx.scope)
    for node in root.node.body:  # type: ignore[attr-defined]
        if isinstance(node, ast.ClassDef) and node.name == cls.rsplit(".", 1)[-1]:
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name == method:
                    return any(isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "self"
                               and isinstance(n.ctx, ast.Load) for n in walk(item))
            return True
    return True
