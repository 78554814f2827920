"""Streaming metrics for the evaluation loop."""

import tensorflow as tf


class RunningMean:
    def __init__(self, name="mean"):
        self.name = name
        self.total = tf.Variable(0.0, trainable=False)
        self.count = tf.Variable(0.0, trainable=False)

    def update(self, values):
        values = tf.cast(values, tf.float32)
        self.total.assign_add(tf.reduce_sum(values))
        self.count.assign_add(tf.cast(tf.size(values), tf.float32))

    def result(self):
        return tf.math.divide_no_nan(self.total, self.count)

    def reset(self):
        self.total.assign(0.0)
        self.count.assign(0.0)


class PythonMean:
    """Keeps the running total as a Python float, for printing."""

    def __init__(self):
        self.total = 0.0
        self.n = 0

    def update(self, batch_losses):
        self.total += float(tf.reduce_mean(batch_losses))
        self.n += 1
        return self.total / self.n


def accuracy(y_true, logits):
    preds = tf.argmax(logits, axis=-1, output_type=tf.int32)
    correct = tf.cast(tf.equal(preds, y_true), tf.float32)
    return tf.reduce_mean(correct)


@tf.function
def top_k_accuracy(y_true, logits, k=5):
    top = tf.math.top_k(logits, k=k).indices
    hits = tf.reduce_any(tf.equal(top, tf.expand_dims(y_true, -1)), axis=-1)
    return tf.reduce_mean(tf.cast(hits, tf.float32))


def confusion_counts(y_true, y_pred, num_classes):
    return tf.math.confusion_matrix(y_true, y_pred, num_classes=num_classes)


@tf.function
def precision_recall(y_true, y_pred):
    y_true = tf.cast(y_true, tf.bool)
    y_pred = tf.cast(y_pred, tf.bool)
    tp = tf.reduce_sum(tf.cast(tf.logical_and(y_true, y_pred), tf.float32))
    fp = tf.reduce_sum(tf.cast(tf.logical_and(tf.logical_not(y_true), y_pred), tf.float32))
    fn = tf.reduce_sum(tf.cast(tf.logical_and(y_true, tf.logical_not(y_pred)), tf.float32))
    precision = tf.math.divide_no_nan(tp, tp + fp)
    recall = tf.math.divide_no_nan(tp, tp + fn)
    return precision, recall


def f1_from_counts(tp, fp, fn):
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


def mean_iou(y_true, y_pred, num_classes):
    cm = tf.cast(tf.math.confusion_matrix(tf.reshape(y_true, [-1]), tf.reshape(y_pred, [-1]), num_classes), tf.float32)
    inter = tf.linalg.diag_part(cm)
    union = tf.reduce_sum(cm, 0) + tf.reduce_sum(cm, 1) - inter
    return tf.reduce_mean(tf.math.divide_no_nan(inter, union))
