"""Precision on real code: one group of tests per cause of wrong advice found on public TF2 code
(benchmarks/realworld). Each case is minimal code in the style of the real ones, bad and good."""

from __future__ import annotations

import textwrap

import pytest

from tfadvisor.check import check_paths, check_source
from tfadvisor.config import Config
from tfadvisor.model import Report, Severity, Verdict


def check(code: str, path: str = "prog.py", config: Config | None = None) -> Report:
    return check_source(textwrap.dedent(code), path, config)


def verdict_of(report: Report, qualname: str):  # type: ignore[no-untyped-def]
    return next(f for f in report.functions if f.qualname == qualname)


def rules(report: Report, severity: Severity | None = None) -> set[str]:
    return {f.rule for f in report.findings if severity is None or f.severity is severity}


# -- 1. code that needs its tf.function is never told to drop it -------------------------------
NEEDS_GRAPH = {
    "distributed step": """
        import tensorflow as tf
        strategy = tf.distribute.MirroredStrategy()

        def train_step(inputs):
            return tf.reduce_sum(inputs)

        @tf.function
        def distributed_train_step(dataset_inputs):
            per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
            return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)
        """,
    "scheduled on a coordinator": """
        import tensorflow as tf

        @tf.function
        def worker_fn(iterator):
            return next(iterator)

        def run(coordinator, per_worker_iterator):
            for _ in range(10):
                coordinator.schedule(worker_fn, args=(per_worker_iterator,))
        """,
    "exported signature": """
        import tensorflow as tf

        class Exported(tf.Module):
            @tf.function
            def serve(self, x):
                return self.model(x)

        module = Exported()
        tf.saved_model.save(module, "/tmp/out", signatures=module.serve.get_concrete_function(
            tf.TensorSpec([None, 3], tf.float32)))
        """,
    "decorator options": """
        import tensorflow as tf

        @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
        def parse(lines):
            return lines
        """,
    "work behind attributes": """
        import tensorflow as tf

        class Agent:
            @tf.function
            def act(self, observation):
                return self.policy_network(observation)
        """,
}


@pytest.mark.parametrize("case", sorted(NEEDS_GRAPH))
def test_needs_a_graph_is_never_undecorate(case: str) -> None:
    report = check(NEEDS_GRAPH[case])
    decorated = [f for f in report.functions if f.decorated]
    assert decorated and all(f.verdict is Verdict.KEEP for f in decorated), [(f.qualname, f.verdict) for f in decorated]
    assert "TF502" not in rules(report)


def test_no_op_found_with_unresolved_calls_is_keep_and_says_what_was_not_seen() -> None:
    fn = verdict_of(check(NEEDS_GRAPH["work behind attributes"]), "Agent.act")
    assert fn.verdict is Verdict.KEEP
    assert any("could not be followed" in a for a in fn.assumptions)


def test_pure_python_tf_function_is_undecorate() -> None:
    report = check("""
        import tensorflow as tf

        @tf.function
        def describe(name, count):
            return f"{name}: {count} items"
        """)
    assert verdict_of(report, "describe").verdict is Verdict.UNDECORATE


def test_decorated_keras_call_with_a_tensor_loop_is_kept_and_says_what_to_check() -> None:
    """A hand-written RNN layer whose call is a tf.function looping over time steps: the decorator
    breaks gradients only if the weights are first built inside the trace, which the code does not
    say: keep, and TF406 is a note; without the loop, dropping the decorator is the fix."""
    rnn = """
        import tensorflow as tf
        from tensorflow import keras

        class MyRNN(keras.layers.Layer):
            def __init__(self, cell):
                super().__init__()
                self.cell = cell

            @tf.function
            def call(self, inputs):
                states = [tf.zeros([tf.shape(inputs)[0], self.cell.state_size])]
                outputs = tf.zeros([tf.shape(inputs)[0], self.cell.output_size])
                for step in tf.range(tf.shape(inputs)[1]):
                    outputs, states = self.cell(inputs[:, step], states)
                return outputs
        """
    report = check(rnn)
    assert verdict_of(report, "MyRNN.call").verdict is Verdict.KEEP
    assert [(f.rule, f.severity) for f in report.findings] == [("TF406", Severity.INFO)]
    residual = verdict_of(check("""
        import tensorflow as tf
        from tensorflow import keras

        class Residual(keras.layers.Layer):
            def __init__(self, units):
                super().__init__()
                self.fc = keras.layers.Dense(units)

            @tf.function
            def call(self, x):
                return tf.nn.relu(x + self.fc(x))

        layer = Residual(4)
        optimizer = keras.optimizers.SGD()
        for x in [tf.ones([2, 4])] * 3:
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(layer(x))
            optimizer.apply_gradients(zip(tape.gradient(loss, layer.trainable_variables), layer.trainable_variables))
        """), "Residual.call")
    assert residual.verdict is Verdict.UNDECORATE


