"""Drivers for mlproj/hazards_control.py."""

import tensorflow as tf

from corpus.drivers._data import floats, rng
from corpus.index import driver

M = "mlproj/hazards_control.py::"


def _vectors(n, shape=(32,), seed=0, shift=0.0):
    r = rng(seed)
    return [tf.constant(r.normal(size=shape) + shift, tf.float32) for _ in range(n)]


@driver(M + "relu_or_none", "fix-first", ("TF301",))
def _relu_or_none(mod, h):
    for x in _vectors(40):
        h.call(mod.relu_or_none, x)
    return {}


@driver(M + "pick_scale", "fix-first", ("TF302",))
def _pick_scale(mod, h):
    for x in _vectors(40, seed=1, shift=3.0):
        h.call(mod.pick_scale, x)
    return {}


@driver(M + "last_cumsum", "fix-first", ("TF303",))
def _last_cumsum(mod, h):
    for x in _vectors(30, seed=2):
        h.call(mod.last_cumsum, x, tf.constant(8))
    return {}


@driver(M + "both_positive", "fix-first", ("TF304",))
def _both_positive(mod, h):
    xs = _vectors(60, seed=3, shift=1.5)
    for a, b in zip(xs[::2], xs[1::2]):
        h.call(mod.both_positive, a, b)
    return {}


@driver(M + "split_hw", "fix-first", ("TF305",))
def _split_hw(mod, h):
    r = rng(4)
    for _ in range(30):
        h.call(mod.split_hw, tf.constant(r.uniform(size=(16, 16, 3)), tf.float32))
    return {}


@driver(M + "first_negative", "fix-first", ("TF306",))
def _first_negative(mod, h):
    for x in _vectors(40, seed=5, shift=1.0):
        h.call(mod.first_negative, x)
    return {}


@driver(M + "poly_features", "decorate", ("TF307",), note="degree 12: a short unrolled loop")
def _poly(mod, h):
    x = floats((256,), seed=6, low=-1.0, high=1.0)
    for i in range(300):
        h.call(mod.poly_features, x * (1.0 + 0.001 * i), 12)
    return {}


@driver(M + "running_total", "fix-first", ("TF308",))
def _running_total(mod, h):
    for x in _vectors(40, shape=(6,), seed=7):
        h.call(mod.running_total, x)
    return {}


@driver(M + "cast_if_large", "fix-first", ("TF309",))
def _cast_if_large(mod, h):
    for i, x in enumerate(_vectors(40, seed=8)):
        h.call(mod.cast_if_large, x * (200.0 if i % 4 == 0 else 1.0))
    return {}


@driver(M + "safe_log", "decorate", ("TF501",))
def _safe_log(mod, h):
    for i, x in enumerate(_vectors(400, shape=(64,), seed=9, shift=2.0)):
        h.call(mod.safe_log, x)
    return {}


@driver(M + "clipped_update", "decorate", ("TF501",))
def _clipped(mod, h):
    w = floats((64,), seed=10)
    for g in _vectors(400, shape=(64,), seed=11):
        w = h.call(mod.clipped_update, w, g * 3.0, 5.0)
    return {"w": w}


@driver(M + "count_above", "leave-eager", ("TF307",), note="loops over a tensor: a TF while loop")
def _count_above(mod, h):
    for x in _vectors(60, shape=(16,), seed=12):
        h.call(mod.count_above, x, 0.5)
    return {}


@driver(M + "positive_mean", "fix-first", ("TF304",))
def _positive_mean(mod, h):
    r = rng(13)
    for _ in range(40):
        values = [tf.constant(float(v)) for v in r.normal(size=6) + 0.5]
        h.call(mod.positive_mean, values)
    return {}
