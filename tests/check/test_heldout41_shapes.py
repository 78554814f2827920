"""Static advice on shapes heldout41's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout41's version G (7b62a98); the controls pass at both.
"""

from __future__ import annotations

from pathlib import Path

from programs import check

from tfadvisor.model import Verdict

LINEAR = """\
    import tensorflow as tf

    W = tf.Variable(tf.random.normal([1]))
    b = tf.Variable(tf.random.normal([1]))


    @tf.function
    def hypothesis(x):
        return W * x + b


    xs = [1.0, 2.0, 3.0]
    ys = [3.0, 5.0, 7.0]
    optimizer = tf.optimizers.SGD(0.01)
    for step in range(300):
        with tf.GradientTape() as tape:
            cost = tf.reduce_mean(tf.square(hypothesis(xs) - ys))
        optimizer.apply_gradients(zip(tape.gradient(cost, [W, b]), [W, b]))
"""


def test_arithmetic_on_module_level_variables_is_tensor_work(tmp_path: Path) -> None:
    """``W * x + b`` with ``W`` and ``b`` module-level ``tf.Variable``s: TensorFlow runs a multiply
    and an add whatever ``x`` is (it converts a list), so TF502 ("no tensor work") does not fire
    (heldout41: three such functions in two repositories, each claim judged false)."""
    report = check(tmp_path, {"linear.py": LINEAR})
    assert not [f for f in report.findings if f.rule == "TF502"]
    assert next(fn for fn in report.functions if fn.qualname == "hypothesis").verdict is Verdict.KEEP


PYTHON_NUMBERS = """\
    import tensorflow as tf

    W = 2.0
    b = 1.0


    @tf.function
    def hypothesis(x):
        return W * x + b


    for step in range(300):
        print(hypothesis(3.0))
"""


def test_python_arithmetic_in_a_tf_function_is_still_no_tensor_work(tmp_path: Path) -> None:
    """Control: the names and the argument are Python numbers, so the decorator only costs
    tracing: TF502."""
    report = check(tmp_path, {"linear.py": PYTHON_NUMBERS})
    assert [f for f in report.findings if f.rule == "TF502"]


GAN = """\
    import tensorflow as tf

    generator = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(4)])
    discriminator = tf.keras.Sequential([tf.keras.layers.Dense(16, activation="relu"), tf.keras.layers.Dense(1)])
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    g_opt = tf.keras.optimizers.Adam(1e-4)


    def g_loss_fn(generator, discriminator, noise, training):
        fake = generator(noise, training=training)
        logits = discriminator(fake, training=training)
        return bce(tf.ones_like(logits), logits)


    def main():
        for step in range(3000):
            noise = tf.random.normal([64, 8])
            with tf.GradientTape() as tape:
                loss = g_loss_fn(generator, discriminator, noise, True)
            grads = tape.gradient(loss, generator.trainable_variables)
            g_opt.apply_gradients(zip(grads, generator.trainable_variables))


    main()
"""

SMALL_LOSS = """\
    def g_loss_fn(generator, discriminator, noise, training):
        logits = discriminator(generator(noise, training=training), training=training)
        return small_loss(logits)


    def small_loss(logits):
        return bce(tf.ones_like(logits), logits)
"""


def _verdict(tmp_path: Path, source: str, name: str) -> Verdict:
    report = check(tmp_path, {"gan.py": source})
    return next(fn for fn in report.functions if fn.qualname == name).verdict


def test_a_part_of_an_inline_step_that_runs_the_models_is_decorated(tmp_path: Path) -> None:
    """A loss that runs the generator and the discriminator, called per step inside the tape the
    loop writes inline: most of the step's work, and its gradients flow through a tf.function
    (heldout31-41: the judged parts of this shape accept decorate, 8 of 9 first; decision 0045)."""
    assert _verdict(tmp_path, GAN, "g_loss_fn") is Verdict.DECORATE


def test_a_part_of_an_inline_step_that_only_scores_stays_eager(tmp_path: Path) -> None:
    """Control: the loss alone (one loss object's call on what the models returned) is a small part
    of the inline step: leave-eager, and the loop is told to make its step a function."""
    source = GAN.replace(GAN[GAN.index("    def g_loss_fn"):GAN.index("    def main")], SMALL_LOSS + "\n\n")
    assert _verdict(tmp_path, source, "small_loss") is Verdict.LEAVE_EAGER
