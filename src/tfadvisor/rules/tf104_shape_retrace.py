"""TF104 shape-retrace (run time: reported by ``run`` and ``profile``)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class ShapeRetrace(Rule):
    code = "TF104"
    name = "shape-retrace"
    severity = Severity.WARNING
    scope = "runtime"
    detection = "D"
    summary = "the observed calls vary in shape and the tf.function has no input_signature or reduce_retracing"
    why = """\
tf.function traces one graph per input shape it has not seen. A last partial batch, variable-length
sentences or images of different sizes each trace again, and TensorFlow warns `5 out of the last
5 calls to <function ...> triggered tf.function retracing. Tracing is expensive ...`. `tfadvisor
run` sees the shapes of the real calls and reports this when traces follow shape changes. Give the
function an `input_signature` with `None` in the varying dimensions, or `reduce_retracing=True`.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def encode(tokens):  # TF104
    return tf.reduce_sum(tf.one_hot(tokens, 100), axis=0)

for length in (5, 7, 9, 11, 13, 17):
    encode(tf.zeros([length], tf.int32))
""",
        """\
import tensorflow as tf

@tf.function
def step(batch):  # TF104
    return tf.reduce_mean(batch)

data = tf.data.Dataset.range(1000).map(lambda i: tf.cast(i, tf.float32)).batch(64)
for batch in data:
    step(batch)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
def encode(tokens):
    return tf.reduce_sum(tf.one_hot(tokens, 100), axis=0)

for length in (5, 7, 9, 11, 13, 17):
    encode(tf.zeros([length], tf.int32))
""",
        """\
import tensorflow as tf

@tf.function(reduce_retracing=True)
def step(batch):
    return tf.reduce_mean(batch)

data = tf.data.Dataset.range(1000).map(lambda i: tf.cast(i, tf.float32)).batch(64)
for batch in data:
    step(batch)
""",
    )
