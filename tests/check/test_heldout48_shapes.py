"""Three shapes heldout48 (tuning data since its figures were read) showed the analysis misreading:

- a simulator's ``__init__`` defines its integrator in each branch of ``if dims == 2: ... elif
  dims == 3:`` and wraps it with ``tf.function(integrator)`` after the ``if``: either definition is
  the one wrapped, but only the last one read as a tf.function (the first was told leave-eager,
  judged keep);
- a decorated method counting a dataset into a tensor the object holds (``n = self.zero``, ``for _
  in self.files: n += 1``) was told it does no tensor work (TF502) and to drop the decorator; an
  augmented assignment is arithmetic like any other (conformance variant
  counts-a-dataset-into-an-attribute-tensor runs it: a reduce over the dataset, graph work);
- a decorated helper that only turns a Python dtype into a constant (``tf.constant(0, dtype=t)``),
  called once per dataset made, was kept as tensor work; its traced graph holds one Const node and
  computes nothing (judged undecorate or keep; TF502's conformance variant string-formatting, a
  known miss until then, is the same shape); its parameter, handed on as ``dtype=``, read as a
  tensor, so ``if dtype == tf.string:`` read as a tensor comparison;
- a test of a library that wraps tf.function (``tf_dataclass.function``, defined in one module and
  re-exported by the package's ``__init__``) decorates its functions with the re-exported name:
  the wrapper was known only under its defining module's name, so they read as undecorated;
- a batch-size probe: ``try_batch_size`` clears the Keras session and tries one training step, and a
  loop doubling the batch size after each ``clear_session()`` calls ``train_step`` once per size. Both
  were told to change (fix-first, decorate); the judges left them eager: each call starts afresh,
  with a new shape, a handful of times.
"""

from __future__ import annotations

from pathlib import Path

from programs import check
from tfadvisor.model import Verdict

BRANCHES = """\
    import tensorflow as tf


    class Simulator:
        def __init__(self, dims):
            if dims == 2:
                def integrate(x):
                    return tf.signal.fft2d(x)
            elif dims == 3:
                def integrate(x):
                    return tf.signal.fft3d(x)
            else:
                raise ValueError(dims)
            self.integrate = tf.function(integrate)

        def step(self, x):
            return self.integrate(x)


    sim = Simulator(2)
    x = tf.complex(tf.ones([8, 8]), tf.zeros([8, 8]))
    for _ in range(100):
        x = sim.step(x)
"""

COUNT = """\
    import tensorflow as tf


    class Files:
        def __init__(self, pattern):
            self.files = tf.data.Dataset.list_files(pattern, shuffle=False)
            self.zero = tf.constant(0, dtype=tf.int64)

        @tf.function
        def count(self):
            n = self.zero
            for _ in self.files:
                n += 1
            return n


    files = Files("data/*.jpg")
    print(int(files.count()))
"""

PROBE = """\
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.Adam()
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


    def try_batch_size(batch_size):
        tf.keras.backend.clear_session()
        x = tf.zeros((batch_size, 32))
        y = tf.zeros((batch_size,), dtype=tf.int32)
        try:
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return True
        except tf.errors.ResourceExhaustedError:
            return False


    def train_step(images, labels):
        with tf.GradientTape() as tape:
            loss = loss_fn(labels, model(images, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss


    low, high = 1, 4096
    while low <= high:
        middle = (low + high) // 2
        if try_batch_size(middle):
            low = middle + 1
        else:
            high = middle - 1

    size = 1
    while size < 4096:
        images = tf.random.uniform((size, 32))
        labels = tf.random.uniform((size,), maxval=10, dtype=tf.int32)
        train_step(images, labels)
        size *= 2
        tf.keras.backend.clear_session()
"""


def _functions(tmp_path: Path, code: str):
    report = check(tmp_path, {"program.py": code})
    return {f.id.split("::", 1)[1]: f for f in report.functions}, report.findings


def test_a_function_wrapped_after_an_if_is_either_branch_definition(tmp_path: Path) -> None:
    functions, _ = _functions(tmp_path, BRANCHES)
    assert functions["Simulator.__init__.<locals>.integrate"].verdict is Verdict.KEEP
    assert functions["Simulator.__init__.<locals>.integrate#2"].verdict is Verdict.KEEP


