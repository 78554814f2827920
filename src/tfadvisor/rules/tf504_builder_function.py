"""TF504 builder-function (advice: fires from the verdict the advice module gives)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class BuilderFunction(Rule):
    code = "TF504"
    name = "builder-function"
    severity = Severity.INFO
    scope = "advice"
    summary = "builds layers, models, optimizers or datasets: definition, not computation; do not decorate it"
    why = """\
A function that constructs Keras layers, models, optimizers or `tf.data` pipelines defines
what will compute; it does not compute. The seed's second answer: do not decorate the functions
that build the encoder, the decoder or any layer; decorate the train and predict steps. Under
tf.function such a builder would also create variables on every trace (TF401).
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def build_model(units):  # TF504
    return tf.keras.Sequential([
        tf.keras.layers.Dense(units, activation="relu"),
        tf.keras.layers.Dense(1),
    ])
""",
        """\
import tensorflow as tf

@tf.function
def make_dataset(x, y, batch_size):  # TF504
    return tf.data.Dataset.from_tensor_slices((x, y)).shuffle(100).batch(batch_size)
""",
    )
    good = (
        """\
import tensorflow as tf

def predict(model, x):
    logits = model(x)
    probs = tf.nn.softmax(logits)
    return tf.argmax(probs, axis=-1)
""",
        """\
import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
""",
    )
