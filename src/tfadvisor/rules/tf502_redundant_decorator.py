"""TF502 redundant-decorator (advice: fires from the verdict the advice module gives)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class RedundantDecorator(Rule):
    code = "TF502"
    name = "redundant-decorator"
    severity = Severity.WARNING
    scope = "advice"
    summary = "tf.function with no tensor work: the decorator costs tracing and gives nothing"
    why = """\
A tf.function that does no TensorFlow work (only Python arithmetic, string handling or I/O),
or that takes no tensor argument, gains nothing from a graph: it pays tracing on the first call
and on every new Python argument, and its Python code runs only while tracing. Remove the
decorator.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def describe(name, count):  # TF502
    return f"{name}: {count} items"
""",
        """\
import tensorflow as tf

@tf.function
def epochs_left(done: int, total: int):  # TF502
    return max(total - done, 0)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def loss(y_true, y_pred):
    return tf.reduce_mean(tf.square(y_true - y_pred))
""",
        """\
def describe(name, count):
    return f"{name}: {count} items"
""",
    )
