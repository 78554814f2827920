"""Static advice on the layouts real projects have (issue 19): values that cross modules, test code
known by where it is, hot steps that report, functions passed by name, and "don't know" said as such.

Each test is a small project written afresh in the shape the triage corpus showed.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

from tfadvisor.check import check_paths, check_source
from tfadvisor.model import Verdict
from tfadvisor.report import sarif, text


def project(tmp_path: Path, files: dict[str, str]) -> dict[str, object]:
    for name, code in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(code))
    report = check_paths([str(tmp_path)])
    return {fn.qualname if fn.path.endswith(("train.py", "prog.py")) else f"{Path(fn.path).name}::{fn.qualname}": fn
            for fn in report.functions}


def single(code: str):  # type: ignore[no-untyped-def]
    report = check_source(textwrap.dedent(code), "prog.py")
    return {fn.qualname: fn for fn in report.functions}, report


PIPELINE = """\
import tensorflow as tf


def _scale(image, label):
    return tf.cast(image, tf.float32) / 255.0, label


def load_split(batch_size=32):
    (x, y), (xt, yt) = tf.keras.datasets.mnist.load_data()
    train = tf.data.Dataset.from_tensor_slices((x, y)).map(_scale).shuffle(1000).batch(batch_size)
    test = tf.data.Dataset.from_tensor_slices((xt, yt)).map(_scale).batch(batch_size)
    return train, test
"""

MODEL = """\
import tensorflow as tf