def test_decorated_keras_call_of_a_class_made_elsewhere_is_a_note() -> None:
    """Whether a layer defined here is first built by an eager call (every weight then gets its
    gradients: heldout6's detection models, ``model(tf.ones(...))`` in each training script) or
    inside a tape (the accuracy corpus's ResidualBlock) is in the file that makes it: TF406 is a
    note, and the advice is undecorate, said as a guess: safe either way."""
    report = check("""
        import tensorflow as tf
        from tensorflow import keras

        class Residual(keras.layers.Layer):
            def __init__(self, units):
                super().__init__()
                self.fc = keras.layers.Dense(units)

            @tf.function
            def call(self, x):
                return tf.nn.relu(x + self.fc(x))
        """)
    fn = verdict_of(report, "Residual.call")
    assert fn.verdict is Verdict.UNDECORATE and fn.confidence == "speculative"
    assert [(f.rule, f.severity) for f in report.findings] == [("TF406", Severity.INFO)]


# -- 2. code that already runs as a graph is never told to add a decorator ---------------------
ALREADY_GRAPH = {
    "defined inside a tf.function": ("""
        import tensorflow as tf

        @tf.function
        def outer(x):
            def body(v):
                for _ in tf.range(10):
                    v = tf.nn.relu(v * 2.0 - 1.0)
                return v
            return body(x)
        """, "outer.<locals>.body"),
    "tf.while_loop body": ("""
        import tensorflow as tf

        def body(i, acc):
            for _ in tf.range(5):
                acc = acc * 2.0
            return i + 1, acc

        def cond(i, acc):
            return i < 10

        def run(x):
            return tf.while_loop(cond, body, (0, x))
        """, "body"),
    "Dataset.map": ("""
        import tensorflow as tf

        def augment(image, label):
            for _ in tf.range(3):
                image = tf.image.random_flip_left_right(image)
            return image, label

        ds = tf.data.Dataset.from_tensor_slices((tf.zeros([8, 4, 4, 3]), tf.zeros([8])))
        ds = ds.map(augment).batch(2)
        """, "augment"),
    # strategy.run from eager code runs the step eagerly (TF 2.21: Python runs on every call), so
    # only a strategy.run inside a tf.function makes it graph code (tests/check/test_generalization.py
    # has the eager loop, which gets decorate)
    "strategy.run in a tf.function": ("""
        import tensorflow as tf

        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(x)
            return loss

        @tf.function
        def distributed(strategy, batch):
            return strategy.run(step, args=(batch,))
        """, "step"),
    "Keras train_step": ("""
        import tensorflow as tf

        class Net(tf.keras.Model):
            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    loss = self.compiled_loss(y, self(x, training=True))
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}
        """, "Net.train_step"),
    "Keras metric update_state": ("""
        import tensorflow as tf

        class Total(tf.keras.metrics.Metric):
            def update_state(self, values):
                self.total.assign_add(tf.reduce_sum(values))
        """, "Total.update_state"),
}


