"""TensorFlow 1's eager mode is advised like TensorFlow 2 code, and says which TensorFlow it is.

The tool left TensorFlow 1 eager files (``tf.contrib.eager``, ``tf.enable_eager_execution()``) as
TF100, out of scope, where the judges of heldout31-42 asked for a graph for their hot functions.
Analysed like TensorFlow 2 code, 45 functions there change verdict (decision 0046): 23 judged
change-asking verdicts are right, 18 recall cases found, 2 look-alikes told fix-first wrongly.
"""

from __future__ import annotations

from pathlib import Path

from programs import check

from tfadvisor.model import Verdict

EAGER_TF1 = """\
    import tensorflow as tf
    import tensorflow.contrib.eager as tfe

    tf.enable_eager_execution()

    W = tfe.Variable(tf.random_normal([4, 3]))
    b = tfe.Variable(tf.zeros([3]))


    def loss(x, y):
        return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y, logits=tf.matmul(x, W) + b))


    def grad(x, y):
        with tf.GradientTape() as tape:
            value = loss(x, y)
        return tape.gradient(value, [W, b])


    optimizer = tf.train.GradientDescentOptimizer(0.1)
    dataset = tf.data.Dataset.from_tensor_slices((tf.ones([32, 4]), tf.ones([32, 3]))).batch(8)
    for epoch in range(10):
        for x, y in dataset:
            optimizer.apply_gradients(zip(grad(x, y), [W, b]))
"""


def _by_name(tmp_path: Path, source: str) -> dict:
    report = check(tmp_path, {"lab.py": source})
    return {f.qualname: f for f in report.functions}


def test_a_hot_function_of_tensorflow_1_eager_code_is_advised_and_says_so(tmp_path: Path) -> None:
    grad = _by_name(tmp_path, EAGER_TF1)["grad"]
    assert grad.verdict is Verdict.DECORATE
    assert grad.confidence == "speculative"
    assert any("TensorFlow 1's eager mode" in a and "defun" in a for a in grad.assumptions)
    assert "TF100" not in grad.reasons


def test_tensorflow_1_graph_code_stays_out_of_scope(tmp_path: Path) -> None:
    """Control: a Session and a placeholder make the file graph-mode TensorFlow 1 (TF100)."""
    graph = EAGER_TF1.replace("tf.enable_eager_execution()", "x_in = tf.placeholder(tf.float32, [None, 4])\n"
                              "    sess = tf.Session()\n    sess.run(tf.global_variables_initializer())")
    grad = _by_name(tmp_path, graph)["grad"]
    assert grad.verdict is Verdict.LEAVE_EAGER and grad.reasons == ["TF100"]


def test_a_function_made_a_graph_with_defun_is_kept(tmp_path: Path) -> None:
    """``@tfe.defun`` is TensorFlow 1 eager mode's tf.function: nothing to decorate."""
    defun = EAGER_TF1.replace("    def grad(", "    @tfe.defun\n    def grad(")
    grad = _by_name(tmp_path, defun)["grad"]
    assert grad.verdict is Verdict.KEEP
