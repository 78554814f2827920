"""Deterministic inputs for drivers: the same values in every mode (a local RNG, never the global one)."""

from __future__ import annotations

import numpy as np
import tensorflow as tf


def rng(seed: int = 0) -> np.random.Generator:
    return np.random.default_rng(seed)


def batches(n: int, batch: int = 32, dim: int = 20, classes: int = 10, seed: int = 0):
    """``n`` (x, y) classification batches."""
    r = rng(seed)
    return [
        (
            tf.constant(r.normal(size=(batch, dim)), tf.float32),
            tf.constant(r.integers(0, classes, size=(batch,)), tf.int32),
        )
        for _ in range(n)
    ]


def floats(shape, seed: int = 0, low: float | None = None, high: float | None = None) -> tf.Tensor:
    r = rng(seed)
    if low is not None:
        return tf.constant(r.uniform(low, high, size=shape), tf.float32)
    return tf.constant(r.normal(size=shape), tf.float32)


def images(n: int, batch: int = 8, size: int = 16, seed: int = 0):
    r = rng(seed)
    return [tf.constant(r.integers(0, 256, size=(batch, size, size, 3)), tf.uint8) for _ in range(n)]


def weights(model) -> list:
    return [w.numpy() for w in model.weights]
