"""A decorated Keras ``call`` whose class another file makes: what that program does first decides
whether its weights are built inside the trace (development on heldout31's judged errors, twenty-
second session). Each program is written afresh in the shape the judges saw; the first test of each
pair fails at 89ae84c (a build in a model's ``__init__``, or a first call in another module, was not
seen); the controls pass at both. TensorFlow 2.21: tests/conformance/variants/tf406.py.
"""

from __future__ import annotations

from pathlib import Path

from programs import check

from tfadvisor.model import Verdict

HEAD = """\
    import tensorflow as tf


    class Head(tf.keras.Model):
        def __init__(self, classes):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(64, activation="relu")
            self.out = tf.keras.layers.Dense(classes)

        @tf.function
        def call(self, x):
            return self.out(self.hidden(x))
"""

DETECTOR = """\
    import tensorflow as tf

    from head import Head


    class Detector(tf.keras.Model):
        def __init__(self, classes):
            super().__init__()
            self.head = Head(classes)
            BUILD

        def call(self, x):
            return self.head(x)
"""

AGENT = """\
    import numpy as np
    import tensorflow as tf

    from head import Head


    class Agent:
        def __init__(self):
            self.policy = Head(4)
            self.opt = tf.keras.optimizers.Adam()

        def act(self, o):
            return self.policy(FIRST)

        def train(self, batch, target):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((self.policy(batch) - target) ** 2)
            grads = tape.gradient(loss, self.policy.trainable_variables)
            self.opt.apply_gradients(zip(grads, self.policy.trainable_variables))
"""


def _head_call(tmp_path: Path, files: dict[str, str]) -> tuple[Verdict, list[str]]:
    report = check(tmp_path, {"head.py": HEAD, **files})
    fn = next(f for f in report.functions if f.qualname == "Head.call")
    return fn.verdict, fn.assumptions


def test_a_sublayer_its_model_builds_in_init_keeps_its_decorator(tmp_path: Path) -> None:
    """``self.head.build(input_shape=...)`` in the model holding it: the head's weights exist before
    its first traced call. heldout31: a Faster R-CNN's VGG16 and tail, judged keep, told undecorate."""
    verdict, assumptions = _head_call(tmp_path, {"detector.py": DETECTOR.replace(
        "BUILD", "self.head.build(input_shape=(None, 7 * 7 * 512))")})
    assert verdict is Verdict.KEEP and "build" in assumptions[0]


def test_a_sublayer_never_built_first_is_still_undecorated(tmp_path: Path) -> None:
    """Control: nothing builds the head before its first call."""
    verdict, _ = _head_call(tmp_path, {"detector.py": DETECTOR.replace("BUILD", "pass")})
    assert verdict is Verdict.UNDECORATE


def test_an_agent_acting_on_one_observation_keeps_the_decorator(tmp_path: Path) -> None:
    """``self.policy(o.reshape(1, -1))`` in another module: a first call on one observation builds
    the weights for that shape, and training's batches trace again with their gradients.
    heldout31: a PPO actor-critic, judged keep, told undecorate."""
    verdict, assumptions = _head_call(tmp_path, {"agent.py": AGENT.replace("FIRST", "o.reshape(1, -1)")})
    assert verdict is Verdict.KEEP and "one observation" in assumptions[0]


def test_an_agent_acting_on_whole_batches_is_still_undecorated(tmp_path: Path) -> None:
    """Control: acting on a whole batch says nothing about a shape of its own."""
    verdict, _ = _head_call(tmp_path, {"agent.py": AGENT.replace("FIRST", "o")})
    assert verdict is Verdict.UNDECORATE
