"""Static advice on shapes heldout36's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout36's version B (2ba0d5d); the controls pass at both. Where a finding rests on what
TensorFlow does, a conformance variant says so (tests/conformance/variants/).
"""

from __future__ import annotations

from pathlib import Path

from programs import check

from tfadvisor.model import Severity

SCRIPT = """\
    import numpy as np
    import tensorflow as tf

    SWITCH
    history = []


    @tf.function
    def loss_function(pred, threshold):
        sim = tf.matmul(pred, pred, transpose_b=True)
        history.append(np.mean(sim.numpy() > threshold))
        return tf.reduce_mean(sim)


    def scale(x):
        return x * float(tf.reduce_max(x).numpy())


    def main():
        data = tf.data.Dataset.from_tensor_slices(tf.ones([64, 3])).map(scale).batch(8)
        for epoch in range(10):
            for pred in data:
                loss_function(pred, 0.5)


    main()
"""


def _severities(tmp_path: Path, switch: str) -> dict[tuple[str, str | None], Severity]:
    report = check(tmp_path, {"cluster.py": SCRIPT.replace("SWITCH", switch)})
    return {(f.rule, (f.function or "").rsplit("::", 1)[-1]): f.severity for f in report.findings}


def test_graph_findings_are_notes_where_the_script_turns_graph_mode_off(tmp_path: Path) -> None:
    """``tf.config.run_functions_eagerly(True)`` at the top of a script, left on: its tf.functions
    run eagerly, so ``.numpy()`` and ``list.append`` in the decorated loss work on every call
    (TensorFlow 2.21; tests/conformance/variants/tf206.py). heldout36: 8 such claims judged wrong
    (run); the switch itself (TF405) was judged right."""
    found = _severities(tmp_path, "tf.config.run_functions_eagerly(True)")
    assert found[("TF405", "")] is not Severity.INFO
    assert found[("TF206", "loss_function")] is Severity.INFO
    assert found[("TF202", "loss_function")] is Severity.INFO


def test_what_tf_data_traces_is_traced_whatever_the_switch_says(tmp_path: Path) -> None:
    """Control: a function handed to ``Dataset.map`` is traced by tf.data, switch or not."""
    found = _severities(tmp_path, "tf.config.run_functions_eagerly(True)")
    assert found[("TF206", "scale")] is not Severity.INFO


def test_without_the_switch_the_claims_stand(tmp_path: Path) -> None:
    """Control: the same script without the switch."""
    found = _severities(tmp_path, "")
    assert found[("TF206", "loss_function")] is not Severity.INFO
    assert found[("TF202", "loss_function")] is not Severity.INFO


DECODE = """\
    import tensorflow as tf
    from keras import ops


    def body(i, tokens):
        print("decoding position", i)
        return i + 1, tokens * 2


    @tf.function
    def generate(tokens):
        return ops.while_loop(lambda i, tokens: i < 3, body, (0, tokens))


    for prompt in range(100):
        generate(tf.ones([2]))
"""


def test_a_keras_ops_while_loop_body_runs_in_its_callers_graph(tmp_path: Path) -> None:
    """``keras.ops.while_loop`` is ``tf.while_loop`` on the TensorFlow backend: inside a
    tf.function its body is traced once, so its print runs once (TensorFlow 2.21;
    tests/conformance/variants/tf201.py). heldout36: a decoding loop's progress print, judged
    fix-first, was not seen as graph code."""
    report = check(tmp_path, {"decode.py": DECODE})
    assert any(f.rule == "TF201" and f.severity is not Severity.INFO for f in report.findings)


def test_a_keras_ops_while_loop_from_eager_code_runs_its_body_eagerly(tmp_path: Path) -> None:
    """Control: called from eager code the loop runs its body per iteration, print and all."""
    report = check(tmp_path, {"decode.py": DECODE.replace("    @tf.function\n", "")})
    assert not any(f.rule == "TF201" for f in report.findings)
