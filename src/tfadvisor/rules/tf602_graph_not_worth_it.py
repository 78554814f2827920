"""TF602 graph-not-worth-it (run time; the static advice uses it as a labelled estimate)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class GraphNotWorthIt(Rule):
    code = "TF602"
    name = "graph-not-worth-it"
    severity = Severity.INFO
    scope = "runtime"
    detection = "D"
    summary = "graph mode does not pay off here: no faster per call, or break-even beyond the calls the program makes"
    why = """\
Graph mode removes Python's per-op dispatch cost; it does little for a function of a few
expensive ops (one 1024x1024 matmul ran only 1.2x faster as a tf.function), and every trace costs
time up front. `tfadvisor run` measures the eager and graph time per call and the trace time on
your own calls: when the graph is not faster, or the time saved per call would take more calls to
repay the tracing than the program makes, the decorator costs more than it gives. Without
measurements, `check` uses this code for functions with too few tensor ops, as an estimate.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def project(x, w):  # TF602
    return tf.matmul(x, w)

project(tf.ones([1024, 1024]), tf.ones([1024, 1024]))
""",
        """\
import tensorflow as tf

@tf.function
def setup_scale(x):  # TF602
    return x * 2.0

print(setup_scale(tf.ones([3])))
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def mlp(x, w):
    for _ in range(50):
        x = tf.nn.relu(x @ w + 0.1)
    return x

for _ in range(1000):
    mlp(tf.ones([4, 4]), tf.ones([4, 4]))
""",
        """\
import tensorflow as tf

def project(x, w):
    return tf.matmul(x, w)

project(tf.ones([1024, 1024]), tf.ones([1024, 1024]))
""",
    )
