"""The project's own scripts: where every function of mlproj is called from, as in a real program.

One ``run_<module>()`` per module; each block below mirrors one driver of
``benchmarks/corpus/drivers/<module>.py`` (same objects, same argument kinds, same loops and
roughly the same number of calls). Run from ``benchmarks/corpus``:

    python -m mlproj.programs

Written differently from the driver (a script would never do what the driver does):
- every ``<Class>.__init__`` driver (``Dense2``, ``ResidualBlock``, ``CountingLayer``,
  ``NoisyDense``, ``GatedLinear``, ``RunningMean``, ``PythonMean``, ``Classifier``, ``Trainer``,
  ``Model``, ``Scaler``, ``Cache``, ``LazyScale``, ``Predictor``, ``Normalizer``, ``Timer``):
  the driver makes the object with ``__new__`` and calls ``__init__`` explicitly; here the class
  is simply instantiated with the same arguments.
- ``utils.py::Timer.__enter__`` and ``utils.py::Timer.__exit__``: the drivers call the dunder
  methods explicitly; here they run through ``with timer:`` (5 times, same Timer reused).
- ``compute.py::dense_block``: its driver calls only ``encoder`` (which calls ``dense_block``);
  mirrored as such.
Nothing was skipped.

Known failure as written: ``layers.py::ResidualBlock.call`` (a tf.function ``call``) raises
``ValueError: No gradients provided for any variable.`` in its training loop (its measured label
is ``fix-first``, graph mode broken). That block is the last of ``run_layers`` and ``run_layers``
runs last in ``__main__``, so everything else runs first.
"""

import json
import os
import random
import tempfile
import time

import numpy as np
import tensorflow as tf

from mlproj import (
    compute,
    data,
    hazards_control,
    hazards_state,
    hazards_tf4,
    layers,
    loops,
    losses,
    metrics,
    models,
    preprocessing,
    training,
    utils,
)


# ============================================================================ training
def run_training():
    # training.train_step: 60 steps
    model, optimizer = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([60 * 32, 20]), tf.random.uniform([60 * 32], 0, 10, dtype=tf.int32))
    ).batch(32)
    for x, y in dataset:
        training.train_step(model, optimizer, x, y)

    # training.eval_step: 100 batches
    model, _ = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([100 * 32, 20]), tf.random.uniform([100 * 32], 0, 10, dtype=tf.int32))
    ).batch(32)
    for x, y in dataset:
        training.eval_step(model, x, y)

    # training.train_step_l2: 60 steps, weight_decay a constant
    model, optimizer = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([60 * 32, 20]), tf.random.uniform([60 * 32], 0, 10, dtype=tf.int32))
    ).batch(32)
    for x, y in dataset:
        training.train_step_l2(model, optimizer, x, y, 1e-4)

    # training.distill_step: 60 steps, temperature a constant
    teacher, student = models.build_mlp(20, 64), models.build_mlp(20, 16)
    optimizer = models.make_optimizer("sgd", 0.05)
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([60 * 32, 20]), tf.random.uniform([60 * 32], 0, 10, dtype=tf.int32))
    ).batch(32)
    for x, _ in dataset:
        training.distill_step(teacher, student, optimizer, x, 2.0)

    # training.train_step_compiled (already a tf.function): 60 steps
    model, optimizer = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([60 * 32, 20]), tf.random.uniform([60 * 32], 0, 10, dtype=tf.int32))
    ).batch(32)
    for x, y in dataset:
        training.train_step_compiled(model, optimizer, x, y)

    # training.train_step_warmup (already a tf.function): 20 steps, step a Python int loop counter
    model, optimizer = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([20 * 32, 20]), tf.random.uniform([20 * 32], 0, 10, dtype=tf.int32))
    ).batch(32)
    for step, (x, y) in enumerate(dataset):
        training.train_step_warmup(model, optimizer, x, y, step)

    # training.Trainer.__init__: once
    model, optimizer = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    trainer = training.Trainer(model, optimizer)

    # training.Trainer.train_step: 40 steps on one Trainer
    model, optimizer = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    trainer = training.Trainer(model, optimizer)
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([40 * 32, 20]), tf.random.uniform([40 * 32], 0, 10, dtype=tf.int32))
    ).batch(32)
    for x, y in dataset:
        trainer.train_step(x, y)

    # training.Trainer.record: 40 calls with a scalar loss tensor
    model, optimizer = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    trainer = training.Trainer(model, optimizer)
    for i in range(40):
        trainer.record(tf.constant(1.0 / (i + 1)))

    # training.Trainer.fit: once, 2 epochs over a dataset of 10 batches
    model, optimizer = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    trainer = training.Trainer(model, optimizer)
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([10 * 32, 20]), tf.random.uniform([10 * 32], 0, 10, dtype=tf.int32))
    ).batch(32)
    trainer.fit(dataset, 2)


