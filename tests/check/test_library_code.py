"""Static advice on library and model-zoo code (issue 19 and 20, the shapes heldout24's development
showed): other libraries' ``map``, abstract methods wrapped by a base class, factories of
tf.functions, ``tf.py_function`` as a decorator, Keras models made to run eagerly, Keras 3's
preview package, and helpers called a handful of times to plot.

Each test is a small program written afresh in the shape the corpus showed.
"""

from __future__ import annotations

import textwrap

from tfadvisor.check import check_paths, check_source
from tfadvisor.model import Severity, Verdict


def single(code: str):  # type: ignore[no-untyped-def]
    report = check_source(textwrap.dedent(code), "prog.py")
    claims = [(f.rule, f.line) for f in report.findings if f.severity is not Severity.INFO]
    return {fn.qualname: fn for fn in report.functions}, claims


def test_a_hugging_face_map_runs_python_not_a_trace() -> None:
    """``dataset.map(f, batched=True)`` is Hugging Face's: f's Python random runs on every batch.
    tf.data's map takes no such keyword; the same function mapped over a tf.data pipeline is traced."""
    fns, claims = single("""
        import random
        import tensorflow as tf
        from datasets import load_dataset

        dataset = load_dataset("wikitext", "wikitext-2-raw-v1")

        def prepare(examples):
            if random.random() < 0.5:
                examples["label"] = [random.randint(0, 1) for _ in examples["text"]]
            return examples

        tokenized = dataset.map(prepare, batched=True, remove_columns=["text"])

        def jitter(x):
            return x + random.random()

        train_ds = tf.data.Dataset.range(10).map(jitter)
        """)
    assert fns["prepare"].verdict is Verdict.LEAVE_EAGER
    assert [rule for rule, line in claims if line < 15] == []
    assert ("TF205", 16) in claims  # tf.data traces jitter: the draw is frozen


def test_a_grain_pipeline_is_not_tf_data() -> None:
    fns, claims = single("""
        import numpy as np
        import grain

        def load_image(path, size):
            return np.array(path).reshape(size)

        def image_dataset(paths, size):
            ds = grain.MapDataset.source(paths)
            ds = ds.map(lambda x: load_image(x, size))
            return ds
        """)
    assert claims == []
    assert fns["load_image"].verdict is Verdict.LEAVE_EAGER
    assert "TF505" not in fns["load_image"].reasons  # not graph code: grain calls it in Python


def test_a_helper_mapped_over_a_dataset_and_plotted_nine_times_stays_as_it_is() -> None:
    """Keras's transfer-learning guide: the augmentation runs in ``train_ds.map(lambda ...)`` and
    eagerly nine times to draw a 3x3 grid: nothing to gain from a decorator."""
    fns, _ = single("""
        import keras
        import tensorflow as tf

        layers = [keras.layers.RandomFlip("horizontal"), keras.layers.RandomRotation(0.1)]

        def data_augmentation(x):
            for layer in layers:
                x = layer(x)
            return x

        train_ds = tf.data.Dataset.from_tensor_slices((tf.ones([8, 32, 32, 3]), tf.ones([8]))).batch(2)
        train_ds = train_ds.map(lambda x, y: (data_augmentation(x), y))

        for images, labels in train_ds.take(1):
            for i in range(9):
                augmented = data_augmentation(tf.expand_dims(images[0], 0))
        """)
    assert fns["data_augmentation"].verdict is Verdict.LEAVE_EAGER


def test_keras_core_models_are_keras_models() -> None:
    """``import keras_core as keras``: train_step runs in fit's tf.function, and so does its helper."""
    fns, _ = single("""
        import tensorflow as tf
        import keras_core as keras

        class WGAN(keras.Model):
            def __init__(self, critic):
                super().__init__()
                self.critic = critic

            def gradient_penalty(self, real, fake):
                alpha = tf.random.normal([tf.shape(real)[0], 1])
                mixed = real + alpha * (fake - real)
                with tf.GradientTape() as tape:
                    tape.watch(mixed)
                    pred = self.critic(mixed, training=True)
                grads = tape.gradient(pred, [mixed])[0]
                return tf.reduce_mean((tf.norm(grads, axis=1) - 1.0) ** 2)

            def train_step(self, real):
                fake = tf.random.normal(tf.shape(real))
                return {"gp": self.gradient_penalty(real, fake)}

        wgan = WGAN(keras.Sequential([keras.layers.Dense(1)]))
        wgan.compile(optimizer="adam")
        wgan.fit(tf.ones([64, 4]), batch_size=8, epochs=20)
        """)
    assert fns["WGAN.gradient_penalty"].verdict is Verdict.LEAVE_EAGER
    assert "TF505" in fns["WGAN.gradient_penalty"].reasons


