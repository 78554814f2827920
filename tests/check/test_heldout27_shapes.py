"""Static advice on shapes the fourteenth session's development worked on (issues 19 and 20).

Each test is a small program written afresh in the shape the judged corpus showed; the docstring
says what judges decided. All fail at the heldout27 freeze (463e67b).
"""

from __future__ import annotations

from pathlib import Path

from programs import check, verdicts
from tfadvisor.model import Verdict


NUMPY_BACKPROP = """\
    import numpy as np


    class Regression:
        def __init__(self, dim):
            self.w = np.random.normal(size=(dim,))
            self.b = 0.0

        def __call__(self, x):
            return self.forward(x)

        def forward(self, x):
            return 1 / (1 + np.exp(-(np.matmul(x, self.w) + self.b)))

        def gradients(self, x, t):
            delta = self.forward(x) - t
            return np.matmul(x.T, delta), delta.sum()


    if __name__ == "__main__":
        model = Regression(2)
        x, t = np.array([[0, 0], [0, 1], [1, 1]]), np.array([0, 1, 1])

        def cross_entropy(t, y):
            return (-t * np.log(y) - (1 - t) * np.log(1 - y)).sum()

        def train_step(x, t):
            dw, db = model.gradients(x, t)
            model.w = model.w - 0.1 * dw
            model.b = model.b - 0.1 * db
            return cross_entropy(t, model(x))

        for epoch in range(1000):
            loss = train_step(x, t)
"""


def test_a_numpy_chapter_of_a_tensorflow_book_is_left_alone(tmp_path: Path) -> None:
    """A NumPy-only file (a book's hand-written backprop chapter, next to its TensorFlow chapters):
    its ``model(x)`` is a NumPy object's ``__call__``. heldout27's judges: leave-eager, five times
    (the freeze said fix-first)."""
    found = verdicts(tmp_path, {"numpy_mlp.py": NUMPY_BACKPROP,
                                "tf_mlp.py": "import tensorflow as tf\n\nlayer = tf.keras.layers.Dense(1)\n"})
    assert found["train_step"] is Verdict.LEAVE_EAGER
    assert all(v is Verdict.LEAVE_EAGER for v in found.values())


TEMPLATE_TRAINER = """\
    import tensorflow as tf
    from losses import weight_penalty


    class Network:
        def __init__(self, dataset):
            self.classifier = tf.keras.Sequential([tf.keras.layers.Dense(10)])
            self.optimizer = tf.keras.optimizers.Adam()
            self.dataset_iter = iter(dataset)

        def train_step(self, images):
            with tf.GradientTape() as tape:
                logits = self.classifier(images)
                self.loss = tf.reduce_mean(logits) + weight_penalty(self.classifier)
            grads = tape.gradient(self.loss, self.classifier.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.classifier.trainable_variables))
            return self.loss

        def train(self, steps):
            writer = tf.summary.create_file_writer("logs")
            for step in range(steps):
                images = next(self.dataset_iter)
                loss = self.train_step(images)
                with writer.as_default():
                    tf.summary.scalar("loss", self.loss, step=step)
"""


def test_a_step_whose_loss_its_driver_reads_from_self_is_fixed_first(tmp_path: Path) -> None:
    """``self.loss`` set in the step and read by the method that drives it, after the call: as a
    tf.function the attribute holds a tensor of the trace, out of scope there (TensorFlow 2.21
    raises). heldout27's judges: fix-first, return the loss (the freeze said decorate)."""
    report = check(tmp_path, {"network.py": TEMPLATE_TRAINER,
                              "losses.py": "import tensorflow as tf\n\n\ndef weight_penalty(model):\n"
                                           "    return tf.add_n([tf.nn.l2_loss(w) for w in model.weights])\n"})
    step = next(fn for fn in report.functions if fn.qualname == "Network.train_step")
    assert step.verdict is Verdict.FIX_FIRST
    assert any(f.rule == "TF204" and f.function.endswith("network.py::Network.train_step") for f in report.findings)


MAP_NOTEBOOK_SCRIPT = """\
    import numpy as np
    import tensorflow as tf


    @tf.function
    def times_three(n):
        return n * 3


    perf_ds = tf.data.Dataset.from_tensor_slices(np.arange(1000))
    perf_ds = perf_ds.map(times_three)
    for n in perf_ds:
        pass
"""


def test_a_decorated_map_function_is_kept_whatever_its_parameter_is_called(tmp_path: Path) -> None:
    """What Dataset.map passes are tensors: ``n`` is no loop count there, and ``n * 3`` is tensor
    work. heldout27's judges: keep (the freeze said undecorate: no tensor work, ``n`` guessed a
    Python number from its name)."""
    assert verdicts(tmp_path, {"pipeline.py": MAP_NOTEBOOK_SCRIPT})["times_three"] is Verdict.KEEP


EXPORTED_CALL_MODEL = """\
    import tensorflow as tf


    class TextCNN(tf.keras.Model):
        def __init__(self, classes):
            super().__init__()
            self.conv = tf.keras.layers.Conv1D(64, 3)
            self.out = tf.keras.layers.Dense(classes)

        @tf.function
        def call(self, inputs, training=None):
            return self.out(tf.reduce_max(self.conv(inputs), axis=1))
"""

EXPORTED_CALL_PREDICTOR = """\
    import tensorflow as tf


    class Predictor:
        def __init__(self, model, folder):
            self.model = model
            self.folder = folder

        def save_model(self, length, width):
            spec = tf.TensorSpec([None, length, width], tf.float32, name="inputs")
            tf.saved_model.save(self.model, self.folder, signatures=self.model.call.get_concrete_function(spec))
"""


def test_a_decorated_call_whose_graph_the_program_exports_keeps_its_decorator(tmp_path: Path) -> None:
    """``self.model.call.get_concrete_function(spec)`` on a model whose class the analysis cannot
    tell: undecorated, the model's ``call`` has no get_concrete_function and the export breaks.
    heldout24's judges: keep, three times (the freeze said undecorate)."""
    found = verdicts(tmp_path, {"textcnn.py": EXPORTED_CALL_MODEL, "predict.py": EXPORTED_CALL_PREDICTOR})
    assert found["TextCNN.call"] is Verdict.KEEP
