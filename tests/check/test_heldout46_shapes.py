"""A decorated Keras ``call`` in a models file whose only maker is a factory the file never runs.

heldout46 (tuning data since its figures were read) showed a models file defining
``class VGG(tf.keras.Model)`` with ``@tf.function`` on ``call`` and factories ``VGG16()``/``VGG19()``
returning instances; the training script is another file. tfadvisor took the factory for the
program making the model and, since the models file never trains, for one that never asks for
gradients: TF406 stayed silent and the verdict was keep. The judge ran the shape: trained from
another file, the first call builds the weights inside the trace and TensorFlow 2.21 raises "No
gradients provided for any variable" (the first test runs it).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from programs import check
from tfadvisor.model import Verdict

MODELS = """\
    import tensorflow as tf


    class Net(tf.keras.Model):
        def __init__(self, widths):
            super().__init__()
            self.main = tf.keras.Sequential([])
            for width in widths:
                self.main.add(tf.keras.layers.Dense(width, activation="relu"))
            self.main.add(tf.keras.layers.Dense(1))

        @tf.function
        def call(self, x, training=False):
            return self.main(x, training=training)


    def small_net():
        return Net([8, 8])
"""

TRAIN = """\
    import tensorflow as tf

    from models import small_net

    model = small_net()
    optimizer = tf.keras.optimizers.SGD(0.1)
    x, y = tf.random.normal([16, 3]), tf.random.normal([16, 1])
    for step in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
"""

# The same file run as its own program: the factory is called at the top level, nothing trains
SCRIPT = MODELS + """
    net = small_net()
    print(net(tf.ones([2, 3])).shape)
"""


@pytest.mark.tf
def test_tensorflow_gives_no_gradients(tmp_path: Path) -> None:
    """The evidence: trained from another file, the decorated call's weights get no gradients."""
    for name, code in {"models.py": MODELS, "train.py": TRAIN}.items():
        (tmp_path / name).write_text(textwrap.dedent(code))
    out = subprocess.run([sys.executable, "train.py"], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode != 0 and "No gradients provided for any variable" in out.stderr


def _call(tmp_path: Path, files: dict[str, str]):
    report = check(tmp_path, files)
    (call,) = [fn for fn in report.functions if fn.qualname == "Net.call"]
    return call


@pytest.mark.parametrize("models", [MODELS, MODELS.replace("return Net([8, 8])", "net = Net([8, 8])\n        return net")])
def test_a_factory_the_file_never_runs_leaves_the_program_to_another_file(tmp_path: Path, models: str) -> None:
    call = _call(tmp_path, {"models.py": models})
    assert call.verdict is Verdict.UNDECORATE and "TF406" in call.reasons


def test_with_the_training_script_beside_it(tmp_path: Path) -> None:
    call = _call(tmp_path, {"models.py": MODELS, "train.py": TRAIN})
    assert call.verdict is Verdict.UNDECORATE and "TF406" in call.reasons


def test_a_factory_the_file_runs_itself_without_training_stays_kept(tmp_path: Path) -> None:
    """The file is the program, and it never asks for gradients: nothing to take off. (A model made
    and used inside a function, as a ``main()``, is the program's too: conformance variant
    layer-with-its-own-build-inside-a-model-trained-with-fit.)"""
    call = _call(tmp_path, {"models.py": SCRIPT})
    assert call.verdict is not Verdict.UNDECORATE and "TF406" not in call.reasons
