"""Training steps a script or notebook writes inline in its top-level loop (issue 19).

The programs are written afresh in the shape heldout38's judged corpus showed: a loss wrapper
called inside ``with tf.GradientTape()`` in a notebook's loop over batches was told decorate, and
judged leave-eager in four files (the step is the unit: make it a function and decorate that).
"""

from __future__ import annotations

from pathlib import Path

from programs import check

from tfadvisor.model import Verdict

NOTEBOOK = """\
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = tf.keras.optimizers.Adam()
    train_ds = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([64, 8]), tf.zeros([64], tf.int32))).batch(8)


    def loss_fn(labels, logits):
        return loss_object(y_true=labels, y_pred=logits)


    for epoch in range(5):
        for x, y in train_ds:
            with tf.GradientTape() as tape:
                logits = model(x, training=True)
                loss = loss_fn(y, logits)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
"""

EVALUATION = """\
    import tensorflow as tf

    model = tf.keras.Sequential([tf.keras.layers.Dense(4)])
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    test_ds = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([64, 8]), tf.zeros([64], tf.int32))).batch(8)


    def loss_fn(labels, logits):
        return loss_object(y_true=labels, y_pred=logits)


    for epoch in range(5):
        for x, y in test_ds:
            logits = model(x, training=False)
            loss = loss_fn(y, logits)
"""


def _loss_fn(tmp_path: Path, code: str):
    report = check(tmp_path, {"notebook.py": code})
    return next(fn for fn in report.functions if fn.qualname == "loss_fn")


def test_a_loss_called_in_a_top_level_training_loop_is_part_of_that_step(tmp_path: Path) -> None:
    loss_fn = _loss_fn(tmp_path, NOTEBOOK)
    assert loss_fn.verdict is Verdict.LEAVE_EAGER
    assert any("top-level code writes inline" in a for a in loss_fn.assumptions)


def test_a_loss_called_in_a_top_level_loop_without_gradients_is_not(tmp_path: Path) -> None:
    """Control: the loop only evaluates; no step is written inline around the call."""
    loss_fn = _loss_fn(tmp_path, EVALUATION)
    assert not any("writes inline" in a for a in loss_fn.assumptions)
