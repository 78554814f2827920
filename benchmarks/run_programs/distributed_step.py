"""A custom training loop under tf.distribute (MirroredStrategy on the CPU, one replica).

``distributed_step`` calls ``strategy.run``: a distributed step must run as a graph. The model
and optimizer are made in the strategy's scope; the dataset is distributed.

Run: python distributed_step.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras
import numpy as np
import tensorflow as tf

FEATURES = 8
GLOBAL_BATCH = 32
BATCHES = 50


def make_dataset(seed: int) -> tf.data.Dataset:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(GLOBAL_BATCH * BATCHES, FEATURES)).astype("float32")
    y = (x @ np.linspace(-1, 1, FEATURES).reshape(FEATURES, 1)).astype("float32")
    return tf.data.Dataset.from_tensor_slices((x, y)).batch(GLOBAL_BATCH)


class Trainer:
    def __init__(self, strategy, model, optimizer) -> None:
        self.strategy, self.model, self.optimizer = strategy, model, optimizer

    def step_fn(self, x, y):
        with tf.GradientTape() as tape:
            per_example = tf.square(self.model(x, training=True) - y)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    @tf.function
    def distributed_step(self, x, y):
        losses = self.strategy.run(self.step_fn, args=(x, y))
        return self.strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    epochs = parser.parse_args().epochs
    keras.utils.set_random_seed(5)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        model = keras.Sequential([keras.Input(shape=(FEATURES,)), keras.layers.Dense(16, activation="relu"),
                                  keras.layers.Dense(1)])
        optimizer = keras.optimizers.SGD(0.05)
    dataset = strategy.experimental_distribute_dataset(make_dataset(5))

    trainer = Trainer(strategy, model, optimizer)
    for epoch in range(epochs):
        total = 0.0
        for x, y in dataset:
            total += float(trainer.distributed_step(x, y))
        print(f"epoch {epoch + 1}: loss {total / BATCHES:.5f}")
    print(f"result: final loss {total / BATCHES:.5f}")


if __name__ == "__main__":
    main()
