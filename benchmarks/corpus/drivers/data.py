"""Drivers for mlproj/data.py."""

import tensorflow as tf

from corpus.drivers._data import floats, rng
from corpus.index import driver

M = "mlproj/data.py::"


@driver(M + "make_dataset", "leave-eager", ("TF504",))
def _make_dataset(mod, h):
    x, y = floats((100, 4)), tf.range(100)
    ds = h.call(mod.make_dataset, x, y, 32)
    return {"batches": sum(1 for _ in ds)}


@driver(M + "batch_generator", "leave-eager", ("TF207",))
def _batch_generator(mod, h):
    x, y = floats((256, 4), seed=1), tf.range(256)
    seen = []
    for epoch in range(2):
        gen = h.call(mod.batch_generator, x, y, 32)
        seen.append([tf.reduce_sum(bx).numpy() for bx, _ in gen])
    return {"seen": seen}


@driver(M + "next_batch", "fix-first", ("TF207",))
def _next_batch(mod, h):
    r = rng(2)
    data = [(tf.constant(r.integers(0, 256, size=(8, 4)), tf.uint8), tf.constant(r.integers(0, 2, size=(8,)))) for _ in range(40)]
    it = iter(data)
    for _ in range(40):
        h.call(mod.next_batch, it)
    return {}


@driver(M + "shuffle_indices", "leave-eager", ("TF502",))
def _shuffle(mod, h):
    for epoch in range(3):
        h.call(mod.shuffle_indices, 100, epoch)
    return {}


@driver(M + "window_sequences", "leave-eager", ("TF602",), note="once per dataset build")
def _window(mod, h):
    series = floats((500, 3), seed=3)
    for w in (8, 16):
        h.call(mod.window_sequences, series, w)
    return {}


@driver(M + "parse_example", "keep", ("TF501",))
def _parse(mod, h):
    r = rng(4)
    records = []
    for i in range(20):
        ex = tf.train.Example(
            features=tf.train.Features(
                feature={
                    "x": tf.train.Feature(float_list=tf.train.FloatList(value=r.normal(size=8).tolist())),
                    "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 3])),
                }
            )
        )
        records.append(tf.constant(ex.SerializeToString()))
    for i in range(300):
        h.call(mod.parse_example, records[i % 20])
    return {}


@driver(M + "split_features", "leave-eager", ("TF103",), note="dict and key lists are Python objects")
def _split(mod, h):
    r = rng(5)
    for _ in range(50):
        batch = {
            "age": tf.constant(r.integers(18, 90, size=(32,))),
            "income": tf.constant(r.normal(size=(32,)), tf.float32),
            "city": tf.constant(r.integers(0, 5, size=(32,))),
        }
        h.call(mod.split_features, batch, ["age", "income"], ["city"])
    return {}
