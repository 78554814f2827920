"""Drivers for mlproj/metrics.py: per-batch updates over an evaluation epoch."""

import tensorflow as tf

from corpus.drivers._data import rng
from corpus.index import driver

M = "mlproj/metrics.py::"


def _logits(n, seed=0, batch=64, classes=10):
    r = rng(seed)
    return [
        (tf.constant(r.integers(0, classes, size=(batch,)), tf.int32), tf.constant(r.normal(size=(batch, classes)), tf.float32))
        for _ in range(n)
    ]


@driver(M + "RunningMean.__init__", "leave-eager", ("TF504",))
def _rm_init(mod, h):
    metrics = []
    for name in ("loss", "acc"):
        m = mod.RunningMean.__new__(mod.RunningMean)
        h.call(m.__init__, name)
        metrics.append(m)
    return {"totals": [m.total for m in metrics]}


@driver(M + "RunningMean.update", "decorate", ("TF501",))
def _rm_update(mod, h):
    m = mod.RunningMean()
    r = rng(1)
    for _ in range(1000):
        h.call(m.update, tf.constant(r.normal(size=(64,)), tf.float32))
    return {"total": m.total, "count": m.count}


@driver(M + "RunningMean.result", "leave-eager", ("TF602",))
def _rm_result(mod, h):
    m = mod.RunningMean()
    for epoch in range(3):
        m.update(tf.range(10.0) * (epoch + 1))
        h.call(m.result)
    return {}


@driver(M + "RunningMean.reset", "leave-eager", ("TF602",))
def _rm_reset(mod, h):
    m = mod.RunningMean()
    for epoch in range(3):
        m.update(tf.range(5.0))
        h.call(m.reset)
    return {"total": m.total}


@driver(M + "PythonMean.__init__", "leave-eager", ())
def _pm_init(mod, h):
    m = mod.PythonMean.__new__(mod.PythonMean)
    h.call(m.__init__)
    return {"total": m.total}


@driver(M + "PythonMean.update", "fix-first", ("TF206",))
def _pm_update(mod, h):
    m = mod.PythonMean()
    r = rng(2)
    for _ in range(200):
        h.call(m.update, tf.constant(r.uniform(size=(32,)), tf.float32))
    return {"total": m.total, "n": m.n}


@driver(M + "accuracy", "decorate", ("TF501",))
def _accuracy(mod, h):
    for y, logits in _logits(500, seed=3):
        h.call(mod.accuracy, y, logits)
    return {}


@driver(M + "top_k_accuracy", "keep", ("TF501",))
def _topk(mod, h):
    for y, logits in _logits(500, seed=4):
        h.call(mod.top_k_accuracy, y, logits, 5)
    return {}


@driver(M + "confusion_counts", "leave-eager", ("TF602",), note="once per epoch")
def _confusion(mod, h):
    r = rng(5)
    for _ in range(3):
        y = tf.constant(r.integers(0, 10, size=(1000,)), tf.int32)
        p = tf.constant(r.integers(0, 10, size=(1000,)), tf.int32)
        h.call(mod.confusion_counts, y, p, 10)
    return {}


@driver(M + "precision_recall", "keep", ("TF501",))
def _pr(mod, h):
    r = rng(6)
    for _ in range(500):
        y = tf.constant(r.integers(0, 2, size=(128,)), tf.int32)
        p = tf.constant(r.integers(0, 2, size=(128,)), tf.int32)
        h.call(mod.precision_recall, y, p)
    return {}


@driver(M + "f1_from_counts", "leave-eager", ("TF502",))
def _f1(mod, h):
    for tp, fp, fn in [(10, 2, 3), (0, 0, 0), (5, 5, 5), (100, 1, 7)]:
        h.call(mod.f1_from_counts, tp, fp, fn)
    return {}


@driver(M + "mean_iou", "leave-eager", ("TF602",), note="once per validation run")
def _miou(mod, h):
    r = rng(7)
    for _ in range(4):
        y = tf.constant(r.integers(0, 4, size=(4, 32, 32)), tf.int32)
        p = tf.constant(r.integers(0, 4, size=(4, 32, 32)), tf.int32)
        h.call(mod.mean_iou, y, p, 4)
    return {}
