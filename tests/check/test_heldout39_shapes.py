"""Static advice on shapes heldout39's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout39's version E (f669455); the controls pass at both. Where a finding rests on what
TensorFlow does, a conformance variant says so (tests/conformance/variants/).
"""

from __future__ import annotations

from pathlib import Path

from programs import check

from tfadvisor.model import Verdict


def _function(tmp_path: Path, code: str, name: str):
    report = check(tmp_path, {"prog.py": code})
    return next(fn for fn in report.functions if fn.qualname == name), report


AUTOGRAPH_DEMO = """\
    import tensorflow as tf


    @tf.function
    def fizzbuzz(max_num):
        counter = 0
        for num in range(max_num):
            if num % 3 == 0:
                print("Fizz")
            counter += 1
        return counter


    print(tf.autograph.to_code(fizzbuzz.python_function))
"""


def test_a_tf_function_whose_python_function_the_program_reads_keeps_its_decorator(tmp_path: Path) -> None:
    """Undecorated, ``fizzbuzz.python_function`` raises AttributeError: the decorator is needed
    whatever the body does (heldout39: an AutoGraph course notebook, told undecorate, judged keep)."""
    fizzbuzz, _ = _function(tmp_path, AUTOGRAPH_DEMO, "fizzbuzz")
    assert fizzbuzz.verdict is Verdict.KEEP
    assert any("python_function" in a for a in fizzbuzz.assumptions)


def test_a_python_only_tf_function_the_program_calls_is_still_undecorated(tmp_path: Path) -> None:
    """Control: the same kind of body, called with a Python number and nothing read off it."""
    code = AUTOGRAPH_DEMO.replace("print(tf.autograph.to_code(fizzbuzz.python_function))", "print(fizzbuzz(15))")
    fizzbuzz, report = _function(tmp_path, code, "fizzbuzz")
    assert fizzbuzz.verdict is Verdict.UNDECORATE
    assert "TF502" in {f.rule for f in report.findings}


SIGN = """\
    import tensorflow as tf


    @tf.function
    def sign(x):
        if x > 0:
            return "positive"
        else:
            return "not positive"


    print(sign(tf.constant(2)), sign(tf.constant(-2)))
"""


def test_a_comparison_on_a_tensor_parameter_is_tensor_work(tmp_path: Path) -> None:
    """``x > 0`` on a tensor is an op and the ``if`` a ``tf.cond`` (TensorFlow 2.21:
    tests/conformance/variants/tf502.py). heldout39: told undecorate (TF502), judged keep."""
    sign, report = _function(tmp_path, SIGN, "sign")
    assert sign.verdict is not Verdict.UNDECORATE
    assert "TF502" not in {f.rule for f in report.findings}


def test_a_comparison_on_python_numbers_is_not(tmp_path: Path) -> None:
    """Control: the same function called with Python numbers traces a graph with no op."""
    sign, report = _function(tmp_path, SIGN.replace("tf.constant(2)", "2").replace("tf.constant(-2)", "-2"), "sign")
    assert sign.verdict is Verdict.UNDECORATE


DISTRIBUTED = """\
    import tensorflow as tf

    strategy = tf.distribute.get_strategy()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam()


    def distributed(*flags):
        def _decorator(fun):
            @tf.function
            def _decorated(*args, **kwargs):
                result = strategy.run(fun, args=args, kwargs=kwargs)
                return strategy.reduce(tf.distribute.ReduceOp.SUM, result, axis=None)
            return _decorated
        return _decorator


    @distributed("sum")
    def train_on_batch(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss


    dataset = tf.data.Dataset.from_tensor_slices((tf.ones([64, 3]), tf.ones([64, 1]))).batch(8)
    for epoch in range(10):
        for x, y in dataset:
            train_on_batch(x, y)
"""


def test_a_step_under_a_decorator_factory_that_makes_a_tf_function_is_a_graph(tmp_path: Path) -> None:
    """``@distributed(...)`` returns a tf.function that runs the step with ``strategy.run``: the
    step runs as a graph already (heldout39: a GAN notebook's TPU step, told decorate, judged keep)."""
    step, _ = _function(tmp_path, DISTRIBUTED, "train_on_batch")
    assert step.decorated
    assert step.verdict is Verdict.KEEP


def test_a_step_under_a_decorator_factory_that_stays_python_is_not(tmp_path: Path) -> None:
    """Control: the factory's inner function is plain Python: the step is still worth a graph."""
    step, _ = _function(tmp_path, DISTRIBUTED.replace("            @tf.function\n", ""), "train_on_batch")
    assert not step.decorated
    assert step.verdict is Verdict.DECORATE


