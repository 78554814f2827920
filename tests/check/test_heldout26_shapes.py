"""Static advice on shapes the thirteenth session's development worked on (issues 19 and 20).

Each test is a small program written afresh in the shape the judged corpus showed; the docstring
says what judges decided and which tests fail at the heldout26 freeze (9cbafa6).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from tfadvisor.check import check_paths
from tfadvisor.model import Verdict


def project(tmp_path: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    for name, code in files.items():
        (tmp_path / name).write_text(textwrap.dedent(code))
    report = check_paths([str(tmp_path)])
    return {fn.qualname: fn for fn in report.functions}


SUPER_RESOLUTION = """\
    import tensorflow as tf
    from loaders import load_pairs


    def psnr(a, b):
        return tf.image.psnr(a, b, max_val=1.0).numpy().mean()


    class Trainer:
        def __init__(self, generator, optimizer):
            self.generator = generator
            self.optimizer = optimizer

        def train_step(self, lr_img, hr_img):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.abs(self.generator(lr_img, training=True) - hr_img))
            grads = tape.gradient(loss, self.generator.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.generator.trainable_variables))
            return float(loss)

        def valid_step(self, lr_img, hr_img):
            hr_generated = self.generator(lr_img, training=False)
            return psnr(hr_img, hr_generated)

        def fit(self, epochs):
            for epoch in range(epochs):
                for lr_imgs, hr_imgs in load_pairs("train"):
                    self.train_step(lr_imgs, hr_imgs)
                for lr_img, hr_img in load_pairs("valid"):
                    print(self.valid_step(lr_img, hr_img))
