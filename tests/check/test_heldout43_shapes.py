"""Static advice on shapes heldout43's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout43's version I (d8a0e06); the controls pass at both.
"""

from __future__ import annotations

from pathlib import Path

from programs import check, verdicts

from tfadvisor.model import Verdict

SLICED = """\
    import tensorflow as tf

    (train_images, train_labels), _ = tf.keras.datasets.mnist.load_data()
    train_num = 48000
    train_x = tf.cast(train_images[:train_num].reshape(-1, 784) / 255.0, tf.float32)
    train_y = tf.one_hot(train_labels[:train_num], depth=10)
    W = tf.Variable(tf.random.normal([784, 10]))
    B = tf.Variable(tf.zeros([10]))
    optimizer = tf.keras.optimizers.Adam(0.001)
    epochs = 40
    batch_size = 50
    total_step = TOTAL


    def model(x, w, b):
        return tf.nn.softmax(tf.matmul(x, w) + b)


    def grad(x, y, w, b):
        with tf.GradientTape() as tape:
            loss_ = tf.reduce_mean(tf.keras.losses.categorical_crossentropy(y, model(x, w, b)))
        return tape.gradient(loss_, [w, b])


    def accuracy(x, y, w, b):
        pred = model(x, w, b)
        correct = tf.equal(tf.argmax(pred, 1), tf.argmax(y, 1))
        return tf.reduce_mean(tf.cast(correct, tf.float32))


    for epoch in range(epochs):
        for step in range(total_step):
            BODY
            grads = grad(xs, ys, W, B)
            optimizer.apply_gradients(zip(grads, [W, B]))
        acc_train = accuracy(train_x, train_y, W, B).numpy()
        print(epoch, acc_train)
"""
SLICE = "xs = train_x[step * batch_size:(step + 1) * batch_size]\n            ys = train_y[step * batch_size:(step + 1) * batch_size]"
DRAWN = "xs = tf.gather(train_x, tf.random.uniform([batch_size], 0, train_num, tf.int32))\n            ys = train_y[:batch_size]"


def test_a_call_after_the_loop_that_slices_batches_runs_once_per_epoch(tmp_path: Path) -> None:
    """``for step in range(total_step): xs = train_x[step * bs:(step + 1) * bs]`` is the loop over
    batches, not a few repeats of a step: ``accuracy`` on the whole training set after it runs
    once per epoch, and tracing it would cost more than it saves. heldout43: three such accuracy
    functions told decorate, judged leave-eager (their ``grad`` stays decorate)."""
    found = verdicts(tmp_path, {"nb.py": SLICED.replace("TOTAL", "n_batches").replace("BODY", SLICE)
                                .replace("train_num = 48000", "train_num = 48000\n    n_batches = 960")})
    assert found["accuracy"] is Verdict.LEAVE_EAGER
    assert found["grad"] is Verdict.DECORATE


def test_a_count_of_batches_makes_the_loop_over_batches(tmp_path: Path) -> None:
    """The same with the batch drawn at random: ``total_step = int(train_num / batch_size)`` says
    the loop counts batches."""
    found = verdicts(tmp_path, {"nb.py": SLICED.replace("TOTAL", "int(train_num / batch_size)").replace("BODY", DRAWN)})
    assert found["accuracy"] is Verdict.LEAVE_EAGER
    assert found["grad"] is Verdict.DECORATE


def test_a_few_repeats_of_a_step_still_leave_the_call_after_them_hot(tmp_path: Path) -> None:
    """Control: ``for _ in range(n_critic):`` a few critic updates per generator step. A call after
    that loop runs on every outer step (the hot one), so it is judged as called many times."""
    found = verdicts(tmp_path, {"nb.py": SLICED.replace("TOTAL", "n_critic").replace("BODY", DRAWN)
                                .replace("train_num = 48000", "train_num = 48000\n    n_critic = 5")})
    assert found["accuracy"] is Verdict.DECORATE
