"""Drivers for mlproj/losses.py: validation loops call the losses per batch."""

import tensorflow as tf

from corpus.drivers._data import floats, rng
from corpus.index import driver

M = "mlproj/losses.py::"


def _binary(n, batch=64, dim=10, seed=0):
    r = rng(seed)
    return [
        (tf.constant(r.integers(0, 2, size=(batch, dim)), tf.float32), tf.constant(r.normal(size=(batch, dim)), tf.float32))
        for _ in range(n)
    ]


@driver(M + "focal_loss", "decorate", ("TF501",))
def _focal(mod, h):
    for y, logits in _binary(600):
        h.call(mod.focal_loss, y, logits)
    return {}


@driver(M + "dice_loss", "leave-eager", ("TF602",), note="final evaluation only: five calls")
def _dice(mod, h):
    for i in range(5):
        y = floats((4, 32, 32), seed=i, low=0.0, high=1.0)
        p = floats((4, 32, 32), seed=100 + i, low=0.0, high=1.0)
        h.call(mod.dice_loss, tf.round(y), p)
    return {}


@driver(M + "smooth_l1", "decorate", ("TF501",))
def _smooth_l1(mod, h):
    for y, p in _binary(500, seed=1):
        h.call(mod.smooth_l1, y, p, 1.0)
    return {}


@driver(M + "contrastive_loss", "decorate", ("TF501",))
def _contrastive(mod, h):
    r = rng(2)
    for _ in range(400):
        a = tf.constant(r.normal(size=(32, 16)), tf.float32)
        b = tf.constant(r.normal(size=(32, 16)), tf.float32)
        same = tf.constant(r.integers(0, 2, size=(32,)), tf.float32)
        h.call(mod.contrastive_loss, a, b, same, 1.0)
    return {}


@driver(M + "label_smoothing_ce", "keep", ("TF501",))
def _label_smoothing(mod, h):
    r = rng(3)
    for _ in range(400):
        labels = tf.constant(r.integers(0, 10, size=(32,)), tf.int32)
        logits = tf.constant(r.normal(size=(32, 10)), tf.float32)
        h.call(mod.label_smoothing_ce, labels, logits)
    return {}


@driver(M + "weighted_bce", "decorate", ("TF101",), note="pos_weight is recomputed per batch as a Python float")
def _weighted_bce(mod, h):
    for y, logits in _binary(300, seed=4):
        pos = float(tf.reduce_mean(y))
        h.call(mod.weighted_bce, y, logits, (1.0 - pos) / max(pos, 1e-3))
    return {}


@driver(M + "total_loss", "decorate", ("TF501",))
def _total(mod, h):
    r = rng(5)
    weights = [tf.constant(r.normal(size=s), tf.float32) for s in [(20, 32), (32,), (32, 10), (10,)]]
    for _ in range(400):
        logits = tf.constant(r.normal(size=(32, 10)), tf.float32)
        labels = tf.constant(r.integers(0, 10, size=(32,)), tf.int32)
        h.call(mod.total_loss, logits, labels, weights)
    return {}


@driver(M + "huber_per_sequence", "reconfigure", ("TF104",), note="variable-length sequences: one trace per length")
def _huber(mod, h):
    r = rng(6)
    for i in range(120):
        length = 10 + (i * 7) % 60
        y = tf.constant(r.normal(size=(8, length)), tf.float32)
        p = tf.constant(r.normal(size=(8, length)), tf.float32)
        h.call(mod.huber_per_sequence, y, p)
    return {}
