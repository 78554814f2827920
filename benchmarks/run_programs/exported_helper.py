"""A small tf.function with an input signature, exported with ``signatures=``, and called in a loop.

``scale_and_clip`` is cheap: per call, eager might even be as fast. It is still exported as the
SavedModel's serving signature, so its decorator must stay. ``featurize`` is an eager hot helper.

Run: python exported_helper.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

FEATURES = 4
BATCHES = 150


@tf.function(input_signature=[tf.TensorSpec([None, FEATURES], tf.float32)])
def scale_and_clip(x):
    return tf.clip_by_value(x * 0.5, -1.0, 1.0)


def featurize(x):
    parts = [x, tf.square(x), tf.sin(x), tf.cos(x), tf.tanh(x), tf.exp(-tf.abs(x))]
    out = tf.concat(parts, axis=1)
    out = out - tf.reduce_mean(out, axis=0)
    return out / (tf.math.reduce_std(out, axis=0) + 1e-6)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    epochs = parser.parse_args().epochs
    rng = np.random.default_rng(9)
    data = rng.normal(size=(BATCHES, 16, FEATURES)).astype("float32")
    total = 0.0
    for _ in range(epochs):
        for batch in data:
            total += float(tf.reduce_sum(tf.abs(featurize(scale_and_clip(tf.constant(batch))))))
    module = tf.Module()
    module.scale_and_clip = scale_and_clip
    with tempfile.TemporaryDirectory() as folder:
        tf.saved_model.save(module, folder, signatures=scale_and_clip)
        loaded = tf.saved_model.load(folder)
        served = loaded.signatures["serving_default"](tf.constant(data[0]))
        direct = loaded.scale_and_clip(tf.constant(data[0]))
    key = sorted(served)[0]
    print(f"result: mean total {total / (epochs * BATCHES):.3f}")
    print("result: served", key, float(tf.reduce_sum(served[key])), float(tf.reduce_sum(direct)))


if __name__ == "__main__":
    main()