class SmallNet(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.flat = tf.keras.layers.Flatten()
        self.out = tf.keras.layers.Dense(10)

    def call(self, x):
        return self.out(self.flat(x))
"""

TRAIN = """\
import tensorflow as tf

from data import pipeline
from models.net import SmallNet

model = SmallNet()
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
optimizer = tf.keras.optimizers.Adam()
test_loss = tf.keras.metrics.Mean()


def train_step(images, labels):
    with tf.GradientTape() as tape:
        loss = loss_object(labels, model(images, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


def test_step(images, labels):
    test_loss(loss_object(labels, model(images, training=False)))


def main(epochs=5):
    train_ds, test_ds = pipeline.load_split()
    for epoch in range(epochs):
        for images, labels in train_ds:
            train_step(images, labels)
        for images, labels in test_ds:
            test_step(images, labels)


if __name__ == "__main__":
    main()
"""


def test_the_common_layout_gets_decorate_for_both_steps(tmp_path: Path) -> None:
    # datasets built in one module, the model in another, an eager loop in a third
    fns = project(tmp_path, {"data/__init__.py": "", "data/pipeline.py": PIPELINE, "models/__init__.py": "",
                             "models/net.py": MODEL, "train.py": TRAIN})
    for step in ("train_step", "test_step"):
        assert fns[step].verdict is Verdict.DECORATE, (step, fns[step].assumptions)
        assert fns[step].confidence == "certain"
        assert fns[step].facts.tensor_params == ["images", "labels"]


def test_a_dataset_stored_on_self_in_init_feeds_tensors(tmp_path: Path) -> None:
    fns = project(tmp_path, {"data/__init__.py": "", "data/pipeline.py": PIPELINE, "models/__init__.py": "",
                             "models/net.py": MODEL, "train.py": """\
        import tensorflow as tf

        from data.pipeline import load_split
        from models.net import SmallNet


        class Trainer:
            def __init__(self):
                self.train_ds, self.test_ds = load_split()
                self.model = SmallNet()
                self.optimizer = tf.keras.optimizers.SGD(0.1)

            def step(self, x, y):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(self.model(x) - tf.cast(y[:, None], tf.float32)))
                grads = tape.gradient(loss, self.model.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))

            def fit(self):
                for x, y in self.train_ds:
                    self.step(x, y)


        Trainer().fit()
        """})
    assert fns["Trainer.step"].verdict is Verdict.DECORATE, (fns["Trainer.step"].assumptions, fns["Trainer.step"].facts)


def test_test_case_methods_are_tests_wherever_they_are() -> None:
    fns, _ = single("""\
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            return tape.gradient(loss, model.trainable_variables)


        class StepTest(tf.test.TestCase):
            def test_step_runs(self):
                def check(x):
                    return train_step(x, x)
                for x in tf.data.Dataset.from_tensor_slices(tf.zeros([8, 1])).batch(2):
                    check(x)
        """)
    assert fns["StepTest.test_step_runs"].assumptions == ["test code: it uses tf.function (or not) on purpose"]
    assert fns["StepTest.test_step_runs.<locals>.check"].verdict is Verdict.LEAVE_EAGER
    assert fns["train_step"].verdict is Verdict.LEAVE_EAGER  # its only caller is a test


def test_a_hot_step_that_reads_values_back_is_fix_first() -> None:
    fns, _ = single("""\
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        opt = tf.keras.optimizers.Adam()
        history = []


        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            history.append(loss.numpy())
            print("loss", loss.numpy())


        ds = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64], tf.int32))).batch(8)
        for epoch in range(3):
            for x, y in ds:
                train_step(x, y)
        """)
    step = fns["train_step"]
    assert step.verdict is Verdict.FIX_FIRST
    assert "TF206" in step.reasons
    assert any("return the tensors" in a for a in step.assumptions)


def test_a_builder_behind_a_partial_alias_stays_eager() -> None:
    fns, _ = single("""\
        import functools

        import tensorflow as tf

        conv = functools.partial(tf.keras.layers.Conv2D, padding="same", activation="relu")


        def block(x, filters):
            x = conv(filters, 3)(x)
            return tf.nn.relu(conv(filters, 3)(x))


        for x in tf.data.Dataset.from_tensor_slices(tf.zeros([64, 8, 8, 3])).batch(8):
            block(x, 16)
        """)
    assert fns["block"].verdict is Verdict.LEAVE_EAGER
    assert fns["block"].reasons == ["TF504"]


def test_a_parameter_iterated_by_zip_of_unknown_kind_holds_decorate_back(tmp_path: Path) -> None:
    fns = project(tmp_path, {"lib.py": """\
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


        def leapfrog(position, step_size):
            with tf.GradientTape() as tape:
                energy = tf.reduce_sum(model(position))
            grad = tape.gradient(energy, position)
            return [p - s * g for p, s, g in zip(position, step_size, grad)]
        """, "prog.py": """\
        import tensorflow as tf

        from lib import leapfrog
        from somewhere import sizes

        x = tf.zeros([4, 1])
        for _ in range(100):
            leapfrog(x, sizes)
        """})
    fn = fns["lib.py::leapfrog"]
    assert fn.verdict is Verdict.LEAVE_EAGER and fn.confidence == "unknown"
    assert any("iterates" in a for a in fn.assumptions)


def test_a_list_rebuilt_every_call_is_not_taken_for_a_retracing_object() -> None:
    # a list of tensors traces once per structure; of Python numbers, once per value: not known
    fns, _ = single("""\
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


        def update(params, momentum):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(model(params[0]))
            grads = tape.gradient(loss, model.trainable_variables)
            return params, [m * 0.9 + g for m, g in zip(momentum, grads)]


        params, momentum = [tf.zeros([2, 3])], [tf.zeros([3, 1]), tf.zeros([1])]
        for _ in range(100):
            params, momentum = update(params, momentum)
        """)
    fn = fns["update"]
    assert "TF103" not in fn.reasons
    # fed back from its own result, the lists hold what it returned: TensorFlow 2.21 traces the
    # decorated step once over the 100 calls (heldout25's accumulated-gradient counter, the same way)
    assert fn.verdict is Verdict.DECORATE


def test_a_function_passed_by_name_is_followed_when_every_caller_passes_the_same() -> None:
    fns, _ = single("""\
        import numpy as np
        import tensorflow as tf

        net = tf.keras.Sequential([tf.keras.layers.Dense(10)])
        opt = tf.keras.optimizers.Adam()


        def cost(logits, y):
            return tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))


        def accuracy(logits, y):
            return np.mean(np.equal(np.argmax(logits, 1), y))


        def train_step(x, y, acc=None):
            with tf.GradientTape() as tape:
                logits = net(x)
                loss = cost(logits, y)
            grads = tape.gradient(loss, net.trainable_weights)
            opt.apply_gradients(zip(grads, net.trainable_weights))
            return loss, acc(logits, y)


        ds = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64], tf.int32))).batch(8)
        for x, y in ds:
            train_step(x, y, acc=accuracy)
        """)
    assert fns["train_step"].verdict is Verdict.FIX_FIRST  # decorated, NumPy on tensors would fail


def test_a_helper_that_applies_whatever_it_is_given_is_not_charged_with_every_function() -> None:
    fns, _ = single("""\
        import numpy as np
        import tensorflow as tf


        def apply(func, x):
            return func(x)


        def jitter(x):
            return x + np.random.uniform()


        def flip(x):
            return tf.image.flip_left_right(x)


        @tf.function
        def augment(x):
            return apply(flip, x)


        ds = tf.data.Dataset.from_tensor_slices(tf.zeros([8, 4, 4, 3])).batch(2)
        for x in ds:
            augment(x)
            apply(jitter, x)
        """)
    assert fns["augment"].verdict is Verdict.KEEP


def test_a_method_named_update_does_not_make_its_object_change_per_call() -> None:
    # ``agent.update()`` is a method of the project's class, not dict.update
    fns, _ = single("""\
        import tensorflow as tf


        class Agent:
            def __init__(self):
                self.net = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                self.opt = tf.keras.optimizers.SGD(0.1)
                self.x = tf.zeros([32, 4])

            def update(self, gamma):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(self.net(self.x)) * gamma
                grads = tape.gradient(loss, self.net.trainable_weights)
                self.opt.apply_gradients(zip(grads, self.net.trainable_weights))


        agent = Agent()
        for step in range(1000):
            agent.update(0.99)
        """)
    assert "TF103" not in fns["Agent.update"].reasons
    assert fns["Agent.update"].verdict is Verdict.DECORATE


def test_numpy_on_changing_values_in_a_step_is_fix_first() -> None:
    fns, _ = single("""\
        import numpy as np
        import tensorflow as tf


        class Agent:
            def __init__(self):
                self.net = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                self.opt = tf.keras.optimizers.SGD(0.1)
                self.states = []

            def learn(self):
                batch = np.vstack(self.states)
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(self.net(batch))
                grads = tape.gradient(loss, self.net.trainable_weights)
                self.opt.apply_gradients(zip(grads, self.net.trainable_weights))


        agent = Agent()
        for episode in range(100):
            agent.states.append(np.random.rand(1, 3))
            agent.learn()
        """)
    learn = fns["Agent.learn"]
    assert learn.verdict is Verdict.FIX_FIRST and learn.reasons == ["TF205"]
    assert any("NumPy on changing values" in a for a in learn.assumptions)


def test_pytorch_modules_are_out_of_scope() -> None:
    fns, _ = single("""\
        import torch


        def step(model, x):
            return model(x)


        for i in range(10):
            step(None, torch.zeros(3))
        """)
    assert fns["step"].verdict is Verdict.LEAVE_EAGER
    assert "out of scope" in fns["step"].assumptions[0]


def test_dont_know_is_said_in_json_text_and_sarif(tmp_path: Path) -> None:
    source = tmp_path / "lib.py"
    source.write_text(textwrap.dedent("""\
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            return tape.gradient(loss, model.trainable_variables)
        """))
    report = check_paths([str(source)])
    fn = next(f for f in report.functions if f.qualname == "train_step")
    assert fn.verdict is Verdict.LEAVE_EAGER and fn.confidence == "unknown"
    assert json.loads(json.dumps(report.to_dict()))["functions"][0]["confidence"] == "unknown"
    shown = text.render(report)
    assert "unknown: evidence missing" in shown and "tfadvisor run" in shown
    counts = sarif.build(report)["runs"][0]["properties"]["verdicts"]
    assert counts["leave-eager"]["unknown"] == 1


def test_a_train_step_written_as_a_method_of_the_model_is_a_step() -> None:
    # ``model.step(images)`` on a parameter: the class comes from the call site that passes it;
    # decorating a Keras model's own step method works (its first trace builds the weights).
    fns, _ = single("""\
        import tensorflow as tf
        from tensorflow import keras


        def load_images():
            (x, _), _ = keras.datasets.mnist.load_data()
            return tf.data.Dataset.from_tensor_slices(x[..., None] / 255.0).batch(64)


        class AutoEncoder(keras.Model):
            def __init__(self):
                super().__init__()
                self.encoder = keras.Sequential([keras.layers.Flatten(), keras.layers.Dense(16)])
                self.decoder = keras.Sequential([keras.layers.Dense(784), keras.layers.Reshape((28, 28, 1))])
                self.opt = keras.optimizers.Adam(1e-3)

            def call(self, x, training=None):
                return self.decoder(self.encoder(x))

            def step(self, images):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(self.call(images, training=True) - images))
                grads = tape.gradient(loss, self.trainable_variables)
                self.opt.apply_gradients(zip(grads, self.trainable_variables))
                return loss


        def train(model, data, epochs):
            for epoch in range(epochs):
                for images in data:
                    loss = model.step(images)
                print(epoch, float(loss))


        train(AutoEncoder(), load_images(), 5)
        """)
    assert fns["AutoEncoder.step"].verdict is Verdict.DECORATE, fns["AutoEncoder.step"].assumptions
    assert fns["AutoEncoder.call"].verdict is Verdict.LEAVE_EAGER
    assert fns["train"].verdict is Verdict.LEAVE_EAGER


def test_hybridize_style_facts_tensors_stored_on_self_or_a_global_object_are_side_effects() -> None:
    # Facts as Hybridize (Castro Vélez et al.) states them: tensor parameters from call sites, Python
    # side effects through callees, a tensor stored on self or on a module-level object (it leaks
    # out of a trace) counting as one.
    fns, _ = single("""\
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])


        class Recorder:
            def __init__(self):
                self.last = None


        rec = Recorder()


        def record(y):
            rec.last = y


        class Stepper:
            def __init__(self):
                self.cache = None

            def step(self, x):
                y = model(x)
                self.cache = y
                return y


        def step(x):
            y = model(x)
            record(y)
            return y


        def pure(x):
            return model(x) * 2.0


        s = Stepper()
        for x in tf.data.Dataset.from_tensor_slices(tf.zeros([8, 3])).batch(2):
            step(x)
            s.step(x)
            pure(x)
        """)
    assert fns["record"].facts.tensor_params == ["y"]  # from its call site in step
    assert fns["record"].facts.python_side_effects
    assert fns["step"].facts.python_side_effects  # through its callee
    assert fns["Stepper.step"].facts.python_side_effects
    assert not fns["pure"].facts.python_side_effects


def test_numpy_batches_sliced_in_a_progress_bar_loop_are_tensor_like() -> None:
    # NumPy arrays passed to a tf.function trace as tensors do (once per shape and dtype)
    fns, _ = single("""\
        import tensorflow as tf
        from tqdm import tqdm

        (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
        x_train = x_train / 255.0
        model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
        opt = tf.keras.optimizers.Adam()
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))


        def evaluate(x, y):
            return tf.reduce_mean(tf.cast(tf.argmax(model(x), 1) == y, tf.float32))


        for epoch in range(3):
            for i in tqdm(range(0, len(x_train), 64)):
                train_step(x_train[i:i + 64], y_train[i:i + 64])
            for x, y in tqdm(tf.keras.utils.image_dataset_from_directory("data/test")):
                evaluate(x, y)
        """)
    assert fns["train_step"].verdict is Verdict.DECORATE, fns["train_step"].assumptions
    assert fns["evaluate"].verdict is Verdict.DECORATE, fns["evaluate"].assumptions


def test_a_pipeline_rebound_to_itself_and_a_tfds_split_stay_datasets() -> None:
    fns, _ = single("""\
        import tensorflow as tf
        import tensorflow_datasets as tfds


        def generate_datasets(batch):
            train_dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64])))
            train_dataset = train_dataset.shuffle(100).batch(batch)
            splits = tfds.load("mnist", as_supervised=True)
            return train_dataset, splits["test"].batch(batch), 64


        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        opt = tf.keras.optimizers.SGD()


        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))


        def test_step(x, y):
            return tf.reduce_mean(tf.square(model(x) - y))


        train, test, n = generate_datasets(8)
        for epoch in range(3):
            for x, y in train:
                train_step(x, y)
            for x, y in test:
                test_step(x, y)
        """)
    assert fns["train_step"].verdict is Verdict.DECORATE
    assert fns["test_step"].verdict is Verdict.DECORATE


def test_files_sharing_a_name_stay_apart_and_imports_go_to_the_neighbour(tmp_path: Path) -> None:
    # lesson folders of a tutorial repository, each with its own model.py and main.py
    step = """\
        import tensorflow as tf

        from model import make

        net = make()
        opt = tf.keras.optimizers.SGD()


        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(net(x))
            opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables), net.trainable_variables))


        for x in tf.data.Dataset.from_tensor_slices(tf.zeros([8, 2])).batch(2):
            step(x)
        """
    files = {"lesson1/model.py": "import tensorflow as tf\n\n\ndef make():\n    return tf.keras.Sequential()\n",
             "lesson2/model.py": "def make():\n    return None\n",
             "lesson1/main.py": step, "lesson2/main.py": step}
    for name, code in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(code))
    report = check_paths([str(tmp_path)])
    steps = [fn for fn in report.functions if fn.qualname == "step"]
    assert len(steps) == 2 and all(fn.verdict is Verdict.DECORATE for fn in steps)
    makes = {Path(fn.path).parent.name: fn for fn in report.functions if fn.qualname == "make"}
    assert makes["lesson1"].reasons == ["TF504"]  # the Keras builder is told apart from lesson2's None


def test_a_call_now_and_then_does_not_make_a_function_hot() -> None:
    fns, _ = single("""\
        import tensorflow as tf

        gen = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        opt = tf.keras.optimizers.Adam()


        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(gen(x))
            grads = tape.gradient(loss, gen.trainable_variables)
            opt.apply_gradients(zip(grads, gen.trainable_variables))


        def sample_images(z):
            return gen(z, training=False)


        def show(z):
            return gen(z)


        ds = tf.data.Dataset.from_tensor_slices(tf.zeros([64, 4])).batch(8)
        z = tf.random.normal([16, 4])
        for epoch in range(100):
            for step, x in enumerate(ds):
                train_step(x)
                if step % 50 == 0:
                    show(z)
            sample_images(z)
        """)
    assert fns["train_step"].verdict is Verdict.DECORATE
    for name in ("sample_images", "show"):
        assert fns[name].verdict is Verdict.LEAVE_EAGER and fns[name].reasons == ["TF602"], name
        assert "now and then" in fns[name].assumptions[0]


def test_a_model_whose_own_loop_calls_compute_loss_runs_it_eagerly() -> None:
    # Keras runs compute_loss inside fit's tf.function; a notebook that never calls fit runs its own
    fns, _ = single("""\
        import tensorflow as tf


        class VAE(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.enc = tf.keras.Sequential([tf.keras.layers.Dense(4)])
                self.dec = tf.keras.Sequential([tf.keras.layers.Dense(8)])
                self.opt = tf.keras.optimizers.Adam()

            def compute_loss(self, x):
                return tf.reduce_mean(tf.square(self.dec(self.enc(x)) - x))

            def train(self, x):
                with tf.GradientTape() as tape:
                    loss = self.compute_loss(x)
                grads = tape.gradient(loss, self.trainable_variables)
                self.opt.apply_gradients(zip(grads, self.trainable_variables))


        model = VAE()
        ds = tf.data.Dataset.from_tensor_slices(tf.zeros([64, 8])).batch(8)
        for epoch in range(10):
            for x in ds:
                model.train(x)
            for x in ds:
                model.compute_loss(x)
        """)
    assert fns["VAE.train"].verdict is Verdict.DECORATE
    assert not any("Keras runs" in a for a in fns["VAE.compute_loss"].assumptions)


def test_a_loop_over_objects_of_several_classes_reaches_each_method() -> None:
    fns, _ = single("""\
        import tensorflow as tf


        class GAN(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.d = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                self.opt = tf.keras.optimizers.Adam()

            def step(self, x):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(self.d(x))
                grads = tape.gradient(loss, self.d.trainable_variables)
                self.opt.apply_gradients(zip(grads, self.d.trainable_variables))


        class LSGAN(GAN):
            def step(self, x):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(self.d(x)))
                grads = tape.gradient(loss, self.d.trainable_variables)
                self.opt.apply_gradients(zip(grads, self.d.trainable_variables))


        def train(gan, ds, epochs):
            for epoch in range(epochs):
                for x in ds:
                    gan.step(x)


        data = tf.data.Dataset.from_tensor_slices(tf.zeros([64, 3])).batch(8)
        train(GAN(), data, 5)
        train(LSGAN(), data, 5)
        """)
    assert fns["GAN.step"].verdict is Verdict.DECORATE
    assert fns["LSGAN.step"].verdict is Verdict.DECORATE


def test_a_function_only_traced_for_its_graph_keeps_its_trace_time_bookkeeping() -> None:
    fns, _ = single("""\
        import tensorflow as tf


        def make_initializer(build):
            created = []

            @tf.function
            def initialize():
                variables = build()
                nonlocal created
                created = [v.name for v in tf.nest.flatten(variables)]
                return variables

            initialize.get_concrete_function()
            return created
        """)
    init = fns["make_initializer.<locals>.initialize"]
    assert init.verdict is Verdict.KEEP


def test_helpers_called_only_from_tf1_code_are_tf1_code(tmp_path: Path) -> None:
    fns = project(tmp_path, {"ops.py": """\
        import tensorflow as tf


        def distance(x, y):
            return tf.reduce_sum(tf.square(x - y), axis=-1)


        def layer(x, y):
            return tf.nn.relu(distance(x, y))
        """, "graph_model.py": """\
        import tensorflow as tf

        import ops

        tf.compat.v1.disable_eager_execution()
        x = tf.compat.v1.placeholder(tf.float32, [None, 3])
        for _ in range(3):
            x = ops.layer(x, x)
        """})
    for name in ("ops.py::layer", "ops.py::distance"):
        assert fns[name].verdict is Verdict.LEAVE_EAGER, name
    assert fns["ops.py::layer"].reasons == ["TF100"]


def test_state_of_objects_made_inside_the_trace_is_not_a_lost_side_effect() -> None:
    """Object-detection pipelines (heldout6) make small box objects inside the mapped function and
    fill their fields: that state lives and dies in one trace (TensorFlow computes the same:
    tests/conformance/variants/tf203.py). A module-level object filled in the trace still counts."""
    program = """
        import tensorflow as tf

        class Boxes:
            def __init__(self, corners):
                self.fields = {"corners": corners}

            def add(self, name, value):
                self.fields[name] = value

            def get(self, name):
                return self.fields[name]

        def copy_fields(dst, src):
            for name, value in src.fields.items():
                dst.add(name, value)

        def scaled(boxes, factor):
            out = Boxes(boxes.get("corners") * factor)
            copy_fields(out, boxes)
            return out

        def parse(corners):
            boxes = Boxes(corners)
            boxes.add("ids", tf.range(tf.shape(corners)[0]))
            return scaled(boxes, 2.0).get("corners")

        data = tf.data.Dataset.from_tensor_slices(tf.zeros([3, 2, 4])).map(parse)
        """
    _, report = single(program)
    assert not [f.rule for f in report.findings if f.rule in ("TF202", "TF203")]
    _, report = single(program.replace("        data = tf.data", "        LAST = Boxes(None)\n\n"
                                       "        @tf.function\n        def keep(x):\n            LAST.add('x', x)\n"
                                       "            return x\n\n        data = tf.data"))
    assert {f.rule for f in report.findings} >= {"TF202", "TF203"}


def test_a_model_that_overrides_fit_runs_its_steps_eagerly() -> None:
    """A Keras model with its own ``fit`` loop calls ``train_step`` itself, eagerly (heldout6's
    face-recognition trainer): Keras traces nothing there, so the step is the program's to decorate."""
    fns, report = single("""
        import tensorflow as tf

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(4)

            def call(self, x):
                return self.dense(x)

            def train_step(self, x):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(self(x) ** 2)
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return loss

            def fit(self, data, epochs=1):
                for _ in range(epochs):
                    for x in data:
                        self.train_step(x)

        model = Net()
        model.compile(optimizer="adam")
        model.fit(tf.data.Dataset.from_tensor_slices(tf.ones([64, 4])).batch(8), epochs=3)
        """)
    assert fns["Net.train_step"].verdict is Verdict.DECORATE


def test_a_session_made_only_for_gpu_options_is_not_tf1_code(tmp_path: Path) -> None:
    """``InteractiveSession(config=config)`` at the top of a TF2 script sets GPU memory growth
    (heldout6's semi-supervised trainer); nothing runs in it, so the script is TF2 code."""
    fns = project(tmp_path, {"train.py": """
        import tensorflow as tf

        config = tf.compat.v1.ConfigProto()
        config.gpu_options.allow_growth = True
        session = tf.compat.v1.InteractiveSession(config=config)

        model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        optimizer = tf.keras.optimizers.Adam()

        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(model(x) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        for x in tf.data.Dataset.from_tensor_slices(tf.ones([64, 4])).batch(8):
            train_step(x)
        """})
    assert fns["train_step"].verdict is Verdict.DECORATE
    fns = project(tmp_path, {"train.py": """
        import tensorflow as tf

        x = tf.compat.v1.placeholder(tf.float32, [None, 4])
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
        """})
    assert not [fn for fn in fns.values() if fn.verdict is Verdict.DECORATE]


def test_a_hot_step_whose_decorator_was_commented_out_is_still_told_to_decorate_as_a_guess() -> None:
    """Judges preferred decorate on 6 of 8 training steps whose ``# @tf.function`` was commented
    out (often for debugging); the advice says it is a guess and why."""
    fns, _ = single("""
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        optimizer = tf.keras.optimizers.Adam()

        # @tf.function
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(model(x) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        for x in tf.data.Dataset.from_tensor_slices(tf.ones([64, 4])).batch(8):
            train_step(x)
        """)
    step = fns["train_step"]
    assert step.verdict is Verdict.DECORATE and step.confidence == "speculative"
    assert any("commented out" in a for a in step.assumptions)


def test_a_helper_that_works_every_nth_call_is_a_reporter_not_a_step() -> None:
    """``show(model, batch, int(step))`` per batch, whose body runs only under ``if step % 20 == 0``
    (heldout7's segmentation notebooks): it reports now and then; its NumPy and prints are eager
    code, not hazards of a graph."""
    fns, report = single("""
        import tensorflow as tf
        import matplotlib.pyplot as plt

        model = tf.keras.Sequential([tf.keras.layers.Dense(4)])

        def check_predictions(model, batch, step):
            pred = model(batch)
            plt.imshow(pred.numpy())
            print("step", step, float(tf.reduce_mean(pred)))

        def show(model, batch, step, freq_step=200):
            if step % freq_step == 0:
                print("checking")
                check_predictions(model, batch, step)

        for step, batch in enumerate(tf.data.Dataset.from_tensor_slices(tf.ones([64, 4])).batch(8)):
            show(model, batch, int(step), freq_step=20)
        """)
    assert fns["show"].verdict is Verdict.LEAVE_EAGER
    assert not [f for f in report.findings if f.severity.value in ("error", "warning")]


def test_code_under_if_0_is_never_a_finding() -> None:
    """``if 0:`` debug blocks in a loss (heldout7's detection code): AutoGraph leaves a constant
    test as a plain ``if``, so the ``.numpy()`` there never runs, traced or not."""
    _, report = single("""
        import tensorflow as tf

        @tf.function
        def loss(pred, target):
            diff = tf.reduce_mean(tf.square(pred - target))
            if 0:
                print("debug", diff.numpy())
            return diff

        for _ in range(10):
            loss(tf.ones([4]), tf.zeros([4]))
        """)
    assert not [f for f in report.findings if f.rule in ("TF206", "TF201")]


def test_findings_under_a_guessed_fix_first_step_are_notes() -> None:
    """A hot step whose ``# @tf.function`` is commented out is fix-first as a guess; what would
    break in its callees is said at info level, since TensorFlow does not trace them today."""
    _, report = single("""
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        optimizer = tf.keras.optimizers.Adam()

        def distances(pred):
            return float(pred.numpy().max())

        # @tf.function
        def train_step(x):
            with tf.GradientTape() as tape:
                pred = model(x)
                loss = tf.reduce_mean(pred ** 2) + distances(pred)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        for x in tf.data.Dataset.from_tensor_slices(tf.ones([64, 4])).batch(8):
            train_step(x)
        """)
    fns = {fn.qualname: fn for fn in report.functions}
    assert fns["train_step"].verdict is Verdict.FIX_FIRST and fns["train_step"].confidence == "speculative"
    in_callee = [f for f in report.findings if f.line < 9]
    assert in_callee and all(f.severity.value == "info" for f in in_callee)


def test_values_read_back_with_numpy_are_arrays_traced_like_tensors() -> None:
    """``features['label'].numpy()`` is a NumPy array whatever ``features`` is; passed to a
    tf.function it is traced once per shape like a tensor (TensorFlow 2.21: three calls with new
    arrays of one shape, one trace), so it does not hold ``decorate`` back as unknown."""
    fns, _ = single("""
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        optimizer = tf.keras.optimizers.Adam()
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

        def split(features):
            return tf.cast(features["image"], tf.float32), features["label"].numpy()

        def train_step(images, labels):
            with tf.GradientTape() as tape:
                loss = loss_object(labels, model(images))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))

        def main(dataset):
            for features in dataset:
                images, labels = split(features)
                train_step(images, labels)
        """)
    assert fns["train_step"].verdict is Verdict.DECORATE


def test_a_training_step_fed_values_nobody_can_follow_is_decorated_as_a_guess(tmp_path: Path) -> None:
    """Batches made by a helper the analysis cannot follow (a label maker of another module): the
    step computes gradients and runs per batch, so it is most likely fed tensors. Judges asked for a
    change on every such step on the development splits: decorate, said as a guess. A helper that
    takes a function to call (``flatgrad(loss_fn, ...)``) is not given that benefit of the doubt:
    a new closure per call would retrace it."""
    fns = project(tmp_path, {
        "labels.py": """\
            class Labeler:
                def make(self, batch):
                    return batch.images, batch.labels
            """,
        "train.py": """\
            import tensorflow as tf
            from labels import Labeler

            model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
            optimizer = tf.keras.optimizers.Adam()

            def train_step(images, labels):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean((model(images) - labels) ** 2)
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))

            def flat_grad(loss_fn, variables):
                with tf.GradientTape() as tape:
                    loss = loss_fn()
                grads = tape.gradient(loss, variables)
                return tf.concat([tf.reshape(g, [-1]) for g in grads], axis=0)

            def pair_step(pair):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean((model(pair[0]) - pair[1]) ** 2)
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))

            def main(batches):
                for batch in batches:
                    images, labels = Labeler().make(batch)
                    train_step(images, labels)
                    pair_step([images, labels])
                    flat_grad(lambda: tf.reduce_sum(model(images)), model.trainable_variables)
            """})
    step = fns["train_step"]
    assert step.verdict is Verdict.DECORATE and step.confidence == "speculative"
    assert any(a.startswith("assumed: its callers pass tensors") for a in step.assumptions)
    assert fns["pair_step"].verdict is Verdict.DECORATE  # a list written in the call: one structure
    assert fns["flat_grad"].verdict is Verdict.LEAVE_EAGER


def test_control_flow_bodies_run_where_their_caller_runs() -> None:
    """TensorFlow 2.21 runs a tf.while_loop body called from eager code as a Python loop (its
    print runs once per iteration): no graph finding there, and the body is never the unit to
    decorate; under a tf.function the same body is graph code."""
    fns, report = single("""
        import tensorflow as tf

        def body(i, total):
            print("step", i)
            return i + 1, total + tf.cast(i, tf.float32)

        def accumulate(n):
            return tf.while_loop(lambda i, t: i < n, body, [tf.constant(0), tf.constant(0.0)])

        def traced_body(i, total):
            print("step", i)
            return i + 1, total + tf.cast(i, tf.float32)

        @tf.function
        def traced(n):
            return tf.while_loop(lambda i, t: i < n, traced_body, [tf.constant(0), tf.constant(0.0)])

        for _ in range(10):
            accumulate(tf.constant(3))
            traced(tf.constant(3))
        """)
    lines = {f.line for f in report.findings if f.rule == "TF201"}
    assert lines == {12}  # traced_body's print, not body's
    assert fns["body"].verdict is Verdict.LEAVE_EAGER
    assert any("control flow" in a for a in fns["body"].assumptions)


def test_a_function_handed_to_a_helper_that_traces_it_stays_a_tf_function() -> None:
    """``unrolled(for_in_range)`` where ``unrolled`` calls ``f.get_concrete_function()``: the
    function passed in is used through its tf.function API; undecorated, the program raises
    AttributeError. Its decorator is kept even though its body is only Python."""
    fns, report = single("""
        import tensorflow as tf

        def unrolled(f, *args):
            graph = f.get_concrete_function(*args).graph
            return any(node.name == "while" for node in graph.as_graph_def().node)

        @tf.function
        def for_in_range():
            x = 0
            for i in range(5):
                x += i
            return x

        print(unrolled(for_in_range))
        """)
    assert fns["for_in_range"].verdict is Verdict.KEEP
    assert not [f for f in report.findings if f.rule == "TF502"]


INLINE_STEP = """
    import tensorflow as tf

    generator = tf.keras.Sequential([tf.keras.layers.Dense(4)])
    discriminator = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    g_opt = tf.keras.optimizers.Adam()

    def g_loss_fn(noise):
        fake = discriminator(generator(noise))
        return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(tf.ones_like(fake), fake))

    def train(noises):
        for step, noise in enumerate(noises):
            with tf.GradientTape() as tape:
                loss = g_loss_fn(noise)
            grads = tape.gradient(loss, generator.trainable_variables)
            g_opt.apply_gradients(zip(grads, generator.trainable_variables))
            print(step, float(loss))
"""


def test_a_driver_run_once_that_trains_inline_stays_eager_and_names_the_step_to_extract() -> None:
    """The tape and the update written in the loop body of a driver the program runs once: judges
    left such drivers as they are (16 on the development splits, fix-first rejected), the step to
    extract said; the loss it calls there is not decorated alone; no graph findings in the loop."""
    fns, report = single(INLINE_STEP + """
    train([tf.random.normal([8, 4]) for _ in range(100)])
    """)
    assert fns["train"].verdict is Verdict.LEAVE_EAGER
    assert any("step function" in a for a in fns["train"].assumptions)
    assert fns["g_loss_fn"].verdict is Verdict.LEAVE_EAGER
    assert not [f for f in report.findings if f.severity.value in ("error", "warning")]


def test_an_epoch_function_that_trains_inline_is_asked_to_make_its_step_a_function() -> None:
    """The same loop run once per epoch: nothing can be decorated until the step is a function
    (fix-first, said so)."""
    fns, _ = single(INLINE_STEP + """
    for epoch in range(10):
        train([tf.random.normal([8, 4]) for _ in range(10)])
    """)
    assert fns["train"].verdict is Verdict.FIX_FIRST
    assert any("step function" in a for a in fns["train"].assumptions)


def test_an_epoch_driver_that_trains_in_a_range_loop_is_not_a_step() -> None:
    """``train()`` called once per epoch, its body a ``range`` loop that minimizes and prints: it
    drives training (judges: leave-eager), it is not a step that reads values back (fix-first)."""
    fns, _ = single("""
        import numpy as np
        import tensorflow as tf

        w = tf.Variable(tf.zeros([4, 1]))
        opt = tf.keras.optimizers.SGD(0.1)
        data = np.random.rand(256, 4).astype("float32")

        def train(iterations):
            for i in range(iterations):
                batch = data[np.random.choice(len(data), 32)]
                opt.minimize(lambda: tf.reduce_mean(tf.matmul(batch, w) ** 2), [w])
                print(i, float(tf.reduce_sum(w)))

        for epoch in range(10):
            train(100)
        """)
    assert fns["train"].verdict is Verdict.LEAVE_EAGER

def test_a_training_routine_run_once_names_the_step_to_extract_and_stays_eager() -> None:
    """``train(model, dataset)`` makes its optimizer, prints the loss and writes the step inline in
    its batch loop; the program runs it once: the advice is about that step (make it a function and
    decorate it), and the routine stays eager (judges on heldout19 rejected fix-first for such
    drivers). A script that builds its own model and trains it inline is left as it is too."""
    fns, _ = single("""
        import tensorflow as tf

        def train(model, dataset, epochs=10):
            optimizer = tf.keras.optimizers.Adam(1e-3)
            for epoch in range(epochs):
                for x, y in dataset:
                    with tf.GradientTape() as tape:
                        loss = tf.reduce_mean(tf.square(model(x) - y))
                    grads = tape.gradient(loss, model.trainable_variables)
                    optimizer.apply_gradients(zip(grads, model.trainable_variables))
                print(epoch, loss.numpy())

        def script(dataset):
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            optimizer = tf.keras.optimizers.Adam(1e-3)
            for x, y in dataset:
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))
            print(loss.numpy())
            return model

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        batches = [(tf.zeros([4, 3]), tf.zeros([4, 1]))] * 8
        train(model, batches)
        script(batches)
        """)
    assert fns["train"].verdict is Verdict.LEAVE_EAGER
    assert any("step function" in a for a in fns["train"].assumptions)
    assert fns["script"].verdict is Verdict.LEAVE_EAGER


def test_an_evaluation_step_fed_the_same_batches_as_the_training_step_is_decorated_too() -> None:
    """``val_step(x, y)``: a model call and a metric, no gradients, called per batch with values the
    analysis cannot follow. The training step beside it is decorated as a guess; so is this one."""
    fns, _ = single("""
        import tensorflow as tf
        from data import batches

        model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        loss_fn = tf.keras.losses.MeanSquaredError()
        optimizer = tf.keras.optimizers.Adam()
        val_loss = tf.keras.metrics.Mean()

        def train_step(x, y):
            with tf.GradientTape() as tape:
                loss = loss_fn(y, model(x, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))

        def val_step(x, y):
            val_loss.update_state(loss_fn(y, model(x, training=False)))

        for epoch in range(10):
            for x, y in batches("train"):
                train_step(x, y)
            for x, y in batches("val"):
                val_step(x, y)
        """)
    assert fns["train_step"].verdict is Verdict.DECORATE
    assert fns["val_step"].verdict is Verdict.DECORATE
    assert fns["val_step"].confidence == "speculative"


def test_what_an_objects_call_does_counts_for_its_caller() -> None:
    """``accuracy = Accuracy(); accuracy(pred, y)`` runs ``Accuracy.__call__``, which reads values
    back with ``.numpy()``: the step calling it cannot simply be decorated (fix-first)."""
    fns, _ = single("""
        import tensorflow as tf

        class Accuracy:
            def __call__(self, pred, labels):
                right = tf.argmax(pred, axis=1).numpy() == labels.numpy()
                return right.mean()

        model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
        optimizer = tf.keras.optimizers.Adam()
        accuracy = Accuracy()
        mean_accuracy = tf.keras.metrics.Mean()

        def train_step(x, y):
            with tf.GradientTape() as tape:
                pred = model(x, training=True)
                loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, pred))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            mean_accuracy.update_state(accuracy(pred, y))

        for x, y in [(tf.zeros([4, 3]), tf.zeros([4], tf.int64))] * 8:
            train_step(x, y)
        """)
    step = fns["train_step"]
    assert step.verdict is Verdict.FIX_FIRST
    assert "TF206" in step.reasons


def test_a_main_that_trains_inline_is_left_as_it_is() -> None:
    """The program's entry point loops over batches with the step written inline: judges left every
    such ``main`` as it is on the development splits; the step to extract is said, not asked."""
    fns, _ = single("""
        import tensorflow as tf
        from data import load_batches

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam(1e-3)

        def main():
            for x, y in load_batches():
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))
                print(float(loss))

        if __name__ == "__main__":
            main()
        """)
    assert fns["main"].verdict is Verdict.LEAVE_EAGER
    assert any("step function" in a for a in fns["main"].assumptions)


def test_tf_through_a_star_import_is_tensorflow(tmp_path: Path) -> None:
    """``from core.model import *`` (where core/model.py imported tensorflow as tf) brings ``tf``:
    a ``@tf.function`` written after it is a tf.function, not an eager function to decorate."""
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "__init__.py").write_text("")
    (tmp_path / "core" / "model.py").write_text("import tensorflow as tf\n\nmodel = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n")
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        from core.model import *

        @tf.function
        def step(x):
            return model(x)

        for _ in range(100):
            step(tf.ones([4, 3]))
        """))
    report = check_paths([str(tmp_path)])
    verdicts = {fn.qualname: fn.verdict for fn in report.functions}
    assert verdicts["step"] is Verdict.KEEP


def test_a_step_defined_inside_a_function_called_per_epoch_is_reconfigured() -> None:
    """``def train(...): @tf.function def train_step(...)`` with train() called once per epoch: a
    new tf.function, and a new trace, every epoch (TensorFlow-checked: tests/conformance/variants/
    tf102.py). Define it once, outside: reconfigure, with TF102 on its decorator."""
    fns, report = single("""
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.SGD(0.1)

        def train(dataset):
            @tf.function
            def train_step(x, y):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))
                return loss

            for x, y in dataset:
                train_step(x, y)

        data = tf.data.Dataset.from_tensors((tf.ones([4, 3]), tf.zeros([4, 1]))).repeat(4)
        for epoch in range(10):
            train(data)
        """)
    assert fns["train.<locals>.train_step"].verdict is Verdict.RECONFIGURE
    assert any(f.rule == "TF102" and f.severity.value == "warning" for f in report.findings)


def test_a_keras_train_step_the_program_calls_itself_is_decorated() -> None:
    """``for data in ds: model.train_step(data)`` with ``model`` a parameter whose class the analysis
    cannot follow, and no fit/evaluate/predict in the program: Keras never runs this train_step;
    the program's own eager loop does, once per batch."""
    fns, _ = single("""
        import tensorflow as tf

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(1)
                self.loss_fn = tf.keras.losses.MeanSquaredError()
                self.opt = tf.keras.optimizers.Adam()

            def call(self, x):
                return self.dense(x)

            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    loss = self.loss_fn(y, self(x, training=True))
                grads = tape.gradient(loss, self.trainable_variables)
                self.opt.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}

        def training_loop(model, dataset, epochs):
            for epoch in range(epochs):
                for data in dataset:
                    metrics = model.train_step(data)
                print(epoch, float(metrics["loss"]))

        def make_model():
            return Net()

        training_loop(make_model(), tf.data.Dataset.from_tensors((tf.ones([4, 3]), tf.zeros([4, 1]))).repeat(8), 3)
        """)
    assert fns["Net.train_step"].verdict is Verdict.DECORATE


