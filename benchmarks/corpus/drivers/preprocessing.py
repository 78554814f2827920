"""Drivers for mlproj/preprocessing.py: per-batch preprocessing in the input loop."""

import numpy as np
import tensorflow as tf

from corpus.drivers._data import floats, images, rng
from corpus.index import driver

M = "mlproj/preprocessing.py::"


@driver(M + "normalize_images", "decorate", ("TF501",))
def _normalize(mod, h):
    for imgs in images(300):
        h.call(mod.normalize_images, imgs)
    return {}


@driver(M + "random_augment", "decorate", ("TF501",))
def _augment(mod, h):
    for i, imgs in enumerate(images(200, seed=1)):
        x = tf.cast(imgs, tf.float32) / 255.0
        h.call(mod.random_augment, x, tf.constant([i, 7], tf.int32))
    return {}


@driver(M + "augment_numpy", "fix-first", ("TF205",))
def _augment_numpy(mod, h):
    np.random.seed(0)
    for imgs in images(100, seed=2):
        h.call(mod.augment_numpy, tf.cast(imgs, tf.float32) / 255.0)
    return {}


@driver(M + "standardize", "fix-first", ("TF206",))
def _standardize(mod, h):
    for i in range(100):
        h.call(mod.standardize, floats((32, 8), seed=i))
    return {}


@driver(M + "tokenize", "leave-eager", ("TF502",))
def _tokenize(mod, h):
    vocab = {w: i + 2 for i, w in enumerate("the a cat dog sat on mat ran".split())}
    for _ in range(50):
        h.call(mod.tokenize, ["The cat sat", "a dog ran on the mat", "zebra"], vocab)
    return {}


@driver(M + "pad_batch", "leave-eager", ("TF103",), note="fresh Python lists every call")
def _pad(mod, h):
    r = rng(3)
    for _ in range(60):
        seqs = [list(map(int, r.integers(1, 50, size=int(r.integers(1, 12))))) for _ in range(8)]
        h.call(mod.pad_batch, seqs, 10)
    return {}


@driver(M + "one_hot_labels", "leave-eager", ("TF602",), note="one op")
def _one_hot(mod, h):
    r = rng(4)
    for _ in range(300):
        h.call(mod.one_hot_labels, tf.constant(r.integers(0, 10, size=(64,)), tf.int32), 10)
    return {}


@driver(M + "resize_and_crop", "leave-eager", ("TF602",))
def _resize(mod, h):
    for imgs in images(20, seed=5):
        h.call(mod.resize_and_crop, tf.cast(imgs, tf.float32), (24, 24))
    return {}


@driver(M + "decode_and_resize", "keep", ("TF501",))
def _decode(mod, h):
    r = rng(6)
    raws = [tf.io.encode_png(tf.constant(r.integers(0, 256, size=(20, 20, 3)), tf.uint8)) for _ in range(10)]
    for i in range(200):
        h.call(mod.decode_and_resize, raws[i % 10])
    return {}


@driver(M + "image_stats", "keep", ("TF501",))
def _stats(mod, h):
    for imgs in images(300, seed=7):
        h.call(mod.image_stats, imgs)
    return {}


@driver(M + "clean_text", "leave-eager", ("TF602",))
def _clean(mod, h):
    texts = tf.constant(["Hello, World!  ", "TensorFlow   rocks!!", "a-b c_d"])
    for _ in range(30):
        h.call(mod.clean_text, texts)
    return {}


@driver(M + "minmax_scale", "decorate", ("TF501",))
def _minmax(mod, h):
    x = floats((256, 16), seed=8)
    for i in range(400):
        h.call(mod.minmax_scale, x + i)
    return {}
