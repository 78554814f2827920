"""Functions and calls factories that draw at random, the ways real code does (random_test.py)."""

import numpy as np
import tensorflow as tf


def gram_total(a):
    """Deterministic: the same input gives the same number in every mode. Forty small ops a call,
    a thousand calls: a graph clearly pays, so the speed verdict is not on a knife's edge."""
    x = a
    for _ in range(20):
        x = tf.nn.tanh(tf.matmul(x, a, transpose_b=True))
    return tf.reduce_sum(x)


SIDE = 16
CALLS = 1000


def unseeded_calls():
    """Inputs drawn with no seed anywhere: TensorFlow's and NumPy's global generators."""
    return [((tf.random.normal([SIDE, SIDE]) + float(np.random.rand()),), {}) for _ in range(CALLS)]


def seeded_calls():
    return [((tf.random.stateless_normal([SIDE, SIDE], seed=[i, 7]) + 0.5,), {}) for i in range(CALLS)]


_rng = tf.random.Generator.from_non_deterministic_state()


def jitter_with_generator(images):
    """Data augmentation on a tf.random.Generator (its state advances with every call)."""
    noise = _rng.normal(tf.shape(images), stddev=0.05)
    scale = _rng.uniform([], 0.9, 1.1)
    x = images * scale + noise
    x = tf.image.adjust_brightness(x, 0.01)
    x = tf.clip_by_value(x, 0.0, 1.0)
    return tf.reduce_mean(x, axis=[1, 2]) * 2.0 - 1.0


def jitter_with_stateful_ops(images):
    """The same with stateful random ops: a graph draws other numbers than eager, whatever the seed."""
    noise = tf.random.normal(tf.shape(images), stddev=0.05)
    scale = tf.random.uniform([], 0.9, 1.1)
    x = images * scale + noise
    x = tf.image.adjust_brightness(x, 0.01)
    x = tf.clip_by_value(x, 0.0, 1.0)
    return tf.reduce_mean(x, axis=[1, 2]) * 2.0 - 1.0


def image_calls():
    images = tf.random.stateless_uniform([8, 8, 8, 3], seed=[1, 2])
    return [((images,), {}) for _ in range(300)]


def frozen_numpy_noise(images):
    """A real difference: NumPy's draw is taken once, when tf.function traces, then frozen."""
    return images + float(np.random.normal(0.0, 0.1))
