"""TF605 xla-error (run time: reported by ``run`` and ``profile``)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class XlaError(Rule):
    code = "TF605"
    name = "xla-error"
    severity = Severity.INFO
    scope = "runtime"
    detection = "D"
    summary = "measured: jit_compile=True fails for this function"
    why = """\
Not every graph compiles with XLA: ops without an XLA kernel (string ops, `tf.py_function`, some
lookups and random ops), and shapes that XLA cannot make static fail with errors such as
`InvalidArgumentError: Detected unsupported operations when trying to compile graph ... on
XLA_CPU_JIT`. `tfadvisor run` tries `jit_compile=True` on the tf.functions it replays and reports
the failure, so that the option is not suggested for this function. (A function that already sets
it fails at its first call: that is TF604.)
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def tag(x):  # TF605
    return tf.strings.as_string(x)

for _ in range(20):
    tag(tf.ones([2]))
""",
        """\
import tensorflow as tf

@tf.function
def via_python(x):  # TF605
    return tf.py_function(lambda v: v * 2, [x], tf.float32)

for _ in range(20):
    via_python(tf.ones([2]))
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def scale(x):
    return x * 2.0

for _ in range(20):
    scale(tf.ones([2]))
""",
        """\
import tensorflow as tf

def tag(x):  # eager: XLA is tried only on tf.functions
    return tf.strings.as_string(x)

for _ in range(20):
    tag(tf.ones([2]))
""",
    )
