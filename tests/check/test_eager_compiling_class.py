"""A model whose own ``compile`` forces ``run_eagerly=True`` runs its steps as Python.

heldout44 (tuning data) showed a WGAN-GP model that overrides ``compile`` and calls
``super().compile(**kwargs, run_eagerly=True)``; its callers' ``gan.compile(...)`` never mention
``run_eagerly``. TensorFlow 2.21 runs ``train_step`` and ``call`` eagerly under ``fit`` there (the
first test runs it); tfadvisor said "Keras runs train_step() inside its own tf.function", and its
TF304 fired on a Python ``if`` that runs fine (conformance variant
python-if-in-a-train-step-whose-compile-override-runs-eagerly).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from programs import check

MODEL = """\
    import tensorflow as tf


    class Critic(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def compile(self, critic_opt, **kwargs):
            super().compile(**kwargs, RUN)
            self.critic_opt = critic_opt

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            print("train_step eager:", tf.executing_eagerly())
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
            grads = tape.gradient(loss, self.trainable_variables)
            self.critic_opt.apply_gradients(zip(grads, self.trainable_variables))
            return {"loss": loss}
"""

TRAIN = """\
    import tensorflow as tf

    from critic import Critic

    model = Critic()
    model.compile(tf.keras.optimizers.SGD())
    model.fit(tf.ones([8, 2]), tf.ones([8, 1]), epochs=1, verbose=0)
"""


def _files(run: str) -> dict[str, str]:
    return {"critic.py": MODEL.replace("RUN", run), "train.py": TRAIN}


def _step_reasons(tmp_path: Path, run: str) -> str:
    report = check(tmp_path, _files(run))
    (step,) = [fn for fn in report.functions if fn.qualname == "Critic.train_step"]
    return " ".join([*step.assumptions, *step.reasons])


@pytest.mark.tf
def test_tensorflow_runs_the_step_eagerly(tmp_path: Path) -> None:
    """The evidence: under fit, ``tf.executing_eagerly()`` is True in the step."""
    for name, code in _files("run_eagerly=True").items():
        (tmp_path / name).write_text(textwrap.dedent(code))
    out = subprocess.run([sys.executable, "train.py"], cwd=tmp_path, capture_output=True, text=True, check=True)
    assert "train_step eager: True" in out.stdout


def test_its_step_is_not_called_graph_code(tmp_path: Path) -> None:
    assert "inside its own tf.function" not in _step_reasons(tmp_path, "run_eagerly=True")


def test_without_the_override_keras_traces_the_step(tmp_path: Path) -> None:
    """Control: the same override passing ``run_eagerly=False`` leaves fit's tf.function in place."""
    assert "inside its own tf.function" in _step_reasons(tmp_path, "run_eagerly=False")
