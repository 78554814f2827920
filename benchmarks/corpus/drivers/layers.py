"""Drivers for mlproj/layers.py: layers used inside inference and training loops."""

import tensorflow as tf

from corpus.drivers._data import floats, rng
from corpus.index import driver

M = "mlproj/layers.py::"


def _inference(h, layer, n=200, shape=(32, 16), seed=0):
    x = floats(shape, seed=seed)
    for i in range(n):
        h.call(layer, x + 0.01 * i)
    return {"weights": [w.numpy() for w in layer.weights]}


@driver(M + "Dense2.__init__", "leave-eager", ("TF504",))
def _dense2_init(mod, h):
    layer = mod.Dense2.__new__(mod.Dense2)
    h.call(layer.__init__, 8)
    return {"units": layer.units}


@driver(M + "Dense2.build", "leave-eager", ("TF504",))
def _dense2_build(mod, h):
    layer = mod.Dense2(8)
    h.call(layer.build, (None, 16))
    return {"shapes": [tuple(w.shape) for w in layer.weights]}


@driver(M + "Dense2.call", "decorate", ("TF501",))
def _dense2_call(mod, h):
    layer = mod.Dense2(32)
    layer(floats((32, 16)))
    return _inference(h, layer)


def _train_layer(h, layer, n=30, dim=16, seed=0):
    opt = h.project("models").make_optimizer("sgd", 0.05)
    r = rng(seed)
    for _ in range(n):
        x = tf.constant(r.normal(size=(32, dim)), tf.float32)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(h.call(layer, x)))
        grads = tape.gradient(loss, layer.trainable_variables)
        opt.apply_gradients(zip(grads, layer.trainable_variables))
    return {"weights": [w.numpy() for w in layer.weights]}


@driver(M + "ResidualBlock.__init__", "leave-eager", ("TF504",))
def _res_init(mod, h):
    layer = mod.ResidualBlock.__new__(mod.ResidualBlock)
    h.call(layer.__init__, 16)
    return {}


@driver(M + "ResidualBlock.call", "fix-first", ("TF406",), note="custom training loop over a layer whose call is a tf.function")
def _res_call(mod, h):
    return _train_layer(h, mod.ResidualBlock(16))


@driver(M + "PositionalEncoding.call", "decorate", ("TF501",))
def _posenc(mod, h):
    return _inference(h, mod.PositionalEncoding(), n=200, shape=(8, 20, 16))


@driver(M + "CountingLayer.__init__", "leave-eager", ())
def _counting_init(mod, h):
    layer = mod.CountingLayer.__new__(mod.CountingLayer)
    h.call(layer.__init__)
    return {"seen": layer.batches_seen}


@driver(M + "CountingLayer.call", "fix-first", ("TF202",))
def _counting(mod, h):
    layer = mod.CountingLayer()
    out = _inference(h, layer, n=100)
    out["batches_seen"] = layer.batches_seen
    return out


@driver(M + "NoisyDense.__init__", "leave-eager", ("TF504",))
def _noisy_init(mod, h):
    layer = mod.NoisyDense.__new__(mod.NoisyDense)
    h.call(layer.__init__, 8, 0.1)
    return {}


@driver(M + "NoisyDense.call", "fix-first", ("TF205",))
def _noisy(mod, h):
    import numpy as np

    np.random.seed(0)
    layer = mod.NoisyDense(16)
    return _inference(h, layer, n=100)


@driver(M + "Attention.call", "decorate", ("TF501",))
def _attention(mod, h):
    layer = mod.Attention()
    r = rng(3)
    q, k, v = (tf.constant(r.normal(size=(4, 16, 32)), tf.float32) for _ in range(3))
    mask = tf.constant(r.integers(0, 2, size=(4, 16, 16)), tf.float32)
    for i in range(200):
        h.call(layer, q + 0.01 * i, k, v, mask=mask)
    return {}


@driver(M + "GatedLinear.__init__", "leave-eager", ("TF504",))
def _gated_init(mod, h):
    layer = mod.GatedLinear.__new__(mod.GatedLinear)
    h.call(layer.__init__, 8)
    return {}


@driver(M + "GatedLinear.call", "decorate", ("TF501",))
def _gated(mod, h):
    layer = mod.GatedLinear(16)
    layer(floats((32, 16)))
    return _inference(h, layer, n=200)


@driver(M + "layer_norm", "decorate", ("TF501",))
def _layer_norm(mod, h):
    x = floats((64, 32), seed=4)
    for i in range(500):
        h.call(mod.layer_norm, x * (1.0 + 0.001 * i))
    return {}


@driver(M + "feed_forward", "decorate", ("TF501",))
def _ff(mod, h):
    r = rng(5)
    w1, w2 = (tf.constant(r.normal(size=s) * 0.1, tf.float32) for s in [(32, 64), (64, 32)])
    b1, b2 = tf.zeros([64]), tf.zeros([32])
    x = floats((16, 32), seed=6)
    for i in range(300):
        h.call(mod.feed_forward, x + 0.01 * i, w1, b1, w2, b2)
    return {}
