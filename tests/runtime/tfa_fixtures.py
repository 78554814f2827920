"""Real TensorFlow functions for the runtime tests, importable by name in the child process.

Each one shows one behaviour the profiler must measure: a graph speed-up, no speed-up, a retrace
storm, a Python side effect that graph mode loses, a variable created per call, a Keras step.
"""

from __future__ import annotations

import os

import tensorflow as tf


def many_small_ops(x):
    """100 tiny element-wise ops: Python dispatch dominates, graph mode wins by several times."""
    for _ in range(25):
        x = tf.sin(x) * 0.5 + tf.cos(x) * 0.5
        x = x + 0.01
    return x


def many_small_ops_calls():
    return [((tf.fill([8], float(i)),), {}) for i in range(4)]


def big_matmul(a, b):
    """One large matmul: the op dominates, graph mode gains next to nothing."""
    return tf.matmul(a, b)


def big_matmul_calls():
    a = tf.random.stateless_normal([1024, 1024], seed=[1, 2])
    return [((a, a), {}) for _ in range(3)]


def scaled(x, step):
    """A Python int argument: each new value traces a new graph."""
    return x * tf.cast(step, x.dtype) + 1.0


def scaled_calls():
    x = tf.ones([4])
    return [((x, step), {}) for step in range(6)]


log = []


def appends(x):
    """A Python list append: runs once per trace under tf.function, once per call eagerly."""
    log.append(x)
    return x * 2.0


def appends_calls():
    return [((tf.constant(float(i)),), {}) for i in range(5)]


def makes_variable(x):
    """A tf.Variable per call: fine eagerly, a ValueError under tf.function."""
    v = tf.Variable(1.0)
    return x * v


def raises_eagerly(x):
    return x / 0 + {}["missing"]


def hangs(x):
    import time

    time.sleep(3600)
    return x


def dies(x):
    os._exit(3)


def eats_memory(x):
    import numpy as np

    return np.ones((1 << 40,), dtype=np.uint8)


def one_call():
    return [((tf.constant(1.0),), {})]


class Trainer:
    """A Keras model trained with GradientTape and an optimizer, variables created on first use."""

    def __init__(self) -> None:
        import keras

        keras.utils.set_random_seed(0)
        self.model = keras.Sequential([keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
        self.optimizer = keras.optimizers.SGD(0.01)
        self.model.build((None, 8))

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x, training=True) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss


def train_calls():
    x = tf.random.stateless_normal([32, 8], seed=[3, 4])
    y = tf.reduce_sum(x, axis=1, keepdims=True)
    return [((x, y), {}) for _ in range(5)]


def dies_when_traced(x):
    """Fine eagerly; kills its process while tf.function traces it (a native crash in a graph op)."""
    if not tf.executing_eagerly():
        os._exit(4)
    return x + 1.0
