"""TF403 assert-on-tensor."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import likely_tensor
from tfadvisor.rules.base import Rule, register


@register
class AssertOnTensor(Rule):
    code = "TF403"
    name = "assert-on-tensor"
    severity = Severity.WARNING
    summary = "Python assert on a tensor in graph code: TensorFlow 2.21 cannot trace it"
    why = """\
A Python `assert cond, msg` on a tensor asks Python for the truth value of a symbolic tensor.
Older AutoGraph turned it into `tf.debugging.Assert`; TensorFlow 2.21 does not, and tracing fails
with `OperatorNotAllowedInGraphError: Using a symbolic tf.Tensor as a Python bool is not allowed`
whether or not the condition holds (the conformance suite, tests/conformance/variants/tf403.py;
analysis/autograph.py). Say what you mean: `tf.debugging.assert_greater(x, 0.0, message="x must be
positive")`, which runs on every call, or check static shapes with a plain Python assert on
`x.shape`.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def safe_log(x):
    assert tf.reduce_min(x) > 0.0, "x must be positive"  # TF403
    return tf.math.log(x)
""",
        """\
import tensorflow as tf

@tf.function
def normalise(x):
    total = tf.reduce_sum(x)
    assert total != 0, f"cannot normalise, sum is {total}"  # TF403
    return x / total
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def safe_log(x):
    tf.debugging.assert_positive(x, message="x must be positive")
    return tf.math.log(x)
""",
        """\
import tensorflow as tf

@tf.function
def flatten(x):
    assert x.shape.rank == 2, "expects a matrix"
    return tf.reshape(x, [-1])
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        if ctx.function is None:
            return
        for node in ctx.scope.nodes(ast.Assert):
            is_tensor, deps = likely_tensor(ctx, node.test)
            if not is_tensor:
                continue
            text = ("assert on a tensor: Python needs its truth value while tracing "
                    "(OperatorNotAllowedInGraphError in TensorFlow 2.21); use tf.debugging.assert_*")
            yield self.hit(node, text, depends_on=deps)
