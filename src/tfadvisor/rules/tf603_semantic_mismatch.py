"""TF603 semantic-mismatch (run time: reported by ``run`` and ``profile``)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class SemanticMismatch(Rule):
    code = "TF603"
    name = "semantic-mismatch"
    severity = Severity.ERROR
    scope = "runtime"
    detection = "D"
    summary = "measured: results or observable Python state differ between eager and graph execution"
    why = """\
`tfadvisor run` replays the calls it observed in eager mode and as a tf.function and compares the
results and the Python state the function touches. A difference means the function does not mean
the same thing as a graph: a side effect that ran only while tracing, a value frozen at trace time
(`np.random`, a global), or a Python branch taken once. Decorating it would change what your
program computes, silently. The message names what differed; the static rules (TF2xx, TF105)
usually say why.
"""
    bad = (
        """\
import numpy as np
import tensorflow as tf

def noisy(x):  # TF603
    return x + np.random.normal()

for _ in range(3):
    noisy(tf.ones([2]))
""",
        """\
import tensorflow as tf

calls = []

def counted(x):  # TF603
    calls.append(1)
    return x * len(calls)

for _ in range(3):
    counted(tf.ones([2]))
""",
    )
    good = (
        """\
import tensorflow as tf

def noisy(x):
    return x + tf.random.normal([])

for _ in range(3):
    noisy(tf.ones([2]))
""",
        """\
import tensorflow as tf

calls = tf.Variable(0.0)

def counted(x):
    calls.assign_add(1.0)
    return x * calls

for _ in range(3):
    counted(tf.ones([2]))
""",
    )
