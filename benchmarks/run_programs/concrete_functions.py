"""Normalise feature batches with tf.functions whose graphs the program asks for by name.

``standardize`` is traced for a spec with ``get_concrete_function`` and the concrete function is
called directly; ``describe`` prints ``pretty_printed_concrete_signatures``. Both need their
tf.function whatever they cost per call. ``smooth`` is an eager hot loop helper.

Run: python concrete_functions.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

FEATURES = 6
BATCHES = 120


@tf.function
def standardize(x):
    mean = tf.reduce_mean(x, axis=0)
    std = tf.math.reduce_std(x, axis=0) + 1e-6
    return (x - mean) / std


@tf.function(input_signature=[tf.TensorSpec([None, FEATURES], tf.float32)])
def describe(x):
    return tf.reduce_min(x), tf.reduce_max(x)


def smooth(x, alpha):
    out = x
    for _ in range(6):
        out = alpha * out + (1.0 - alpha) * tf.roll(out, shift=1, axis=0)
    return tf.reduce_sum(tf.tanh(out), axis=1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    epochs = parser.parse_args().epochs
    rng = np.random.default_rng(3)
    data = rng.normal(2.0, 3.0, size=(BATCHES, 16, FEATURES)).astype("float32")
    concrete = standardize.get_concrete_function(tf.TensorSpec([16, FEATURES], tf.float32))
    print(describe.pretty_printed_concrete_signatures())
    total = 0.0
    for _ in range(epochs):
        for batch in data:
            z = concrete(tf.constant(batch))
            total += float(tf.reduce_sum(smooth(z, 0.7)))
    low, high = describe(tf.constant(data[0]))
    print(f"result: total {total:.4f}")
    print(f"result: range {float(low):.4f} {float(high):.4f}")
    print("result: traces", standardize.experimental_get_tracing_count(), describe.experimental_get_tracing_count())


if __name__ == "__main__":
    main()
