"""TF201 print-in-graph."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class PrintInGraph(Rule):
    code = "TF201"
    name = "print-in-graph"
    severity = Severity.WARNING
    summary = "print() in graph code runs once per trace, not once per call; use tf.print"
    why = """\
Under `tf.function`, Python code runs only while TensorFlow traces the function. A `print` prints
when the graph is built (once per trace) and never again: the messages you rely on for progress
or debugging silently disappear after the first call. `tf.print` is an op of the graph and runs
on every call. This also holds in helpers called from a tf.function: AutoGraph converts them too.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def train_step(x):
    loss = tf.reduce_sum(x * x)
    print("loss", loss)  # TF201
    return loss
""",
        """\
import tensorflow as tf

def log(value):
    print("value:", value)  # TF201

@tf.function
def step(x):
    y = tf.nn.relu(x)
    log(y)
    return y
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def train_step(x):
    loss = tf.reduce_sum(x * x)
    tf.print("loss", loss)
    return loss
""",
        """\
import tensorflow as tf

def report(history):
    print("epochs run:", len(history))
""",
    )
    fix = "unsafe"
    fix_description = "replace print(...) with tf.print(...): unsafe because tf.print formats differently and runs on every call"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        for call in ctx.scope.nodes(ast.Call):
            if ctx.call_name(call) == "print":  # type: ignore[arg-type]
                yield self.hit(call)
