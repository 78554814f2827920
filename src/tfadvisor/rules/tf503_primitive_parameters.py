"""TF503 primitive-parameters (advice: fires from the verdict the advice module gives)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class PrimitiveParameters(Rule):
    code = "TF503"
    name = "primitive-parameters"
    severity = Severity.WARNING
    scope = "advice"
    summary = "tf.function with Python-number parameters fed changing values: it retraces for each value"
    why = """\
A tf.function whose Python `int`/`float` parameters get a new value on each call traces a new
graph per value (see TF101). Make those parameters tensors, give the function an
`input_signature`, or take the decorator off.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def scaled(x, step):  # TF503
    return x * tf.cast(step, tf.float32)

for step in range(50):
    scaled(tf.ones([3]), step)
""",
        """\
import tensorflow as tf

@tf.function
def lr_schedule(w, epoch):  # TF503
    return w * 0.9 ** tf.cast(epoch, tf.float32)

def run(w):
    for epoch in range(20):
        w = lr_schedule(w, epoch)
    return w
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def scaled(x, step):
    return x * tf.cast(step, tf.float32)

for step in range(50):
    scaled(tf.ones([3]), tf.constant(step))
""",
        """\
import tensorflow as tf

@tf.function
def forward(x, training=False):
    return tf.nn.relu(x)
""",
    )
