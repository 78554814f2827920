"""Drivers for mlproj/compute.py."""

import tensorflow as tf

from corpus.drivers._data import floats, rng
from corpus.index import driver

M = "mlproj/compute.py::"


@driver(M + "scale_by", "reconfigure", ("TF101", "TF503"), note="factor is a learning-rate-like Python float")
def _scale_by(mod, h):
    x = floats((64, 32), seed=0)
    for i in range(30):
        h.call(mod.scale_by, x, 0.5 + 0.01 * i)
    return {}


@driver(M + "embed_lookup", "reconfigure", ("TF104",), note="variable-length id sequences")
def _embed(mod, h):
    r = rng(1)
    table = tf.constant(r.normal(size=(500, 32)), tf.float32)
    for i in range(150):
        length = 5 + (i * 3) % 40
        ids = tf.constant(r.integers(0, 500, size=(16, length)), tf.int32)
        h.call(mod.embed_lookup, table, ids)
    return {}


@driver(M + "apply_each", "fix-first", ("TF102",))
def _apply_each(mod, h):
    r = rng(2)
    for _ in range(20):
        xs = [tf.constant(r.normal(size=(8,)), tf.float32) for _ in range(4)]
        h.call(mod.apply_each, xs)
    return {}


@driver(M + "summarize", "undecorate", ("TF103",), note="a fresh Python list per call")
def _summarize(mod, h):
    r = rng(3)
    for _ in range(40):
        h.call(mod.summarize, [float(v) for v in r.normal(size=10)])
    return {}


@driver(M + "big_matmul", "undecorate", ("TF602",), note="one 1024x1024 matmul, three calls")
def _big_matmul(mod, h):
    a, b = floats((1024, 1024), seed=4), floats((1024, 1024), seed=5)
    for _ in range(3):
        h.call(mod.big_matmul, a, b)
    return {}


@driver(M + "project_features", "leave-eager", ("TF602",))
def _project(mod, h):
    w = floats((512, 512), seed=6)
    for i in range(4):
        h.call(mod.project_features, floats((1024, 512), seed=i), w)
    return {}


@driver(M + "gelu_stack", "reconfigure", ("TF506",), note="60 elementwise ops: XLA fuses them")
def _gelu_stack(mod, h):
    x = floats((256, 256), seed=7)
    for i in range(150):
        h.call(mod.gelu_stack, x + 0.001 * i)
    return {}


def _params(seed=8):
    r = rng(seed)
    return [(tf.constant(r.normal(size=(32, 32)) * 0.2, tf.float32), tf.zeros([32])) for _ in range(6)]


@driver(M + "dense_block", "undecorate", ("TF505",), note="only ever called from encoder, itself a tf.function")
def _dense_block(mod, h):
    params = _params()
    x = floats((64, 32), seed=9)
    for i in range(300):
        h.call(mod.encoder, x + 0.01 * i, params)
    return {}


@driver(M + "encoder", "keep", ("TF501",))
def _encoder(mod, h):
    params = _params(10)
    x = floats((64, 32), seed=11)
    for i in range(300):
        h.call(mod.encoder, x + 0.01 * i, params)
    return {}


@driver(M + "add_one", "undecorate", ("TF602",), note="one op, twenty calls")
def _add_one(mod, h):
    for i in range(20):
        h.call(mod.add_one, floats((16,), seed=i))
    return {}


@driver(M + "many_small_ops", "decorate", ("TF501",))
def _many(mod, h):
    x = floats((64,), seed=12)
    for i in range(200):
        h.call(mod.many_small_ops, x + 0.01 * i)
    return {}


def _rnn_inputs(seed):
    r = rng(seed)
    w_x = tf.constant(r.normal(size=(8, 16)) * 0.3, tf.float32)
    w_h = tf.constant(r.normal(size=(16, 16)) * 0.3, tf.float32)
    return [tf.constant(r.normal(size=(16, 20, 8)), tf.float32) for _ in range(5)], w_x, w_h


@driver(M + "rnn_unrolled", "keep", ("TF307",))
def _rnn_unrolled(mod, h):
    xs, w_x, w_h = _rnn_inputs(13)
    for i in range(200):
        h.call(mod.rnn_unrolled, xs[i % 5], w_x, w_h)
    return {}


@driver(M + "rnn_while", "decorate", ("TF501",))
def _rnn_while(mod, h):
    xs, w_x, w_h = _rnn_inputs(14)
    for i in range(200):
        h.call(mod.rnn_while, xs[i % 5], w_x, w_h)
    return {}


@driver(M + "cosine_schedule", "keep", ("TF501",))
def _cosine(mod, h):
    total, base = tf.constant(1000), tf.constant(0.1)
    for step in range(300):
        h.call(mod.cosine_schedule, tf.constant(step), total, base)
    return {}


@driver(M + "pairwise_distances", "keep", ("TF104",), note="already reduce_retracing=True")
def _pairwise(mod, h):
    r = rng(15)
    for i in range(200):
        n = 16 + (i * 5) % 48
        a = tf.constant(r.normal(size=(n, 8)), tf.float32)
        b = tf.constant(r.normal(size=(32, 8)), tf.float32)
        h.call(mod.pairwise_distances, a, b)
    return {}


@driver(M + "softmax_entropy", "keep", ("TF501",), note="input_signature with a None batch dim")
def _entropy(mod, h):
    r = rng(16)
    for i in range(300):
        h.call(mod.softmax_entropy, tf.constant(r.normal(size=(8 + i % 40, 16)), tf.float32))
    return {}


@driver(M + "predict_batches", "leave-eager", ("TF102",), note="wraps the model in a new tf.function on every call")
def _predict_batches(mod, h):
    model = h.project("models").build_mlp(20, 32)
    batches = [floats((16, 20), seed=i) for i in range(4)]
    for _ in range(5):
        h.call(mod.predict_batches, model, batches)
    return {}


@driver(M + "momentum_update", "keep", ("TF501",))
def _momentum(mod, h):
    var = tf.Variable(floats((128,), seed=17))
    vel = tf.Variable(tf.zeros([128]))
    for i in range(400):
        h.call(mod.momentum_update, var, vel, floats((128,), seed=i % 13))
    return {"var": var, "vel": vel}
