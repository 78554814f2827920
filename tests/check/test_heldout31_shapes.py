"""Static advice on shapes heldout31's judged corpus showed (development after its figures were read).

Each test is a small program written afresh in the shape the judges saw; the docstring says what
they decided. The first of each pair fails at the heldout31 freeze (7e3607d); the controls pass at
both. TF406's narrowing is grounded in its conformance variants (tests/conformance/variants/tf406.py).
"""

from __future__ import annotations

from pathlib import Path

from programs import verdicts

from tfadvisor.model import Verdict

STEP_WRAPPED_BY_A_FACTORY = """\
    import tensorflow as tf


    class GraphModel(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)
            self.opt = tf.keras.optimizers.Adam()

        def build(self, input_shape):
            super().build(input_shape)
            spec = (tf.TensorSpec([None, 3]), tf.TensorSpec([None, 1]))
            setattr(self, "_run_step", tf.function(input_signature=spec)(self._run_step))

        def run_epoch(self, dataset):
            for x, y in dataset:
                self._run_step(x, y)

        def _run_step(self, x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((self.dense(x) - y) ** 2)
            grads = tape.gradient(loss, self.trainable_variables)
            self.opt.apply_gradients(zip(grads, self.trainable_variables))
            return loss
"""


def test_a_method_wrapped_by_a_tf_function_factory_is_a_tf_function(tmp_path: Path) -> None:
    """``tf.function(input_signature=spec)(self._run_step)`` in ``build``: the step already is a
    tf.function. heldout31's judges: two forks of a graph library's run step told decorate, judged keep."""
    found = verdicts(tmp_path, {"model.py": STEP_WRAPPED_BY_A_FACTORY})
    assert found["GraphModel._run_step"] is Verdict.KEEP


def test_a_method_wrapped_with_func_given_by_keyword_is_a_tf_function(tmp_path: Path) -> None:
    """``tf.function(func=self._run_step, input_signature=spec)``: the same, with the function
    passed by keyword (heldout31: a graph library's layer call judged keep, told leave-eager)."""
    program = STEP_WRAPPED_BY_A_FACTORY.replace(
        "tf.function(input_signature=spec)(self._run_step)", "tf.function(func=self._run_step, input_signature=spec)")
    found = verdicts(tmp_path, {"model.py": program})
    assert found["GraphModel._run_step"] is Verdict.KEEP


def test_an_unwrapped_method_step_is_still_told_to_decorate(tmp_path: Path) -> None:
    """Control: without the wrapping line the same step is eager, called per batch."""
    program = STEP_WRAPPED_BY_A_FACTORY.replace(
        '            setattr(self, "_run_step", tf.function(input_signature=spec)(self._run_step))\n', "")
    found = verdicts(tmp_path, {"model.py": program})
    assert found["GraphModel._run_step"] is Verdict.DECORATE


PADDED_TO_A_FIXED_LENGTH = """\
    import tensorflow as tf

    MAX_LENGTH = 40


    def main():
        model = tf.keras.Sequential([tf.keras.layers.Embedding(100, 8), tf.keras.layers.Dense(100)])
        opt = tf.keras.optimizers.Adam()
        lines = tf.data.Dataset.range(1000).map(lambda n: tf.range(n % 30 + 1))
        dataset = lines.map(lambda t: (t, t)).padded_batch(
            16, padded_shapes=([MAX_LENGTH + 2], [MAX_LENGTH + 2]), drop_remainder=True)

        @tf.function
        def train_step(src, tgt):
            with tf.GradientTape() as tape:
                logits = model(src)
                loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(tgt, logits, from_logits=True))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        for epoch in range(10):
            for src, tgt in dataset:
                train_step(src, tgt)
"""


def test_batches_padded_to_a_written_length_do_not_change_shape(tmp_path: Path) -> None:
    """``padded_batch(16, padded_shapes=([MAX_LENGTH + 2], ...))``: every batch is 16 x 42, one
    trace. heldout31's judges: a seq2seq step told reconfigure (TF104), judged keep."""
    found = verdicts(tmp_path, {"train.py": PADDED_TO_A_FIXED_LENGTH})
    assert found["main.<locals>.train_step"] is Verdict.KEEP


