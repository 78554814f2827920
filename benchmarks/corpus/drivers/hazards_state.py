"""Drivers for mlproj/hazards_state.py: steps called in loops, state read back afterwards."""

import numpy as np
import tensorflow as tf

from corpus.drivers._data import floats, rng
from corpus.index import driver

M = "mlproj/hazards_state.py::"


def _xw(n, seed=0):
    r = rng(seed)
    w = tf.constant(r.normal(size=(16, 16)) * 0.1, tf.float32)
    return [(tf.constant(r.normal(size=(32, 16)), tf.float32), w) for _ in range(n)]


@driver(M + "step_with_print", "fix-first", ("TF201",))
def _print(mod, h):
    for x, w in _xw(50):
        h.call(mod.step_with_print, x, w)
    return {}


@driver(M + "collect_losses", "fix-first", ("TF202", "TF204"))
def _collect(mod, h):
    for x, w in _xw(50, seed=1):
        h.call(mod.collect_losses, x, w)
    return {"n_losses": len(mod.LOSSES)}


@driver(M + "counted_step", "fix-first", ("TF202",))
def _counted(mod, h):
    for x, w in _xw(50, seed=2):
        h.call(mod.counted_step, x, w)
    return {"calls": mod.CALLS}


@driver(M + "Model.__init__", "leave-eager", ())
def _model_init(mod, h):
    m = mod.Model.__new__(mod.Model)
    h.call(m.__init__)
    return {"mode": m.mode}


@driver(M + "Model.change_state", "leave-eager", ("TF202",))
def _change_state(mod, h):
    m = mod.Model()
    for _ in range(7):
        h.call(m.change_state)
    return {"mode": m.mode, "switches": m.switches}


@driver(M + "Model.forward", "fix-first", ("TF203",), note="the seed's self.change_state() example")
def _forward(mod, h):
    m = mod.Model()
    for x, _ in _xw(40, seed=3):
        h.call(m.forward, x)
    return {"mode": m.mode, "switches": m.switches}


@driver(M + "Scaler.__init__", "leave-eager", ())
def _scaler_init(mod, h):
    s = mod.Scaler.__new__(mod.Scaler)
    h.call(s.__init__, 2.0)
    return {"factor": s.factor}


@driver(M + "Scaler.scale", "fix-first", ("TF106",), note="factor annealed by the training loop")
def _scale(mod, h):
    s = mod.Scaler(1.0)
    x = floats((64, 16), seed=4)
    for epoch in range(4):
        for _ in range(15):
            h.call(s.scale, x)
        s.factor *= 0.5
    return {}


@driver(M + "set_threshold", "leave-eager", ("TF105",))
def _set_threshold(mod, h):
    for v in (0.1, 0.2, 0.3):
        h.call(mod.set_threshold, v)
    return {"threshold": mod.THRESHOLD}


@driver(M + "apply_threshold", "fix-first", ("TF105",), note="the threshold is tuned between evaluation rounds")
def _apply_threshold(mod, h):
    scores = floats((128,), seed=5, low=0.0, high=1.0)
    for t in (0.3, 0.5, 0.7, 0.9):
        mod.set_threshold(t)
        for _ in range(15):
            h.call(mod.apply_threshold, scores)
    return {}


@driver(M + "add_noise", "fix-first", ("TF205",))
def _add_noise(mod, h):
    import random

    random.seed(0)
    x = floats((32, 8), seed=6)
    for _ in range(50):
        h.call(mod.add_noise, x, 0.1)
    return {}


@driver(M + "timestamped", "fix-first", ("TF205",))
def _timestamped(mod, h):
    import time

    x = floats((16, 4), seed=7)
    stamps = []
    for _ in range(30):
        _, ts = h.call(mod.timestamped, x)
        time.sleep(0.002)
        stamps.append(float(ts[0]))
    h.outputs.clear()  # wall-clock values differ between runs; what matters is whether they move
    return {"distinct_stamps": len(set(stamps)) > 1}


@driver(M + "jitter", "fix-first", ("TF205",))
def _jitter(mod, h):
    np.random.seed(0)
    x = floats((32, 8), seed=8)
    for _ in range(50):
        h.call(mod.jitter, x)
    return {}


@driver(M + "Cache.__init__", "leave-eager", ())
def _cache_init(mod, h):
    c = mod.Cache.__new__(mod.Cache)
    h.call(c.__init__)
    return {"none": c.last_mean is None}


@driver(M + "Cache.update", "fix-first", ("TF204",))
def _cache_update(mod, h):
    c = mod.Cache()
    means = []
    for i in range(30):
        h.call(c.update, floats((16, 4), seed=i))
        means.append(float(c.last_mean))
    return {"means": means}


@driver(M + "accumulate_in_loop", "fix-first", ("TF208",))
def _accumulate(mod, h):
    x = floats((10, 8), seed=9)
    for _ in range(30):
        h.call(mod.accumulate_in_loop, x, tf.constant(10))
    return {}


@driver(M + "mean_as_python", "fix-first", ("TF206",))
def _mean_py(mod, h):
    for i in range(50):
        h.call(mod.mean_as_python, floats((32, 8), seed=i))
    return {}


@driver(M + "make_batches_iter", "leave-eager", ("TF207",))
def _make_iter(mod, h):
    x = floats((64, 4), seed=10)
    firsts = []
    for _ in range(3):
        it = h.call(mod.make_batches_iter, x, 8)
        firsts.append(next(it))
    h.outputs.clear()  # an iterator object is not a value to compare
    return {"firsts": firsts}


@driver(M + "consume", "fix-first", ("TF207",))
def _consume(mod, h):
    x = floats((64, 4), seed=11)
    for _ in range(3):
        it = mod.make_batches_iter(x, 16)
        for _ in range(16):
            h.call(mod.consume, it)
    return {}
