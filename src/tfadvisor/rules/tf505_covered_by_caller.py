"""TF505 covered-by-caller (advice: fires from the verdict the advice module gives)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class CoveredByCaller(Rule):
    code = "TF505"
    name = "covered-by-caller"
    severity = Severity.INFO
    scope = "advice"
    summary = "a tf.function only ever called from other graph code: its caller already converts it"
    summary_undecorated = "only ever called from graph code (callers that are, or are advised to be, tf.functions): they convert it"
    why = """\
AutoGraph converts everything a tf.function calls: a helper called only from graph code already
runs as part of its caller's graph. Its own `@tf.function` adds little but a nested function
call in the graph (which TensorFlow inlines), its own trace cache and its own retracing rules (a
new Python argument value retraces the inner function too). It is harmless, so tfadvisor keeps it
(`keep`, with this note at info level) and never advises decorating such a helper: the entry
point's decorator is the one that matters.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def dense(x, w):  # TF505
    return tf.nn.relu(tf.matmul(x, w))

@tf.function
def forward(x, w):
    h = dense(x, w)
    return dense(h, w)
""",
        """\
import tensorflow as tf

class Model(tf.Module):
    def __init__(self):
        self.w = tf.Variable(tf.ones([4, 4]))

    @tf.function
    def block(self, x):  # TF505
        return tf.nn.relu(tf.matmul(x, self.w))

    @tf.function
    def __call__(self, x):
        return self.block(self.block(x))
""",
    )
    good = (
        """\
import tensorflow as tf

def dense(x, w):
    return tf.nn.relu(tf.matmul(x, w))

@tf.function
def forward(x, w):
    h = dense(x, w)
    return dense(h, w)
""",
        """\
import tensorflow as tf

@tf.function
def dense(x, w):
    return tf.nn.relu(tf.matmul(x, w))

@tf.function
def forward(x, w):
    return dense(x, w)

y = dense(tf.ones([2, 4]), tf.ones([4, 4]))
""",
    )
    # no edit: inside its callers' graphs the inner decorator changes nothing, and the code stays as
    # it is unless a change clearly pays (docs/decisions/0012-measured-policy.md)