# ============================================================================ compute
def run_compute():
    # compute.scale_by (tf.function): 30 calls, factor a Python float from the loop counter
    x = tf.random.normal([64, 32])
    for i in range(30):
        compute.scale_by(x, 0.5 + 0.01 * i)

    # compute.embed_lookup (tf.function): 150 calls, variable-length id sequences
    table = tf.random.normal([500, 32])
    for i in range(150):
        length = 5 + (i * 3) % 40
        ids = tf.random.uniform([16, length], 0, 500, dtype=tf.int32)
        compute.embed_lookup(table, ids)

    # compute.apply_each: 20 calls, a fresh list of 4 tensors each
    for _ in range(20):
        xs = [tf.random.normal([8]) for _ in range(4)]
        compute.apply_each(xs)

    # compute.summarize (tf.function): 40 calls, a fresh Python list of 10 floats each
    for _ in range(40):
        compute.summarize([random.gauss(0.0, 1.0) for _ in range(10)])

    # compute.big_matmul (tf.function): 3 calls
    a, b = tf.random.normal([1024, 1024]), tf.random.normal([1024, 1024])
    for _ in range(3):
        compute.big_matmul(a, b)

    # compute.project_features: 4 calls, a fresh x each, w reused
    w = tf.random.normal([512, 512])
    for _ in range(4):
        compute.project_features(tf.random.normal([1024, 512]), w)

    # compute.gelu_stack (tf.function): 150 calls
    x = tf.random.normal([256, 256])
    for i in range(150):
        compute.gelu_stack(x + 0.001 * i)

    # compute.dense_block (tf.function): only called from encoder, 300 calls of encoder
    params = [(tf.random.normal([32, 32]) * 0.2, tf.zeros([32])) for _ in range(6)]
    x = tf.random.normal([64, 32])
    for i in range(300):
        compute.encoder(x + 0.01 * i, params)

    # compute.encoder (tf.function): 300 calls, params a list of (w, b) tensor pairs
    params = [(tf.random.normal([32, 32]) * 0.2, tf.zeros([32])) for _ in range(6)]
    x = tf.random.normal([64, 32])
    for i in range(300):
        compute.encoder(x + 0.01 * i, params)

    # compute.add_one (tf.function): 20 calls
    for _ in range(20):
        compute.add_one(tf.random.normal([16]))

    # compute.many_small_ops: 200 calls
    x = tf.random.normal([64])
    for i in range(200):
        compute.many_small_ops(x + 0.01 * i)

    # compute.rnn_unrolled (tf.function): 200 calls cycling over 5 input batches
    w_x, w_h = tf.random.normal([8, 16]) * 0.3, tf.random.normal([16, 16]) * 0.3
    sequences = [tf.random.normal([16, 20, 8]) for _ in range(5)]
    for i in range(200):
        compute.rnn_unrolled(sequences[i % 5], w_x, w_h)

    # compute.rnn_while: 200 calls cycling over 5 input batches
    w_x, w_h = tf.random.normal([8, 16]) * 0.3, tf.random.normal([16, 16]) * 0.3
    sequences = [tf.random.normal([16, 20, 8]) for _ in range(5)]
    for i in range(200):
        compute.rnn_while(sequences[i % 5], w_x, w_h)

    # compute.cosine_schedule (tf.function): 300 calls, step wrapped in a tensor
    total, base = tf.constant(1000), tf.constant(0.1)
    for step in range(300):
        compute.cosine_schedule(tf.constant(step), total, base)

    # compute.pairwise_distances (tf.function, reduce_retracing): 200 calls, varying first dim
    for i in range(200):
        n = 16 + (i * 5) % 48
        a = tf.random.normal([n, 8])
        b = tf.random.normal([32, 8])
        compute.pairwise_distances(a, b)

    # compute.softmax_entropy (tf.function, input_signature): 300 calls, varying batch
    for i in range(300):
        compute.softmax_entropy(tf.random.normal([8 + i % 40, 16]))

    # compute.predict_batches: 5 calls with the same model and the same list of 4 batches
    model = models.build_mlp(20, 32)
    inputs = [tf.random.normal([16, 20]) for _ in range(4)]
    for _ in range(5):
        compute.predict_batches(model, inputs)

    # compute.momentum_update (tf.function): 400 calls on the same two variables
    var = tf.Variable(tf.random.normal([128]))
    velocity = tf.Variable(tf.zeros([128]))
    grads = [tf.random.normal([128]) for _ in range(13)]
    for i in range(400):
        compute.momentum_update(var, velocity, grads[i % 13])


