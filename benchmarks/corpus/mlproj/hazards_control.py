"""Data-dependent control flow written in plain Python."""

import tensorflow as tf


def relu_or_none(x):
    if tf.reduce_sum(x) > 0:
        return tf.nn.relu(x)


def pick_scale(x):
    if tf.reduce_mean(x) > 0:
        scale = 2.0
    return x * scale


def last_cumsum(x, n):
    for i in tf.range(n):
        last = tf.reduce_sum(x[: i + 1])
    return last


def both_positive(a, b):
    return bool(tf.reduce_all(a > 0)) and bool(tf.reduce_all(b > 0))


def split_hw(image):
    h, w, c = tf.shape(image)
    return tf.image.resize(image, (h // 2, w // 2))


def first_negative(x):
    for i in range(8):
        if x[i] < 0:
            return i
    return -1


def poly_features(x, degree):
    feats = [tf.ones_like(x)]
    for d in range(1, degree + 1):
        feats.append(feats[-1] * x)
    return tf.stack(feats, axis=-1)


def running_total(x):
    total = 0
    for v in x:
        total = total + v
    return total


def cast_if_large(x):
    if tf.reduce_max(x) > 100.0:
        y = tf.cast(x, tf.int32)
    else:
        y = x
    return y


def safe_log(x):
    if tf.reduce_min(x) > 0:
        return tf.math.log(x)
    else:
        return tf.math.log(tf.maximum(x, 1e-6))


def clipped_update(w, grad, max_norm):
    norm = tf.norm(grad)
    if norm > max_norm:
        grad = grad * (max_norm / norm)
    return w - 0.1 * grad


def count_above(x, threshold):
    count = tf.constant(0)
    for v in x:
        if v > threshold:
            count += 1
    return count


def positive_mean(values):
    kept = [v for v in values if v > 0]
    return tf.add_n(kept) / len(kept)
