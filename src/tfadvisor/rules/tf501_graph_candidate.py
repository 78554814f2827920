"""TF501 graph-candidate (advice: fires from the verdict the advice module gives)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class GraphCandidate(Rule):
    code = "TF501"
    name = "graph-candidate"
    severity = Severity.INFO
    scope = "advice"
    summary = ("eager function called many times with tensors, doing enough tensor work, with no hazards: "
               "decorate it with @tf.function")
    why = """\
Graph mode pays off when a function runs many small ops many times: the Python overhead of
dispatching each op disappears (a measured example: 100 small ops ran 9.7x faster). A train step,
a loss or a predict function that does tensor work on tensor arguments, with no Python side
effects or AutoGraph traps in it or its callees, is the seed's "decorate the functions that
compute". `check` advises it only with evidence in the checked code: call sites in eager code,
in a loop, that pass tensors (or the same objects) every time, so that one trace serves every
call. A function with no call site there (library code) or called once stays `leave-eager`.
Measure with `tfadvisor run` to confirm the gain on your workload.
"""
    bad = (
        """\
import tensorflow as tf

def train_step(x, w):  # TF501
    h = x
    for _ in range(16):
        h = tf.nn.relu(tf.matmul(h, w))
    return tf.reduce_mean(tf.square(h))

w = tf.Variable(tf.random.normal([8, 8]))
for batch in tf.data.Dataset.from_tensor_slices(tf.random.normal([100, 4, 8])):
    train_step(batch, w)
""",
        """\
import tensorflow as tf

def train_step(model, optimizer, images: tf.Tensor, labels: tf.Tensor):  # TF501
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss

def fit(model, optimizer, batches, epochs):
    for _ in range(epochs):
        for images, labels in batches:
            train_step(model, optimizer, images, labels)
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def train_step(x, w):
    h = tf.nn.relu(tf.matmul(x, w))
    return tf.reduce_mean(tf.square(h))
""",
        """\
def log_metrics(metrics):
    for name, value in metrics.items():
        print(name, value)
""",
    )
