"""Static advice on shapes heldout40's judged corpus showed (development after its figures were read).

Each program is written afresh in the shape the judges saw. The first test of each pair fails at
heldout40's version F (bf831e7); the controls pass at both.
"""

from __future__ import annotations

from pathlib import Path

from programs import check

from tfadvisor.model import Verdict

LIBRARY = """\
    import tensorflow as tf


    def predict_mask(model, image):
        probs = model(image[None, :])
        return tf.argmax(probs, axis=3)[0]
"""

NOTEBOOK = """\
    import tensorflow as tf
    from library import predict_mask

    model = tf.keras.Sequential([tf.keras.layers.Conv2D(3, 1)])
    images = tf.random.uniform((50, 32, 32, 3))
    picks = [3, 14, 15, 92]
    for i, idx in enumerate(picks):
        mask = predict_mask(model, images[idx])
        print(i, mask.shape)
"""


def _verdict(tmp_path: Path, notebook: str) -> Verdict:
    report = check(tmp_path, {"library.py": LIBRARY, "show.py": notebook})
    return next(fn for fn in report.functions if fn.qualname == "predict_mask").verdict


def test_a_loop_over_a_short_literal_list_named_a_line_above_calls_a_few_times(tmp_path: Path) -> None:
    """``picks = [3, 14, 15, 92]`` then ``for i, idx in enumerate(picks):``: four calls, as many as
    the list says (heldout40: a segmentation demo's predict helper, told decorate, judged
    leave-eager: too few calls to repay a trace)."""
    assert _verdict(tmp_path, NOTEBOOK) is Verdict.LEAVE_EAGER


def test_a_list_the_loop_appends_to_is_not_a_written_length(tmp_path: Path) -> None:
    """Control: the list grows before the loop (``picks.extend(...)``), so its written length is not
    how many times the loop runs; the helper is called per item of a long list: decorate."""
    notebook = NOTEBOOK.replace("    picks = [3, 14, 15, 92]\n", "    picks = [3, 14, 15, 92]\n    picks.extend(range(40))\n")
    assert _verdict(tmp_path, notebook) is Verdict.DECORATE


def test_a_name_bound_twice_is_not_a_written_length(tmp_path: Path) -> None:
    """Control: rebound to a long list before the loop; nothing is assumed from the first binding."""
    notebook = NOTEBOOK.replace("    picks = [3, 14, 15, 92]\n", "    picks = [3, 14, 15, 92]\n    picks = list(range(50))\n")
    assert _verdict(tmp_path, notebook) is Verdict.DECORATE
