"""Preprocess a stream of synthetic image batches and collect per-class statistics.

``preprocess`` keeps Python-side bookkeeping (a batch counter, a list of batch sizes, a progress
print): correct in eager mode, silently wrong under tf.function, where those lines run only
while tracing. ``standardize`` and ``augment`` are pure tensor code.

Run: python examples/preprocessing.py
"""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import tensorflow as tf

IMAGE = (8, 8, 3)
CLASSES = 10
BATCH = 32
BATCHES = 1500

batch_sizes: list[int] = []  # one entry per preprocessed batch, for the summary
counters = {"batches": 0}


def standardize(images):
    """Per-image zero mean and unit variance, clipped to 3 standard deviations."""
    mean = tf.reduce_mean(images, axis=[1, 2, 3], keepdims=True)
    std = tf.math.reduce_std(images, axis=[1, 2, 3], keepdims=True)
    return tf.clip_by_value((images - mean) / (std + 1e-6), -3.0, 3.0)


def augment(images, seed):
    """Random flips and brightness, reproducible from a [2] integer seed tensor."""
    images = tf.image.stateless_random_flip_left_right(images, seed=seed)
    images = tf.image.stateless_random_flip_up_down(images, seed=seed + 1)
    return tf.image.stateless_random_brightness(images, 0.2, seed=seed + 2)


def preprocess(images, labels, seed):
    counters["batches"] += 1
    batch_sizes.append(int(images.shape[0]))
    if counters["batches"] % 500 == 0:
        print(f"preprocessed {counters['batches']} batches")
    images = augment(standardize(images), seed)
    return images, tf.one_hot(labels, CLASSES)


def accumulate(sums, counts, images, onehot):
    """Add this batch's per-class sums of mean pixel values."""
    features = tf.reduce_mean(images, axis=[1, 2])  # [batch, channels]
    return sums + tf.matmul(onehot, features, transpose_a=True), counts + tf.reduce_sum(onehot, 0)


def main() -> None:
    rng = np.random.default_rng(0)
    sums = tf.zeros([CLASSES, IMAGE[2]])
    counts = tf.zeros([CLASSES])
    for i in range(BATCHES):
        labels = rng.integers(0, CLASSES, size=BATCH).astype("int32")
        images = rng.normal(loc=labels[:, None, None, None] * 0.1, size=(BATCH, *IMAGE))
        images, onehot = preprocess(
            tf.constant(images, tf.float32), tf.constant(labels), tf.constant([i, 7], tf.int32)
        )
        sums, counts = accumulate(sums, counts, images, onehot)
    means = (sums / counts[:, None]).numpy()
    print(
        f"result: {len(batch_sizes)} batches, {sum(batch_sizes)} images, "
        f"class-mean checksum {float(np.abs(means).sum()):.6f}"
    )


if __name__ == "__main__":
    main()
