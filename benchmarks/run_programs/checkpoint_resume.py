"""Train a Keras model in a custom loop, checkpoint it, restore into a fresh model and resume.

``tf.train.Checkpoint`` tracks the model, the optimizer and a step counter; a
``CheckpointManager`` keeps the last two. The train step is eager and hot.

Run: python checkpoint_resume.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras
import numpy as np
import tensorflow as tf

FEATURES = 10
BATCH = 32
BATCHES = 60


def build_model() -> keras.Model:
    return keras.Sequential([keras.Input(shape=(FEATURES,)), keras.layers.Dense(32, activation="tanh"),
                             keras.layers.Dense(3)])


def train_step(model, optimizer, x, y, step):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    step.assign_add(1)
    return loss


def run_epochs(model, optimizer, step, x_all, y_all, epochs):
    loss = 0.0
    for _ in range(epochs):
        for i in range(BATCHES):
            xb = tf.constant(x_all[i * BATCH:(i + 1) * BATCH])
            yb = tf.constant(y_all[i * BATCH:(i + 1) * BATCH])
            loss = float(train_step(model, optimizer, xb, yb, step))
    return loss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=2)
    epochs = parser.parse_args().epochs
    keras.utils.set_random_seed(4)
    rng = np.random.default_rng(4)
    x_all = rng.normal(size=(BATCH * BATCHES, FEATURES)).astype("float32")
    y_all = (np.abs(x_all[:, 0] * 2).astype("int32") % 3).astype("int32")
    model, optimizer, step = build_model(), keras.optimizers.Adam(0.01), tf.Variable(0, dtype=tf.int64)
    with tempfile.TemporaryDirectory() as folder:
        checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer, step=step)
        manager = tf.train.CheckpointManager(checkpoint, folder, max_to_keep=2)
        loss = run_epochs(model, optimizer, step, x_all, y_all, epochs)
        manager.save()
        print(f"saved at step {int(step.numpy())}, loss {loss:.5f}")
        fresh, fresh_opt, fresh_step = build_model(), keras.optimizers.Adam(0.01), tf.Variable(0, dtype=tf.int64)
        restored = tf.train.Checkpoint(model=fresh, optimizer=fresh_opt, step=fresh_step)
        restored.restore(manager.latest_checkpoint).expect_partial()
        same = all(np.allclose(a, b) for a, b in zip(model.get_weights(), fresh.get_weights()))
        loss = run_epochs(fresh, fresh_opt, fresh_step, x_all, y_all, 1)
        manager2 = tf.train.CheckpointManager(restored, folder, max_to_keep=2)
        manager2.save()
        print(f"result: restored weights equal {same}, resumed at step {int(fresh_step.numpy())}")
        print(f"result: loss after resuming {loss:.5f}; checkpoints kept {len(manager2.checkpoints)}")


if __name__ == "__main__":
    main()
