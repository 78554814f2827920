"""Drivers for mlproj/loops.py: each loop runs once, as in the project's scripts."""

import tensorflow as tf

from corpus.drivers._data import batches, floats, rng, weights
from corpus.index import driver

M = "mlproj/loops.py::"


@driver(M + "warmup_phase", "leave-eager", ("TF101",))
def _warmup(mod, h):
    models = h.project("models")
    model, opt = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    h.call(mod.warmup_phase, model, opt, batches(10, seed=20))
    return {"weights": weights(model)}


@driver(M + "anneal_scaling", "leave-eager", ("TF106",))
def _anneal(mod, h):
    scaler = h.project("hazards_state").Scaler(1.0)
    h.call(mod.anneal_scaling, scaler, floats((64, 16), seed=21), 2, 5)
    return {"factor": scaler.factor}


@driver(M + "predict_all", "leave-eager", ("TF407",))
def _predict_all(mod, h):
    h.call(mod.predict_all, [floats((4, 16), seed=i) for i in range(5)])
    return {}


@driver(M + "sweep_factors", "leave-eager", ("TF101",))
def _sweep(mod, h):
    h.call(mod.sweep_factors, floats((64, 32), seed=22), 10)
    return {}


@driver(M + "balanced_bce", "leave-eager", ("TF101",))
def _balanced(mod, h):
    r = rng(23)
    data = [(tf.constant(r.integers(0, 2, size=(64, 10)), tf.float32), tf.constant(r.normal(size=(64, 10)), tf.float32))
            for _ in range(10)]
    h.call(mod.balanced_bce, data)
    return {}


@driver(M + "tune_threshold", "leave-eager", ("TF105",))
def _tune(mod, h):
    h.call(mod.tune_threshold, floats((128,), seed=24, low=0.0, high=1.0))
    return {"threshold": h.project("hazards_state").THRESHOLD}