# ============================================================================ data
def run_data():
    # data.make_dataset: once
    x, y = tf.random.normal([100, 4]), tf.range(100)
    dataset = data.make_dataset(x, y, 32)
    n_batches = sum(1 for _ in dataset)

    # data.batch_generator: once per epoch, 2 epochs, the generator consumed
    x, y = tf.random.normal([256, 4]), tf.range(256)
    seen = []
    for epoch in range(2):
        gen = data.batch_generator(x, y, 32)
        seen.append([tf.reduce_sum(bx).numpy() for bx, _ in gen])

    # data.next_batch: 40 calls on one iterator over a list of 40 uint8 batches
    raw_batches = [
        (
            tf.cast(tf.random.uniform([8, 4], 0, 256, dtype=tf.int32), tf.uint8),
            tf.random.uniform([8], 0, 2, dtype=tf.int64),
        )
        for _ in range(40)
    ]
    iterator = iter(raw_batches)
    for _ in range(40):
        data.next_batch(iterator)

    # data.shuffle_indices: once per epoch, 3 epochs
    for epoch in range(3):
        data.shuffle_indices(100, epoch)

    # data.window_sequences: once per window size
    series = tf.random.normal([500, 3])
    for window in (8, 16):
        data.window_sequences(series, window)

    # data.parse_example (tf.function): 300 calls cycling over 20 serialized records
    records = []
    for i in range(20):
        example = tf.train.Example(
            features=tf.train.Features(
                feature={
                    "x": tf.train.Feature(float_list=tf.train.FloatList(value=np.random.normal(size=8).tolist())),
                    "y": tf.train.Feature(int64_list=tf.train.Int64List(value=[i % 3])),
                }
            )
        )
        records.append(tf.constant(example.SerializeToString()))
    for i in range(300):
        data.parse_example(records[i % 20])

    # data.split_features: 50 calls, a fresh dict of tensors, literal key lists
    for _ in range(50):
        batch = {
            "age": tf.random.uniform([32], 18, 90, dtype=tf.int64),
            "income": tf.random.normal([32]),
            "city": tf.random.uniform([32], 0, 5, dtype=tf.int64),
        }
        data.split_features(batch, ["age", "income"], ["city"])
    return n_batches, seen


# ============================================================================ hazards_control
def run_hazards_control():
    # hazards_control.relu_or_none: 40 calls
    for _ in range(40):
        hazards_control.relu_or_none(tf.random.normal([32]))

    # hazards_control.pick_scale: 40 calls (positive inputs)
    for _ in range(40):
        hazards_control.pick_scale(tf.random.normal([32]) + 3.0)

    # hazards_control.last_cumsum: 30 calls, n a tensor
    for _ in range(30):
        hazards_control.last_cumsum(tf.random.normal([32]), tf.constant(8))

    # hazards_control.both_positive: 30 calls
    for _ in range(30):
        a = tf.random.normal([32]) + 1.5
        b = tf.random.normal([32]) + 1.5
        hazards_control.both_positive(a, b)

    # hazards_control.split_hw: 30 calls
    for _ in range(30):
        hazards_control.split_hw(tf.random.uniform([16, 16, 3]))

    # hazards_control.first_negative: 40 calls
    for _ in range(40):
        hazards_control.first_negative(tf.random.normal([32]) + 1.0)

    # hazards_control.poly_features: 300 calls, degree a constant
    x = tf.random.uniform([256], -1.0, 1.0)
    for i in range(300):
        hazards_control.poly_features(x * (1.0 + 0.001 * i), 12)

    # hazards_control.running_total: 40 calls
    for _ in range(40):
        hazards_control.running_total(tf.random.normal([6]))

    # hazards_control.cast_if_large: 40 calls, every fourth input large
    for i in range(40):
        x = tf.random.normal([32])
        hazards_control.cast_if_large(x * (200.0 if i % 4 == 0 else 1.0))

    # hazards_control.safe_log: 400 calls
    for _ in range(400):
        hazards_control.safe_log(tf.random.normal([64]) + 2.0)

    # hazards_control.clipped_update: 400 calls, w fed back, max_norm a constant
    w = tf.random.normal([64])
    for _ in range(400):
        g = tf.random.normal([64])
        w = hazards_control.clipped_update(w, g * 3.0, 5.0)

    # hazards_control.count_above: 60 calls, threshold a constant
    for _ in range(60):
        hazards_control.count_above(tf.random.normal([16]), 0.5)

    # hazards_control.positive_mean: 40 calls, a fresh list of 6 scalar tensors
    for _ in range(40):
        values = [tf.constant(random.gauss(0.5, 1.0)) for _ in range(6)]
        hazards_control.positive_mean(values)