def test_a_definition_replaced_on_every_path_is_not_the_one_wrapped(tmp_path: Path) -> None:
    """``def integrate`` twice in a row: the second replaces the first, which nothing wraps."""
    code = BRANCHES.replace("            elif dims == 3:\n", "").replace(
        "            else:\n                raise ValueError(dims)\n", "")
    functions, _ = _functions(tmp_path, code)
    assert functions["Simulator.__init__.<locals>.integrate"].verdict is Verdict.LEAVE_EAGER
    assert functions["Simulator.__init__.<locals>.integrate#2"].verdict is Verdict.KEEP


def test_counting_into_a_held_tensor_is_not_called_python_only(tmp_path: Path) -> None:
    functions, findings = _functions(tmp_path, COUNT)
    assert functions["Files.count"].verdict is Verdict.KEEP
    assert not [f for f in findings if f.rule == "TF502"]


def test_a_python_counter_still_is(tmp_path: Path) -> None:
    """``n = 0; n += 1`` on a Python int in a tf.function: no tensor work, TF502 as before."""
    code = COUNT.replace("n = self.zero", "n = 0").replace("for _ in self.files:", "for _ in range(3):")
    functions, findings = _functions(tmp_path, code)
    assert functions["Files.count"].verdict is Verdict.UNDECORATE
    assert [f for f in findings if f.rule == "TF502"]


def test_a_batch_size_probe_is_left_eager(tmp_path: Path) -> None:
    functions, _ = _functions(tmp_path, PROBE)
    probe, step = functions["try_batch_size"], functions["train_step"]
    assert probe.verdict is Verdict.LEAVE_EAGER and "clear_session" in " ".join(probe.assumptions)
    assert step.verdict is Verdict.LEAVE_EAGER and "sweep" in " ".join(step.assumptions)


def test_the_same_step_in_a_training_loop_is_decorated(tmp_path: Path) -> None:
    """Without the session cleared each round the loop is a training loop over batches."""
    code = PROBE.replace("        tf.keras.backend.clear_session()\n", "").replace("size *= 2", "size += 0")
    functions, _ = _functions(tmp_path, code)
    assert functions["train_step"].verdict is Verdict.DECORATE


CONSTANTS = """\
    import tensorflow as tf


    @tf.function
    def default_for(dtype):
        return tf.constant(0, dtype=dtype)


    def make_defaults(dtypes):
        return [default_for(t) for t in dtypes]


    print(make_defaults((tf.int32, tf.float32, tf.int64)))
"""


def test_a_function_that_only_makes_constants_does_no_tensor_work(tmp_path: Path) -> None:
    functions, findings = _functions(tmp_path, CONSTANTS)
    assert functions["default_for"].verdict is Verdict.UNDECORATE
    assert [f for f in findings if f.rule == "TF502"]


def test_arithmetic_on_the_constant_is_work(tmp_path: Path) -> None:
    code = CONSTANTS.replace("return tf.constant(0, dtype=dtype)", "return tf.math.log(tf.constant(1, dtype=dtype))")
    functions, findings = _functions(tmp_path, code)
    assert functions["default_for"].verdict is not Verdict.UNDECORATE
    assert not [f for f in findings if f.rule == "TF502"]


WRAPPER = """\
    import tensorflow as tf


    def function(func, **kwargs):
        def packed(*args):
            return func(*args)
        return tf.function(func=packed, **kwargs)
"""

USES_THE_WRAPPER = """\
    import tensorflow as tf
    from tfwrap import function


    @function
    def scale(x):
        return tf.nn.relu(x) * 2.0


    for _ in range(100):
        scale(tf.ones([4]))
"""


def test_a_wrapper_re_exported_by_its_package_still_wraps(tmp_path: Path) -> None:
    report = check(tmp_path, {"tfwrap/__init__.py": "from tfwrap.tools import function\n",
                              "tfwrap/tools.py": WRAPPER, "train.py": USES_THE_WRAPPER})
    (scale,) = [f for f in report.functions if f.qualname == "scale"]
    assert scale.verdict is Verdict.KEEP


DTYPE_DEFAULTS = """\
    import tensorflow as tf


    @tf.function
    def default_for_type(dtype):
        if dtype == tf.string:
            return tf.constant([""], dtype=dtype)
        return tf.constant([0.0], dtype=tf.float32)


    print([default_for_type(t) for t in (tf.string, tf.float32)])
"""


def test_a_parameter_handed_on_as_dtype_is_a_python_value(tmp_path: Path) -> None:
    functions, findings = _functions(tmp_path, DTYPE_DEFAULTS)
    assert functions["default_for_type"].verdict is Verdict.UNDECORATE
    assert [f for f in findings if f.rule == "TF502"]
