"""A tf.function that announces its traces with print (on purpose), in a loop with a hot helper.

``encode`` prints "tracing encode ..." once per trace: that is what the author wants to see, and
``check`` agrees. ``score`` is an eager helper called per batch.

Run: python trace_print.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

DIM = 16
BATCHES = 100


@tf.function
def encode(x, w):
    print("tracing encode for", x.shape)
    h = tf.tanh(tf.matmul(x, w))
    for _ in range(4):
        h = tf.tanh(tf.matmul(h, w) + h)
    return h


def score(h, target):
    diff = h - target
    total = tf.reduce_sum(tf.square(diff), axis=1)
    total = tf.sqrt(total + 1e-6) * 0.5 + tf.reduce_mean(tf.abs(diff), axis=1)
    return tf.reduce_mean(tf.math.log1p(total))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    epochs = parser.parse_args().epochs
    rng = np.random.default_rng(8)
    w = tf.constant(rng.normal(size=(DIM, DIM)).astype("float32") * 0.2)
    data = rng.normal(size=(BATCHES, 8, DIM)).astype("float32")
    target = tf.constant(rng.normal(size=(8, DIM)).astype("float32"))
    total = 0.0
    for _ in range(epochs):
        for batch in data:
            total += float(score(encode(tf.constant(batch), w), target))
    print(f"result: total score {total:.4f}")


if __name__ == "__main__":
    main()