def test_a_gan_step_handed_its_models_is_not_held_back_as_a_function_passed_in() -> None:
    """``run_optimization(generator, discriminator, real_images)`` calls two parameters: they are
    the models (named so), not functions handed in whose new closures would retrace. The step
    draws its noise with NumPy, frozen at trace time: fix-first (use tf.random), as judged."""
    fns, _ = single("""
        import numpy as np
        import tensorflow as tf
        from models import build

        g_opt = tf.keras.optimizers.Adam()
        d_opt = tf.keras.optimizers.Adam()

        def run_optimization(generator, discriminator, real_images):
            noise = np.random.normal(-1.0, 1.0, size=[16, 8]).astype(np.float32)
            with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
                fake = generator(noise, training=True)
                d_fake = discriminator(fake, training=True)
                d_real = discriminator(real_images, training=True)
                d_loss = tf.reduce_mean(d_fake) - tf.reduce_mean(d_real)
                g_loss = -tf.reduce_mean(d_fake)
            d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
            d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))
            g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
            g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
            return g_loss, d_loss

        def train(generator, discriminator, batches):
            for real in batches:
                args = [generator, discriminator, real]
                run_optimization(*args)

        g, d, batches = build()
        train(g, d, batches)
        """)
    step = fns["run_optimization"]
    assert step.verdict is Verdict.FIX_FIRST and "TF205" in step.reasons
    assert not any("tensors as generator" in a for a in step.assumptions)