"""


def test_an_evaluation_step_fed_unseen_values_is_left_as_it_is(tmp_path: Path) -> None:
    """An evaluation step whose inputs come from a loader the analysis cannot follow, and whose
    metric reads values back with NumPy: whether a graph pays (images of varying sizes retrace) is
    not known, so it is not asked to change; judges of nine splits accepted leave-eager for all ten
    such steps (a super-resolution project's valid_step among them). Fails at the freeze (fix-first)."""
    fns = project(tmp_path, {"prog.py": SUPER_RESOLUTION})
    step = fns["Trainer.valid_step"]
    assert step.verdict is Verdict.LEAVE_EAGER
    assert step.confidence == "unknown"
    assert any(a.startswith("not seen: what its callers pass") for a in step.assumptions)


def test_a_training_step_that_reads_values_back_is_still_fix_first(tmp_path: Path) -> None:
    """Guard: the training step beside it computes gradients, where a graph pays whatever the
    batch's shape; reading the loss back (float(loss)) is what to fix before decorating."""
    fns = project(tmp_path, {"prog.py": SUPER_RESOLUTION})
    assert fns["Trainer.train_step"].verdict is Verdict.FIX_FIRST


HYPERPARAMETER_SEARCH = """\
    import tensorflow as tf
    from models import HyperModel


    def train_model(model, data, train_param):
        loss_function = tf.keras.losses.CategoricalCrossentropy()

        @tf.function
        def train_batch(images, labels):
            with tf.GradientTape() as tape:
                loss = loss_function(labels, model(images))
            variables = model.trainable_variables
            train_param.optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
            return loss

        for epoch in range(train_param.epochs):
            for images, labels in data:
                train_batch(images, labels)


    for rate in [1e-3, 1e-4]:
        model = HyperModel(rate)
        train_param = make_params(rate)
        train_model(model, dataset, train_param)

    model = ConvModel()
    train_model(model, dataset, train_param)
"""


def test_a_tf_function_made_per_model_in_a_hyperparameter_search_is_kept(tmp_path: Path) -> None:
    """A notebook trains a new model for each hyperparameter setting, through a function that makes
    its own tf.function step around that model: a step made once would trace again for each new
    model (and its optimizer could not make variables then), and the step reads the enclosing
    function's parameters, not the notebook's globals of the same names. Judged keep, with TF102 and
    TF105 wrong (heldout26: four claims, two verdicts). Fails at the freeze (fix-first, TF102, TF105)."""
    report = check_paths([str(_write(tmp_path, "search.py", HYPERPARAMETER_SEARCH))])
    fns = {fn.qualname: fn for fn in report.functions}
    assert fns["train_model.<locals>.train_batch"].verdict is Verdict.KEEP
    assert not [f for f in report.findings if f.rule in ("TF102", "TF105")]


def test_a_step_remade_per_epoch_for_the_same_model_is_still_reconfigure(tmp_path: Path) -> None:
    """Guard: the same function called once per epoch with the same model makes a new tf.function,
    and a new trace, every epoch for nothing: TF102 stands and the step is to be made once."""
    code = HYPERPARAMETER_SEARCH.replace(
        "    for rate in [1e-3, 1e-4]:\n        model = HyperModel(rate)\n        train_param = make_params(rate)\n"
        "        train_model(model, dataset, train_param)\n",
        "    model = HyperModel(1e-3)\n    train_param = make_params(1e-3)\n    for epoch in range(100):\n"
        "        train_model(model, dataset, train_param)\n")
    report = check_paths([str(_write(tmp_path, "search.py", code))])
    fns = {fn.qualname: fn for fn in report.functions}
    assert fns["train_model.<locals>.train_batch"].verdict is Verdict.RECONFIGURE
    assert [f.rule for f in report.findings if f.rule == "TF102"] == ["TF102"]


def _write(folder: Path, name: str, code: str) -> Path:
    (folder / name).write_text(textwrap.dedent(code))
    return folder


EAGER_DECORATOR = """\
    import numpy as np
    import tensorflow as tf


    def naive_function(input_signature, type_out):
        def map_decorator(func):
            @tf.function(input_signature=input_signature)
            def wrapper(*args):
                return tf.py_function(func, inp=args, Tout=type_out)
            return wrapper
        return map_decorator


    @naive_function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.string)], type_out=[tf.float32])
    def load_data(file_name):
        name = file_name.numpy().decode("utf8")
        return tf.cast(np.loadtxt(name), tf.float32)


    dataset = tf.data.Dataset.list_files("data/*.txt").map(load_data)
"""


def test_a_project_decorator_that_runs_the_function_through_py_function_makes_it_eager(tmp_path: Path) -> None:
    """A data mapper's decorator wraps the loader in tf.py_function inside its own tf.function: the
    loader's body runs eagerly, where ``.numpy()`` and ``np.loadtxt`` work (judged, and run under
    TensorFlow 2.21: TF206 wrong twice, heldout26). Fails at the freeze (fix-first, TF206)."""
    report = check_paths([str(_write(tmp_path, "mapper.py", EAGER_DECORATOR))])
    fns = {fn.qualname: fn for fn in report.functions}
    assert fns["load_data"].verdict is Verdict.LEAVE_EAGER
    assert "tf.py_function" in fns["load_data"].assumptions[0]
    assert not [f for f in report.findings if f.rule == "TF206"]


CALLABLE_MAPPER = """\
    import tensorflow as tf


    class Preprocess:
        def __init__(self, anchor_masks):
            self.anchor_masks = anchor_masks

        def __call__(self, image, boxes):
            outputs = []
            grid_size = 13
            for mask in self.anchor_masks:
                outputs.append(self.targets_for_grid(boxes, grid_size, mask))
                grid_size *= 2
            return image, tuple(outputs)

        @tf.function
        def targets_for_grid(self, boxes, grid_size, mask):
            return tf.zeros((grid_size, grid_size, tf.shape(mask)[0], 6)) + tf.reduce_sum(boxes)


    def load(dataset, anchor_masks):
        preprocess = Preprocess(anchor_masks)
        return dataset.map(preprocess)
"""


def test_an_object_handed_to_dataset_map_is_traced_there(tmp_path: Path) -> None:
    """``ds.map(preprocess)`` with ``preprocess = Preprocess(...)``: tf.data traces the object's
    __call__ once, so the tf.function it calls per grid size traces once per size, inside that
    trace, not per element (judged, and run under TensorFlow 2.21: TF101 and TF503 wrong, heldout26).
    Fails at the freeze (TF101)."""
    report = check_paths([str(_write(tmp_path, "data.py", CALLABLE_MAPPER))])
    fns = {fn.qualname: fn for fn in report.functions}
    assert "handed to an API that traces it" in fns["Preprocess.__call__"].assumptions[0]
    assert not [f for f in report.findings if f.rule in ("TF101", "TF503")]


WRAPPED_MODEL = """\
    import tensorflow as tf


    class AccumulatingModel(tf.keras.Model):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        @tf.function
        def call(self, x, training=False):
            return self.inner(x, training=training)


    inputs = tf.keras.Input((8,))
    model = AccumulatingModel(tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs)))
    model.compile(optimizer="adam", loss="mse", run_eagerly=True)
    model.fit(tf.ones([64, 8]), tf.ones([64, 2]), epochs=2)


    def predict_all(dataset):
        for batch in dataset:
            print(model(batch))


    predict_all(tf.data.Dataset.from_tensor_slices(tf.ones([64, 8])).batch(8))
"""


def test_a_decorated_call_around_a_built_model_run_eagerly_in_a_loop_is_kept(tmp_path: Path) -> None:
    """A Keras call decorated around a model handed in built (a functional model is built when
    made), trained with run_eagerly=True and run eagerly per batch: its weights exist before the
    first trace, and the decorator is what makes each call a graph (heldout24: judged keep, and run
    under TensorFlow 2.21). Fails at the freeze (undecorate)."""
    fns = project(tmp_path, {"wrap.py": WRAPPED_MODEL})
    assert fns["AccumulatingModel.call"].verdict is Verdict.KEEP


def test_a_decorated_call_whose_layers_build_in_the_trace_still_comes_off(tmp_path: Path) -> None:
    """Guard: the same loop over a model whose Dense layers make their weights on the first call:
    under TensorFlow 2.21 they are made inside the trace and get no gradients, eager first call or
    not (judges of heldout26's moves ran it), so the decorator still comes off."""
    code = WRAPPED_MODEL.replace("""        def __init__(self, inner):
            super().__init__()
            self.inner = inner""", """        def __init__(self, inner):
            super().__init__()
            self.inner = tf.keras.layers.Dense(2)""").replace("""            print(model(batch))
""", """            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(model(batch, training=True))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
""").replace("    def predict_all", "    optimizer = tf.keras.optimizers.Adam()\n\n\n    def predict_all")
    fns = project(tmp_path, {"wrap.py": code})
    assert fns["AccumulatingModel.call"].verdict is Verdict.UNDECORATE