SETTER = """\
    import tensorflow as tf

    batch_size = 256


    def set_batch_size(size):
        global batch_size
        batch_size = size


    @tf.function
    def train_step(images):
        noise = tf.random.normal([batch_size, 10])
        return tf.reduce_sum(images) + tf.reduce_sum(noise)


    for step in range(100):
        train_step(tf.ones([4]))
"""


def test_a_global_whose_setter_nothing_calls_is_not_stale(tmp_path: Path) -> None:
    """TensorFlow reads ``batch_size`` once, and nothing ever rebinds it (TensorFlow 2.21:
    tests/conformance/variants/tf105.py). heldout39: TF105 judged debatable, its fix-first keep."""
    step, report = _function(tmp_path, SETTER, "train_step")
    assert "TF105" not in {f.rule for f in report.findings}
    assert step.verdict is Verdict.KEEP


def test_a_global_whose_setter_runs_between_calls_is(tmp_path: Path) -> None:
    """Control: the setter runs in the loop that calls the step."""
    code = SETTER.replace("for step in range(100):\n        train_step",
                          "for size in (64, 128):\n        set_batch_size(size)\n        train_step")
    _, report = _function(tmp_path, code, "train_step")
    assert "TF105" in {f.rule for f in report.findings}


TRAINING_TWICE = """\
    import tensorflow as tf


    def train_step(model, x, y, loss_function, optimizer):
        with tf.GradientTape() as tape:
            loss = loss_function(y, model(x, training=True))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(gradients, model.trainable_variables))
        return loss


    def training(model, dataset, epochs=5):
        loss = tf.keras.losses.MeanSquaredError()
        optimizer = tf.keras.optimizers.Adam(0.001)
        for epoch in range(epochs):
            for x, y in dataset:
                train_step(model, x, y, loss, optimizer)


    data = tf.data.Dataset.from_tensor_slices((tf.ones([64, 4]), tf.ones([64, 4]))).batch(8)
    autoencoder = tf.keras.Sequential([tf.keras.layers.Dense(2), tf.keras.layers.Dense(4)])
    small = tf.keras.Sequential([tf.keras.layers.Dense(4)])
    training(autoencoder, data)
    training(small, data)
"""


def test_a_step_whose_caller_makes_a_new_optimizer_and_runs_twice_is_fixed_first(tmp_path: Path) -> None:
    """Each ``training`` call makes a new Adam; a shared tf.function would make its slots on the
    second call, which TensorFlow 2.21 refuses (heldout39: told decorate, judged fix-first)."""
    step, _ = _function(tmp_path, TRAINING_TWICE, "train_step")
    assert step.verdict is Verdict.FIX_FIRST
    assert any("make it once" in a for a in step.assumptions)


def test_a_step_whose_caller_runs_once_is_decorated(tmp_path: Path) -> None:
    """Control: ``training`` runs once: one optimizer, one trace."""
    step, _ = _function(tmp_path, TRAINING_TWICE.replace("    training(small, data)\n", ""), "train_step")
    assert step.verdict is Verdict.DECORATE


COND_ON_A_FLAG = """\
    import tensorflow as tf


    @tf.function
    def conditional_computation(x, training=True):
        def apply_dropout():
            return tf.nn.dropout(x, rate=0.5)

        def no_dropout():
            return x

        return tf.reduce_mean(tf.cond(training, apply_dropout, no_dropout))


    data = tf.constant([1.0, 2.0, 3.0])
    print(conditional_computation(data, training=True), conditional_computation(data, training=False))
"""


def test_tf_cond_on_a_python_bool_its_callers_pass_is_an_error(tmp_path: Path) -> None:
    """TensorFlow 2.21 raises TypeError ('pred must not be a Python bool') while tracing
    (tests/conformance/variants/tf310.py). heldout39: a demo notebook's switch, told keep, judged
    fix-first or undecorate."""
    fn, report = _function(tmp_path, COND_ON_A_FLAG, "conditional_computation")
    assert "TF310" in {f.rule for f in report.findings if f.severity.value == "error"}
    assert fn.verdict is Verdict.FIX_FIRST


def test_tf_cond_on_a_bool_tensor_is_fine(tmp_path: Path) -> None:
    """Control: callers pass boolean tensors."""
    code = COND_ON_A_FLAG.replace("training=True)", "training=tf.constant(True))").replace(
        "training=False)", "training=tf.constant(False))")
    fn, report = _function(tmp_path, code, "conditional_computation")
    assert "TF310" not in {f.rule for f in report.findings}
    assert fn.verdict is Verdict.KEEP
