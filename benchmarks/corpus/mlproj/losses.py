"""Losses used by the training and evaluation loops."""

import tensorflow as tf


def focal_loss(y_true, logits, gamma=2.0, alpha=0.25):
    probs = tf.nn.sigmoid(logits)
    ce = tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=logits)
    p_t = y_true * probs + (1.0 - y_true) * (1.0 - probs)
    alpha_t = y_true * alpha + (1.0 - y_true) * (1.0 - alpha)
    modulating = tf.pow(1.0 - p_t, gamma)
    loss = alpha_t * modulating * ce
    return tf.reduce_mean(tf.reduce_sum(loss, axis=-1))


def dice_loss(y_true, y_pred, smooth=1.0):
    inter = tf.reduce_sum(y_true * y_pred, axis=[1, 2])
    union = tf.reduce_sum(y_true, axis=[1, 2]) + tf.reduce_sum(y_pred, axis=[1, 2])
    return 1.0 - tf.reduce_mean((2.0 * inter + smooth) / (union + smooth))


def smooth_l1(y_true, y_pred, delta=1.0):
    if delta <= 0:
        raise ValueError("delta must be positive")
    diff = tf.abs(y_true - y_pred)
    quadratic = tf.minimum(diff, delta)
    linear = diff - quadratic
    return tf.reduce_mean(0.5 * quadratic**2 / delta + linear)


def contrastive_loss(a, b, same, margin=1.0):
    assert margin > 0, "margin must be positive"
    dist = tf.sqrt(tf.reduce_sum(tf.square(a - b), axis=-1) + 1e-9)
    pos = same * tf.square(dist)
    neg = (1.0 - same) * tf.square(tf.maximum(margin - dist, 0.0))
    return tf.reduce_mean(pos + neg) / 2.0


@tf.function
def label_smoothing_ce(labels, logits, smoothing=0.1):
    num_classes = tf.cast(tf.shape(logits)[-1], tf.float32)
    onehot = tf.one_hot(labels, tf.shape(logits)[-1])
    soft = onehot * (1.0 - smoothing) + smoothing / num_classes
    return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=soft, logits=logits))


def weighted_bce(y_true, logits, pos_weight):
    loss = tf.nn.weighted_cross_entropy_with_logits(labels=y_true, logits=logits, pos_weight=pos_weight)
    per_example = tf.reduce_mean(loss, axis=-1)
    return tf.reduce_mean(per_example) + 0.0 * tf.reduce_max(per_example)


def total_loss(logits, labels, weights, l2=1e-4):
    ce = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    reg = tf.add_n([tf.reduce_sum(tf.square(w)) for w in weights])
    return ce + l2 * reg


@tf.function
def huber_per_sequence(y_true, y_pred):
    err = y_true - y_pred
    abs_err = tf.abs(err)
    quad = tf.minimum(abs_err, 1.0)
    per_step = 0.5 * quad**2 + (abs_err - quad)
    return tf.reduce_mean(per_step, axis=-1)
