"""What Keras 3 runs without AutoGraph runs its callees without it too (decision 0042).

A layer's ``call``, a model's ``train_step`` and a metric's ``update_state``/``result`` when Keras
runs them are not converted; nor is anything they call, in another module too, short of a
tf.function of its own. A Python ``if`` on a tensor there raises (TensorFlow 2.21:
tests/conformance/variants/tf304.py). Programs written afresh; the controls pass before and after.
"""

from __future__ import annotations

from pathlib import Path

from programs import check

OPS = """\
    import tensorflow as tf


    def normalize(x):
        if tf.reduce_max(x) > 1.0:
            return x / tf.reduce_max(x)
        return x
"""

LAYERS = """\
    import tensorflow as tf

    from ops import normalize


    class Normalized(tf.keras.layers.Layer):
        def call(self, x):
            return normalize(x)


    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.norm = Normalized()
            self.out = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.out(self.norm(x))
"""

TRAIN = """\
    import tensorflow as tf

    from layers import Net

    model = Net()
    model.compile(optimizer="sgd", loss="mse")
    model.fit(tf.ones([8, 2]), tf.ones([8, 1]), epochs=1)
"""

DIRECT = """\
    import tensorflow as tf

    from ops import normalize


    @tf.function
    def forward(x):
        return normalize(x) * 2.0


    for _ in range(10):
        forward(tf.ones([2, 2]))
"""


def _tf304_lines(tmp_path: Path, files: dict[str, str]) -> set[tuple[str, int]]:
    report = check(tmp_path, files)
    return {(Path(f.path).name, f.line) for f in report.findings if f.rule == "TF304"}


def test_a_helper_a_fitted_layer_calls_runs_without_autograph(tmp_path: Path) -> None:
    """``normalize`` in ops.py, called by a layer's ``call`` in layers.py, the model fitted in
    train.py: fit traces it unconverted, and its ``if`` raises."""
    assert ("ops.py", 5) in _tf304_lines(tmp_path, {"ops.py": OPS, "layers.py": LAYERS, "train.py": TRAIN})


def test_a_helper_a_tf_function_calls_directly_is_converted(tmp_path: Path) -> None:
    """Control: called straight from a tf.function, AutoGraph converts the helper's ``if``."""
    assert not _tf304_lines(tmp_path, {"ops.py": OPS, "step.py": DIRECT})


def test_a_list_checked_by_isinstance_is_not_a_tensor_condition(tmp_path: Path) -> None:
    """``isinstance(x, (list, tuple)) and x``: Python asks for ``x``'s truth value only when it is
    a list (heldout36: a CRF layer's helper)."""
    helper = OPS.replace("if tf.reduce_max(x) > 1.0:", "if isinstance(x, (list, tuple)) and x:")
    assert not _tf304_lines(tmp_path, {"ops.py": helper, "layers.py": LAYERS, "train.py": TRAIN})
