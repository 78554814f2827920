"""An eager train step that takes the epoch as a Python int (for a warm-up schedule).

Decorated as it is, every new epoch value would trace again; ``run`` measures the step passed
the epoch as a tensor, and ``fix --from`` applies that at the call site as well as the decorator.

Run: python epoch_argument.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

FEATURES = 12
BATCH = 32
BATCHES = 80


def train_step(w, b, x, y, epoch):
    warmup = tf.minimum(1.0, (tf.cast(epoch, tf.float32) + 1.0) / 3.0)
    with tf.GradientTape() as tape:
        pred = tf.sigmoid(tf.matmul(x, w) + b)
        loss = tf.reduce_mean(tf.keras.losses.binary_crossentropy(y, pred))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(0.5 * warmup * dw)
    b.assign_sub(0.5 * warmup * db)
    return loss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    epochs = parser.parse_args().epochs
    rng = np.random.default_rng(10)
    x_all = rng.normal(size=(BATCH * BATCHES, FEATURES)).astype("float32")
    y_all = (x_all[:, :1] + x_all[:, 1:2] > 0).astype("float32")
    w = tf.Variable(tf.zeros([FEATURES, 1]))
    b = tf.Variable(tf.zeros([1]))
    for epoch in range(epochs):
        total = 0.0
        for i in range(BATCHES):
            total += float(train_step(w, b, tf.constant(x_all[i * BATCH:(i + 1) * BATCH]),
                                      tf.constant(y_all[i * BATCH:(i + 1) * BATCH]), epoch))
        print(f"epoch {epoch + 1}: loss {total / BATCHES:.5f}")
    print(f"result: final loss {total / BATCHES:.5f}")


if __name__ == "__main__":
    main()
