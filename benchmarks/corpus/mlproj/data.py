"""Input pipelines and Python-side batching."""

import numpy as np
import tensorflow as tf


def make_dataset(x, y, batch_size=32, shuffle=True):
    ds = tf.data.Dataset.from_tensor_slices((x, y))
    if shuffle:
        ds = ds.shuffle(1024, seed=0)
    return ds.batch(batch_size).prefetch(2)


def batch_generator(x, y, batch_size):
    n = x.shape[0]
    for start in range(0, n, batch_size):
        yield x[start : start + batch_size], y[start : start + batch_size]


def next_batch(iterator):
    x, y = next(iterator)
    return tf.cast(x, tf.float32) / 255.0, y


def shuffle_indices(n, seed=0):
    return np.random.default_rng(seed).permutation(n)


def window_sequences(series, window, stride=1):
    frames = tf.signal.frame(series, window, stride, axis=0)
    inputs = frames[:, :-1]
    targets = frames[:, -1]
    return inputs, targets


@tf.function
def parse_example(serialized):
    features = {
        "x": tf.io.FixedLenFeature([8], tf.float32),
        "y": tf.io.FixedLenFeature([], tf.int64),
    }
    ex = tf.io.parse_single_example(serialized, features)
    return ex["x"] * 2.0 - 1.0, tf.cast(ex["y"], tf.int32)


def split_features(batch, numeric_keys, categorical_keys):
    numeric = tf.stack([tf.cast(batch[k], tf.float32) for k in numeric_keys], axis=-1)
    categorical = {k: batch[k] for k in categorical_keys}
    return numeric, categorical
