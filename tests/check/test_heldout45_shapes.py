"""Static advice on shapes heldout45's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. Each test fails at heldout45's version
K (9c8f9bf). The comprehension over a list that a
statement spanning two lines rebinds is conformance variant
comprehension-over-the-list-a-multiline-concat-rebinds (tests/conformance/variants/tf305.py).
"""

from __future__ import annotations

from pathlib import Path

from programs import check, verdicts

ATTENTION = """\
    import numpy as np
    import tensorflow as tf


    class SelfAttn(tf.keras.layers.Layer):
        def __init__(self):
            self.heads = 4
            self.head_dim = 8
            super(SelfAttn, self).__init__()

        def build(self, input_shape):
            self.q = tf.keras.layers.Dense(self.heads * self.head_dim)

        def call(self, x):
            q = self.q(x)
            score = tf.linalg.matmul(q, q, transpose_b=True)
            score /= np.sqrt(self.head_dim)
            return tf.nn.softmax(score, -1)


    class Block(tf.keras.layers.Layer):
        def build(self, input_shape):
            MAKE

        def call(self, x):
            return USE


    block = Block()
    opt = tf.keras.optimizers.Adam()


    def run_step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(block(x))
        grads = tape.gradient(loss, block.trainable_weights)
        opt.apply_gradients(zip(grads, block.trainable_weights))
        return loss


    for x in tf.data.Dataset.from_tensor_slices(tf.ones([16, 5, 32])).batch(4):
        print(float(run_step(x)))
"""


def _step(tmp_path: Path, make: str, use: str) -> str:
    code = ATTENTION.replace("MAKE", make).replace("USE", use)
    return verdicts(tmp_path, {"train.py": code})["run_step"].value


def test_numpy_on_what_init_set_in_a_layer_made_in_build_is_a_constant(tmp_path: Path) -> None:
    """``np.sqrt(self.head_dim)`` with ``self.head_dim = 8`` set in ``__init__``, the layer made in
    its owner's ``build`` (Keras runs it once): a number fixed for the layer's life, right in a
    graph. heldout45: fix-first "NumPy on changing values", judged decorate."""
    assert _step(tmp_path, "self.attn = SelfAttn()", "self.attn(x)") == "decorate"



MODEL = """\
    import tensorflow as tf


    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)


    model = Net()
    opt = tf.keras.optimizers.Adam()
    data = tf.data.Dataset.from_tensor_slices((tf.ones([64, 3]), tf.ones([64, 1]))).batch(8)
    USE
"""

INLINE = """for x, y in data:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))"""


def _call_says(tmp_path: Path, use: str) -> str:
    report = check(tmp_path, {"net.py": MODEL.replace("USE", use)})
    (call,) = [fn for fn in report.functions if fn.qualname == "Net.call"]
    return " ".join(call.assumptions)


def test_a_model_trained_in_an_inline_loop_is_not_said_to_be_compiled_by_keras(tmp_path: Path) -> None:
    """heldout43 (tuning): notebooks train a subclassed model in an inline tape loop, never fit; its
    ``call`` runs eagerly there, and "Keras compiles a layer's call itself" was not true."""
    says = _call_says(tmp_path, INLINE)
    assert "Keras compiles" not in says and "nothing in the checked code runs this one in a graph" in says


def test_a_fitted_model_is(tmp_path: Path) -> None:
    """Control: fit traces the model's ``call``."""
    assert "Keras compiles" in _call_says(tmp_path, "model.compile('adam', 'mse')\n    model.fit(data, epochs=1)")
