"""Drivers for mlproj/hazards_tf4.py."""

import tensorflow as tf

from corpus.drivers._data import floats, rng
from corpus.index import driver

M = "mlproj/hazards_tf4.py::"


@driver(M + "scale_by_new_var", "fix-first", ("TF401",))
def _new_var(mod, h):
    for i in range(30):
        h.call(mod.scale_by_new_var, floats((8,), seed=i))
    return {}


@driver(M + "LazyScale.__init__", "leave-eager", ())
def _lazy_init(mod, h):
    s = mod.LazyScale.__new__(mod.LazyScale)
    h.call(s.__init__)
    return {}


@driver(M + "LazyScale.__call__", "decorate", ("TF401",), note="guarded creation: fine")
def _lazy(mod, h):
    s = mod.LazyScale()
    for i in range(400):
        h.call(s, floats((32, 8), seed=i % 10))
    return {"v": s.v}


@driver(M + "safe_normalize", "fix-first", ("TF402",))
def _safe_normalize(mod, h):
    import numpy as np

    for i in range(40):
        x = np.random.default_rng(i).normal(size=(16,)).astype("float32")
        if i % 5 == 0:
            x[3] = np.nan
        h.call(mod.safe_normalize, tf.constant(x))
    return {}


@driver(M + "checked_softmax", "decorate", ("TF403",))
def _checked_softmax(mod, h):
    for i in range(300):
        h.call(mod.checked_softmax, floats((32, 10), seed=i % 7))
    return {}


@driver(M + "checked_divide", "fix-first", ("TF403",))
def _checked_divide(mod, h):
    for i in range(40):
        h.call(mod.checked_divide, floats((8,), seed=i), floats((8,), seed=100 + i, low=0.5, high=2.0))
    return {}


@driver(M + "tree_sum", "leave-eager", ("TF404",))
def _tree_sum(mod, h):
    for depth in (3, 4, 5, 3, 4, 5):
        h.call(mod.tree_sum, floats((8,), seed=depth), depth)
    return {}


@driver(M + "power_recursive", "undecorate", ("TF404",))
def _power(mod, h):
    for n in (2, 3, 4, 5, 2, 3):
        h.call(mod.power_recursive, floats((8,), seed=n), n)
    return {}


@driver(M + "Predictor.__init__", "leave-eager", ())
def _pred_init(mod, h):
    p = mod.Predictor.__new__(mod.Predictor)
    h.call(p.__init__, 16)
    return {}


@driver(M + "Predictor.predict", "fix-first", ("TF407",), note="called on a temporary, as loops.predict_all does")
def _predict_tmp(mod, h):
    for i in range(20):
        h.call(mod.Predictor().predict, floats((4, 16), seed=i))
    return {}


@driver(M + "Normalizer.__init__", "leave-eager", ())
def _norm_init(mod, h):
    n = mod.Normalizer.__new__(mod.Normalizer)
    h.call(n.__init__)
    return {}


@driver(M + "Normalizer.adapt_and_apply", "fix-first", ("TF401",))
def _adapt(mod, h):
    n = mod.Normalizer()
    for i in range(20):
        h.call(n.adapt_and_apply, floats((32, 4), seed=i))
    return {}