def test_an_abstract_step_that_a_base_class_wraps_is_not_pure_python() -> None:
    """``tf.function(self.train_step)`` on an abstract method runs the subclass's override, and a
    tf.function calling an abstract method does whatever its overrides do: no TF502."""
    fns, claims = single("""
        import abc
        import tensorflow as tf

        class Runnable(abc.ABC):
            def __init__(self):
                self.train_fn = tf.function(self.train_step)

            @abc.abstractmethod
            def train_step(self, iterator):
                \"\"\"One step.\"\"\"
                pass

            @abc.abstractmethod
            def _run_inference(self, images):
                raise NotImplementedError

            @tf.function
            def inference(self, x):
                return self._run_inference(x)

            def train(self, it, n):
                for _ in range(n):
                    self.train_fn(it)
        """)
    assert claims == []
    assert fns["Runnable.train_step"].verdict is Verdict.KEEP
    assert fns["Runnable.inference"].verdict is Verdict.KEEP


def test_a_factory_of_tf_functions_is_not_retracing() -> None:
    """One finalizer per metric, kept by the caller: a new tf.function per call is the point."""
    fns, claims = single("""
        import tensorflow as tf

        def create_finalizer(scale):
            @tf.function
            def finalizer(values):
                return tf.reduce_sum(values) * scale
            return finalizer

        finalizers = {}
        for name in ["a", "b", "c", "d", "e", "f"]:
            finalizers[name] = create_finalizer(2.0)
            finalizers[name](tf.ones([2]))
        """)
    assert claims == []
    assert fns["create_finalizer.<locals>.finalizer"].verdict is Verdict.KEEP


def test_a_tff_computation_traces_its_body_once() -> None:
    _, claims = single("""
        import tensorflow as tf
        import tensorflow_federated as tff

        @tff.tensorflow.computation(tf.float32)
        def batch_train(x):
            @tf.function
            def train_on_batch(v):
                return tf.reduce_sum(v * 2.0)
            return train_on_batch(x)

        for _ in range(5):
            batch_train(1.0)
        """)
    assert [rule for rule, _ in claims] == []


def test_py_function_as_a_decorator_runs_python() -> None:
    """``@tf.py_function(Tout=...)``: NumPy on its argument works, even called from a tf.function
    (TF 2.21 runs it: the conformance variant numpy-inside-a-py-function-decorator)."""
    from conformance.variants.tf206 import VARIANTS

    source = next(v.source for v in VARIANTS if v.name == "numpy-inside-a-py-function-decorator")
    report = check_source(source, "prog.py")
    assert [f.rule for f in report.findings if f.severity is not Severity.INFO] == []
    assert next(fn for fn in report.functions if fn.qualname == "compute_matching").verdict is Verdict.KEEP


def test_keras_models_made_to_run_eagerly_are_not_traced() -> None:
    """``dynamic=True`` (Keras 2, also as a default popped from kwargs) and a module whose only
    compile says ``run_eagerly=True``: their call and train_step run as Python, so state kept on
    self between calls is fine there."""
    dynamic = """
        import tensorflow as tf

        class ODEFunc(tf.keras.Model):
            def __init__(self, **kwargs):
                dynamic = kwargs.pop("dynamic", True)
                super().__init__(**kwargs, dynamic=dynamic)
                self.dense = tf.keras.layers.Dense(2)
                self.t_vec = tf.ones([32, 1])

            def call(self, t, x):
                if x.shape[0] != self.t_vec.shape[0]:
                    self.t_vec = tf.ones([x.shape[0], 1])
                return self.dense(tf.concat([self.t_vec * t, x], axis=-1))

        func = ODEFunc()
        func.compile("adam", "mse")
        func.fit(tf.ones([4, 2]), tf.ones([4, 2]))
        """
    eager = """
        import tensorflow as tf

        class Accumulating(tf.keras.Model):
            def __init__(self, base):
                super().__init__()
                self.base = base
                self.accumulated = None

            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean((self.base(x) - y) ** 2)
                grads = tape.gradient(loss, self.trainable_variables)
                self.accumulated = grads if self.accumulated is None else [
                    a + g for a, g in zip(self.accumulated, grads)]
                return {"loss": loss}

        model = Accumulating(tf.keras.Sequential([tf.keras.layers.Dense(1)]))
        model.compile("adam", run_eagerly=True)
        model.fit(tf.ones([4, 2]), tf.ones([4, 1]))
        """
    for code in (dynamic, eager):
        _, claims = single(code)
        assert [rule for rule, _ in claims if rule in ("TF202", "TF204")] == []


def test_methods_named_like_layers_are_not_layer_calls() -> None:
    """An exporter's ``self._add_layer(name, caffe_layer)`` calls its own method: no tensor work,
    so the state it keeps on self is no hazard of a graph-worthy function."""
    fns, _ = single("""
        from exporter.net_spec import layers as L

        class CaffeExporter:
            def __init__(self):
                self._exported_layers = {}

            def _add_layer(self, name, layer):
                self._exported_layers[name] = layer

            def _add_flatten_layer(self, keras_layer):
                caffe_layer = L.Flatten(self._exported_layers[keras_layer.name])
                self._add_layer(keras_layer.name, caffe_layer)

            def export(self, model):
                for layer in model.layers:
                    self._add_flatten_layer(layer)
        """)
    assert fns["CaffeExporter._add_flatten_layer"].verdict is Verdict.LEAVE_EAGER
    assert not fns["CaffeExporter._add_flatten_layer"].facts.tensor_computation


