"""Variables, exceptions, assertions and recursion."""

import tensorflow as tf


def scale_by_new_var(x):
    v = tf.Variable(2.0)
    return x * v


class LazyScale:
    def __init__(self):
        self.v = None

    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(tf.ones([x.shape[-1]]))
        return x * self.v + tf.reduce_mean(x)


def safe_normalize(x):
    try:
        x = tf.debugging.check_numerics(x, "bad input")
    except tf.errors.InvalidArgumentError:
        x = tf.where(tf.math.is_finite(x), x, tf.zeros_like(x))
    return x / (tf.norm(x) + 1e-6)


def checked_softmax(logits):
    assert logits.shape.rank == 2, "expected a batch of logit vectors"
    probs = tf.nn.softmax(logits)
    return probs, tf.reduce_max(probs, axis=-1)


def checked_divide(a, b):
    assert tf.reduce_all(b != 0), f"division by zero in {a.shape}"
    return a / b


def tree_sum(x, depth):
    if depth == 0:
        return x
    return tree_sum(x * 0.5, depth - 1) + tree_sum(x * 0.25, depth - 1)


@tf.function
def power_recursive(x, n):
    if n == 0:
        return tf.ones_like(x)
    return x * power_recursive(x, n - 1)


class Predictor:
    def __init__(self, dim=16):
        self.w = tf.Variable(tf.eye(dim) * 0.5)

    def predict(self, x):
        return tf.nn.softmax(tf.matmul(x, self.w))


class Normalizer:
    def __init__(self):
        self.mean = None

    def adapt_and_apply(self, x):
        self.mean = tf.Variable(tf.reduce_mean(x, axis=0))
        return x - self.mean
