"""Train a tiny regression module eagerly, then export it as a SavedModel and serve the reload.

The module's ``__call__`` is a tf.function with an ``input_signature``: it is what SavedModel
exports (its graph is the model's contract), so it must stay a tf.function whatever a
measurement says. The hand-written ``train_step`` is plain eager code called for every batch:
the hot step.

Run: python export_module.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

FEATURES = 8
BATCH = 32
BATCHES = 80


class Regressor(tf.Module):
    def __init__(self) -> None:
        super().__init__()
        init = tf.random.stateless_normal
        self.w1 = tf.Variable(init((FEATURES, 16), seed=[1, 1]) * 0.3, name="w1")
        self.b1 = tf.Variable(tf.zeros([16]), name="b1")
        self.w2 = tf.Variable(init((16, 1), seed=[1, 2]) * 0.3, name="w2")
        self.b2 = tf.Variable(tf.zeros([1]), name="b2")

    @tf.function(input_signature=[tf.TensorSpec([None, FEATURES], tf.float32)])
    def __call__(self, x):
        hidden = tf.nn.relu(tf.matmul(x, self.w1) + self.b1)
        return tf.matmul(hidden, self.w2) + self.b2


def train_step(model, x, y, learning_rate):
    with tf.GradientTape() as tape:
        pred = tf.nn.relu(tf.matmul(x, model.w1) + model.b1) @ model.w2 + model.b2
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, model.trainable_variables)
    for var, grad in zip(model.trainable_variables, grads):
        var.assign_sub(learning_rate * grad)
    return loss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    epochs = parser.parse_args().epochs
    rng = np.random.default_rng(0)
    x_all = rng.normal(size=(BATCH * BATCHES, FEATURES)).astype("float32")
    y_all = (np.sin(x_all[:, :1]) + 0.1 * x_all[:, 1:2]).astype("float32")
    model = Regressor()
    for epoch in range(epochs):
        total = 0.0
        for i in range(BATCHES):
            xb = tf.constant(x_all[i * BATCH:(i + 1) * BATCH])
            yb = tf.constant(y_all[i * BATCH:(i + 1) * BATCH])
            total += float(train_step(model, xb, yb, tf.constant(0.05)))
        print(f"epoch {epoch + 1}: loss {total / BATCHES:.5f}")
    probe = tf.constant(x_all[:4])
    before = model(probe).numpy()
    with tempfile.TemporaryDirectory() as folder:
        tf.saved_model.save(model, folder)
        served = tf.saved_model.load(folder)
        after = served(probe).numpy()
        signature = served.signatures["serving_default"]
        outputs = signature(x=probe)
    print("result: exported prediction", np.round(after[:, 0], 5).tolist())
    print("result: same as before export", bool(np.allclose(before, after)))
    print("result: serving outputs", sorted(outputs))


if __name__ == "__main__":
    main()