def test_batches_padded_to_their_longest_element_still_change_shape(tmp_path: Path) -> None:
    """Control: ``padded_shapes=([None], [None])`` pads each batch to its own longest line: a new
    shape, a new trace (TF104)."""
    program = PADDED_TO_A_FIXED_LENGTH.replace("[MAX_LENGTH + 2], [MAX_LENGTH + 2]", "[None], [None]")
    found = verdicts(tmp_path, {"train.py": program})
    assert found["main.<locals>.train_step"] is Verdict.RECONFIGURE


HELPER_THROUGH_AN_ATTRIBUTE = """\
    import tensorflow as tf


    class Nets:
        def __init__(self):
            self.encoder = tf.keras.Sequential([tf.keras.layers.Dense(8)])
            self.decoder = tf.keras.Sequential([tf.keras.layers.Dense(4)])
            self.opt = tf.keras.optimizers.Adam()

        def update(self, grads):
            variables = self.encoder.trainable_weights + self.decoder.trainable_weights
            self.opt.apply_gradients(zip(grads, variables))


    class Trainer:
        def __init__(self):
            self.net = Nets()

        def train_batch(self, batch):
            with tf.GradientTape() as tape:
                out = self.net.decoder(self.net.encoder(batch))
                loss = tf.reduce_mean(tf.square(batch - out))
            variables = self.net.encoder.trainable_weights + self.net.decoder.trainable_weights
            self.net.update(tape.gradient(loss, variables))
            return loss


    def main():
        trainer = Trainer()
        dataset = tf.data.Dataset.from_tensor_slices(tf.random.normal([512, 4])).batch(32)
        for epoch in range(20):
            for batch in dataset:
                trainer.train_batch(batch)
"""


def test_a_helper_called_through_an_attribute_is_covered_by_its_step(tmp_path: Path) -> None:
    """``self.net.update(grads)`` from the per-batch step, once ``self.net``'s class is known: the
    step is the unit a graph would be, and it converts the helper. heldout31's judges: an
    autoencoder's update helper told decorate on its own, judged leave-eager."""
    found = verdicts(tmp_path, {"train.py": HELPER_THROUGH_AN_ATTRIBUTE})
    assert found["Trainer.train_batch"] is Verdict.DECORATE
    assert found["Nets.update"] is Verdict.LEAVE_EAGER


FLOAT64_TARGETS_FROM_PANDAS = """\
    import pandas as pd
    import tensorflow as tf

    df = pd.read_csv("housing.csv")
    df = df.values
    x_data = tf.cast(df[:, :13], tf.float32)
    y_data = df[:, 13]

    W = tf.Variable(tf.random.normal([13, 1]))
    B = tf.Variable(tf.zeros(1))
    optimizer = tf.keras.optimizers.SGD(0.01)


    def model(x, w, b):
        return tf.matmul(x, w) + b


    def loss(x, y, w, b):
        err = model(x, w, b) - y
        return tf.reduce_mean(tf.square(err))


    def grad(x, y, w, b):
        with tf.GradientTape() as tape:
            loss_ = loss(x, y, w, b)
        return tape.gradient(loss_, [w, b])


    for epoch in range(200):
        for step in range(60):
            xs = x_data[step * 5:(step + 1) * 5, :]
            ys = y_data[step * 5:(step + 1) * 5]
            grads = grad(xs, ys, W, B)
            optimizer.apply_gradients(zip(grads, [W, B]))
"""


def test_float64_targets_sliced_from_a_frames_values_hold_a_step_back(tmp_path: Path) -> None:
    """``df = df.values`` after ``df = pd.read_csv(...)``: the targets are float64 NumPy slices,
    which a tf.function turns into float64 tensors that meet the float32 prediction (TF109).
    heldout31's judges: a regression step told decorate, judged fix-first (they ran it)."""
    found = verdicts(tmp_path, {"main.py": FLOAT64_TARGETS_FROM_PANDAS})
    assert found["grad"] is Verdict.FIX_FIRST


def test_float32_targets_from_a_frame_still_decorate(tmp_path: Path) -> None:
    """Control: cast to float32 first, and the same step is worth decorating as it is."""
    program = FLOAT64_TARGETS_FROM_PANDAS.replace("y_data = df[:, 13]", "y_data = tf.cast(df[:, 13:], tf.float32)")
    found = verdicts(tmp_path, {"main.py": program})
    assert found["grad"] is Verdict.DECORATE