# ============================================================================ hazards_state
def run_hazards_state():
    # hazards_state.step_with_print: 50 calls, w reused
    w = tf.random.normal([16, 16]) * 0.1
    dataset = tf.data.Dataset.from_tensor_slices(tf.random.normal([50 * 32, 16])).batch(32)
    for x in dataset:
        hazards_state.step_with_print(x, w)

    # hazards_state.collect_losses: 50 calls
    w = tf.random.normal([16, 16]) * 0.1
    dataset = tf.data.Dataset.from_tensor_slices(tf.random.normal([50 * 32, 16])).batch(32)
    for x in dataset:
        hazards_state.collect_losses(x, w)
    n_losses = len(hazards_state.LOSSES)

    # hazards_state.counted_step: 50 calls
    w = tf.random.normal([16, 16]) * 0.1
    dataset = tf.data.Dataset.from_tensor_slices(tf.random.normal([50 * 32, 16])).batch(32)
    for x in dataset:
        hazards_state.counted_step(x, w)
    calls = hazards_state.CALLS

    # hazards_state.Model.__init__: once
    model = hazards_state.Model()

    # hazards_state.Model.change_state: 7 calls on one Model
    model = hazards_state.Model()
    for _ in range(7):
        model.change_state()

    # hazards_state.Model.forward: 40 calls on one Model
    model = hazards_state.Model()
    dataset = tf.data.Dataset.from_tensor_slices(tf.random.normal([40 * 32, 16])).batch(32)
    for x in dataset:
        model.forward(x)

    # hazards_state.Scaler.__init__: once
    scaler = hazards_state.Scaler(2.0)

    # hazards_state.Scaler.scale: 4 epochs of 15 calls, factor annealed between epochs
    scaler = hazards_state.Scaler(1.0)
    x = tf.random.normal([64, 16])
    for epoch in range(4):
        for _ in range(15):
            scaler.scale(x)
        scaler.factor *= 0.5

    # hazards_state.set_threshold: 3 calls
    for value in (0.1, 0.2, 0.3):
        hazards_state.set_threshold(value)

    # hazards_state.apply_threshold: 15 calls per threshold, threshold tuned between rounds
    scores = tf.random.uniform([128], 0.0, 1.0)
    for t in (0.3, 0.5, 0.7, 0.9):
        hazards_state.set_threshold(t)
        for _ in range(15):
            hazards_state.apply_threshold(scores)

    # hazards_state.add_noise: 50 calls, scale a constant
    random.seed(0)
    x = tf.random.normal([32, 8])
    for _ in range(50):
        hazards_state.add_noise(x, 0.1)

    # hazards_state.timestamped: 30 calls
    x = tf.random.normal([16, 4])
    stamps = []
    for _ in range(30):
        _, ts = hazards_state.timestamped(x)
        time.sleep(0.002)
        stamps.append(float(ts[0]))

    # hazards_state.jitter: 50 calls
    np.random.seed(0)
    x = tf.random.normal([32, 8])
    for _ in range(50):
        hazards_state.jitter(x)

    # hazards_state.Cache.__init__: once
    cache = hazards_state.Cache()

    # hazards_state.Cache.update: 30 calls on one Cache, last_mean read after each
    cache = hazards_state.Cache()
    means = []
    for _ in range(30):
        cache.update(tf.random.normal([16, 4]))
        means.append(float(cache.last_mean))

    # hazards_state.accumulate_in_loop: 30 calls, n a tensor
    x = tf.random.normal([10, 8])
    for _ in range(30):
        hazards_state.accumulate_in_loop(x, tf.constant(10))

    # hazards_state.mean_as_python: 50 calls
    for _ in range(50):
        hazards_state.mean_as_python(tf.random.normal([32, 8]))

    # hazards_state.make_batches_iter: 3 calls, first batch taken from each iterator
    x = tf.random.normal([64, 4])
    firsts = []
    for _ in range(3):
        it = hazards_state.make_batches_iter(x, 8)
        firsts.append(next(it))

    # hazards_state.consume: 3 iterators, 16 calls on each
    x = tf.random.normal([64, 4])
    for _ in range(3):
        it = hazards_state.make_batches_iter(x, 16)
        for _ in range(16):
            hazards_state.consume(it)
    return n_losses, calls, stamps, means, firsts