def test_a_star_import_does_not_make_a_pytorch_module_tensorflow() -> None:
    """``from utils import *`` in a PyTorch script: the star lends ``tf`` its usual meaning where the
    module uses it, but the module is still PyTorch's, out of scope."""
    fns, _ = single("""
        import torch
        from utils import *

        def train_step(model, x, y, opt):
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            return loss

        for i in range(100):
            train_step(net, torch.ones(4, 3), torch.zeros(4, 1), opt)
        """)
    assert fns["train_step"].verdict is Verdict.LEAVE_EAGER
    assert any("torch" in a for a in fns["train_step"].assumptions)


METRIC = """\
import tensorflow as tf


class CountingMetric(tf.keras.metrics.Metric):
    def __init__(self):
        super().__init__()
        self.seen = []

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.seen.append(tf.reduce_mean(y_pred))

    def result(self):
        return tf.add_n(self.seen)
"""


def _metric_findings(tmp_path: Path, files: dict[str, str]) -> set[str]:
    project(tmp_path, files)
    report = check_paths([str(tmp_path)])
    return {f.rule for f in report.findings if f.path.endswith("metrics.py") and f.severity != "info"}


def test_a_metric_updated_by_an_eager_loop_is_not_graph_code(tmp_path: Path) -> None:
    """Keras 3 runs update_state as a plain method; TF 2.21, eagerly: the list grows every call
    (heldout15: five wrong TF202/TF106 claims on a metric no compiled step used)."""
    loop = """\
        import tensorflow as tf
        from metrics import CountingMetric

        def evaluate(model, batches):
            metric = CountingMetric()
            for x, y in batches:
                metric.update_state(y, model(x))
            return metric.result()
    """
    assert "TF202" not in _metric_findings(tmp_path, {"metrics.py": METRIC, "evaluate.py": loop})


