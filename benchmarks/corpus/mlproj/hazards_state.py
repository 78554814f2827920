"""Steps with Python side effects: code that works eagerly and quietly changes under tf.function."""

import random
import time

import numpy as np
import tensorflow as tf

LOSSES = []
THRESHOLD = 0.5
CALLS = 0


def step_with_print(x, w):
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
    print(f"loss={loss}")
    return loss


def collect_losses(x, w):
    loss = tf.reduce_mean(tf.square(tf.matmul(x, w)))
    LOSSES.append(loss)
    return loss


def counted_step(x, w):
    global CALLS
    CALLS += 1
    return tf.reduce_sum(tf.nn.relu(tf.matmul(x, w)))


class Model:
    """The seed's example: a method that changes state through a helper."""

    def __init__(self):
        self.mode = "train"
        self.switches = 0
        self.w = tf.Variable(tf.ones([16, 16]) * 0.1)

    def change_state(self):
        self.mode = "eval" if self.mode == "train" else "train"
        self.switches += 1

    def forward(self, x):
        self.change_state()
        y = tf.matmul(x, self.w)
        return tf.nn.relu(y) if self.mode == "train" else tf.nn.sigmoid(y)


class Scaler:
    def __init__(self, factor=1.0):
        self.factor = factor

    def scale(self, x):
        return tf.tanh(x * self.factor) + self.factor


def set_threshold(value):
    global THRESHOLD
    THRESHOLD = value


def apply_threshold(scores):
    return tf.cast(scores > THRESHOLD, tf.float32) * scores


def add_noise(x, scale=0.1):
    return x + random.gauss(0.0, scale)


def timestamped(x):
    now = time.time()
    return x, tf.fill([tf.shape(x)[0]], tf.constant(now, tf.float64))


def jitter(x):
    return x + np.random.normal(0.0, 0.01, size=x.shape).astype("float32")


class Cache:
    def __init__(self):
        self.last_mean = None

    def update(self, x):
        self.last_mean = tf.reduce_mean(x)
        return x - self.last_mean


def accumulate_in_loop(x, n):
    outs = []
    for i in tf.range(n):
        outs.append(x[i] * 2.0)
    return tf.stack(outs)


def mean_as_python(x):
    return x - x.numpy().mean()


def make_batches_iter(x, batch):
    return iter(tf.split(x, batch))


def consume(it):
    return tf.reduce_sum(next(it))