@pytest.mark.parametrize("case", sorted(ALREADY_GRAPH))
def test_already_graph_is_never_decorate(case: str) -> None:
    code, qualname = ALREADY_GRAPH[case]
    fn = verdict_of(check(code), qualname)
    assert fn.verdict is Verdict.LEAVE_EAGER, (fn.verdict, fn.assumptions)
    assert fn.reasons and fn.reasons[0] in ("TF505", "TF406") or fn.assumptions


def test_graph_hazards_apply_to_graph_code_without_a_decorator() -> None:
    report = check("""
        import numpy as np
        import tensorflow as tf

        def jitter(image):
            return image + np.random.normal()

        ds = tf.data.Dataset.from_tensor_slices(tf.zeros([8, 4]))
        ds = ds.map(jitter)
        """)
    frozen = [f for f in report.findings if f.rule == "TF205"]
    assert frozen and frozen[0].severity is Severity.ERROR and frozen[0].line == 6


def test_py_function_bodies_are_eager_no_graph_hazards() -> None:
    report = check("""
        import numpy as np
        import tensorflow as tf

        def load(path):
            print("loading", path)
            return np.load(path.numpy())

        def parse(path):
            return tf.py_function(load, [path], tf.float32)

        ds = tf.data.Dataset.from_tensor_slices(["a.npy"]).map(parse)
        """)
    assert not [f for f in report.findings if f.function and f.function.endswith("::load")]
    assert verdict_of(report, "load").verdict is Verdict.LEAVE_EAGER


def test_keras_run_eagerly_left_on_is_tf405() -> None:
    report = check("""
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse", run_eagerly=True)
        """)
    assert [(f.rule, f.line) for f in report.findings] == [("TF405", 5)]


# -- 3. role and payoff come before hazards ------------------------------------------------------
def test_eager_driver_around_fit_is_leave_eager_without_hypothetical_hazards() -> None:
    report = check("""
        import tensorflow as tf

        history = []

        def main(model, x, y):
            model.compile(optimizer="adam", loss="mse")
            for epoch in range(3):
                result = model.fit(x, y, epochs=1)
                history.append(result)
                print("epoch", epoch, result.history["loss"])
        """)
    assert verdict_of(report, "main").verdict is Verdict.LEAVE_EAGER
    assert not rules(report, Severity.ERROR) and not rules(report, Severity.WARNING)


def test_tf1_code_is_out_of_scope_said_once_per_file() -> None:
    report = check("""
        import tensorflow.compat.v1 as tf

        def model_fn(features, labels, mode):
            with tf.variable_scope("model"):
                logits = tf.layers.dense(features, 10)
            print("built")
            return tf.estimator.EstimatorSpec(mode, predictions=logits)

        def main():
            x = tf.placeholder(tf.float32, [None, 3])
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
        """)
    assert [f.rule for f in report.findings] == ["TF100"]
    assert all(f.verdict is Verdict.LEAVE_EAGER for f in report.functions)


def test_display_code_is_leave_eager() -> None:
    report = check("""
        import matplotlib.pyplot as plt
        import tensorflow as tf

        def show(images):
            for image in images:
                plt.imshow(tf.squeeze(image).numpy())
                plt.show()

        for batch in tf.data.Dataset.from_tensor_slices(tf.zeros([4, 8, 8])).batch(2):
            show(batch)
        """)
    fn = verdict_of(report, "show")
    assert fn.verdict is Verdict.LEAVE_EAGER and not report.findings


# -- 4. tensor-ness is not guessed wrong --------------------------------------------------------
def test_numpy_arrays_are_not_tensors() -> None:
    report = check("""
        import numpy as np
        import tensorflow as tf

        @tf.function
        def step(x, table: np.ndarray):
            scale = np.mean(table)
            return x * scale
        """)
    assert "TF206" not in rules(report)


def test_shape_dimensions_are_python_ints() -> None:
    report = check("""
        import tensorflow as tf

        @tf.function
        def pad(x):
            if x.shape[0] is None or x.shape[0] < 8:
                return tf.pad(x, [[0, 8], [0, 0]])
            return x
        """)
    assert not {"TF301", "TF304"} & rules(report)


