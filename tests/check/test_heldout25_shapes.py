"""Static advice on the shapes heldout25's development showed (issues 19 and 20): TensorFlow handed
on by a project module (``from lab_utils import tf``), model-building helpers written with
``tf.compat.v1.keras`` layers, globals a ``main()`` sets once before anything is traced, a fresh
tf.function run by the call that rebinds what it reads, a setter another file calls, and a
reporter run under ``if step % n == 0:`` through a ``take(1)`` loop.

Each test is a small program written afresh in the shape the corpus showed. Eight fail at the
heldout25 freeze (1294805): what changed. The others are guards that pass at the freeze and after:
what the changes must not undo (a schedule that sets a global in the training loop, a hook the loop
calls, a loss a periodic print reads) or must not bring (a parameter taken for a module's tensor, a
test's pipeline taken for the workload: both went wrong during the development, and were fixed).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from tfadvisor.check import check_paths, check_source
from tfadvisor.model import Severity, Verdict


def single(code: str):  # type: ignore[no-untyped-def]
    report = check_source(textwrap.dedent(code), "prog.py")
    claims = [(f.rule, f.line) for f in report.findings if f.severity is not Severity.INFO]
    return {fn.qualname: fn for fn in report.functions}, claims


def project(tmp_path: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    for name, code in files.items():
        (tmp_path / name).write_text(textwrap.dedent(code))
    report = check_paths([str(tmp_path)])
    claims = [(Path(f.path).name, f.rule) for f in report.findings if f.severity is not Severity.INFO]
    return {fn.qualname: fn for fn in report.functions}, claims


def test_tensorflow_handed_on_by_a_project_module_is_tensorflow(tmp_path: Path) -> None:
    """A course's scripts take ``tf`` from their shared helper module: ``@tf.function`` there is
    TensorFlow's decorator, and the steps are already graphs (heldout25: judged keep)."""
    fns, _ = project(tmp_path, {
        "lab_utils.py": """
            import os
            import numpy as np
            import tensorflow as tf
            """,
        "lab.py": """
            from lab_utils import tf, np

            model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
            loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
            optimizer = tf.keras.optimizers.Adam()
            train_ds = tf.data.Dataset.from_tensor_slices((np.ones((64, 4), "float32"), np.ones(64, "int64"))).batch(8)

            @tf.function
            def train_step(images, labels):
                with tf.GradientTape() as tape:
                    loss = loss_fn(labels, model(images, training=True))
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))
                return loss

            for epoch in range(5):
                for images, labels in train_ds:
                    train_step(images, labels)
            """,
    })
    assert fns["train_step"].decorated
    assert fns["train_step"].verdict is Verdict.KEEP


def test_a_helper_that_makes_keras_layers_per_call_builds_a_model(tmp_path: Path) -> None:
    """``Conv2D(...)(feat)`` in a helper called per pyramid level (through ``tf.compat.v1.keras``
    too): new weights on every call, a model being built, not a step to fix and decorate
    (heldout24: judged leave-eager, not fix-first)."""
    fns, claims = project(tmp_path, {
        "arch.py": """
            import tensorflow.compat.v1 as tf

            def batch_norm_act(x, training, name):
                x = tf.keras.layers.BatchNormalization(name=name)(x, training=training)
                return tf.nn.relu(x)

            def resample(feat, width, target, training, name):
                def project(x, name="proj"):
                    if width != target:
                        x = tf.keras.layers.Conv2D(target, (1, 1), name=name)(x)
                        x = batch_norm_act(x, training, name + "_bn")
                    return x

                feat = project(feat, name)
                return tf.nn.max_pool2d(feat, 2, 2, "SAME")
            """,
        "heads.py": """
            import tensorflow as tf
            from arch import resample

            def head(feats, training):
                outs = []
                for i, f in enumerate(feats):
                    outs.append(resample(f, 16, 32, training, "head_%d" % i))
                return outs
            """,
    })
    for name in ("resample", "resample.<locals>.project", "batch_norm_act"):
        assert fns[name].verdict is Verdict.LEAVE_EAGER, name
    assert claims == []


def test_a_global_main_sets_once_before_training_is_not_stale() -> None:
    """``main()`` sets its globals from the command line, then builds and fits: the loss traced by
    fit reads the value it set (heldout25: four TF105 claims judged wrong, TensorFlow agreed)."""
    _, claims = single("""
        import tensorflow as tf

        category_n = 1

        def heatmap_loss(y_true, y_pred):
            return tf.reduce_mean(tf.square(y_true[..., :category_n] - y_pred[..., :category_n]))

        def main():
            global category_n
            category_n = 10
            model = tf.keras.Sequential([tf.keras.layers.Dense(category_n)])
            model.compile(loss=heatmap_loss)
            model.fit(tf.ones([4, 3]), tf.ones([4, 10]))

        if __name__ == "__main__":
            main()
        """)
    assert [c for c in claims if c[0] == "TF105"] == []


