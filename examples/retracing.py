"""Fit a linear model with a decaying learning rate, in a tf.function that retraces every step.

``train_step`` is already a tf.function, but it takes the step number as a Python int to compute
the learning rate. Every new int is a new trace: the "optimization" makes the program slower.

Run: python examples/retracing.py
"""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import tensorflow as tf

FEATURES = 16
STEPS = 120
BATCH = 64


def make_batch(rng: np.random.Generator, true_w: np.ndarray):
    x = rng.normal(size=(BATCH, FEATURES)).astype("float32")
    y = x @ true_w + 0.01 * rng.normal(size=(BATCH, 1)).astype("float32")
    return tf.constant(x), tf.constant(y)


@tf.function
def train_step(w, b, x, y, step):
    learning_rate = 0.1 * 0.98**step
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
    dw, db = tape.gradient(loss, [w, b])
    w.assign_sub(learning_rate * dw)
    b.assign_sub(learning_rate * db)
    return loss


def main() -> None:
    rng = np.random.default_rng(0)
    true_w = rng.normal(size=(FEATURES, 1)).astype("float32")
    w = tf.Variable(tf.zeros([FEATURES, 1]))
    b = tf.Variable(tf.zeros([1]))
    for step in range(STEPS):
        x, y = make_batch(rng, true_w)
        loss = train_step(w, b, x, y, step)
    error = float(tf.reduce_max(tf.abs(w - true_w)))
    print(f"result: final loss {float(loss):.6f}, max weight error {error:.6f}")


if __name__ == "__main__":
    main()
