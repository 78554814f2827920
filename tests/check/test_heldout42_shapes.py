"""Static advice on shapes heldout42's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout42's version H (78c98a4); the controls pass at both.
"""

from __future__ import annotations

from pathlib import Path

from programs import check, verdicts

from tfadvisor.model import Verdict

STEP = """\
    import tensorflow as tf


    class WineModel(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.out = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.out(x)


    def train_step(model, inputs, target, loss_function, optimizer):
        with tf.GradientTape() as tape:
            loss = loss_function(target, model(inputs))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss


    ds = tf.data.Dataset.from_tensor_slices((tf.ones([8, 3]), tf.ones([8, 1]))).batch(2)
    loss_fn = tf.keras.losses.MeanSquaredError()
"""

RUN = """
    for epoch in range(3):
        for x, y in ds:
            train_step(model, x, y, loss_fn, optimizer)
"""

TWO_OPTIMIZERS = (STEP + "\n    model = WineModel()\n    optimizer = tf.keras.optimizers.SGD(0.1)\n" + RUN
                  + "\n    model = WineModel()\n    optimizer = tf.keras.optimizers.Adam(0.1)\n" + RUN)

ONE_OPTIMIZER_SET_TWICE = (STEP + "\n    model = WineModel()\n    optimizer = tf.keras.optimizers.SGD(0.1)\n"
                           + "    optimizer = tf.keras.optimizers.Adam(0.1)\n" + RUN + RUN)


def test_a_step_handed_a_second_optimizer_made_after_the_first_run_is_fixed_first(tmp_path: Path) -> None:
    """A notebook compares optimizers: ``optimizer = SGD(...)``, its training loop, then
    ``optimizer = Adam(...)`` and the same loop, every time through one ``train_step``. Decorated,
    the second run's objects make their variables on a later trace and TensorFlow 2.21 raises
    (AttributeError here, where the second model is built inside that trace; ValueError "Creating
    variables on a non-first call to a function decorated with tf.function" when the models are
    built first). heldout42: two such steps told decorate, judged fix-first or leave-eager."""
    found = verdicts(tmp_path, {"nb.py": TWO_OPTIMIZERS})
    assert found["train_step"] is Verdict.FIX_FIRST


def test_an_optimizer_set_twice_before_any_run_is_one_optimizer(tmp_path: Path) -> None:
    """Control: the name is bound twice before the first call, so one optimizer reaches the step
    (TensorFlow 2.21 runs the decorated shape over both loops)."""
    found = verdicts(tmp_path, {"nb.py": ONE_OPTIMIZER_SET_TWICE})
    assert found["train_step"] is Verdict.DECORATE


HELLO = """\
    import tensorflow as tf

    matrix_one = tf.constant([[1, 2], [3, 4]])
    matrix_two = tf.constant([[2, 2], [2, 2]])


    @tf.function
    def add():
        return tf.add(matrix_one, matrix_two)


    print(add())
    matrix_one = tf.constant([[2, 3], [3, 4]])
    v = tf.add(matrix_one, 1)
"""


def test_a_tensorflow_op_named_like_the_function_is_not_a_call_of_it(tmp_path: Path) -> None:
    """``tf.add(...)`` after the rebinding is TensorFlow's add, not the notebook's tf.function
    ``add``, which ran once before it: nothing is stale (heldout42: a TF105 judged wrong;
    tests/conformance/variants/tf105.py, rebound-after-the-only-call-then-a-tf-op-of-the-same-name)."""
    report = check(tmp_path, {"nb.py": HELLO})
    assert not [f for f in report.findings if f.rule == "TF105"]
    assert [f.verdict for f in report.functions if f.qualname == "add"] == [Verdict.KEEP]


def test_calling_the_function_again_after_the_rebinding_still_fires(tmp_path: Path) -> None:
    """Control: the same notebook calling ``add()`` again after the rebinding reads the old value
    (TensorFlow 2.21: the second call returns the first sum)."""
    report = check(tmp_path, {"nb.py": HELLO + "    print(add())\n"})
    assert [f.rule for f in report.findings if f.rule == "TF105"] == ["TF105"]


ROSENBROCK = """\
    import tensorflow as tf


    class Model:
        def __init__(self):
            self.x = tf.Variable(tf.random.uniform([2], -2.0, 2.0))
            self.optimizer = tf.keras.optimizers.SGD(learning_rate=0.0005)
            self.current_loss_val = self.loss()

        def loss(self):
            LOSS_LINE
            return self.current_loss_val

        def fit(self):
            self.optimizer.minimize(self.loss, [self.x])


    def main():
        model = Model()
        for it in range(5000):
            model.fit()
            if it % 100 == 0:
                print(model.x.numpy(), model.current_loss_val.numpy())
"""
STORES = "self.current_loss_val = 100 * (self.x[0] ** 2 - self.x[1]) ** 2 + (self.x[0] - 1) ** 2"


def test_a_loss_handed_to_minimize_is_called_by_the_step_that_hands_it(tmp_path: Path) -> None:
    """``optimizer.minimize(self.loss, var_list)`` calls ``self.loss`` there and then (Keras 2's and
    TF1's optimizers), so what the loss does is the step's: here it stores its tensor on ``self``,
    which ``main`` reads with ``.numpy()``. Decorated, ``fit`` would leave a symbolic tensor there
    (TensorFlow 2.21, whose Keras 3 optimizers have no ``minimize``, on the same loss called in a
    decorated tape step: AttributeError, 'SymbolicTensor' object has no attribute 'numpy').
    heldout42: ``Model.fit`` told decorate, judged fix-first or leave-eager."""
    found = verdicts(tmp_path, {"gd.py": ROSENBROCK.replace("LOSS_LINE", STORES)})
    assert found["Model.fit"] is Verdict.FIX_FIRST


def test_a_loss_handed_to_minimize_that_keeps_nothing_leaves_the_step_free(tmp_path: Path) -> None:
    """Control: the same loss kept in a tf.Variable (``assign``) leaves nothing behind."""
    keeps = "self.current_loss_val.assign(100 * (self.x[0] ** 2 - self.x[1]) ** 2 + (self.x[0] - 1) ** 2)"
    program = ROSENBROCK.replace("LOSS_LINE", keeps).replace(
        "self.current_loss_val = self.loss()", "self.current_loss_val = tf.Variable(0.0)")
    found = verdicts(tmp_path, {"gd.py": program})
    assert found["Model.fit"] is Verdict.DECORATE


def test_a_second_plain_sgd_makes_nothing_on_its_first_apply(tmp_path: Path) -> None:
    """Control: plain gradient descent keeps no slots, so a second ``SGD(lr)`` handed to the step
    makes no variable in a later trace (TensorFlow 2.21 runs three through one tf.function when the
    models are built first). heldout37's judges: such a step, decorate."""
    program = TWO_OPTIMIZERS.replace("Adam(0.1)", "SGD(0.01)").replace(
        "model = WineModel()\n", "model = WineModel()\n    model(tf.ones([1, 3]))\n")
    found = verdicts(tmp_path, {"nb.py": program})
    assert found["train_step"] is Verdict.DECORATE