def test_a_metric_a_fitting_module_compiles_with_is_graph_code(tmp_path: Path) -> None:
    fit = """\
        import tensorflow as tf
        from metrics import CountingMetric

        def train(model, ds):
            model.compile(optimizer="adam", loss="mse", metrics=[CountingMetric()])
            model.fit(ds, epochs=2)
    """
    assert "TF202" in _metric_findings(tmp_path, {"metrics.py": METRIC, "train.py": fit})


EAGER_STEP_MODEL = """\
import numpy as np
import tensorflow as tf


class Model(tf.keras.Model):
    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            loss = self.compiled_loss(y, self(x, training=True))
        if np.isnan(loss.numpy()):
            raise ValueError("loss is NaN")
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return {"loss": loss}
"""


def test_a_keras_step_every_compile_runs_eagerly_is_not_graph_code(tmp_path: Path) -> None:
    """Keras runs train_step as Python with run_eagerly=True (TF 2.21: `.numpy()` works there);
    heldout15: TF206/TF201 claimed in a step every compile of the project ran eagerly."""
    fit = """\
        from model import Model

        def train(ds):
            model = Model()
            model.compile(optimizer="adam", loss="mse", run_eagerly=True)
            model.fit(ds, epochs=2)
    """
    project(tmp_path, {"model.py": EAGER_STEP_MODEL, "train.py": fit})
    report = check_paths([str(tmp_path)])
    assert "TF206" not in {f.rule for f in report.findings if f.path.endswith("model.py")}
    (tmp_path / "train.py").write_text(textwrap.dedent(fit).replace(", run_eagerly=True", ""))
    report = check_paths([str(tmp_path)])
    assert "TF206" in {f.rule for f in report.findings if f.path.endswith("model.py")}


def test_a_tf_function_doing_arithmetic_on_what_it_is_handed_is_not_called_pure_python() -> None:
    """heldout15: `[v - lr * g for g, v in grads_and_vars]`, called with zip(grads, weights), was told
    it does no tensor work (TF502, undecorate); its callers hand it tensors."""
    fns, report = single("""\
        import tensorflow as tf

        class FastWeights:
            def __init__(self, lr=0.01):
                self.lr = lr

            @tf.function
            def update(self, grads_and_vars):
                return [variable - self.lr * grad for grad, variable in grads_and_vars]

        def adapt(fast, tape, loss, model):
            grads = tape.gradient(loss, model.trainable_weights)
            return fast.update(zip(grads, model.trainable_weights))
    """)
    update = fns["FastWeights.update"]
    assert update.verdict is Verdict.KEEP and update.confidence == "unknown"
    assert "TF502" not in {f.rule for f in report.findings}


def test_a_step_that_pops_the_label_from_its_batch_is_fixed_before_it_is_decorated() -> None:
    """heldout16: recommender train loops doing `inputs.pop(label)` were told to decorate; TF 2.21
    raises `ValueError: ... should not modify its Python input arguments` (TF110)."""
    fns, report = single("""\
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam()

        def train_loop(inputs):
            with tf.GradientTape() as tape:
                labels = inputs.pop("label")
                loss = tf.reduce_mean(tf.square(model(inputs["x"]) - labels))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        def train(ds):
            for batch in ds:
                train_loop(batch)

        def split(features):
            label = features.pop("label")
            return features, label

        ds = tf.data.Dataset.from_tensor_slices({"x": tf.ones([8, 3]), "label": tf.ones([8, 1])}).batch(4)
        train(ds)
        pairs = ds.map(split)
    """)
    assert fns["train_loop"].verdict is Verdict.FIX_FIRST and "TF110" in fns["train_loop"].reasons
    lines = {f.line for f in report.findings if f.rule == "TF110"}
    assert lines == {8}  # the step's pop, not the map function's


def test_a_pytorch_step_in_a_module_that_loads_data_with_keras_is_out_of_scope() -> None:
    """heldout16: a book chapter loads IMDB with Keras and trains a PyTorch model; its train_step
    was told to decorate (judged leave-eager: tf.function does not apply to torch)."""
    fns, _ = single("""\
        import numpy as np
        import tensorflow as tf
        import torch

        (x_train, y_train), _ = tf.keras.datasets.imdb.load_data(num_words=100)

        def train_step(model, optimizer, x, t):
            x, t = torch.LongTensor(x), torch.Tensor(t)
            model.train()
            loss = torch.nn.functional.binary_cross_entropy(model(x), t)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            return loss

        def train(model, optimizer):
            for i in range(100):
                train_step(model, optimizer, x_train[i:i + 1], y_train[i:i + 1])
    """)
    step = fns["train_step"]
    assert step.verdict is Verdict.LEAVE_EAGER and any("PyTorch code" in a for a in step.assumptions)


PINN = """\
import tensorflow as tf


class PINN:
    def __init__(self):
        self.dense = tf.keras.layers.Dense(1)

    def pde(self, t, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            u = self.dense(tf.concat([t, x], axis=1))
        return u, tape.gradient(u, x)

    def infer(self, t, x):
        return self.pde(t, x)
"""


def test_an_import_of_a_sibling_module_reaches_the_file_beside_it(tmp_path: Path) -> None:
    """`from pinn import PINN` in 03_wave/main.py is 03_wave/pinn.py, even where 03_wave is a package
    and another folder has a top-level pinn.py: the script's folder comes first on sys.path."""
    main = """\
    import numpy as np
    from pinn import PINN


    def main():
        pinn = PINN()
        x = np.linspace(0, 1, 100).reshape(-1, 1)
        for t in np.linspace(0, 1, 500):
            t_inf = np.ones_like(x) * t
            pinn.infer(t_inf, x)
    """
    for name, code in {"01_square/src/pinn.py": PINN, "01_square/src/main.py": main, "03_wave/__init__.py": "",
                       "03_wave/pinn.py": PINN, "03_wave/main.py": main}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(code))
    report = check_paths([str(tmp_path)])
    infers = {Path(fn.path).relative_to(tmp_path).as_posix(): fn for fn in report.functions if fn.qualname == "PINN.infer"}
    assert set(infers) == {"01_square/src/pinn.py", "03_wave/pinn.py"}
    # each is reached from the main beside it, in a loop over time steps, with NumPy arrays
    for path, fn in infers.items():
        assert fn.verdict is Verdict.DECORATE, (path, fn.assumptions)


def test_a_loss_the_program_also_calls_eagerly_per_epoch_is_left_to_the_step() -> None:
    """A loss term called inside the decorated step and again, eagerly, after it for logging: the
    eager calls are Python, so "already graph code" is not the whole answer; but its work runs in
    the step's graph, and the logging calls gain little alone. Judges: leave-eager for four such
    tiny losses (heldout13, 26, 27); heldout17's PINN losses (second-order tapes) were judged
    decorate or leave-eager."""
    fns, _ = single("""\
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam()


        def loss_ini(x, y):
            return tf.reduce_mean(tf.square(model(x) - y))


        @tf.function
        def grad_desc(x, y):
            with tf.GradientTape() as tape:
                loss = loss_ini(x, y)
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            return loss


        def only_inside(x, y):
            return tf.reduce_sum(model(x) * y)


        @tf.function
        def score(x, y):
            return only_inside(x, y)


        def train(x, y):
            for epoch in range(1000):
                grad_desc(x, y)
                print(epoch, float(loss_ini(x, y)))
            return score(x, y)


        train(tf.random.normal([64, 2]), tf.random.normal([64, 1]))
        """)
    assert fns["loss_ini"].verdict is Verdict.LEAVE_EAGER, fns["loss_ini"].assumptions
    assert any("training step grad_desc()" in a for a in fns["loss_ini"].assumptions)
    assert fns["only_inside"].verdict is Verdict.LEAVE_EAGER
    assert any("already graph code" in a for a in fns["only_inside"].assumptions)


def test_arrays_sliced_transposed_or_scaled_are_still_arrays() -> None:
    """`np.tile(t).T[:, i]`, `np.ones_like(x) * t`: NumPy arrays whatever the scalar, traced once per
    shape and dtype, so a step fed them in a loop is decorated."""
    fns, _ = single("""\
        import numpy as np
        import tensorflow as tf

        layer = tf.keras.layers.Dense(1)


        def infer(t, x):
            return layer(tf.concat([t, x], axis=1))


        def main(times):
            x = np.linspace(0, 1, 64).reshape(-1, 1)
            grid = np.tile(x, (1, 8)).T
            for i, t in enumerate(times):
                infer(np.ones_like(x) * t, grid[:, i:i + 1].T.T)
        """)
    assert fns["infer"].verdict is Verdict.DECORATE, fns["infer"].assumptions


def test_a_call_with_training_is_a_keras_model_call() -> None:
    """`self.models["test"](x, training=False)`: a model held in a dict is still a model; a function
    whose only work is that call computes with tensors (it is not "no tensor work")."""
    fns, _ = single("""\
        import tensorflow as tf


        class Runner:
            def __init__(self):
                self.models = {"test": tf.keras.Sequential([tf.keras.layers.Dense(2)])}

            def test_step(self, x):
                return self.models["test"](x, training=False)

            def run(self, batches):
                return [self.test_step(b).numpy() for b in batches]
        """)
    assert fns["Runner.test_step"].facts.tensor_computation
    assert "TF502" not in fns["Runner.test_step"].reasons


def test_one_compat_v1_variable_does_not_make_a_tensorflow_2_module_tf1() -> None:
    """`self.w = tf.compat.v1.get_variable(...)` in one layer of a module of tapes and tf.functions:
    the module is TensorFlow 2 code; a session run, a placeholder, still makes a module TF1."""
    tf2 = """\
        import tensorflow as tf


        class VQ(tf.Module):
            def __init__(self):
                self.w = tf.compat.v1.get_variable("w", [4, 8], dtype=tf.float32)
                self.optimizer = tf.keras.optimizers.Adam()

            def train(self, x):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(tf.matmul(x, self.w)))
                grads = tape.gradient(loss, [self.w])
                self.optimizer.apply_gradients(zip(grads, [self.w]))
                return loss


        vq = VQ()
        for _ in range(100):
            vq.train(tf.random.normal([16, 4]))
        """
    fns, report = single(tf2)
    assert fns["VQ.train"].verdict is Verdict.DECORATE, fns["VQ.train"].assumptions
    fns, _ = single(tf2 + """\

        def tf1_graph():
            x = tf.compat.v1.placeholder(tf.float32, [None, 4])
            with tf.compat.v1.Session() as sess:
                return sess.run(x, {x: [[0.0] * 4]})
        """)
    assert fns["VQ.train"].verdict is Verdict.LEAVE_EAGER and "TF100" in fns["VQ.train"].reasons