# ============================================================================ hazards_tf4
def run_hazards_tf4():
    # hazards_tf4.scale_by_new_var: 30 calls
    for _ in range(30):
        hazards_tf4.scale_by_new_var(tf.random.normal([8]))

    # hazards_tf4.LazyScale.__init__: once
    scale = hazards_tf4.LazyScale()

    # hazards_tf4.LazyScale.__call__: 400 calls on one LazyScale, cycling over 10 batches
    scale = hazards_tf4.LazyScale()
    inputs = [tf.random.normal([32, 8]) for _ in range(10)]
    for i in range(400):
        scale(inputs[i % 10])

    # hazards_tf4.safe_normalize: 40 calls, every fifth input has a NaN
    for i in range(40):
        x = np.random.normal(size=(16,)).astype("float32")
        if i % 5 == 0:
            x[3] = np.nan
        hazards_tf4.safe_normalize(tf.constant(x))

    # hazards_tf4.checked_softmax: 300 calls cycling over 7 batches
    logits = [tf.random.normal([32, 10]) for _ in range(7)]
    for i in range(300):
        hazards_tf4.checked_softmax(logits[i % 7])

    # hazards_tf4.checked_divide: 40 calls
    for _ in range(40):
        hazards_tf4.checked_divide(tf.random.normal([8]), tf.random.uniform([8], 0.5, 2.0))

    # hazards_tf4.tree_sum: 6 calls, depth a Python int
    for depth in (3, 4, 5, 3, 4, 5):
        hazards_tf4.tree_sum(tf.random.normal([8]), depth)

    # hazards_tf4.power_recursive (tf.function): 6 calls, n a Python int
    for n in (2, 3, 4, 5, 2, 3):
        hazards_tf4.power_recursive(tf.random.normal([8]), n)

    # hazards_tf4.Predictor.__init__: once
    predictor = hazards_tf4.Predictor(16)

    # hazards_tf4.Predictor.predict: 20 calls, each on a fresh Predictor
    for _ in range(20):
        hazards_tf4.Predictor().predict(tf.random.normal([4, 16]))

    # hazards_tf4.Normalizer.__init__: once
    normalizer = hazards_tf4.Normalizer()

    # hazards_tf4.Normalizer.adapt_and_apply: 20 calls on one Normalizer
    normalizer = hazards_tf4.Normalizer()
    for _ in range(20):
        normalizer.adapt_and_apply(tf.random.normal([32, 4]))


# ============================================================================ layers
def run_layers():
    # layers.Dense2.__init__: once
    layer = layers.Dense2(8)

    # layers.Dense2.build: once, explicitly
    layer = layers.Dense2(8)
    layer.build((None, 16))

    # layers.Dense2.call: built on one batch, then 200 inference calls
    layer = layers.Dense2(32)
    layer(tf.random.normal([32, 16]))
    x = tf.random.normal([32, 16])
    for i in range(200):
        layer(x + 0.01 * i)

    # layers.ResidualBlock.__init__: once
    layer = layers.ResidualBlock(16)

    # layers.PositionalEncoding.call: 200 inference calls
    layer = layers.PositionalEncoding()
    x = tf.random.normal([8, 20, 16])
    for i in range(200):
        layer(x + 0.01 * i)

    # layers.CountingLayer.__init__: once
    layer = layers.CountingLayer()

    # layers.CountingLayer.call: 100 inference calls, batches_seen read afterwards
    layer = layers.CountingLayer()
    x = tf.random.normal([32, 16])
    for i in range(100):
        layer(x + 0.01 * i)
    batches_seen = layer.batches_seen

    # layers.NoisyDense.__init__: once
    layer = layers.NoisyDense(8, 0.1)

    # layers.NoisyDense.call: 100 inference calls
    np.random.seed(0)
    layer = layers.NoisyDense(16)
    x = tf.random.normal([32, 16])
    for i in range(100):
        layer(x + 0.01 * i)

    # layers.Attention.call: 200 calls, mask by keyword
    layer = layers.Attention()
    q, k, v = tf.random.normal([4, 16, 32]), tf.random.normal([4, 16, 32]), tf.random.normal([4, 16, 32])
    mask = tf.cast(tf.random.uniform([4, 16, 16], 0, 2, dtype=tf.int32), tf.float32)
    for i in range(200):
        layer(q + 0.01 * i, k, v, mask=mask)

    # layers.GatedLinear.__init__: once
    layer = layers.GatedLinear(8)

    # layers.GatedLinear.call: built on one batch, then 200 inference calls
    layer = layers.GatedLinear(16)
    layer(tf.random.normal([32, 16]))
    x = tf.random.normal([32, 16])
    for i in range(200):
        layer(x + 0.01 * i)

    # layers.layer_norm: 500 calls
    x = tf.random.normal([64, 32])
    for i in range(500):
        layers.layer_norm(x * (1.0 + 0.001 * i))

    # layers.feed_forward: 300 calls, weights reused
    w1, w2 = tf.random.normal([32, 64]) * 0.1, tf.random.normal([64, 32]) * 0.1
    b1, b2 = tf.zeros([64]), tf.zeros([32])
    x = tf.random.normal([16, 32])
    for i in range(300):
        layers.feed_forward(x + 0.01 * i, w1, b1, w2, b2)
    # layers.ResidualBlock.call (tf.function): 30 training steps on the layer.
    # Last on purpose: as written (call decorated) this raises "No gradients provided", the bug
    # the corpus measures; with the decorator removed it runs.
    layer = layers.ResidualBlock(16)
    optimizer = models.make_optimizer("sgd", 0.05)
    for _ in range(30):
        x = tf.random.normal([32, 16])
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(layer(x)))
        grads = tape.gradient(loss, layer.trainable_variables)
        optimizer.apply_gradients(zip(grads, layer.trainable_variables))

    return batches_seen