def test_a_predict_without_input_is_not_keras() -> None:
    """``self.model.predict()`` with no input is a project class's method (a random policy):
    Keras's predict needs its data, so no TF507 and nothing to fix."""
    fns, _ = single("""
        import random
        import gym

        class RandomModel:
            def __init__(self, n):
                self.n = n

            def predict(self):
                return random.randint(0, self.n - 1)

        class RandomAgent:
            def __init__(self, env):
                self.env = env
                self.model = RandomModel(env.action_space.n)

            def get_action(self, state):
                return self.model.predict()

        env = gym.make("CartPole-v1")
        agent = RandomAgent(env)
        for episode in range(100):
            state, done = env.reset(), False
            while not done:
                state, reward, done, info = env.step(agent.get_action(state))
        """)
    assert fns["RandomAgent.get_action"].verdict is Verdict.LEAVE_EAGER


def test_a_definition_under_the_main_guard_is_not_what_importers_call(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A file redefines its helper under ``if __name__ == "__main__":`` to try it with NumPy: a
    module importing the helper gets the first definition, which is the one traced."""
    (tmp_path / "utils_bbox.py").write_text(textwrap.dedent("""
        import numpy as np
        import tensorflow as tf

        def decode_boxes(feats, anchors):
            grid = tf.cast(tf.shape(feats)[1:3], feats.dtype)
            return tf.sigmoid(feats) * grid + tf.reduce_sum(anchors)

        if __name__ == "__main__":
            def decode_boxes(feats, anchors):
                box = np.asarray(feats) * 2
                print(np.shape(box))
                return box

            decode_boxes(np.random.normal(size=(1, 4, 4, 3)), np.ones(3))
        """))
    (tmp_path / "model.py").write_text(textwrap.dedent("""
        import tensorflow as tf
        from utils_bbox import decode_boxes

        @tf.function
        def decode(outputs, anchors):
            return decode_boxes(outputs, anchors)

        for _ in range(10):
            decode(tf.ones([1, 4, 4, 3]), tf.ones([3]))
        """))
    report = check_paths([str(tmp_path)])
    assert [f.rule for f in report.findings if f.severity is not Severity.INFO] == []


def test_an_epoch_of_a_range_over_a_parameter_retraces(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """``for epoch in range(epochs): ... train_step(x, y, epoch)`` in a fit() a factory returns, its
    epochs given by a script: a Python int per epoch, so one trace per epoch (TF 2.21 traced once per
    value: conformance variant epoch-of-a-range-over-a-parameter)."""
    (tmp_path / "pix.py").write_text(textwrap.dedent("""
        import tensorflow as tf

        def training_session(suffix):
            generator = tf.keras.Sequential([tf.keras.layers.Dense(4)])
            opt = tf.keras.optimizers.Adam()

            @tf.function
            def train_step(input_image, target, epoch):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean((generator(input_image) - target) ** 2)
                grads = tape.gradient(loss, generator.trainable_variables)
                opt.apply_gradients(zip(grads, generator.trainable_variables))
                tf.summary.scalar("loss", loss, step=epoch)
                return loss

            def fit(train_ds, epochs):
                for epoch in range(epochs):
                    for input_image, target in train_ds:
                        train_step(input_image, target, epoch)
            return fit
        """))
    (tmp_path / "train.py").write_text(textwrap.dedent("""
        import tensorflow as tf
        from pix import training_session

        train_ds = tf.data.Dataset.from_tensor_slices((tf.ones([8, 4]), tf.ones([8, 4]))).batch(2)
        fit = training_session("_edges")
        fit(train_ds, 150)
        """))
    report = check_paths([str(tmp_path)])
    step = next(fn for fn in report.functions if fn.qualname.endswith("train_step"))
    assert step.verdict is Verdict.RECONFIGURE
    assert "TF503" in step.reasons


def test_a_trainer_that_makes_its_own_step_function_is_not_traced_by_keras() -> None:
    """A backend's trainer (Keras's OpenVINO one) writes make_test_function itself: its test_step
    runs however that method runs it, not in the tf.function Keras's own method would make."""
    fns, _ = single("""
        import numpy as np
        import keras

        class OpenVINOTrainer(keras.Model):
            def _parameterize_data(self, data):
                if isinstance(data, (list, tuple)):
                    return [self._parameterize_data(e) for e in data]
                return float(data) if np.isscalar(data) else np.asarray(data)

            def test_step(self, data):
                return self._parameterize_data(data)

            def make_test_function(self, force=False):
                def one_test_step(data):
                    return self.test_step(data)
                self.test_function = one_test_step
                return one_test_step

        model = OpenVINOTrainer()
        model.compile()
        model.evaluate(np.ones((4, 2)))
        """)
    assert "TF505" not in fns["OpenVINOTrainer.test_step"].reasons
    assert "TF505" not in fns["OpenVINOTrainer._parameterize_data"].reasons
