"""Static advice on shapes heldout29's judged corpus showed (development after its figures were read).

Each test is a small program written afresh in the shape the judges saw; the docstring says what
they decided. All fail at the heldout29 freeze (2cdd3ee).
"""

from __future__ import annotations

from pathlib import Path

from programs import check

METRIC_WITH_ITS_OWN_FIT = """\
    import numpy as np
    import tensorflow as tf


    class LDA(tf.keras.metrics.Metric):
        def __init__(self, model, loader):
            super().__init__(name="lda")
            self.model = model
            self.loader = loader

        def update_state(self, y_true, y_pred, sample_weight=None):
            pass

        def result(self):
            outputs, ys = [], []
            for x, y in self.loader:
                outputs.append(self.model(x, training=False))
                ys.append(y.numpy())
            self.fit(tf.concat(outputs, axis=0), np.concatenate(ys))
            return self.coef

        def fit(self, X, y):
            means = tf.stack([tf.reduce_mean(X[y == i], axis=0) for i in np.unique(y)])
            self.coef = means.numpy()
            return self.coef
"""

SOLVER = """\
    from metrics import LDA


    class Solver:
        def __init__(self, model, loader):
            self.lda = LDA(model, loader)

        def test(self, features, labels):
            self.lda.fit(features, labels)
            return self.lda.coef
"""


def test_a_metric_whose_own_fit_the_program_calls_is_not_graph_code(tmp_path: Path) -> None:
    """``self.lda.fit(X, y)`` in another module calls the metric's own ``fit``, not Keras's loop: nothing traces the
    metric's ``result`` or ``fit``, and their ``.numpy()`` calls run eagerly. heldout29's judges:
    five claims of this shape wrong (TF206, TF204, TF208)."""
    report = check(tmp_path, {"metrics.py": METRIC_WITH_ITS_OWN_FIT, "solver.py": SOLVER})
    assert not [f for f in report.findings if f.severity.value != "info"]


ONE_OBSERVATION_FIRST = """\
    import tensorflow as tf


    class Critic(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(8)
            self.out = tf.keras.layers.Dense(1)

        @tf.function
        def call(self, x):
            return self.out(self.hidden(x))


    critic = Critic()
    critic(tf.ones([1, 3]))
    opt = tf.keras.optimizers.SGD(0.01)


    def train(batches):
        for x, y in batches:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(critic(x) - y))
            grads = tape.gradient(loss, critic.trainable_variables)
            opt.apply_gradients(zip(grads, critic.trainable_variables))
"""


def test_a_model_first_called_on_one_observation_is_not_said_to_lose_its_gradients(tmp_path: Path) -> None:
    """``critic(tf.ones([1, 3]))`` before training on batches: the batches trace again and the
    weights get their gradients (TensorFlow 2.21: conformance variant
    built-by-an-eager-call-on-one-observation-then-trained-on-batches). TF406 stays a note."""
    report = check(tmp_path, {"critic.py": ONE_OBSERVATION_FIRST})
    found = [f for f in report.findings if f.rule == "TF406"]
    assert found and all(f.severity.value == "info" for f in found)


SWITCH_IN_MAIN = """\
    import tensorflow as tf

    from backbone import Backbone, anchors


    def main():
        tf.config.run_functions_eagerly(True)
        model = Backbone()
        for step in range(10):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(model(tf.ones([2, 4])))
            grads = tape.gradient(loss, model.trainable_variables)
"""

BACKBONE = """\
    import tensorflow as tf


    class Backbone(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(3)

        def call(self, x):
            return self.dense(x)


    @tf.function
    def anchors(n):
        return tf.range(n)
"""


def test_eager_switch_in_a_program_whose_tf_function_nobody_calls_is_not_a_warning(tmp_path: Path) -> None:
    """The switch turns nothing eager when the program's one tf.function is imported and never called
    (TensorFlow 2.21 labels the conformance variant "same"). heldout29's judges: both TF405 claims of
    this shape wrong or debatable."""
    report = check(tmp_path, {"main.py": SWITCH_IN_MAIN, "backbone.py": BACKBONE})
    assert "TF405" not in {f.rule for f in report.findings}
    called = SWITCH_IN_MAIN.replace("grads = tape", "anchors(3)\n            grads = tape")
    report = check(tmp_path, {"main.py": called, "backbone.py": BACKBONE})
    assert [f.rule for f in report.findings if f.rule == "TF405"] == ["TF405"]


EARLY_RETURN = """\
    import tensorflow as tf


    def load_model():
        return tf.keras.Sequential([tf.keras.layers.Dense(2)])


    def detect(model, image):
        @tf.function
        def detect_fn(x):
            return model(x)

        return detect_fn(image)


    def main(images):
        model = load_model()
        print("reached here")
        return
        for image in images:
            detect(model, image)
"""


def test_a_loop_after_a_return_makes_no_call(tmp_path: Path) -> None:
    """A ``main`` that returns before its per-image loop (left in while debugging) never calls ``detect``
    there: its tf.function is not made per call. heldout29's judges: the TF102 claim debatable, the
    reconfigure verdict wrong."""
    report = check(tmp_path, {"detect.py": EARLY_RETURN})
    assert "TF102" not in {f.rule for f in report.findings}
    assert {fn.qualname: fn.verdict.value for fn in report.functions}["detect.<locals>.detect_fn"] != "reconfigure"
    looping = EARLY_RETURN.replace("        return\n", "")
    report = check(tmp_path, {"detect.py": looping})
    assert "TF102" in {f.rule for f in report.findings}
