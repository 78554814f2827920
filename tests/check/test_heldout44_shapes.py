"""Static advice on shapes heldout44's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout44's version J (7ed0eec); the controls pass at both.
"""

from __future__ import annotations

from pathlib import Path

from programs import check

LAYER = """\
    import numpy as np
    import tensorflow as tf


    class Chroma(tf.keras.layers.Layer):
        def __init__(self):
            super(Chroma, self).__init__(trainable=False)

        def call(self, audio):
            print("is model eager?", tf.executing_eagerly())
            clip = audio.numpy()
            return tf.convert_to_tensor(np.abs(np.fft.rfft(clip))[..., :12])


    x = np.random.rand(64, 256).astype("float32")
    y = np.random.randint(0, 3, 64)
    classifier = tf.keras.Sequential([tf.keras.layers.Dense(3)])
    classifier.compile("adam", "sparse_categorical_crossentropy")
    classifier.fit(x, y, epochs=1)

    layer = Chroma()
    print(layer(x[:2]))
    layer = Chroma()
    print(layer(x[0]))
    USE
"""


def _rules(tmp_path: Path, use: str) -> list[str]:
    report = check(tmp_path, {"chords.py": LAYER.replace("USE", use)})
    return sorted(f.rule for f in report.findings if f.rule in ("TF201", "TF206"))


def test_a_layer_only_called_directly_runs_eagerly_where_another_model_is_fit(tmp_path: Path) -> None:
    """``layer = Chroma(); layer(clips)`` and nothing else: no model holds the layer, so its
    ``call`` runs eagerly, and its ``print`` and ``.numpy()`` work (heldout44: TF201 and TF206 on such
    a layer, in a notebook that fits another model, judged wrong after running it)."""
    assert _rules(tmp_path, "") == []


def test_the_same_layer_inside_a_fitted_model_is_traced(tmp_path: Path) -> None:
    """Control: put it in a ``Sequential`` that is fit, and Keras traces its ``call``."""
    use = "model = tf.keras.Sequential([Chroma(), tf.keras.layers.Dense(3)])\n    model.compile('adam', 'mse')\n    model.fit(x, y)"
    assert _rules(tmp_path, use) == ["TF201", "TF206"]


def test_the_same_layer_applied_to_a_symbolic_input_is_traced(tmp_path: Path) -> None:
    """Control: ``chroma = Chroma(); h = chroma(inputs)`` on a ``keras.Input`` builds a functional
    model: the direct call is symbolic."""
    use = ("inputs = tf.keras.Input((256,))\n    chroma = Chroma()\n    h = chroma(inputs)\n"
           "    model = tf.keras.Model(inputs, tf.keras.layers.Dense(3)(h))")
    assert _rules(tmp_path, use) == ["TF201", "TF206"]


SPECTRUM = """\
    import numpy as np
    import tensorflow as tf


    class Chroma(tf.keras.layers.Layer):
        def cqt(self, x, bins):
            kernel = tf.convert_to_tensor(np.ones((32, bins)), dtype=tf.complex64)
            BODY
            return tf.tensordot(tf.signal.fft(x), kernel, axes=1)

        @tf.function(input_signature=[tf.TensorSpec(shape=(16,), dtype=tf.float32)])
        def chroma(self, x):
            return tf.abs(self.cqt(x, 12))

        def call(self, audio):
            return tf.map_fn(self.chroma, audio)
"""
CAST_THEN_PAD = "x = tf.cast(x, tf.complex64)\n            x = np.pad(x, [[8, 8]], mode='constant')"
CAST_THEN_PAD_IN_A_LOOP = ("x = tf.cast(x, tf.complex64)\n            for _ in range(2):\n"
                           "                y = np.pad(x, [[8, 8]], mode='constant')\n"
                           "                x = np.zeros(16, np.complex64)\n            x = y")
EITHER_THEN_PAD = ("if bins > 12:\n                x = tf.cast(x, tf.complex64)\n            else:\n"
                   "                x = np.zeros(16, np.complex64)\n            x = np.pad(x, [[8, 8]], mode='constant')")


def _numpy_on_tensors(tmp_path: Path, body: str) -> list[str]:
    """The severity of each TF206 (a guess is said as info, a known tensor as an error)."""
    report = check(tmp_path, {"chroma.py": SPECTRUM.replace("BODY", body)})
    return [f.severity.value for f in report.findings if f.rule == "TF206"]


def test_a_name_just_rebound_to_an_op_is_a_tensor_where_it_is_read(tmp_path: Path) -> None:
    """``x = tf.cast(x, ...)`` then ``x = np.pad(x, ...)``: the name is bound to a tensor and to an
    array, but the read comes right after the cast, on every path: NumPy gets a symbolic tensor and
    raises while tracing (heldout44: a chroma layer's CQT, judged fix-first only; TF206 was a guess)."""
    assert _numpy_on_tensors(tmp_path, CAST_THEN_PAD) == ["error"]


def test_a_name_bound_differently_on_two_paths_stays_a_guess(tmp_path: Path) -> None:
    """Control: a tensor on one branch, an array on the other: which one the read gets is not
    known, so the finding stays speculative."""
    assert _numpy_on_tensors(tmp_path, EITHER_THEN_PAD) == ["info"]


def test_a_name_rebound_later_in_a_loop_around_the_read_stays_a_guess(tmp_path: Path) -> None:
    """Control: the cast comes first, but a loop around the read binds the name to an array again,
    so the read's second pass gets that array: still a guess."""
    assert _numpy_on_tensors(tmp_path, CAST_THEN_PAD_IN_A_LOOP) == ["info"]