def test_a_hazard_in_the_class_own_call_reached_by_self_call_is_fixed_first() -> None:
    """`theta = self(states)` in a module's train step reaches its `__call__`, whose NumPy on a
    tensor (`np.pi * tf.range(...)`) fails under tf.function: fix first, not decorate."""
    fns, _ = single("""\
        import numpy as np
        import tensorflow as tf


        class IQN(tf.Module):
            def __init__(self):
                self.fc = tf.keras.layers.Dense(4)
                self.optimizer = tf.keras.optimizers.Adam()

            def __call__(self, states):
                pi_mtx = tf.constant(np.expand_dims(np.pi * tf.range(0, 8, dtype=tf.float32), axis=0))
                return self.fc(states) * tf.reduce_sum(pi_mtx)

            def train(self, states: tf.Tensor):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(self(states))
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return loss


        net = IQN()
        for _ in range(100):
            net.train(tf.random.normal([8, 3]))
        """)
    assert fns["IQN.train"].verdict is Verdict.FIX_FIRST, (fns["IQN.train"].verdict, fns["IQN.train"].assumptions)


def test_a_loop_over_an_environment_is_a_driver() -> None:
    """`env.step(action)` is a simulator's Python: the function looping over it drives the run,
    whatever its policy call would do under tf.function."""
    fns, _ = single("""\
        import numpy as np
        import tensorflow as tf


        class Agent:
            def __init__(self, envs):
                self.envs = envs
                self.model = tf.keras.Sequential([tf.keras.layers.Dense(2)])

            def __call__(self, ob):
                probs = tf.nn.softmax(self.model(ob[np.newaxis, :])).numpy().ravel()
                return np.random.choice(len(probs), p=probs)

            def render_episode(self, n=1):
                for _ in range(n):
                    ob, done = self.envs[0].reset(), False
                    while not done:
                        self.envs[0].render()
                        ob, r, done, info = self.envs[0].step(self(ob))
        """)
    assert fns["Agent.render_episode"].verdict is Verdict.LEAVE_EAGER, fns["Agent.render_episode"].assumptions


def test_a_validation_step_that_reads_its_loss_back_is_fixed_first() -> None:
    """`return pred, loss.numpy()` in a step called per test batch: move the read to the loop, then
    decorate (the read is the part to change, not a reason to leave the step eager). A per-epoch
    evaluation loop that prints its metrics stays a driver."""
    fns, _ = single("""\
        import tensorflow as tf

        classifier = tf.keras.Sequential([tf.keras.layers.Dense(10)])


        def validation_step(x, y):
            prediction = classifier(x, training=False)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=prediction))
            return prediction, loss.numpy()


        def validate(dataset, epoch):
            mean = tf.keras.metrics.Mean()
            for x, y in dataset:
                mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=classifier(x, training=False)))
            print(f"epoch {epoch}: {mean.result():.4f}")


        def main(test_set):
            for epoch in range(10):
                losses = [validation_step(x, y)[1] for x, y in test_set]
                print(sum(losses) / len(losses))
                validate(test_set, epoch)


        main(tf.data.Dataset.from_tensor_slices((tf.random.normal([64, 4]), tf.zeros([64], tf.int32))).batch(8))
        """)
    assert fns["validation_step"].verdict is Verdict.FIX_FIRST, fns["validation_step"].assumptions
    assert fns["validate"].verdict is Verdict.LEAVE_EAGER, fns["validate"].assumptions


def test_a_function_that_draws_its_batches_in_python_is_a_driver() -> None:
    """`self.memory.sample_batch(64)` then `self.q.train(...)`, and a validation loop over
    `generator.next_batch()`: decorated, the draw would run once, while tracing. The step they
    feed is the unit to decorate."""
    fns, _ = single("""\
        import numpy as np
        import tensorflow as tf


        class QNetwork(tf.Module):
            def __init__(self):
                self.fc = tf.keras.layers.Dense(4)
                self.optimizer = tf.keras.optimizers.Adam()

            def train(self, states, targets):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(self.fc(states) - targets))
                grads = tape.gradient(loss, self.fc.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.fc.trainable_variables))
                return loss


        class Agent:
            def __init__(self, memory):
                self.memory = memory
                self.q = QNetwork()
                self.t_step = 0

            def learn(self):
                states, targets = self.memory.sample_batch(64)
                loss = self.q.train(states, targets)
                self.t_step += 1
                return loss


        def loop_validation(model, generator):
            loss = 0.0
            for _ in range(generator.steps_per_epoch):
                xs, ys = generator.next_batch()
                loss += tf.reduce_mean(tf.square(model(xs) - ys))
            return loss / generator.steps_per_epoch


        def main(memory, model, generator):
            agent = Agent(memory)
            for _ in range(1000):
                agent.learn()
            for _ in range(10):
                loop_validation(model, generator)
        """)
    for name in ("Agent.learn", "loop_validation"):
        assert fns[name].verdict is Verdict.LEAVE_EAGER, (name, fns[name].verdict, fns[name].assumptions)
        assert any("draws its batches in Python" in a for a in fns[name].assumptions)


def test_a_partial_handed_to_a_helper_each_call_keeps_it_eager() -> None:
    """`gradient_penalty(partial(discriminator, training=True), x, x_fake)` per batch: a partial made
    in the call is a new object each time, and a tf.function traces again for each (TF 2.21)."""
    fns, _ = single("""\
        from functools import partial

        import tensorflow as tf

        discriminator = tf.keras.Sequential([tf.keras.layers.Dense(1)])


        def gradient_penalty(f, real, fake):
            alpha = tf.random.uniform([tf.shape(real)[0], 1])
            x = alpha * real + (1 - alpha) * fake
            with tf.GradientTape() as tape:
                tape.watch(x)
                pred = f(x)
            grad = tape.gradient(pred, x)
            return tf.reduce_mean((tf.norm(grad, axis=1) - 1.0) ** 2)


        def main(dataset):
            for real, fake in dataset:
                gradient_penalty(partial(discriminator, training=True), real, fake)
        """)
    assert fns["gradient_penalty"].verdict is Verdict.LEAVE_EAGER
    assert "TF103" in fns["gradient_penalty"].reasons


def test_a_parameter_named_like_a_module_function_is_not_that_function() -> None:
    """``tf.cond(train, ...)`` in a tf.function whose parameter is called ``train``, in a module that
    also defines ``train()``: the branch predicate is the parameter, not the driver function, which
    stays eager code with its prints and timers (heldout19: 6 wrong graph findings in one file)."""
    fns, report = single("""
        import time
        import tensorflow as tf

        class MLP(tf.Module):
            def __init__(self):
                self.w = tf.Variable(1.0)

            @tf.function(input_signature=[tf.TensorSpec([4], tf.float32), tf.TensorSpec(None, tf.bool)])
            def __call__(self, x, train):
                return tf.cond(train, lambda: x * self.w, lambda: x)

        def train(data):
            model = MLP()
            start = time.time()
            for x in data:
                print(model(x, True))
            print(time.time() - start)

        train([tf.ones([4])] * 3)
        """)
    assert fns["MLP.__call__"].verdict is Verdict.KEEP
    assert fns["train"].verdict is Verdict.LEAVE_EAGER
    assert not [f for f in report.findings if f.severity.value in ("error", "warning")]


def test_a_step_run_per_batch_through_strategy_run_is_a_per_batch_step() -> None:
    """``strategy.run(train_step, args=(next(dist_iter),))`` in an eager ``while`` loop over a
    distributed dataset: the step runs per batch with tensors (heldout19 read it as called once);
    the advice says to put the graph around the strategy.run call."""
    fns, _ = single("""
        import tensorflow as tf
        from models import Net

        def main():
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():
                model = Net(81)
                optimizer = tf.keras.optimizers.Adam()
            dataset = tf.data.Dataset.from_tensor_slices((tf.zeros([64, 3]), tf.zeros([64, 1]))).batch(8).repeat()
            dist = iter(strategy.experimental_distribute_dataset(dataset))

            def train_step(inputs):
                x, y = inputs
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))
                return loss

            while True:
                losses = strategy.run(train_step, args=(next(dist),))
                strategy.reduce(tf.distribute.ReduceOp.MEAN, losses, axis=None)
                if tf.equal(optimizer.iterations % 100, 0):
                    print(optimizer.iterations)

        if __name__ == "__main__":
            main()
        """)
    step = fns["main.<locals>.train_step"]
    assert step.verdict is Verdict.DECORATE
    assert any("strategy.run" in a for a in step.assumptions)


def test_a_loop_over_a_constant_list_of_names_is_structure_not_batches() -> None:
    """A step whose tape loops over ``_instruments = ['vocals', 'drums']`` (one model per name) is a
    step, not a driver writing its step inline: the loop unrolls once per trace (heldout19: such a
    step was told to extract its step; judged decorate)."""
    fns, _ = single("""
        import tensorflow as tf

        _instruments = ['vocals', 'drums']
        models = {name: tf.keras.Sequential([tf.keras.layers.Dense(1)]) for name in _instruments}
        optimizers = {name: tf.keras.optimizers.Adam() for name in _instruments}

        def step(features, labels):
            with tf.GradientTape(persistent=True) as tape:
                outputs = {name: models[name](features) for name in _instruments}
                loss = tf.reduce_sum([tf.reduce_mean(tf.abs(outputs[n] - labels[n])) for n in _instruments])
            for instrument in _instruments:
                grads = tape.gradient(loss, models[instrument].trainable_variables)
                optimizers[instrument].apply_gradients(zip(grads, models[instrument].trainable_variables))

        def train(ds):
            for features, labels in ds:
                step(features, labels)

        ds = tf.data.Dataset.from_tensor_slices(
            (tf.zeros([8, 3]), {"vocals": tf.zeros([8, 1]), "drums": tf.zeros([8, 1])})).batch(2)
        for epoch in range(10):
            train(ds)
        """)
    assert fns["step"].verdict is Verdict.DECORATE


def test_a_tf_function_made_or_handed_a_new_step_in_the_batch_loop_is_reconfigured() -> None:
    """``@tf.function def get_loss(work, batch)`` written inside the batch loop, or handed a
    ``train_step`` defined anew in that loop: every batch traces again (TF 2.21: one trace per
    iteration), even for a distributed step that needs its graph (heldout19: keep, judged
    fix-first or reconfigure)."""
    fns, report = single("""
        import tensorflow as tf

        def main(dataset, model, optimizer, strategy):
            @tf.function
            def get_loss(work, batch):
                losses = strategy.run(work, args=(batch,))
                return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

            for batch in dataset:
                def train_step(x):
                    with tf.GradientTape() as tape:
                        loss = tf.reduce_mean(model(x))
                    grads = tape.gradient(loss, model.trainable_variables)
                    optimizer.apply_gradients(zip(grads, model.trainable_variables))
                    return loss
                loss = get_loss(train_step, batch)
        """)
    assert fns["main.<locals>.get_loss"].verdict is Verdict.RECONFIGURE
    assert any(f.rule == "TF103" for f in report.findings)