# ============================================================================ loops
def run_loops():
    # loops.warmup_phase: once, over a list of 10 batches
    model, optimizer = models.build_mlp(20, 32), models.make_optimizer("sgd", 0.05)
    batches = [(tf.random.normal([32, 20]), tf.random.uniform([32], 0, 10, dtype=tf.int32)) for _ in range(10)]
    loops.warmup_phase(model, optimizer, batches)

    # loops.anneal_scaling: once, 2 epochs of 5
    scaler = hazards_state.Scaler(1.0)
    loops.anneal_scaling(scaler, tf.random.normal([64, 16]), 2, 5)

    # loops.predict_all: once, over a list of 5 batches
    loops.predict_all([tf.random.normal([4, 16]) for _ in range(5)])

    # loops.sweep_factors: once, 10 factors
    loops.sweep_factors(tf.random.normal([64, 32]), 10)

    # loops.balanced_bce: once, over a list of 10 (labels, logits) pairs
    pairs = [
        (tf.cast(tf.random.uniform([64, 10], 0, 2, dtype=tf.int32), tf.float32), tf.random.normal([64, 10]))
        for _ in range(10)
    ]
    loops.balanced_bce(pairs)

    # loops.tune_threshold: once
    loops.tune_threshold(tf.random.uniform([128], 0.0, 1.0))
    return hazards_state.THRESHOLD


# ============================================================================ losses
def run_losses():
    # losses.focal_loss: 600 batches
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.cast(tf.random.uniform([600 * 64, 10], 0, 2, dtype=tf.int32), tf.float32), tf.random.normal([600 * 64, 10]))
    ).batch(64)
    for y, logits in dataset:
        losses.focal_loss(y, logits)

    # losses.dice_loss: 5 calls (final evaluation)
    for _ in range(5):
        y = tf.random.uniform([4, 32, 32], 0.0, 1.0)
        p = tf.random.uniform([4, 32, 32], 0.0, 1.0)
        losses.dice_loss(tf.round(y), p)

    # losses.smooth_l1: 500 batches, delta a constant
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.cast(tf.random.uniform([500 * 64, 10], 0, 2, dtype=tf.int32), tf.float32), tf.random.normal([500 * 64, 10]))
    ).batch(64)
    for y, p in dataset:
        losses.smooth_l1(y, p, 1.0)

    # losses.contrastive_loss: 400 calls, margin a constant
    for _ in range(400):
        a = tf.random.normal([32, 16])
        b = tf.random.normal([32, 16])
        same = tf.cast(tf.random.uniform([32], 0, 2, dtype=tf.int32), tf.float32)
        losses.contrastive_loss(a, b, same, 1.0)

    # losses.label_smoothing_ce (tf.function): 400 calls
    for _ in range(400):
        labels = tf.random.uniform([32], 0, 10, dtype=tf.int32)
        logits = tf.random.normal([32, 10])
        losses.label_smoothing_ce(labels, logits)

    # losses.weighted_bce: 300 batches, pos_weight a Python float recomputed per batch
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.cast(tf.random.uniform([300 * 64, 10], 0, 2, dtype=tf.int32), tf.float32), tf.random.normal([300 * 64, 10]))
    ).batch(64)
    for y, logits in dataset:
        pos = float(tf.reduce_mean(y))
        losses.weighted_bce(y, logits, (1.0 - pos) / max(pos, 1e-3))

    # losses.total_loss: 400 calls, the same list of 4 weight tensors
    weights = [tf.random.normal([20, 32]), tf.random.normal([32]), tf.random.normal([32, 10]), tf.random.normal([10])]
    for _ in range(400):
        logits = tf.random.normal([32, 10])
        labels = tf.random.uniform([32], 0, 10, dtype=tf.int32)
        losses.total_loss(logits, labels, weights)

    # losses.huber_per_sequence (tf.function): 120 calls, variable sequence length
    for i in range(120):
        length = 10 + (i * 7) % 60
        y = tf.random.normal([8, length])
        p = tf.random.normal([8, length])
        losses.huber_per_sequence(y, p)