def test_a_guess_from_a_name_is_never_an_error() -> None:
    report = check("""
        import tensorflow as tf

        @tf.function
        def step(x):
            if x > 0:
                return tf.constant(1.0)
        """)
    flagged = [f for f in report.findings if f.rule == "TF301"]
    assert flagged and all(f.severity is Severity.INFO for f in flagged)


# -- 5. method names are not Python mutation unless the receiver is a Python container ---------
def test_tensorflow_objects_methods_are_ops() -> None:
    report = check("""
        import tensorflow as tf

        table = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
        seen = tf.keras.metrics.Mean()

        class Counter:
            def __init__(self):
                self.hits = tf.Variable(0)

            def add(self, n):
                self.hits.assign_add(n)

        counter = Counter()

        @tf.function
        def step(keys, values):
            table.insert(keys, values)
            seen.update_state(tf.cast(values, tf.float32))
            counter.add(1)
            array = tf.TensorArray(tf.int64, size=2)
            array = array.write(0, values[0])
            return array.stack()
        """)
    assert not {"TF202", "TF203"} & rules(report)


def test_python_containers_are_state() -> None:
    report = check("""
        import tensorflow as tf

        class Tracker:
            def __init__(self):
                self._losses = []

            @tf.function
            def step(self, x):
                loss = tf.reduce_mean(x)
                self._losses.append(loss)
                return loss
        """)
    assert "TF202" in rules(report, Severity.ERROR)


def test_create_once_guard_is_not_state_mutation() -> None:
    report = check("""
        import tensorflow as tf

        class Scale(tf.Module):
            def __init__(self):
                self.v = None
                self.built = False

            @tf.function
            def __call__(self, x):
                if self.v is None:
                    self.v = tf.Variable(tf.ones_like(x))
                if not self.built:
                    self.built = True
                return x * self.v
        """)
    assert not {"TF202", "TF401"} & rules(report)


def test_arguments_and_trace_time_lists_are_not_state() -> None:
    report = check("""
        import tensorflow as tf

        def collect(checks, x):
            checks.append(tf.debugging.assert_positive(x))

        def fill(data, key, x):
            data[key] = x * 2.0

        @tf.function
        def validate(x):
            checks = []
            collect(checks, x)
            data = {}
            fill(data, "y", x)
            with tf.control_dependencies(checks):
                return tf.identity(data["y"])
        """)
    assert not {"TF202", "TF203"} & rules(report)


# -- 6. recursion does not spread -----------------------------------------------------------------
def test_recursive_helper_over_python_structures_is_fine_in_graph_code() -> None:
    report = check("""
        import tensorflow as tf

        def flatten(structure):
            if isinstance(structure, (list, tuple)):
                return [leaf for item in structure for leaf in flatten(item)]
            return [structure]

        @tf.function
        def total(xs):
            return tf.add_n(flatten(xs))
        """)
    assert "TF404" not in rules(report)
    assert verdict_of(report, "total").verdict is Verdict.KEEP


def test_recursive_tf_function_on_a_tensor_condition_is_tf404() -> None:
    report = check("""
        import tensorflow as tf

        @tf.function
        def halve(n: tf.Tensor):
            if n <= 1:
                return n
            return halve(n // 2)
        """)
    assert "TF404" in rules(report, Severity.ERROR)
    assert verdict_of(report, "halve").verdict is Verdict.FIX_FIRST


# -- 7. custom tf.function wrappers are seen -----------------------------------------------------
WRAPPERS = {
    "a def": """
        import tensorflow as tf

        def function(fn=None, **kwargs):
            return tf.function(fn, autograph=False, **kwargs)

        @function
        def describe(name):
            return "hello " + name
        """,
    "a partial": """
        import functools
        import tensorflow as tf

        compiled = functools.partial(tf.function, jit_compile=True)

        @compiled
        def describe(name):
            return "hello " + name
        """,
}