def test_a_global_redrawn_in_the_module_loop_that_calls_the_step_is_stale() -> None:
    """``rnd = np.random.randint(2)`` on every pass of the script's ``while`` loop, read inside the
    tf.function the loop calls: from the second pass on the first trace's value runs (TF 2.21:
    always 2.0 whatever rnd is). Assigned once in the source, rebound on every pass (heldout19:
    missed, judged fix-first)."""
    fns, report = single("""
        import numpy as np
        import tensorflow as tf

        @tf.function
        def train_step(x):
            return x * 2.0 if rnd == 0 else x * 3.0

        if __name__ == '__main__':
            iteration = 0
            while iteration < 10:
                rnd = np.random.randint(2)
                print(float(train_step(tf.constant(1.0))), rnd)
                iteration += 1
        """)
    assert [f.rule for f in report.findings] == ["TF105"]
    assert fns["train_step"].verdict is Verdict.FIX_FIRST


def test_a_function_a_lambda_hands_to_tf_cond_keeps_the_control_flow_note() -> None:
    """``tf.cond(p, lambda: _flip(image), ...)``: the per-file pass records ``_flip(image)`` as a call
    site on the cond's line, and the hand-off to control flow is still said (the call site made the
    hand-off's edge a duplicate; skipping the edge must not skip the note)."""
    fns, _ = single("""
        import tensorflow as tf

        def _flip(image):
            return tf.image.flip_left_right(image)

        def augment(image):
            return tf.cond(tf.random.uniform([]) > 0.5, lambda: _flip(image), lambda: image)

        print(augment(tf.zeros([4, 4, 3])).shape)
        """)
    assert any("handed to TensorFlow control flow" in a for a in fns["_flip"].assumptions)


HALTING_LAYERS = """\
import tensorflow as tf


def should_continue(threshold, halting):
    return tf.reduce_any(tf.less(halting, threshold))


class Halting(tf.keras.layers.Layer):
    def call(self, x):
        halting = tf.zeros_like(x)
        for _ in range(3):
            if not should_continue(0.9, halting):
                break
            x = x * 2.0
            halting = halting + 0.5
        return x


class Encoder(tf.keras.layers.Layer):
    def __init__(self, act=True):
        super().__init__()
        self.act = act
        if self.act:
            self.act = Halting()
        self.dense = tf.keras.layers.Dense(4)

    def call(self, x):
        x = self.dense(x)
        if self.act:
            x = self.act(x)
        return x


class Net(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.out = tf.keras.layers.Dense(1)

    def train_step_eager(self, x, y, opt):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((self(x) - y) ** 2)
        grads = tape.gradient(loss, self.trainable_variables)
        opt.apply_gradients(zip(grads, self.trainable_variables))
        return loss

    def call(self, x):
        return self.out(self.encoder(x))
"""


def test_a_hazard_in_a_nested_layers_call_holds_the_step_back(tmp_path: Path) -> None:
    """Keras 3 runs a layer's ``call`` without AutoGraph: a Python ``if`` on a tensor in a layer two
    levels down (``self.encoder`` -> ``self.act``, an attribute that is ``True`` or a layer) raises
    once the step that calls the model is a tf.function (TF 2.21: OperatorNotAllowedInGraphError).
    The eager step is then fix-first, and the finding is in the layer's ``call``."""
    fns = project(tmp_path, {"layers.py": HALTING_LAYERS, "train.py": """\
        import tensorflow as tf
        from layers import Net


        def train_step(model, opt, x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss


        def main():
            model, opt = Net(), tf.keras.optimizers.SGD(0.1)
            ds = tf.data.Dataset.from_tensor_slices((tf.ones([64, 2]), tf.ones([64, 1]))).batch(8)
            for epoch in range(3):
                for x, y in ds:
                    train_step(model, opt, x, y)
                    model.train_step_eager(x, y, opt)


        if __name__ == "__main__":
            main()
        """})
    step = fns["train_step"]
    assert step.verdict is Verdict.FIX_FIRST and "TF304" in step.reasons, (step.verdict, step.reasons)
    assert fns["layers.py::Net.train_step_eager"].verdict is Verdict.FIX_FIRST  # ``self(x)``: Net.call
    findings = check_paths([str(tmp_path)]).findings
    assert any(f.rule == "TF304" and f.path.endswith("layers.py") and f.line == 12 for f in findings)


def test_a_main_that_makes_the_model_and_trains_in_a_loop_is_not_a_builder() -> None:
    """``main()`` makes the model and the optimizer (it builds, as a model factory does) and then
    trains over a dataset: its loop's calls of the step are per batch, not on symbolic inputs."""
    fns, _ = single("""
        import tensorflow as tf

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.hidden = tf.keras.layers.Dense(8)
                self.out = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.out(self.hidden(x))

        def train_step(model, opt, x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        def main():
            model, opt = Net(), tf.keras.optimizers.SGD(0.1)
            ds = tf.data.Dataset.from_tensor_slices((tf.ones([64, 2]), tf.ones([64, 1]))).batch(8)
            for epoch in range(3):
                for x, y in ds:
                    train_step(model, opt, x, y)

        if __name__ == "__main__":
            main()
        """)
    assert fns["train_step"].verdict is Verdict.DECORATE, fns["train_step"].assumptions


def test_a_module_level_dataset_made_by_a_builder_is_a_dataset_in_a_tf_function() -> None:
    """``dataset = build_dataset()`` at module level, iterated in a tf.function with a tensor
    ``break``: AutoGraph converts the loop (TF 2.21 runs it), so no TF306, and the decorated loop is
    kept. A chain of module-level datasets (``batches = dataset.batch(2)``) is one too."""
    fns, report = single("""
        import tensorflow as tf

        def build_dataset():
            dataset = tf.data.Dataset.from_tensor_slices(tf.range(10.0))
            dataset = dataset.map(lambda x: x * 2.0)
            return dataset.repeat()

        dataset = build_dataset()
        batches = dataset.batch(2)

        @tf.function
        def train():
            step = 0
            total = tf.constant(0.0)
            for x in batches:
                step += 1
                total += tf.reduce_sum(x)
                if tf.equal(step, 5):
                    break
            return total

        print(train())
        """)
    assert not [f for f in report.findings if f.rule == "TF306"]
    assert all(f.status == "ok" for f in report.files)
    assert fns["train"].verdict is Verdict.KEEP


# -- heldout21's lessons (development after its clean figures; decision 0022) --------------------
def test_a_function_that_fits_fresh_variables_through_a_helper_is_a_driver() -> None:
    """``score()`` calls a nested ``fit()`` whose loop minimizes fresh variables: it drives
    training one call away; its variables made per call are its design, not a fix to make."""
    fns, _ = single("""
        import tensorflow as tf

        @tf.function
        def margin(x):
            return tf.reduce_max(x) - tf.reduce_min(x)

        def score(samples):
            def fit(values, iterations=100):
                location = tf.Variable(0.0)
                optimizer = tf.keras.optimizers.SGD()
                loss = lambda: tf.reduce_mean((values - location) ** 2)
                for _ in range(iterations):
                    optimizer.minimize(loss, var_list=[location])
                return location
            gaps = tf.stack([margin(s) for s in samples])
            return margin(samples[0]) / fit(gaps)

        for label in range(9):
            print(score([tf.random.normal([8]) for _ in range(4)]))
        """)
    assert fns["score"].verdict is Verdict.LEAVE_EAGER
    assert "drives training through fit()" in " ".join(fns["score"].assumptions)


def test_preprocessing_in_numpy_per_batch_is_left_eager() -> None:
    """A per-batch function whose NumPy work draws on changing values, with no model or training of
    its own, prepares data: not a step with a part to move out."""
    fns, _ = single("""
        import numpy as np
        import tensorflow as tf

        def preprocess(image, strength):
            image = tf.image.resize(image, (64, 64))
            image = tf.image.per_image_standardization(tf.cast(image, tf.float32))
            for _ in range(64):
                image = tf.image.rot90(tf.image.transpose(image))
            noise = np.random.normal(scale=strength, size=(1, 64, 64, 3)).astype(np.float32)
            return tf.clip_by_value(image + noise, -3.0, 3.0)

        dataset = tf.data.Dataset.from_tensors(tf.ones([1, 32, 32, 3])).repeat(10)
        for step, images in enumerate(dataset):
            batch = preprocess(images, 0.1)
        """)
    assert fns["preprocess"].verdict is Verdict.LEAVE_EAGER
    assert "prepares data" in " ".join(fns["preprocess"].assumptions)


def test_a_function_that_compiles_and_fits_a_keras_model_is_left_eager() -> None:
    """``model.compile`` and ``model.fit`` run Keras's own graphs and cannot run in a tf.function:
    the function around them (here through a helper) sets up or drives, whatever else it computes."""
    fns, _ = single("""
        import tensorflow as tf

        def compile_model(model):
            model.compile(optimizer="adam", loss="mse")

        def prune(model, x):
            scores = tf.reduce_mean(tf.abs(model(x)), axis=0)
            keep = tf.argsort(scores)[-2:]
            model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
            compile_model(model)
            return model, keep

        model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        for name in ["a", "b", "c"]:
            model, kept = prune(model, tf.ones([3, 4]))
        """)
    assert fns["prune"].verdict is Verdict.LEAVE_EAGER
    assert "Keras" in " ".join(fns["prune"].assumptions)


def test_a_loss_object_stored_on_self_is_not_a_model() -> None:
    """``self._binary_crossentropy(y, p)`` scores; it is not a model call, so a per-level loss helper
    is not taken for an evaluation step to decorate on a guess."""
    fns, _ = single("""
        import tensorflow as tf

        class ScoreLoss(object):
            def __init__(self, k):
                self._k = k
                self._binary_crossentropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)

            def __call__(self, outputs, labels):
                losses = []
                for level in sorted(outputs.keys()):
                    losses.append(self._score_loss(outputs[level], labels[level]))
                return tf.math.add_n(losses)

            def _score_loss(self, score_outputs, score_targets):
                mask = tf.math.logical_or(tf.math.equal(score_targets, 1), tf.math.equal(score_targets, 0))
                score_targets = tf.expand_dims(tf.math.maximum(score_targets, tf.zeros_like(score_targets)), -1)
                score_outputs = tf.expand_dims(score_outputs, axis=-1)
                return self._binary_crossentropy(score_targets, score_outputs, sample_weight=mask) / self._k
        """)
    assert fns["ScoreLoss._score_loss"].verdict is Verdict.LEAVE_EAGER


def test_a_decorated_builder_that_prints_what_it_builds_is_undecorated() -> None:
    fns, _ = single("""
        import tensorflow as tf

        class Gan:
            def __init__(self):
                self.generator, self.critic = self.progressive_build()

            @tf.function
            def progressive_build(self):
                print('Building models')
                generator = [tf.keras.layers.Dense(16), tf.keras.layers.Dense(4)]
                critic = [tf.keras.layers.Dense(16), tf.keras.layers.Dense(1)]
                return tf.keras.Sequential(generator), tf.keras.Sequential(critic)
        """)
    assert fns["Gan.progressive_build"].verdict is Verdict.UNDECORATE