# ============================================================================ metrics
def run_metrics():
    # metrics.RunningMean.__init__: twice
    running = [metrics.RunningMean(name) for name in ("loss", "acc")]

    # metrics.RunningMean.update: 1000 calls on one metric
    mean = metrics.RunningMean()
    for _ in range(1000):
        mean.update(tf.random.normal([64]))

    # metrics.RunningMean.result: once per epoch, 3 epochs
    mean = metrics.RunningMean()
    for epoch in range(3):
        mean.update(tf.range(10.0) * (epoch + 1))
        mean.result()

    # metrics.RunningMean.reset: once per epoch, 3 epochs
    mean = metrics.RunningMean()
    for epoch in range(3):
        mean.update(tf.range(5.0))
        mean.reset()

    # metrics.PythonMean.__init__: once
    py_mean = metrics.PythonMean()

    # metrics.PythonMean.update: 200 calls on one PythonMean
    py_mean = metrics.PythonMean()
    for _ in range(200):
        py_mean.update(tf.random.uniform([32]))

    # metrics.accuracy: 500 batches
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.uniform([500 * 64], 0, 10, dtype=tf.int32), tf.random.normal([500 * 64, 10]))
    ).batch(64)
    for y, logits in dataset:
        metrics.accuracy(y, logits)

    # metrics.top_k_accuracy (tf.function): 500 batches, k a constant
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.uniform([500 * 64], 0, 10, dtype=tf.int32), tf.random.normal([500 * 64, 10]))
    ).batch(64)
    for y, logits in dataset:
        metrics.top_k_accuracy(y, logits, 5)

    # metrics.confusion_counts: once per epoch, 3 epochs
    for _ in range(3):
        y = tf.random.uniform([1000], 0, 10, dtype=tf.int32)
        p = tf.random.uniform([1000], 0, 10, dtype=tf.int32)
        metrics.confusion_counts(y, p, 10)

    # metrics.precision_recall (tf.function): 500 calls
    for _ in range(500):
        y = tf.random.uniform([128], 0, 2, dtype=tf.int32)
        p = tf.random.uniform([128], 0, 2, dtype=tf.int32)
        metrics.precision_recall(y, p)

    # metrics.f1_from_counts: 4 calls with Python int counts
    for tp, fp, fn in [(10, 2, 3), (0, 0, 0), (5, 5, 5), (100, 1, 7)]:
        metrics.f1_from_counts(tp, fp, fn)

    # metrics.mean_iou: once per validation run, 4 runs
    for _ in range(4):
        y = tf.random.uniform([4, 32, 32], 0, 4, dtype=tf.int32)
        p = tf.random.uniform([4, 32, 32], 0, 4, dtype=tf.int32)
        metrics.mean_iou(y, p, 4)
    return running