def test_a_global_a_schedule_sets_in_the_training_loop_stays_stale() -> None:
    _, claims = single("""
        import tensorflow as tf

        lr = 0.1

        @tf.function
        def update(w, g):
            return w - lr * g

        def schedule(epoch):
            global lr
            lr = 0.1 / (1 + epoch)

        for epoch in range(3):
            schedule(epoch)
            update(tf.ones([2]), tf.ones([2]))
        """)
    assert ("TF105", 8) in claims


def test_a_setter_another_file_calls_is_a_note_not_a_claim() -> None:
    """``set_train_epochs()`` is called by the training scripts before ``fit``: whether that is
    before the first trace is in those files (heldout24 and heldout25: judged wrong four times)."""
    _, claims = single("""
        import tensorflow as tf

        class GAN(tf.keras.Model):
            def __init__(self, generator, discriminator):
                super().__init__()
                self.generator = generator
                self.discriminator = discriminator
                self.discriminator_epochs = 1

            def set_train_epochs(self, discriminator_epochs):
                self.discriminator_epochs = discriminator_epochs

            def train_step(self, data):
                for _ in range(self.discriminator_epochs):
                    self.discriminator(self.generator(data))
                return {}
        """)
    assert [c for c in claims if c[0] == "TF106"] == []


def test_a_reporter_run_every_n_steps_through_take_one_is_not_a_step() -> None:
    """Sample images drawn every ``print_steps`` batches from ``val_ds.take(1)``: a reporter run a
    few times, not a per-batch step to pass ``epoch`` to as a tensor (heldout25: judged leave-eager)."""
    fns, _ = single("""
        import tensorflow as tf

        generator = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        train_ds = tf.data.Dataset.from_tensor_slices(tf.ones([64, 4])).batch(8)
        val_x = tf.data.Dataset.from_tensor_slices(tf.ones([8, 4])).batch(4)
        val_y = tf.data.Dataset.from_tensor_slices(tf.ones([8, 4])).batch(4)

        def generate_and_save(inputs, targets, epoch=None):
            prediction = generator(inputs, training=True)
            return tf.reduce_mean(prediction - targets) + tf.cast(epoch or 0, tf.float32)

        @tf.function
        def train_step(x):
            return tf.reduce_sum(generator(x))

        step = 0
        for epoch in range(20):
            for x in train_ds:
                train_step(x)
                step += 1
                if step % 100 == 0:
                    for vx, vy in zip(val_x.take(1), val_y.take(1)):
                        generate_and_save(vx, vy, epoch=epoch)
        """)
    assert fns["generate_and_save"].verdict is Verdict.LEAVE_EAGER


def test_a_hook_the_training_loop_calls_stays_a_claim() -> None:
    """``on_epoch_end()`` is called by the training loop between epochs, after the first trace:
    the epoch a traced shuffle reads stays at 0 (heldout24: judged right, the judge ran it)."""
    fns, claims = single("""
        import tensorflow as tf

        class Adapter:
            def __init__(self, x):
                self.x = x
                self._epoch = 0

            def on_epoch_end(self):
                self._epoch += 1

            def _shuffle(self, i):
                return tf.random.experimental.stateless_shuffle(i, seed=[1, self._epoch])

            def dataset(self):
                return tf.data.Dataset.range(8).batch(8).map(self._shuffle)
        """)
    assert any(rule == "TF106" for rule, _ in claims)
    assert fns["Adapter._shuffle"].verdict is Verdict.FIX_FIRST


def test_a_per_replica_function_slicing_a_captured_tensor_does_tensor_work() -> None:
    """``return replica_id, text[replica_id]`` with ``text = tf.constant(...)`` around the def: a
    slice op per replica, not "only Python" (heldout25: judged keep, not undecorate)."""
    fns, claims = single("""
        import numpy as np
        import tensorflow as tf

        def translate(strategy, batches, predict_step):
            out = []
            for text in batches:
                text = tf.constant(np.asarray(text))

                @tf.function
                def text_as_per_replica():
                    replica_id = tf.distribute.get_replica_context().replica_id_in_sync_group
                    return replica_id, text[replica_id]

                text = strategy.run(text_as_per_replica)
                out.append(predict_step(text))
            return out
        """)
    assert fns["translate.<locals>.text_as_per_replica"].verdict is Verdict.KEEP
    assert claims == []