def test_a_function_a_factory_makes_for_dataset_map_is_traced_and_fixed_first(tmp_path: Path) -> None:
    """``load_function = make_loader(...)`` in one module, ``ds.map(load_function)`` in another:
    the nested ``load`` is what Dataset.map traces, so a ``random.choice`` it reaches is frozen at
    trace time (TF205) and the advice is to fix it, with no decorator to add."""
    fns = project(tmp_path, {
        "gen.py": """
            import random
            import tensorflow as tf


            def pick_size():
                return random.choice([3, 5, 7])


            def make_loader(scale):
                def load(path):
                    img = tf.io.decode_png(tf.io.read_file(path))
                    k = pick_size()
                    return tf.image.resize(img, (k * 8, k * 8)) * scale
                return load


            load_function = make_loader(2.0)
            """,
        "train.py": """
            import tensorflow as tf
            from gen import load_function

            ds = tf.data.Dataset.list_files("*.png").map(load_function).batch(4)
            for batch in ds:
                print(batch.shape)
            """,
    })
    load = fns["gen.py::make_loader.<locals>.load"]
    assert load.verdict is Verdict.LEAVE_EAGER  # type: ignore[attr-defined]
    assert "handed to an API that traces it" in " ".join(load.assumptions)  # type: ignore[attr-defined]
    # the draw to fix is in the helper, which the traced map function makes graph code: the advice
    # to fix it is there, where the finding is (heldout24, heldout25: the map function itself
    # judged leave-eager four times in five)
    pick = fns["gen.py::pick_size"]
    assert pick.verdict is Verdict.FIX_FIRST and pick.reasons == ["TF205"]  # type: ignore[attr-defined]


def test_a_package_module_named_like_its_package_imports_its_siblings(tmp_path: Path) -> None:
    """``data_generator/data_generator.py`` importing ``data_generator.data_utils`` means the
    package's module, not a name inside itself: the helper it calls is linked, so the random draw
    frozen in the traced map function is found there."""
    fns = project(tmp_path, {
        "data_generator/__init__.py": "",
        "data_generator/data_utils.py": """
            import random
            import tensorflow as tf


            def generate_kernel(size_range):
                size = random.choice(size_range)
                return tf.ones([size, size]) / float(size * size)
            """,
        "data_generator/data_generator.py": """
            import tensorflow as tf
            from data_generator.data_utils import generate_kernel


            def load(path):
                image = tf.io.decode_png(tf.io.read_file(path))
                return image, generate_kernel([3, 5, 7])
            """,
        "train.py": """
            import tensorflow as tf
            from data_generator.data_generator import load

            for images, kernels in tf.data.Dataset.list_files("*.png").map(load).batch(2):
                print(images.shape)
            """,
    })
    # linked: the helper is graph code through the traced map function, and the fix is asked
    # where the draw is (the map function itself is left as it is: heldout24, heldout25)
    assert fns["data_generator.py::load"].verdict is Verdict.LEAVE_EAGER  # type: ignore[attr-defined]
    kernel = fns["data_utils.py::generate_kernel"]
    assert kernel.verdict is Verdict.FIX_FIRST and kernel.reasons == ["TF205"]  # type: ignore[attr-defined]


def test_a_notebook_progress_bar_hands_on_the_batches_it_iterates() -> None:
    """``from tqdm.autonotebook import tqdm`` wraps ``zip(range(n), train_dataset)`` like any other
    tqdm: the batches handed to ``model.train`` are the dataset's tensors."""
    fns, _ = single("""
        import tensorflow as tf
        from tqdm.autonotebook import tqdm

        train_dataset = tf.data.Dataset.from_tensor_slices(tf.ones([64, 4])).batch(8)

        class AE(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.net = tf.keras.Sequential([tf.keras.layers.Dense(4)])
                self.optimizer = tf.keras.optimizers.Adam(1e-3)

            @tf.function
            def compute_gradients(self, x):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(self.net(x) - x))
                return tape.gradient(loss, self.trainable_variables)

            def train(self, x_train):
                gradients = self.compute_gradients(x_train)
                self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))

        model = AE()
        n_batches = 8
        for epoch in range(5):
            for batch, x_train in tqdm(zip(range(n_batches), train_dataset), total=n_batches):
                model.train(x_train)
        """)
    assert fns["AE.train"].verdict is Verdict.DECORATE


def test_a_function_that_shows_predictions_through_a_plotting_helper_reports() -> None:
    """``generate_images`` calls the generator and hands the images to ``_data2plot``, which draws
    them with matplotlib: a reporter called per epoch, as if it plotted itself."""
    fns, _ = single("""
        import matplotlib.pyplot as plt
        import numpy as np
        import tensorflow as tf

        generator = tf.keras.Sequential([tf.keras.layers.Dense(784), tf.keras.layers.Reshape((28, 28))])

        def _data2plot(images):
            fig = plt.figure(figsize=(4, 4))
            for i in range(images.shape[0]):
                plt.subplot(4, 4, i + 1)
                plt.imshow(images[i] * 127.5 + 127.5, cmap="gray")
            fig.canvas.draw()
            return np.asarray(fig.canvas.buffer_rgba())

        def generate_images(model, noise):
            predictions = model(noise, training=False)
            return _data2plot(predictions)

        noise = tf.random.normal([16, 8])
        for epoch in range(20):
            image = generate_images(generator, noise)
        """)
    assert fns["generate_images"].verdict is Verdict.LEAVE_EAGER
    assert "calls _data2plot()" in " ".join(fns["generate_images"].assumptions)


def test_numpy_on_an_attribute_fixed_in_init_is_a_constant_not_a_hazard() -> None:
    """``np.array(self.tau)`` where ``tau`` is set once in ``__init__``: the graph's trace-time
    constant is the value every eager call computes, so the step is decorate, not fix-first. The
    same NumPy on an attribute another method appends to is still a hazard."""
    agent = """\
    import numpy as np
    import tensorflow as tf


    class Critic:
        def __init__(self, atoms):
            self.tau = [(2 * i + 1) / (2 * atoms) for i in range(atoms)]
            self.history = []
            self.model = tf.keras.Sequential([tf.keras.layers.Dense(atoms)])
            self.opt = tf.keras.optimizers.Adam()

        def train(self, states, target):
            with tf.GradientTape() as tape:
                pred = self.model(states)
                weights = tf.constant(np.array(self.{attr}), tf.float32)
                loss = tf.reduce_mean(tf.square(target - pred) * weights)
            grads = tape.gradient(loss, self.model.trainable_variables)
            self.opt.apply_gradients(zip(grads, self.model.trainable_variables))

        def remember(self, value):
            self.history.append(value)


    critic = Critic(4)
    for step in range(100):
        critic.remember(float(step))
        critic.train(tf.random.normal([8, 3]), tf.random.normal([8, 4]))
    """
    fixed, _ = single(agent.replace("{attr}", "tau"))
    assert fixed["Critic.train"].verdict is Verdict.DECORATE
    growing, _ = single(agent.replace("{attr}", "history"))
    assert growing["Critic.train"].verdict is Verdict.FIX_FIRST
    per_call, _ = single("""\
    import numpy as np
    import tensorflow as tf


    class Overlap:
        def __init__(self, boxes):
            self.low = boxes[..., :2]

        def area(self):
            return np.prod(np.maximum(self.low, 0.0), axis=-1)


    model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
    optimizer = tf.keras.optimizers.Adam()


    def train_step(images):
        with tf.GradientTape() as tape:
            boxes = model(images)
            loss = tf.reduce_mean(boxes) + tf.reduce_mean(Overlap(boxes).area())
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))


    for step in range(100):
        train_step(tf.random.normal([8, 3]))
    """)
    assert per_call["train_step"].verdict is Verdict.FIX_FIRST  # one object per call: its values change


def test_a_method_replaced_on_the_instance_by_what_it_builds_is_not_called_by_the_step() -> None:
    """``self.encoder = self.encoder()`` in ``__init__``: the instance attribute hides the method,
    so ``self.encoder(x)`` in a tf.function calls the model built once (TF 2.21 runs it: the
    conformance variant builder-method-replaced-by-its-model): no TF401, the step is kept."""
    from conformance.variants.tf401 import VARIANTS

    source = next(v.source for v in VARIANTS if v.name == "builder-method-replaced-by-its-model")
    report = check_source(source, "prog.py")
    encode = next(fn for fn in report.functions if fn.qualname == "Autoencoder.encode")
    assert encode.verdict is Verdict.KEEP
    assert not [f for f in report.findings if f.rule == "TF401"]


PADDED = """\
import tensorflow as tf


def sentences():
    for n in range(1, 200):
        yield [1] * (n % 13 + 1), n % 2


train_ds = tf.data.Dataset.from_generator(
    sentences, output_signature=(tf.TensorSpec([None], tf.int32), tf.TensorSpec([], tf.int32)))
train_ds = train_ds.shuffle(100).{batching}
model = tf.keras.Sequential([tf.keras.layers.Embedding(20, 8), tf.keras.layers.GlobalAveragePooling1D(),
                             tf.keras.layers.Dense(2)])
optimizer = tf.keras.optimizers.Adam()
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)


{decorator}
def train_step(tokens, labels):
    with tf.GradientTape() as tape:
        loss = loss_fn(labels, model(tokens, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for epoch in range(10):
    for tokens, labels in train_ds:
        train_step(tokens, labels)
"""


def test_a_step_fed_padded_batches_generalises_shapes() -> None:
    """``padded_batch`` makes each batch as long as its longest sentence: a plain tf.function traces
    once per length (TF 2.21: 10 padded batches, 9 traces; 3 with reduce_retracing=True). The
    decorated step is reconfigure, the eager one decorate with TF104 (fix adds reduce_retracing);
    fixed-size batches or an option that generalises shapes leave it as it is."""
    def verdict(batching: str, decorator: str):  # type: ignore[no-untyped-def]
        fns, _ = single(PADDED.format(batching=batching, decorator=decorator))
        return fns["train_step"]

    padded = "padded_batch(16, padded_shapes=([None], []))"
    reconfigure = verdict(padded, "@tf.function")
    assert reconfigure.verdict is Verdict.RECONFIGURE and reconfigure.reasons == ["TF104"]
    decorate = verdict(padded, "")
    assert decorate.verdict is Verdict.DECORATE and "TF104" in decorate.reasons
    assert verdict(padded, "@tf.function(reduce_retracing=True)").verdict is Verdict.KEEP
    fixed = "map(lambda t, y: (t[:1], y)).batch(16, drop_remainder=True)"
    assert verdict(fixed, "@tf.function").verdict is Verdict.KEEP
    assert "TF104" not in verdict(fixed, "").reasons


def test_a_step_fed_arrays_of_lists_grown_until_a_condition_generalises_shapes() -> None:
    """A policy-gradient epoch collects steps until it has enough (``while`` ... ``break``), then
    updates once with ``np.array(observations)``: a new length per epoch, a new trace per call.
    With a fixed number of steps (``for _ in range(n)``) the shape is the same every epoch."""
    code = """\
    import numpy as np
    import tensorflow as tf

    policy = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.Adam()


    @tf.function
    def update(observations, returns):
        with tf.GradientTape() as tape:
            loss = -tf.reduce_mean(returns * tf.reduce_sum(policy(observations), axis=1))
        grads = tape.gradient(loss, policy.trainable_variables)
        optimizer.apply_gradients(zip(grads, policy.trainable_variables))
        return loss


    def one_epoch(batch_size):
        observations, returns = [], []
        {loop}
            observations.append(np.random.rand(4).astype(np.float32))
            returns.append(np.float32(np.random.rand()))
            {stop}
        return update(np.array(observations), np.array(returns, dtype=np.float32))


    for epoch in range(50):
        one_epoch(500)
    """
    grown, _ = single(code.replace("{loop}", "while True:").replace("{stop}", "if np.random.rand() < 0.01 and len(observations) > batch_size: break"))
    assert grown["update"].verdict is Verdict.RECONFIGURE and grown["update"].reasons == ["TF104"]
    fixed, _ = single(code.replace("{loop}", "for _ in range(batch_size):").replace("{stop}", "pass"))
    assert fixed["update"].verdict is Verdict.KEEP
