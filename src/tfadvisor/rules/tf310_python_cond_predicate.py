"""TF310 python-cond-predicate."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register

_CONDS = frozenset({"tensorflow.cond", "tensorflow.compat.v1.cond"})  # (imports.py reads compat.v2 as tensorflow)


@register
class PythonCondPredicate(Rule):
    code = "TF310"
    name = "python-cond-predicate"
    severity = Severity.ERROR
    summary = "tf.cond on a Python bool or number in graph code: TensorFlow raises while tracing"
    why = """\
Eagerly `tf.cond(training, true_fn, false_fn)` accepts a Python bool and runs one branch. In a
graph it does not: a Python bool raises `TypeError: pred must not be a Python bool`, a Python int
fails to build the graph (`InvalidArgumentError: Input 'pred' passed int32 expected bool`),
TensorFlow 2.21 (tests/conformance/variants/tf310.py). The rule fires on a literal, or on a
parameter that the program's call sites pass Python values (an `input_signature` makes them
tensors, and then it does not fire). Branch with a Python `if` (the function traces once per
value), or pass a boolean tensor (`tf.constant(training)`).
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def forward(x, training):
    return tf.cond(training, lambda: tf.nn.dropout(x, rate=0.5), lambda: x)  # TF310

forward(tf.ones([4]), True)
forward(tf.ones([4]), False)
""",
        """\
import tensorflow as tf

@tf.function
def pick(x):
    return tf.cond(True, lambda: x + 1.0, lambda: x - 1.0)  # TF310
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def forward(x, training):
    if training:
        return tf.nn.dropout(x, rate=0.5)
    return x

forward(tf.ones([4]), True)
forward(tf.ones([4]), False)
""",
        """\
import tensorflow as tf

@tf.function
def forward(x, training):
    return tf.cond(training, lambda: tf.nn.dropout(x, rate=0.5), lambda: x)

forward(tf.ones([4]), tf.constant(True))
""",
    )
    scope = "graph"
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        for call in ctx.scope.nodes(ast.Call):
            assert isinstance(call, ast.Call)
            if ctx.call_name(call) not in _CONDS:
                continue
            pred = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "pred"), None)
            if isinstance(pred, ast.Constant) and isinstance(pred.value, (bool, int)):
                yield self.hit(call, f"tf.cond's predicate is the Python value {pred.value!r}: {_WHAT}")
            elif isinstance(pred, ast.Name) and pred.id in ctx.params and not _rebound(ctx, pred.id):
                yield self.hit(call, f"tf.cond's predicate `{pred.id}` gets Python values from its callers: {_WHAT}",
                               depends_on=(f"~{pred.id}",))


_WHAT = ("in a graph TensorFlow raises while tracing (TypeError: pred must not be a Python bool); use a "
         "Python `if`, or pass a boolean tensor")


def _rebound(ctx: ScopeContext, name: str) -> bool:
    """The parameter is assigned again in the body (``training = tf.constant(training)``)."""
    return any(isinstance(n.ctx, ast.Store) and n.id == name for n in ctx.scope.nodes(ast.Name))
