"""Custom Keras layers."""

import keras
import numpy as np
import tensorflow as tf


class Dense2(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.units = units

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="glorot_uniform")
        self.b = self.add_weight(shape=(self.units,), initializer="zeros")

    def call(self, x):
        return tf.nn.relu(tf.matmul(x, self.w) + self.b)


class ResidualBlock(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.fc1 = keras.layers.Dense(units, activation="relu")
        self.fc2 = keras.layers.Dense(units)

    @tf.function
    def call(self, x):
        return tf.nn.relu(x + self.fc2(self.fc1(x)))


class PositionalEncoding(keras.layers.Layer):
    def call(self, x):
        length, dim = x.shape[1], x.shape[2]
        pos = np.arange(length)[:, None]
        i = np.arange(dim)[None, :]
        angle = pos / np.power(10000.0, (2 * (i // 2)) / dim)
        enc = np.where(i % 2 == 0, np.sin(angle), np.cos(angle)).astype("float32")
        return x + enc[None]


class CountingLayer(keras.layers.Layer):
    """Counts how many batches went through, for the progress bar."""

    def __init__(self):
        super().__init__()
        self.batches_seen = 0

    def call(self, x):
        self.batches_seen += 1
        return tf.nn.l2_normalize(x, axis=-1) * 2.0 + tf.reduce_mean(x)


class NoisyDense(keras.layers.Layer):
    def __init__(self, units, stddev=0.1):
        super().__init__()
        self.dense = keras.layers.Dense(units)
        self.stddev = stddev

    def call(self, x):
        noise = np.random.normal(0.0, self.stddev, size=x.shape).astype("float32")
        return self.dense(x + noise)


class Attention(keras.layers.Layer):
    def call(self, q, k, v, mask=None):
        scores = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
        if mask is not None:
            scores += (1.0 - mask) * -1e9
        weights = tf.nn.softmax(scores, axis=-1)
        return tf.matmul(weights, v)


class GatedLinear(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.proj = keras.layers.Dense(2 * units)

    def call(self, x):
        a, b = tf.split(self.proj(x), 2, axis=-1)
        return a * tf.sigmoid(b)


def layer_norm(x, eps=1e-6):
    mean, var = tf.nn.moments(x, axes=[-1], keepdims=True)
    return (x - mean) * tf.math.rsqrt(var + eps)


def feed_forward(x, w1, b1, w2, b2):
    h = tf.nn.gelu(tf.matmul(x, w1) + b1)
    h = layer_norm(h)
    return tf.matmul(h, w2) + b2
