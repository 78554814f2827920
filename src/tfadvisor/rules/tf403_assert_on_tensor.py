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
    summary = "Python assert on a tensor in graph code becomes tf.Assert: it fails at run time and ignores -O"
    why = """\
AutoGraph converts `assert cond, msg` on a tensor into `tf.debugging.Assert`: it does not fail
while tracing but when the graph runs, as `InvalidArgumentError: assertion failed: ...` raised at
the call site, and it runs even under `python -O`, which strips every other assert. A message
that is not a constant (an f-string that formats tensors) cannot become part of the graph and
fails with `NotImplementedError`. Say what you mean: `tf.debugging.assert_greater(x, 0.0,
message="x must be positive")`, or check static shapes with a plain Python assert on `x.shape`.
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
            msg = node.msg
            if msg is not None and not isinstance(msg, ast.Constant):
                text = ("assert on a tensor with a computed message: AutoGraph cannot put it in the graph "
                        "(NotImplementedError); use tf.debugging.assert_* with a constant message")
            else:
                text = ("assert on a tensor becomes tf.Assert: it fails at run time (InvalidArgumentError) "
                        "and runs even under python -O; use tf.debugging.assert_*")
            yield self.hit(node, text, depends_on=deps)