@pytest.mark.parametrize("case", sorted(WRAPPERS))
def test_project_wrappers_of_tf_function_are_decorators(case: str) -> None:
    fn = verdict_of(check(WRAPPERS[case]), "describe")
    assert fn.decorated and fn.verdict is Verdict.UNDECORATE  # pure Python under a tf.function


def test_configured_function_decorators() -> None:
    code = """
        from tf_agents.utils import common

        @common.function
        def describe(name):
            return "hello " + name
        """
    assert not verdict_of(check(code), "describe").decorated
    configured = Config(function_decorators=("tf_agents.utils.common.function",))
    assert verdict_of(check(code, config=configured), "describe").decorated


# -- 8. decorate looks at the call sites ----------------------------------------------------------
STEP = """
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)

    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    """


def test_train_step_called_over_a_dataset_is_decorate() -> None:
    report = check(STEP + """
    dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64, 1]))).batch(8)
    for epoch in range(5):
        for x, y in dataset:
            train_step(x, y)
    """)
    assert verdict_of(report, "train_step").verdict is Verdict.DECORATE


def test_a_decorator_someone_commented_out_is_not_put_back() -> None:
    """``# @tf.function`` right above the def: the author tried graph mode and took it back
    (model-zoo: "# @tf.function scope name error if enabled, why?"): with the reason written next
    to it, leave-eager, pointing to run."""
    loop = """
    dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64, 1]))).batch(8)
    for x, y in dataset:
        train_step(x, y)
    """
    turned_off = STEP.replace("    def train_step", "    # @tf.function  scope name error if enabled\n    def train_step")
    fn = verdict_of(check(turned_off + loop), "train_step")
    assert fn.verdict is Verdict.LEAVE_EAGER and "commented out" in fn.assumptions[0]
    assert verdict_of(check(STEP + loop), "train_step").verdict is Verdict.DECORATE
    # without a word of why, a hot step is still told to decorate, as a guess
    # (tests/check/test_generalization.py)
    bare = STEP.replace("    def train_step", "    # @tf.function\n    def train_step")
    fn = verdict_of(check(bare + loop), "train_step")
    assert fn.verdict is Verdict.DECORATE and fn.confidence == "speculative"


def test_train_step_fed_growing_python_lists_is_not_decorate() -> None:
    report = check(STEP + """
    xs, ys = [], []
    for i in range(100):
        xs.append([float(i), 0.0, 1.0])
        ys.append([float(i)])
        train_step(xs, ys)
    """)
    assert verdict_of(report, "train_step").verdict is Verdict.LEAVE_EAGER


def test_train_step_fed_python_numbers_is_fix_first_pass_tensors() -> None:
    report = check(STEP.replace("def train_step(x, y):", "def train_step(x, y, lr):")
                   .replace("optimizer.apply_gradients(zip(grads,", "optimizer.apply_gradients(zip([g * lr for g in grads],") + """
    dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64, 1]))).batch(8)
    for step, (x, y) in enumerate(dataset):
        train_step(x, y, 0.1 / (step + 1))
    """)
    fn = verdict_of(report, "train_step")
    assert fn.verdict is Verdict.FIX_FIRST and "TF101" in fn.reasons


def test_library_function_with_no_call_site_is_leave_eager() -> None:
    fn = verdict_of(check(STEP), "train_step")
    assert fn.verdict is Verdict.LEAVE_EAGER
    # kept for want of evidence: said as such, and run decides
    assert fn.confidence == "unknown"
    assert any("not seen: a call site" in a and "tfadvisor run" in a for a in fn.assumptions)


def test_call_sites_in_tests_are_not_the_workload() -> None:
    # A TestCase's methods are tests wherever the class is (unittest collects them anywhere).
    report = check(STEP + """
    class TrainStepTest(tf.test.TestCase):
        def test_train_step(self):
            dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64, 1]))).batch(8)
            for x, y in dataset:
                train_step(x, y)
    """)
    assert verdict_of(report, "train_step").verdict is Verdict.LEAVE_EAGER


