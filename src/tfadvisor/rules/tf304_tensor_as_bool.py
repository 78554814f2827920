"""TF304 tensor-as-bool."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import decorator_option, likely_tensor
from tfadvisor.rules.base import Rule, register


@register
class TensorAsBool(Rule):
    code = "TF304"
    name = "tensor-as-bool"
    severity = Severity.ERROR
    summary = "a tensor used as a Python bool where AutoGraph does not convert it"
    why = """\
AutoGraph rewrites `if`, `while`, `and`, `or`, `not` and `x if c else y` on tensors into graph
ops, but not everything: `bool(t)`, a condition inside a list comprehension, and any condition in
a function traced with `autograph=False` ask Python for the truth value of a symbolic tensor,
which fails while tracing with `OperatorNotAllowedInGraphError: Using a symbolic tf.Tensor as a
Python bool is not allowed` (older TensorFlow: `using a tf.Tensor as a Python bool is not
allowed`). Use `tf.cond`, `tf.where` or `tf.boolean_mask`, or a plain `if` statement AutoGraph
converts.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def positive_rows(rows):
    return [r for r in rows if tf.reduce_sum(r) > 0]  # TF304
""",
        """\
import tensorflow as tf

@tf.function
def any_nan(x):
    return bool(tf.reduce_any(tf.math.is_nan(x)))  # TF304
""",
        """\
import tensorflow as tf

@tf.function(autograph=False)
def clip(x):
    if tf.reduce_max(x) > 1.0:  # TF304
        x = x / tf.reduce_max(x)
    return x
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def clip(x):
    if tf.reduce_max(x) > 1.0:
        x = x / tf.reduce_max(x)
    return x
""",
        """\
import tensorflow as tf

@tf.function
def positive(x):
    return tf.boolean_mask(x, x > 0)
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        fn = ctx.function
        if fn is None:
            return
        for call in ctx.scope.nodes(ast.Call):
            if ctx.call_name(call) == "bool" and len(call.args) == 1:
                is_tensor, deps = likely_tensor(ctx, call.args[0])
                if is_tensor:
                    yield self.hit(call, "bool() of a tensor asks Python for the value of a symbolic tensor",
                                   depends_on=deps)
        for comp in ctx.scope.nodes(ast.comprehension):
            for cond in comp.ifs:
                is_tensor, deps = likely_tensor(ctx, cond)
                if is_tensor:
                    yield self.hit(cond, "a comprehension condition on a tensor: AutoGraph does not convert "
                                         "comprehensions; use tf.boolean_mask or tf.where", depends_on=deps)
        option = decorator_option(ctx, fn, "autograph")
        if isinstance(option, ast.Constant) and option.value is False:
            for node in ctx.scope.nodes(ast.If, ast.While, ast.IfExp, ast.BoolOp, ast.Assert):
                test = node.values[0] if isinstance(node, ast.BoolOp) else node.test  # type: ignore[attr-defined]
                is_tensor, deps = likely_tensor(ctx, test)
                if is_tensor:
                    yield self.hit(node if not isinstance(node, (ast.If, ast.While)) else test,
                                   "a tensor condition in a tf.function with autograph=False: Python needs "
                                   "its truth value while tracing", depends_on=deps)
