"""Static advice on shapes heldout38's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout38's version D (c259bf7); the controls pass at both. Where a finding rests on what
TensorFlow does, a conformance variant says so (tests/conformance/variants/).
"""

from __future__ import annotations

from pathlib import Path

from programs import check

from tfadvisor.model import Verdict

ALIAS = """\
    import tensorflow as tf

    weights = {f"w{k}": tf.Variable(tf.ones([2, 2])) for k in range(8)}


    def layer(x, key):
        return tf.matmul(x, weights[key])


    layer_graph = tf.function(layer)


    def generate(x):
        for k in range(8):
            x = layer(x, f"w{k}")
        return x


    for step in range(100):
        generate(tf.ones([2, 2]))
"""


def _report(tmp_path: Path, code: str):
    return check(tmp_path, {"flow.py": code})


def test_calls_of_a_function_by_its_own_name_are_python_beside_a_wrapped_alias(tmp_path: Path) -> None:
    """``layer_graph = tf.function(layer)`` makes ``layer_graph`` a tf.function; ``layer(x, key)``
    still runs the Python function, which traces nothing (TensorFlow 2.21:
    tests/conformance/variants/tf101.py). heldout38: ``NN_func = tf.function(NN)`` with ``NN``
    called eagerly per key, four TF101 and a TF503 judged wrong, its verdict reconfigure judged keep."""
    report = _report(tmp_path, ALIAS)
    layer = next(fn for fn in report.functions if fn.qualname == "layer")
    assert layer.verdict is not Verdict.RECONFIGURE
    assert not {f.rule for f in report.findings} & {"TF101", "TF503"}


def test_calls_through_the_same_name_are_the_tf_function(tmp_path: Path) -> None:
    """Control: ``layer = tf.function(layer)`` rebinds the name: every call traces per key."""
    report = _report(tmp_path, ALIAS.replace("layer_graph = tf.function(layer)", "layer = tf.function(layer)"))
    layer = next(fn for fn in report.functions if fn.qualname == "layer")
    assert layer.verdict is Verdict.RECONFIGURE


STALE = """\
    import tensorflow as tf

    w = tf.Variable(tf.ones([2, 1]))
    optimizer = tf.keras.optimizers.SGD(0.1)


    def train_on_batch(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.matmul(x, w))
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        return loss


    @tf.function
    def train(x):
        for _ in tf.range(3):
            train_on_batch(x)


    train(tf.ones([4, 2]))

    optimizer = tf.keras.optimizers.Adam(0.01)
    AFTER
    for step in range(100):
        train_on_batch(tf.ones([4, 2]))
"""


def test_a_helper_called_eagerly_after_the_rebinding_reads_it_fresh(tmp_path: Path) -> None:
    """The helper is graph code only inside ``train``, traced once before ``optimizer`` is
    rebound; its later calls run eagerly and read the new one (TensorFlow 2.21:
    tests/conformance/variants/tf105.py). heldout38: two TF105 judged wrong."""
    report = _report(tmp_path, STALE.replace("AFTER", ""))
    assert "TF105" not in {f.rule for f in report.findings}


def test_the_graph_that_holds_the_helper_called_again_keeps_the_old_value(tmp_path: Path) -> None:
    """Control: ``train`` called again after the rebinding runs the graph that froze it."""
    report = _report(tmp_path, STALE.replace("AFTER", "train(tf.ones([4, 2]))"))
    assert "TF105" in {f.rule for f in report.findings}


LIBRARY = """\
    import tensorflow as tf


    def train_epoch(net, train_iter, loss, updater):
        for x, y in train_iter:
            with tf.GradientTape() as tape:
                l = loss(y, net(x))
            grads = tape.gradient(l, net.trainable_variables)
            updater.apply_gradients(zip(grads, net.trainable_variables))
        return float(l)


    def train(net, train_iter, loss, num_epochs, updater):
        for epoch in range(num_epochs):
            train_epoch(net, train_iter, loss, updater)
"""

SCRIPT = """\
    import tensorflow as tf

    from library import train

    net = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    data = tf.data.Dataset.from_tensor_slices((tf.ones([8, 2]), tf.ones([8, 1]))).batch(2)
    train(net, data, tf.keras.losses.MeanSquaredError(), 10, tf.keras.optimizers.SGD(0.1))
"""


def test_an_epoch_driver_nothing_in_the_program_runs_is_left_as_it_is(tmp_path: Path) -> None:
    """A book's library of ``train_epoch``/``train`` that no script calls: the epoch loop is no
    evidence of a workload; the step to extract is noted, the verdict leave-eager. heldout38: a
    d2l-style library's two epoch drivers told fix-first, judged leave-eager."""
    verdicts = {fn.qualname: fn.verdict for fn in check(tmp_path, {"library.py": LIBRARY}).functions}
    assert verdicts["train_epoch"] is Verdict.LEAVE_EAGER


def test_an_epoch_driver_a_script_runs_per_epoch_is_fix_first(tmp_path: Path) -> None:
    """Control: a script calls ``train``, which runs ``train_epoch`` once per epoch."""
    report = check(tmp_path, {"library.py": LIBRARY, "main.py": SCRIPT})
    verdicts = {fn.qualname: fn.verdict for fn in report.functions}
    assert verdicts["train_epoch"] is Verdict.FIX_FIRST


DRIVER = """\
    import numpy as np
    import tensorflow as tf

    w = tf.Variable(tf.zeros([2, 1]))
    optimizer = tf.keras.optimizers.SGD(0.1)


    def moons(batch_size=32):
        while True:
            yield np.random.rand(batch_size, 2).astype("float32"), np.random.rand(batch_size, 1).astype("float32")


    def train_on_batch(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((tf.matmul(x, w) - y) ** 2)
        optimizer.apply_gradients([(tape.gradient(loss, w), w)])
        return loss


    @tf.function
    def train(train_data, epochs):
        for e in range(epochs):
            for i, (x, y) in SOURCE:
                train_on_batch(x, y)
                if i >= 100:
                    break


    x_train = moons()
    train(x_train, epochs=10)
"""


def test_a_decorated_driver_looping_over_a_generator_is_told_what_its_graph_holds(tmp_path: Path) -> None:
    """The loop over the generator runs while tracing: the graph holds the batches drawn then
    (TensorFlow 2.21: tests/conformance/variants/tf207.py). heldout38: judged undecorate or fix-first;
    the tool said keep."""
    report = _report(tmp_path, DRIVER.replace("SOURCE", "enumerate(train_data)"))
    train = next(fn for fn in report.functions if fn.qualname == "train")
    assert "TF207" in {f.rule for f in report.findings}
    assert train.verdict is not Verdict.KEEP


def test_a_decorated_step_looping_over_a_range_is_not_a_python_iterator(tmp_path: Path) -> None:
    """Control: the same loop over ``enumerate(zip(xs, ys))`` of tensors made in the graph."""
    code = DRIVER.replace("SOURCE", "enumerate(zip(tf.unstack(tf.ones([3, 4, 2])), tf.unstack(tf.ones([3, 4, 1]))))")
    assert "TF207" not in {f.rule for f in _report(tmp_path, code).findings}