def test_a_loss_the_step_calls_and_a_periodic_print_reads_is_covered_by_the_step() -> None:
    """``loss`` is called inside ``grad`` (to be decorated) and every 20 steps for a print: the hot
    path is the step's graph; the printed calls are a few (heldout25: judged leave-eager)."""
    fns, _ = single("""
        import tensorflow as tf

        W, B = tf.Variable(5.0), tf.Variable(10.0)
        inputs = tf.random.normal([2000])
        targets = inputs * 3 + 2

        def loss(x, y):
            return tf.reduce_mean(tf.square(x * W + B - y))

        def grad(x, y):
            with tf.GradientTape() as tape:
                value = loss(x, y)
            return tape.gradient(value, [W, B])

        optimizer = tf.keras.optimizers.SGD(0.01)
        print("Initial loss: {:.3f}".format(loss(inputs, targets)))
        for i in range(300):
            optimizer.apply_gradients(zip(grad(inputs, targets), [W, B]))
            if i % 20 == 0:
                print("Loss at step {:03d}: {:.3f}".format(i, loss(inputs, targets)))
        print("Final loss: {:.3f}".format(loss(inputs, targets)))
        """)
    assert fns["grad"].verdict is Verdict.DECORATE
    assert fns["loss"].verdict is Verdict.LEAVE_EAGER


def test_a_parameter_named_like_a_module_tensor_is_the_parameter() -> None:
    """A notebook binds ``x = tf.ones(...)`` in a later cell; ``naive_relu(x)``'s own ``x`` is the
    NumPy array it is given: its ``x[i, j]`` is Python indexing (heldout25 development)."""
    fns, _ = single("""
        import numpy as np
        import tensorflow as tf

        def naive_relu(x):
            x = x.copy()
            for i in range(x.shape[0]):
                for j in range(x.shape[1]):
                    x[i, j] = max(x[i, j], 0)
            return x

        z = np.random.random((20, 100))
        for _ in range(1000):
            z = naive_relu(z)

        x = tf.ones([2, 2])
        """)
    assert fns["naive_relu"].verdict is Verdict.LEAVE_EAGER


def test_a_tests_pipeline_makes_no_library_helper_to_fix(tmp_path: Path) -> None:
    """A library's registry helper called by a test's ``Dataset.map`` function is not graph code
    of the workload: no fix-first for it (heldout25 development: judged leave-eager)."""
    fns, _ = project(tmp_path, {
        "registry.py": """
            import tensorflow as tf

            _REGISTRY = {}

            def add_to_collection(name, value):
                _REGISTRY[name] = value
                return tf.identity(value)
            """,
        "registry_test.py": """
            import tensorflow as tf
            from registry import add_to_collection

            class RegistryTest(tf.test.TestCase):
                def test_map(self):
                    def parse(x):
                        return add_to_collection("x", x)
                    list(tf.data.Dataset.range(3).map(parse))
            """,
    })
    assert fns["add_to_collection"].verdict is not Verdict.FIX_FIRST


def test_a_module_named_like_a_test_that_training_scripts_call_is_workload(tmp_path: Path) -> None:
    """``utils/train_validation_test.py`` holds the ``validation()`` the training scripts call per
    epoch: a module of the workload, not test code (heldout25: judged decorate). A real test file
    that calls the same function stays test code."""
    (tmp_path / "utils").mkdir()
    (tmp_path / "utils" / "__init__.py").write_text("")
    fns, _ = project(tmp_path, {
        "utils/train_validation_test.py": """
            import tensorflow as tf

            def validation(model, loss_fn, metric, ds):
                for x, y in ds:
                    logits = model(x, training=False)
                    metric.update_state(loss_fn(y, logits))
                return metric.result()
            """,
        "train.py": """
            import tensorflow as tf
            from utils.train_validation_test import validation

            model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
            loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
            metric = tf.keras.metrics.Mean()
            val_ds = tf.data.Dataset.from_tensor_slices((tf.ones([64, 4]), tf.zeros([64], tf.int64))).batch(8)
            for epoch in range(20):
                validation(model, loss_fn, metric, val_ds)
            """,
        "test_model.py": """
            from utils.train_validation_test import validation

            def test_validation_runs():
                assert validation is not None

            def helper_for_tests(x):
                return x
            """,
    })
    assert "test code" not in " ".join(fns["validation"].assumptions)
    assert "test code" in " ".join(fns["helper_for_tests"].assumptions)


def test_a_decorated_placeholder_function_only_costs_a_trace() -> None:
    """``@tf.function def _roi_loss(): pass`` at module level has no overrides to run, unlike an
    abstract method: undecorate (heldout25: judged undecorate first)."""
    fns, _ = single("""
        import tensorflow as tf

        @tf.function
        def _roi_loss():
            pass

        class Detector(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self._loss_function = _roi_loss()

            @tf.function
            def loss(self, x):
                pass

        class Faster(Detector):
            def loss(self, x):
                return tf.reduce_sum(x)
        """)
    assert fns["_roi_loss"].verdict is Verdict.UNDECORATE
    assert fns["Detector.loss"].verdict is Verdict.KEEP
