"""TF601 retrace-storm (run time: reported by ``run`` and ``profile``)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class RetraceStorm(Rule):
    code = "TF601"
    name = "retrace-storm"
    severity = Severity.WARNING
    scope = "runtime"
    detection = "D"
    summary = "measured: this tf.function traced many times; the message names the argument that changed"
    why = """\
Each trace of a tf.function costs far more than a call (often tens to hundreds of milliseconds).
When the observed traces exceed a threshold, `tfadvisor run` compares the calls that caused them
and names the argument whose type, shape or Python value changed between traces, the way JAX
explains its cache misses. TensorFlow itself only warns `5 out of the last 5 calls to <function
...> triggered tf.function retracing. Tracing is expensive ...` without saying which argument.
Make that argument a tensor, or give the function an `input_signature`.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def scale(x, factor):  # TF601
    return x * factor

for epoch in range(50):
    scale(tf.ones([8]), 0.9 ** epoch)
""",
        """\
import tensorflow as tf

@tf.function
def pad_to(x, n):  # TF601
    return tf.pad(x, [[0, n - tf.shape(x)[0]]])

for n in range(10, 60):
    pad_to(tf.ones([5]), n)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def scale(x, factor):
    return x * factor

for epoch in range(50):
    scale(tf.ones([8]), tf.constant(0.9 ** epoch))
""",
        """\
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([], tf.int32)])
def pad_to(x, n):
    return tf.pad(x, [[0, n - tf.shape(x)[0]]])

for n in range(10, 60):
    pad_to(tf.ones([5]), tf.constant(n))
""",
    )
