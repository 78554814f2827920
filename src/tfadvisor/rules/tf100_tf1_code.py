"""TF100 tf1-code (said once per file by ``check``; the verdicts there keep the status quo)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class Tf1Code(Rule):
    code = "TF100"
    name = "tf1-code"
    severity = Severity.INFO
    scope = "always"
    summary = "TensorFlow 1 code (Session, placeholder, Estimator, variable_scope): out of scope, no graph advice here"
    why = """\
`tf.function` is TensorFlow 2's way to build graphs. A file that uses `tf.compat.v1` Sessions,
placeholders, Estimators, `get_variable` or `variable_scope` already builds its graph the TF1 way,
and advice about which function should be a `tf.function` does not apply to it: tfadvisor says so
once per file, keeps every function's status quo and reports no graph findings there. Migrating to
TensorFlow 2 (the TF1-to-TF2 migration guide) comes first.

TensorFlow 1's eager mode (`tf.enable_eager_execution()`, `tf.contrib.eager`) is not graph-mode
code: it runs eagerly as TensorFlow 2 does, and its hot functions gain from a graph the same way.
Its functions get advice like any other, said as speculative and with a note that the file is
written for TensorFlow 1 (there `tf.contrib.eager.defun` is tf.function's counterpart).
"""
    bad = (
        """\
import tensorflow as tf

x = tf.compat.v1.placeholder(tf.float32, [None, 3])  # TF100
y = tf.reduce_sum(x)
""",
        """\
import tensorflow.compat.v1 as tf

def model_fn(features, labels, mode):
    with tf.variable_scope("model"):  # TF100
        return tf.layers.dense(features, 1)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def total(x):
    return tf.reduce_sum(x)
""",
        """\
import tensorflow as tf

def build():
    return tf.keras.Sequential([tf.keras.layers.Dense(1)])
""",
        """\
import tensorflow as tf
import tensorflow.contrib.eager as tfe

tf.enable_eager_execution()  # TensorFlow 1's eager mode: advised like TensorFlow 2 code
w = tfe.Variable(1.0)

def loss(x):
    return tf.reduce_sum(x * w)
""",
    )
