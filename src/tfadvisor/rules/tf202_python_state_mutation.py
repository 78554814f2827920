"""TF202 python-state-mutation."""

from __future__ import annotations

from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.state import mutations
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class PythonStateMutation(Rule):
    code = "TF202"
    name = "python-state-mutation"
    severity = Severity.ERROR
    summary = "Python state changed in graph code: this runs only while tracing, not on every call"
    why = """\
A tf.function runs its Python code once, while tracing; later calls run the graph. Appending to
a list, updating a dict, writing a global or `self.counter += 1` therefore happens once (per
trace), not on each call: TensorFlow's guide says "the list append only happened once". Branches
on such state (`if self.counter == 0:`) are evaluated once and baked into the graph. Keep state in
`tf.Variable`s (`self.counter.assign_add(1)`) or return values instead.
"""
    bad = (
        """\
import tensorflow as tf

history = []

@tf.function
def train_step(x):
    loss = tf.reduce_mean(x)
    history.append(loss)  # TF202
    return loss
""",
        """\
import tensorflow as tf

class Trainer:
    def __init__(self):
        self.steps = 0

    @tf.function
    def step(self, x):
        self.steps += 1  # TF202
        return tf.reduce_sum(x)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def train_step(x):
    losses = []
    for i in range(3):
        losses.append(tf.reduce_mean(x) * i)
    return tf.add_n(losses)
""",
        """\
import tensorflow as tf

class Trainer:
    def __init__(self):
        self.steps = tf.Variable(0)

    @tf.function
    def step(self, x):
        self.steps.assign_add(1)
        return tf.reduce_sum(x)
""",
    )

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        # What counts as state that outlives the call is analysis/state.py's one definition
        # (shared with the side-effect facts behind TF203).
        for node, what in mutations(ctx):
            if what.endswith("()"):
                yield self.hit(node, f"{what} in graph code runs only while tracing, not on every call")
            else:
                yield self.hit(node, f"{what} in graph code: runs only while tracing")
