"""TF508 inline-training-step (advice: fires from the verdict the advice module gives)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.module import trains_in_body
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class InlineTrainingStep(Rule):
    code = "TF508"
    name = "inline-training-step"
    severity = Severity.INFO
    scope = "advice"
    said_on_status_quo = True  # a driver stays eager as written; the note says what would gain from a graph
    summary = ("its loop computes and applies gradients inline, eagerly, on every batch: move the loop's body "
               "into a step function and decorate that; the loop stays Python")
    why = """\
A training loop whose body is the whole step (`with tf.GradientTape() as tape: ...`,
`tape.gradient`, `optimizer.apply_gradients`) runs every op of every batch eagerly, one Python
dispatch each: on small and medium models that overhead is often most of the time, and a graph
of the step removes it (`tfadvisor run` measures how much, on the program's own batches). The function holding the loop cannot be decorated as it is: AutoGraph would turn a
loop over a Python iterable into one trace of the batches there were, and the printing, logging and
`.numpy()` reads a driver does each batch belong outside a graph. The unit to decorate is the body:
move it into `train_step(x, y)` that returns the loss as a tensor, decorate that, and keep the loop
(and its logging) in Python. Said on the driver itself, whatever its verdict: `fix-first` when the
program calls it in a loop (per epoch), `leave-eager` when it runs once (the step to extract noted).
The same loop at a script's or notebook's top level gets the note at the loop (the innermost one
that holds the whole step). A loop that calls a step function of its own is not inline: the step
gets its own verdict.
"""
    bad = (
        """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
optimizer = tf.keras.optimizers.Adam()
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

def train(dataset, epochs):  # TF508
    for epoch in range(epochs):
        for x, y in dataset:
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
        print(epoch, float(loss))

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
train(tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).batch(64), 5)
""",
        """\
import tensorflow as tf

w = tf.Variable(tf.zeros([3, 1]))
optimizer = tf.keras.optimizers.SGD(0.1)

def train_epoch(batches):  # TF508
    for x, y in batches:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
    return loss

data = tf.data.Dataset.from_tensor_slices((tf.random.normal([512, 3]), tf.random.normal([512, 1]))).batch(32)
for epoch in range(20):
    print(epoch, float(train_epoch(data)))
""",
        """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
optimizer = tf.keras.optimizers.Adam()
data = tf.data.Dataset.from_tensor_slices((tf.random.normal([256, 4]), tf.random.normal([256, 1]))).batch(32)

for epoch in range(10):
    for x, y in data:  # TF508
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
    print(epoch, float(loss))
""",
    )
    good = (
        """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
optimizer = tf.keras.optimizers.Adam()
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_fn(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss

def train(dataset, epochs):
    for epoch in range(epochs):
        for x, y in dataset:
            loss = train_step(x, y)
        print(epoch, float(loss))

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
train(tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).batch(64), 5)
""",
        """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
model.compile("adam", tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))

def train(dataset, epochs):
    for epoch in range(epochs):
        history = model.fit(dataset, epochs=1, verbose=0)
        print(epoch, history.history["loss"][-1])

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
train(tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).batch(64), 5)
""",
    )

    def check_module(self, ctx: ScopeContext) -> Iterator[Hit]:
        """A top-level loop of a script or notebook whose body is the whole step: the innermost one."""
        loops = [loop for loop in ctx.scope.nodes(ast.For, ast.While) if trains_in_body(ctx, loop)]
        for loop in loops:
            if not any(any(around is loop for around in ctx.enclosing(inner)) for inner in loops):
                yield self.hit(loop, "this loop computes and applies gradients inline, eagerly, on every batch: "
                                     "move its body into a step function and decorate that; the loop stays Python")
