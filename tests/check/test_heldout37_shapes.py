"""Static advice on shapes heldout37's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout37's version C (7f4a416); the controls pass at both. Where a finding rests on what
TensorFlow does, a conformance variant says so (tests/conformance/variants/).
"""

from __future__ import annotations

from pathlib import Path

from programs import check

TRAIN = """\
    import tensorflow as tf

    w = tf.Variable(tf.ones([3, 1]))
    gate = tf.Variable(tf.ones([3, 1]))
    opt = tf.keras.optimizers.SGD(0.1)
    freeze_until = 2


    @tf.function
    def train_step(x, train_gate):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.matmul(x, w * gate) ** 2)
        variables = [w, gate] if train_gate else [w]
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss


    for epoch in range(50):
        for step in range(100):
            train_step(tf.ones([2, 3]), FLAG)
"""


def _codes(tmp_path: Path, flag: str) -> set[str]:
    report = check(tmp_path, {"train.py": TRAIN.replace("FLAG", flag)})
    step = next(fn for fn in report.functions if fn.qualname == "train_step")
    return {f.rule for f in report.findings if f.severity.value != "info"} | set(step.reasons)


def test_a_flag_chosen_between_two_constants_traces_twice(tmp_path: Path) -> None:
    """``True if epoch > freeze_until else False``: two values, two traces in all (TensorFlow
    2.21; tests/conformance/variants/tf101.py). heldout37: TF101 and TF503 on a graph network's
    freeze flag, judged wrong (run), and its step told reconfigure, judged keep."""
    found = _codes(tmp_path, "True if epoch > freeze_until else False")
    assert not found & {"TF101", "TF503"}


def test_a_choice_that_passes_the_epoch_on_still_retraces(tmp_path: Path) -> None:
    """Control: one branch passes the epoch itself, a new value every epoch."""
    found = _codes(tmp_path, "epoch if epoch > freeze_until else 0")
    assert "TF101" in found


VISUALIZE = """\
    import tensorflow as tf


    @tf.function
    def gradient_ascent_step(inputs, unit):
        with tf.GradientTape() as tape:
            tape.watch(inputs)
            loss = tf.reduce_mean(inputs[..., unit % 3])
        return loss, inputs + 0.1 * tape.gradient(loss, inputs)


    def visualize_filter(unit, steps=100):
        image = tf.random.uniform((1, 8, 8, 3))
        for step in range(steps):
            loss, image = gradient_ascent_step(image, unit)
        return image


    images = tf.concat([visualize_filter(u) for u in range(UNITS)], axis=0)
"""


def _tf101(tmp_path: Path, units: int) -> list[str]:
    report = check(tmp_path, {"viz.py": VISUALIZE.replace("UNITS", str(units))})
    return [f.message for f in report.findings if f.rule == "TF101"]


def test_a_parameter_passed_on_from_a_loop_over_values_retraces(tmp_path: Path) -> None:
    """``visualize_filter(unit)`` hands its own parameter to a tf.function and is itself called
    once per unit: one trace per unit (TensorFlow 2.21; tests/conformance/variants/tf101.py).
    heldout37: an activation-maximization step, judged reconfigure, told keep."""
    assert any("visualize_filter()'s parameter `unit`" in m for m in _tf101(tmp_path, 14))


def test_three_values_passed_on_trace_three_times_without_a_warning(tmp_path: Path) -> None:
    """Control: ``range(3)`` in the comprehension gives three values, fewer traces than TensorFlow
    warns at; the same holds for a direct call in such a comprehension."""
    assert not _tf101(tmp_path, 3)
