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