SIGNED = """\
    import numpy as np
    import tensorflow as tf


    @tf.function(SIGNATURE)
    def level(clip):
        return tf.reduce_sum(np.abs(clip))
"""


def _verdict_of_level(tmp_path: Path, signature: str) -> tuple[str, str]:
    fn = next(f for f in check(tmp_path, {"level.py": SIGNED.replace("SIGNATURE", signature)}).functions)
    return fn.verdict.value, fn.confidence


def test_an_input_signature_makes_its_parameters_tensors(tmp_path: Path) -> None:
    """``input_signature=[tf.TensorSpec(...)]``: TensorFlow hands ``clip`` in as a tensor whatever
    the callers pass, so NumPy on it raises while tracing: fix-first, known, not guessed (heldout44:
    a decorated chroma function's ``x`` was taken for a tensor only from its name)."""
    assert _verdict_of_level(tmp_path, "input_signature=[tf.TensorSpec([None], tf.float32)]") == ("fix-first", "certain")


def test_without_a_signature_or_a_caller_the_parameter_is_not_known(tmp_path: Path) -> None:
    """Control: no signature and no call site: what ``clip`` is stays unknown, and so does the
    hazard: the decorator is kept as written."""
    assert _verdict_of_level(tmp_path, "reduce_retracing=True")[0] == "keep"


# Shapes a review of the changes above found (each wrong, or unbearably slow, before the mend).

def _tf206_severities(tmp_path: Path, code: str) -> list[str]:
    report = check(tmp_path, {"f.py": code})
    return [f.severity.value for f in report.findings if f.rule == "TF206"]


def test_a_comprehension_name_shadows_the_dominating_binding(tmp_path: Path) -> None:
    """``[np.sqrt(x) for x in (1.0, 2.0)]`` after ``x = tf.constant(...)``: the comprehension's own
    ``x`` is a Python float, so NumPy on it is fine: never an error."""
    code = """\
        import numpy as np
        import tensorflow as tf


        @tf.function
        def f(t):
            x = np.ones(3, np.float32)
            x = tf.constant(x) * t
            scales = [np.sqrt(x) for x in (1.0, 2.0, 4.0)]
            return [x * s for s in scales]
        """
    assert "error" not in _tf206_severities(tmp_path, code)


def test_the_last_of_two_bindings_on_one_line_decides(tmp_path: Path) -> None:
    """``x = tf.constant(1.0) * t; x = np.ones(3)``: the read after the line gets the array."""
    code = """\
        import numpy as np
        import tensorflow as tf


        @tf.function
        def f(t):
            x = tf.constant(1.0) * t; x = np.ones(3, np.float32)
            return tf.constant(np.sqrt(x)) * t
        """
    assert "error" not in _tf206_severities(tmp_path, code)


def test_a_long_chain_of_rebindings_is_read_in_linear_time(tmp_path: Path) -> None:
    """Forty ``x = x + 0.044715 * x * x * x`` lines after ``x`` was an array and then a tensor: each
    binding's kind is worked out once (a review found the first version recursing through every
    read: over five minutes for twelve lines), and the NumPy call at the end is still judged."""
    lines = "\n".join("            x = x + 0.044715 * x * x * x" for _ in range(40))
    code = f"""\
        import numpy as np
        import tensorflow as tf


        @tf.function
        def polish(x):
            x = np.asarray(x, dtype=np.float32)
            x = tf.convert_to_tensor(x)
{lines}
            return np.pad(x, 1)
        """
    report = check(tmp_path, {"f.py": code})
    assert [f.line for f in report.findings if f.rule == "TF206" and "pad" in f.message] == [49]


def test_a_layer_called_on_a_built_models_output_is_traced(tmp_path: Path) -> None:
    """``gate = Gate(); keras.Model(base.input, gate(base.output))``: a functional model with no
    ``Input`` written; the layer's call is traced under fit, so its tensor ``if`` is found (TF304)."""
    code = """\
        import tensorflow as tf


        class Gate(tf.keras.layers.Layer):
            def build(self, shape):
                self.w = self.add_weight(shape=(shape[-1],), initializer="ones")

            def call(self, x):
                if tf.reduce_sum(x) > 0:
                    return x * self.w
                return x


        base = tf.keras.applications.MobileNetV2(include_top=False, input_shape=(96, 96, 3), weights=None)
        gate = Gate()
        model = tf.keras.Model(base.input, gate(base.output))
        model.compile("adam", "mse")
        model.fit(tf.random.normal([8, 96, 96, 3]), tf.random.normal([8, 3, 3, 1280]), epochs=1)
        """
    report = check(tmp_path, {"gate.py": code})
    assert [f.rule for f in report.findings if f.rule == "TF304"] == ["TF304"]


def test_a_tuple_of_specs_is_a_python_tuple_not_a_tensor(tmp_path: Path) -> None:
    """``input_signature=[(TensorSpec(...), TensorSpec(...))]``: ``parts`` is a tuple of tensors,
    which a comprehension may iterate; only a plain ``TensorSpec`` makes the parameter a tensor."""
    code = """\
        import tensorflow as tf


        @tf.function(input_signature=[(tf.TensorSpec([None, 4], tf.float32), tf.TensorSpec([None, 4], tf.float32))])
        def total(parts):
            return tf.add_n([tf.reduce_sum(p) for p in parts])


        total((tf.zeros([2, 4]), tf.zeros([2, 4])))
        """
    report = check(tmp_path, {"total.py": code})
    assert not [f for f in report.findings if f.rule == "TF305" and f.severity.value != "info"]
