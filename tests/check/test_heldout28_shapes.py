"""Static advice on shapes the sixteenth session's development worked on (issues 19 and 20).

Each test is a small program written afresh in the shape heldout28's judged corpus showed; the
docstring says what judges decided. All fail at the heldout28 freeze (76db5fd).
"""

from __future__ import annotations

from pathlib import Path

from programs import check, verdicts
from tfadvisor.model import Severity, Verdict


DEBUG_AGENT = """\
    import tensorflow as tf


    class Agent:
        def __init__(self, debug=False):
            self._is_debug = debug
            self.w = tf.Variable(tf.ones([3, 1]))
            self.opt = tf.keras.optimizers.SGD(0.1)
            self.step = self._step if debug else tf.function(self._step)

        def _step(self, x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.matmul(x, self.w) ** 2)
            if self._is_debug:
                print("loss", loss.numpy())
            grads = tape.gradient(loss, [self.w])
            self.opt.apply_gradients(zip(grads, [self.w]))
            return loss


    def main():
        agent = Agent()
        for _ in range(100):
            agent.step(tf.ones([2, 3]))
"""


def test_a_read_under_a_debug_flag_is_a_note_not_an_error(tmp_path: Path) -> None:
    """``if self._is_debug: print(loss.numpy())`` in a step wrapped in tf.function only when the
    flag is off: the branch is never traced (TensorFlow 2.21 runs it: conformance variant
    numpy-under-a-debug-flag-...). heldout28's judges: six TF206 errors of an RL agent, all wrong."""
    report = check(tmp_path, {"agent.py": DEBUG_AGENT})
    found = [f for f in report.findings if f.rule in ("TF201", "TF206")]
    assert found, "the read is still said, as a note"
    assert all(f.severity is Severity.INFO and "debug flag" in f.message for f in found)


EVAL_HELPERS = """\
    import tensorflow as tf


    def resize(images, target_shape=(96, 96, 3)):
        if tf.shape(images)[-1] == 1:
            images = tf.image.grayscale_to_rgb(images)
        resized = []
        for img in images:
            resized.append(tf.image.resize(img, target_shape[:2]))
        return tf.convert_to_tensor(resized)


    def activations(images1, images2):
        if images1.shape[1:] != (96, 96, 3):
            images1, images2 = resize(images1), resize(images2)
        model = tf.keras.applications.MobileNetV2(include_top=False, weights=None)
        return model(images1), model(images2)


    def evaluate(pairs):
        for images1, images2 in pairs:
            act1, act2 = activations(tf.convert_to_tensor(images1), tf.convert_to_tensor(images2))
            print(tf.reduce_mean(act1 - act2))
"""


def test_an_evaluation_helper_that_needs_a_fix_stays_eager(tmp_path: Path) -> None:
    """A helper with no gradients (a resize over a batch, an NMS, a metric) whose code would break
    in a graph: judges left such functions eager (heldout28: 9 of the 11 wrong fix-firsts on eager
    code); the freeze said fix-first."""
    found = verdicts(tmp_path, {"evaluate.py": EVAL_HELPERS})
    assert found["resize"] is Verdict.LEAVE_EAGER


RL_MODEL = """\
    import tensorflow as tf


    class MLP(tf.keras.Model):
        def __init__(self, n_actions):
            super().__init__()
            self.denses = tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu"),
                                               tf.keras.layers.Dense(n_actions)])

        @tf.function
        def call(self, inputs, training=None):
            return self.denses(inputs, training=training)
"""

RL_TRAINER = """\
    import tensorflow as tf


    class Trainer:
        def __init__(self, input_shape, policy_model):
            self.policy_model = policy_model
            self.policy_model.build((None, *input_shape))
            self.optimizer = tf.keras.optimizers.Adam(1e-3)

        def select_action(self, state):
            return tf.argmax(self.policy_model(state, training=False), axis=1)

        def update(self, states, targets):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self.policy_model(states, training=True) - targets))
            grads = tape.gradient(loss, self.policy_model.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.policy_model.trainable_variables))
            return loss
"""


def test_a_decorated_model_call_the_program_builds_first_is_kept(tmp_path: Path) -> None:
    """A decorated ``call`` of a model made in another file, built with ``model.build(shape)``
    before its first call: its weights exist before the trace and get gradients (TensorFlow 2.21:
    tests/conformance/variants/tf406.py), and the decorator makes each eager call a graph.
    heldout28's judges: keep, four RL models (the freeze said undecorate)."""
    found = verdicts(tmp_path, {"model.py": RL_MODEL, "trainer.py": RL_TRAINER})
    assert found["MLP.call"] is Verdict.KEEP


def test_a_decorated_model_call_nobody_builds_first_still_comes_off(tmp_path: Path) -> None:
    """Without a build anywhere, the weights are made in the trace: the decorator comes off."""
    trainer = RL_TRAINER.replace("            self.policy_model.build((None, *input_shape))\n", "")
    found = verdicts(tmp_path, {"model.py": RL_MODEL, "trainer.py": trainer})
    assert found["MLP.call"] is Verdict.UNDECORATE


def test_building_another_model_does_not_keep_the_decorator(tmp_path: Path) -> None:
    """The program builds a model of another class first (``head = Head(); head.build(shape)``)
    and trains this one unbuilt: its weights are made in the trace and get no gradients, so the
    decorator still comes off (benchmarks/corpus/mlproj: ``ResidualBlock.call``)."""
    trainer = RL_TRAINER.replace("            self.policy_model.build((None, *input_shape))\n",
                                 "            head = Head()\n            head.build((None, 4))\n")
    trainer = trainer.replace("class Trainer:", "class Head(tf.keras.layers.Dense):\n"
                              "        def __init__(self):\n            super().__init__(1)\n\n\n    class Trainer:")
    found = verdicts(tmp_path, {"model.py": RL_MODEL, "trainer.py": trainer})
    assert found["MLP.call"] is Verdict.UNDECORATE


WGAN_TRAIN = """\
    import tensorflow as tf


    class GAN:
        def __init__(self, data):
            self.data = data
            self.noise_dim = 8
            self.G = tf.keras.Sequential([tf.keras.layers.Dense(3)])
            self.D = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            self.opt = tf.keras.optimizers.Adam(1e-4)

        @tf.function
        def train_generator(self, batch_size):
            with tf.GradientTape() as tape:
                fake = self.G(tf.random.uniform([batch_size, self.noise_dim]), training=True)
                loss = -tf.reduce_mean(self.D(fake, training=True))
            grads = tape.gradient(loss, self.G.trainable_variables)
            self.opt.apply_gradients(zip(grads, self.G.trainable_variables))
            return loss

        def train(self, epochs):
            for epoch in range(epochs):
                for b in self.data:
                    self.train_generator(b.shape[0])
"""


def test_the_batch_size_of_each_batch_is_not_a_retrace_per_call(tmp_path: Path) -> None:
    """``train_generator(b.shape[0])`` over batches: full batches and the last one, two traces in
    a whole run (TensorFlow 2.21: conformance variant batch-size-of-each-batch-of-a-dataset).
    heldout28's judges: four TF101/TF503 claims of this shape wrong, run."""
    report = check(tmp_path, {"gan.py": WGAN_TRAIN})
    assert not [f for f in report.findings if f.rule in ("TF101", "TF503")]
    assert {fn.qualname: fn.verdict for fn in report.functions}["GAN.train_generator"] is Verdict.KEEP