def test_a_function_named_test_outside_test_code_is_workload() -> None:
    # pytest collects ``test_*`` functions only from test files: in a training script,
    # ``test_step`` is the evaluation step (TensorFlow's tutorials name it so).
    report = check(STEP + """
    def test_step(x, y):
        return tf.reduce_mean(tf.square(model(x) - y))

    dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64, 1]))).batch(8)
    for x, y in dataset:
        train_step(x, y)
        test_step(x, y)
    """)
    assert verdict_of(report, "train_step").verdict is Verdict.DECORATE
    assert verdict_of(report, "test_step").verdict is Verdict.DECORATE


def test_code_only_a_test_traces_gets_no_graph_findings(tmp_path) -> None:
    """A registry filled per call, traced only by a test's tf.function: no TF202 in the library;
    a module-level registry filled by the project's own tf.function does get it (one made inside
    the trace does not: analysis/escape.py)."""
    (tmp_path / "registry.py").write_text(textwrap.dedent("""
        import tensorflow as tf

        class Registry:
            def __init__(self):
                self._table = {}

            def insert(self, key, fn):
                self._table[key] = fn

        def make_registry():
            registry = Registry()
            registry.insert("dense", tf.identity)
            return registry
        """))
    (tmp_path / "registry_test.py").write_text(textwrap.dedent("""
        import tensorflow as tf
        from registry import make_registry

        class RegistryTest(tf.test.TestCase):
            def test_in_graph(self):
                @tf.function
                def run(x):
                    return make_registry()._table["dense"](x)
                run(tf.zeros([2]))
        """))
    tested = check_paths([str(tmp_path)])
    assert not {f.rule for f in tested.findings} & {"TF202", "TF203"}
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        import tensorflow as tf
        from registry import make_registry

        @tf.function
        def step(x):
            return make_registry()._table["dense"](x)
        """))
    assert not {f.rule for f in check_paths([str(tmp_path)]).findings} & {"TF202", "TF203"}
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        import tensorflow as tf
        from registry import Registry

        REGISTRY = Registry()

        @tf.function
        def step(x):
            REGISTRY.insert("last", x)
            return x * 2.0
        """))
    used = check_paths([str(tmp_path)])
    assert {f.rule for f in used.findings} & {"TF202", "TF203"}


def test_an_elementwise_helper_is_not_worth_a_graph() -> None:
    report = check("""
        import tensorflow as tf

        def smooth_l1(y_true, y_pred):
            diff = tf.abs(y_true - y_pred)
            return tf.reduce_mean(tf.where(diff < 1.0, 0.5 * diff ** 2, diff - 0.5))

        dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64, 3]))).batch(8)
        for a, b in dataset:
            smooth_l1(a, b)
        """)
    fn = verdict_of(report, "smooth_l1")
    assert fn.verdict is Verdict.LEAVE_EAGER and "TF602" in fn.reasons


def test_a_test_wrapping_library_code_in_tf_function_does_not_decorate_it(tmp_path) -> None:
    """``tf.function(ops.transform)`` in a test traces the library function; it does not make it a
    tf.function for the library's users (found in tensorflow/addons: `keep` on a plain function)."""
    (tmp_path / "ops.py").write_text(textwrap.dedent("""
        import tensorflow as tf

        def transform(images, transforms):
            return tf.raw_ops.ImageProjectiveTransformV3(images=images, transforms=transforms,
                                                         output_shape=tf.shape(images)[1:3],
                                                         fill_value=0.0, interpolation="NEAREST")
        """))
    (tmp_path / "ops_test.py").write_text(textwrap.dedent("""
        import tensorflow as tf
        import ops

        def test_traces():
            fn = tf.function(ops.transform).get_concrete_function(
                tf.TensorSpec([None, None, None, 3]), tf.TensorSpec([None, 8]))
        """))
    report = check_paths([str(tmp_path)])
    transform = next(f for f in report.functions if f.qualname == "transform")
    assert not transform.decorated and transform.verdict is Verdict.LEAVE_EAGER
    assert not [f for f in report.findings if f.function == transform.id and f.rule == "TF505"]
