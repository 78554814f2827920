"""TF506 xla-candidate (run time: fires from a measured verdict)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class XlaCandidate(Rule):
    code = "TF506"
    name = "xla-candidate"
    severity = Severity.INFO
    scope = "runtime"
    detection = "D"
    summary = "measured: jit_compile=True is clearly faster for this function and compiles"
    why = """\
XLA fuses the ops of a graph into a few compiled kernels. For functions of many small elementwise
ops it can beat plain graph mode by a wide margin (a measured example: a function of 100 small ops
ran 21x faster than eager with `jit_compile=True`, against 9.7x as a plain tf.function), but not
every function compiles (dynamic shapes, unsupported ops) and compilation costs time. `tfadvisor
run` measures the XLA variant on the calls your program made and only suggests it when it
compiled, gave the same results, and was clearly faster.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def gelu_stack(x):  # TF506
    for _ in range(20):
        x = 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))
    return x
""",
        """\
import tensorflow as tf

@tf.function
def layer_norm(x):  # TF506
    mean = tf.reduce_mean(x, axis=-1, keepdims=True)
    var = tf.reduce_mean(tf.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * tf.math.rsqrt(var + 1e-5)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function(jit_compile=True)
def gelu_stack(x):
    for _ in range(20):
        x = 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))
    return x
""",
        """\
import tensorflow as tf

@tf.function
def lookup(table, ids):
    return tf.strings.join([table.lookup(ids), "!"])
""",
    )
    fix = "unsafe"
    fix_by = "verdict"
    fix_description = ("add jit_compile=True to the decorator; applied without --unsafe-fixes when `run` measured "
                       "XLA giving eager's results")