# ============================================================================ models
def run_models():
    # models.build_mlp: twice
    shapes = []
    for hidden in (32, 64):
        model = models.build_mlp(20, hidden)
        shapes.append([tuple(w.shape) for w in model.weights])

    # models.build_cnn: once
    cnn = models.build_cnn((16, 16, 3), 10)

    # models.make_optimizer: twice
    names = [type(models.make_optimizer(name, 0.01)).__name__ for name in ("adam", "sgd")]

    # models.count_params: once
    model = models.build_mlp(20, 32)
    n_params = models.count_params(model)

    # models.Classifier.__init__: twice
    classifiers = [models.Classifier(hidden) for hidden in (16, 32)]

    # models.Classifier.call: a custom training loop, 30 steps
    classifier = models.Classifier(32)
    optimizer = models.make_optimizer("sgd", 0.05)
    dataset = tf.data.Dataset.from_tensor_slices(
        (tf.random.normal([30 * 32, 20]), tf.random.uniform([30 * 32], 0, 10, dtype=tf.int32))
    ).batch(32)
    for x, y in dataset:
        with tf.GradientTape() as tape:
            logits = classifier(x, training=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        grads = tape.gradient(loss, classifier.trainable_variables)
        optimizer.apply_gradients(zip(grads, classifier.trainable_variables))

    # models.Classifier.predict_proba: built on one batch, then 150 calls
    classifier = models.Classifier(32)
    x = tf.random.normal([64, 20])
    classifier(x)
    for i in range(150):
        classifier.predict_proba(x + 0.01 * i)

    # models.build_embedding_model: once
    embedding_model = models.build_embedding_model(100, 8)
    return shapes, cnn, names, n_params, classifiers, embedding_model


# ============================================================================ preprocessing
def run_preprocessing():
    # preprocessing.normalize_images: 300 batches of uint8 images
    dataset = tf.data.Dataset.from_tensor_slices(
        tf.cast(tf.random.uniform([300 * 8, 16, 16, 3], 0, 256, dtype=tf.int32), tf.uint8)
    ).batch(8)
    for images in dataset:
        preprocessing.normalize_images(images)

    # preprocessing.random_augment: 200 batches, seed a tensor built from the loop counter
    dataset = tf.data.Dataset.from_tensor_slices(
        tf.cast(tf.random.uniform([200 * 8, 16, 16, 3], 0, 256, dtype=tf.int32), tf.uint8)
    ).batch(8)
    for i, images in enumerate(dataset):
        x = tf.cast(images, tf.float32) / 255.0
        preprocessing.random_augment(x, tf.constant([i, 7], tf.int32))

    # preprocessing.augment_numpy: 100 batches
    np.random.seed(0)
    dataset = tf.data.Dataset.from_tensor_slices(
        tf.cast(tf.random.uniform([100 * 8, 16, 16, 3], 0, 256, dtype=tf.int32), tf.uint8)
    ).batch(8)
    for images in dataset:
        preprocessing.augment_numpy(tf.cast(images, tf.float32) / 255.0)

    # preprocessing.standardize: 100 calls
    for _ in range(100):
        preprocessing.standardize(tf.random.normal([32, 8]))

    # preprocessing.tokenize: 50 calls, the same texts and vocabulary
    vocab = {w: i + 2 for i, w in enumerate("the a cat dog sat on mat ran".split())}
    for _ in range(50):
        preprocessing.tokenize(["The cat sat", "a dog ran on the mat", "zebra"], vocab)

    # preprocessing.pad_batch: 60 calls, fresh Python lists of ids, maxlen a constant
    for _ in range(60):
        sequences = [[random.randint(1, 49) for _ in range(random.randint(1, 11))] for _ in range(8)]
        preprocessing.pad_batch(sequences, 10)

    # preprocessing.one_hot_labels: 300 calls, depth a constant
    for _ in range(300):
        preprocessing.one_hot_labels(tf.random.uniform([64], 0, 10, dtype=tf.int32), 10)

    # preprocessing.resize_and_crop: 20 batches, size a literal tuple
    dataset = tf.data.Dataset.from_tensor_slices(
        tf.cast(tf.random.uniform([20 * 8, 16, 16, 3], 0, 256, dtype=tf.int32), tf.uint8)
    ).batch(8)
    for images in dataset:
        preprocessing.resize_and_crop(tf.cast(images, tf.float32), (24, 24))

    # preprocessing.decode_and_resize (tf.function): 200 calls cycling over 10 PNGs
    raws = [
        tf.io.encode_png(tf.cast(tf.random.uniform([20, 20, 3], 0, 256, dtype=tf.int32), tf.uint8))
        for _ in range(10)
    ]
    for i in range(200):
        preprocessing.decode_and_resize(raws[i % 10])

    # preprocessing.image_stats (tf.function): 300 batches of uint8 images
    dataset = tf.data.Dataset.from_tensor_slices(
        tf.cast(tf.random.uniform([300 * 8, 16, 16, 3], 0, 256, dtype=tf.int32), tf.uint8)
    ).batch(8)
    for images in dataset:
        preprocessing.image_stats(images)

    # preprocessing.clean_text: 30 calls on the same string tensor
    texts = tf.constant(["Hello, World!  ", "TensorFlow   rocks!!", "a-b c_d"])
    for _ in range(30):
        preprocessing.clean_text(texts)

    # preprocessing.minmax_scale: 400 calls
    x = tf.random.normal([256, 16])
    for i in range(400):
        preprocessing.minmax_scale(x + i)


# ============================================================================ utils
def run_utils():
    # utils.log_scalar: 50 calls, value a Python float, step the loop counter
    for step in range(50):
        utils.log_scalar("loss", 1.0 / (step + 1), step)

    # utils.format_metrics: 20 calls, a fresh dict of Python floats
    for i in range(20):
        utils.format_metrics({"loss": 0.5 / (i + 1), "acc": 0.9})

    # utils.save_weights: twice, the same model and directory
    model = models.build_mlp(4, 8)
    with tempfile.TemporaryDirectory() as directory:
        for step in (1, 2):
            utils.save_weights(model, directory, step)

    # utils.load_config: 3 calls on the same file
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(json.dumps({"lr": 0.01}))
    for _ in range(3):
        utils.load_config(f.name)
    os.remove(f.name)

    # utils.Timer.__init__: once
    timer = utils.Timer()

    # utils.Timer.__enter__ / utils.Timer.__exit__: 5 timed blocks with one Timer
    timer = utils.Timer()
    for _ in range(5):
        with timer:
            pass

    # utils.describe_config (tf.function): 10 calls, a fresh dict of Python numbers
    for i in range(10):
        utils.describe_config({"lr": 0.01 * i, "batch": 32})

    # utils.set_debug_mode: on, then off
    utils.set_debug_mode(True)
    utils.set_debug_mode(False)

    # utils.summarize_tensor: once per layer of a 5-layer summary
    for i in range(1, 6):
        utils.summarize_tensor(f"layer{i}", tf.zeros([i, 3]))
    return timer.elapsed


if __name__ == "__main__":
    tf.random.set_seed(0)
    random.seed(0)
    np.random.seed(0)
    run_training()
    run_compute()
    run_data()
    run_hazards_control()
    run_hazards_state()
    run_hazards_tf4()
    run_loops()
    run_losses()
    run_metrics()
    run_models()
    run_preprocessing()
    run_utils()
    run_layers()  # ends with the ResidualBlock.call training loop, which raises as written
