"""TF604 graph-error (run time: reported by ``run`` and ``profile``)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class GraphError(Rule):
    code = "TF604"
    name = "graph-error"
    severity = Severity.ERROR
    scope = "runtime"
    detection = "D"
    summary = "measured: the function raises when run as a tf.function"
    why = """\
`tfadvisor run` tries each candidate function as a tf.function on the calls it observed. When
tracing or running the graph raises (`OperatorNotAllowedInGraphError`, `ValueError: ... must also
be initialized in the else branch`, `AttributeError: 'SymbolicTensor' object has no attribute
'numpy'` ...), it reports TensorFlow's message together with the static rule that most likely
explains it, so you know the function cannot simply be decorated and what to change first.
"""
    bad = (
        """\
import tensorflow as tf

def to_list(x):  # TF604
    return x.numpy().tolist()

to_list(tf.ones([2]))
""",
        """\
import tensorflow as tf

def halve_positive(x):  # TF604
    if tf.reduce_sum(x) > 0:
        return x / 2.0

halve_positive(tf.ones([2]))
""",
    )
    good = (
        """\
import tensorflow as tf

def to_float(x):
    return tf.cast(x, tf.float32)

to_float(tf.ones([2], tf.int32))
""",
        """\
import tensorflow as tf

def halve_positive(x):
    if tf.reduce_sum(x) > 0:
        return x / 2.0
    return x

halve_positive(tf.ones([2]))
""",
    )
