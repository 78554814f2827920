"""TF606 keras-compile-options (run time: fires from a measured Keras training)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class KerasCompileOptions(Rule):
    code = "TF606"
    name = "keras-compile-options"
    severity = Severity.WARNING
    scope = "runtime"
    detection = "D"
    summary = "measured: other compile() options make this model's fit faster with the same results"
    why = """\
`model.fit` runs `train_step` as a `tf.function` that `compile()` configures: `run_eagerly=True`
runs every step eagerly (a debugging switch: the graph speed-up is gone), `jit_compile=True`
compiles the step with XLA (fused kernels; on CPU it is `False` unless asked for, and it can be
slower for convolutions), and `steps_per_execution=N` runs N steps per call from Python (less
per-step overhead for small models; callbacks then see every N-th batch). Which of these pays
depends on the model and the machine. `tfadvisor run` measures them on your own model and data,
for a few steps from the same start with the variables put back after, and advises only options
that were clearly faster and gave the same losses and weights.
"""
    bad = (
        """\
import numpy as np
import tensorflow as tf

x = np.random.rand(4096, 16).astype("float32")
y = x.sum(axis=1, keepdims=True)
model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse", run_eagerly=True)  # TF606
model.fit(x, y, batch_size=32, epochs=5, verbose=0)
""",
        """\
import numpy as np
import tensorflow as tf

x = np.random.rand(8192, 8).astype("float32")
y = (x[:, :1] > 0.5).astype("float32")
model = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer="sgd", loss="binary_crossentropy")  # TF606
model.fit(x, y, batch_size=16, epochs=3, verbose=0)
""",
    )
    good = (
        """\
import numpy as np
import tensorflow as tf

x = np.random.rand(4096, 16).astype("float32")
y = x.sum(axis=1, keepdims=True)
model = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"), tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse", jit_compile=True, steps_per_execution=32)
model.fit(x, y, batch_size=32, epochs=5, verbose=0)
""",
        """\
import numpy as np
import tensorflow as tf

images = np.random.rand(512, 64, 64, 3).astype("float32")
labels = np.random.randint(0, 10, size=512)
model = tf.keras.Sequential([tf.keras.layers.Conv2D(64, 3, activation="relu"), tf.keras.layers.Flatten(),
                             tf.keras.layers.Dense(10)])
# large steps: the loop's overhead is noise, and XLA's CPU convolutions are slower than oneDNN's
model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(images, labels, batch_size=64, epochs=2, verbose=0)
""",
    )
    fix = "safe"
    fix_by = "keras"
    fix_description = ("set the measured options in the compile() call (run_eagerly=False, jit_compile=True, "
                       "steps_per_execution=N): only those that gave the same losses and weights")
