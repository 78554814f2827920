"""A Keras model trained under OneDeviceStrategy with a decorated, jit-compiled predict step.

``train_step`` runs through ``strategy.run`` (a distributed step: stays a graph); ``predict``
sets ``jit_compile=True`` (a deliberate option: stays a graph).

Run: python one_device.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras
import numpy as np
import tensorflow as tf

FEATURES = 8
BATCH = 32
BATCHES = 50


class Loop:
    def __init__(self, strategy, model, optimizer) -> None:
        self.strategy, self.model, self.optimizer = strategy, model, optimizer

    @tf.function
    def train_step(self, x, y):
        def replica(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self.model(x, training=True) - y))
            grads = tape.gradient(loss, self.model.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
            return loss
        return self.strategy.run(replica, args=(x, y))

    @tf.function(jit_compile=True)
    def predict(self, x):
        return self.model(x, training=False)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    epochs = parser.parse_args().epochs
    keras.utils.set_random_seed(12)
    rng = np.random.default_rng(12)
    x_all = rng.normal(size=(BATCH * BATCHES, FEATURES)).astype("float32")
    y_all = np.tanh(x_all.sum(axis=1, keepdims=True)).astype("float32")
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    with strategy.scope():
        model = keras.Sequential([keras.Input(shape=(FEATURES,)), keras.layers.Dense(16, activation="relu"),
                                  keras.layers.Dense(1)])
        optimizer = keras.optimizers.SGD(0.05)
    loop = Loop(strategy, model, optimizer)
    for epoch in range(epochs):
        total = 0.0
        for i in range(BATCHES):
            total += float(loop.train_step(tf.constant(x_all[i * BATCH:(i + 1) * BATCH]),
                                           tf.constant(y_all[i * BATCH:(i + 1) * BATCH])))
        print(f"epoch {epoch + 1}: loss {total / BATCHES:.5f}")
    preds = [float(tf.reduce_mean(loop.predict(tf.constant(x_all[i * BATCH:(i + 1) * BATCH])))) for i in range(BATCHES)]
    print(f"result: final loss {total / BATCHES:.5f}; mean prediction {np.mean(preds):.5f}")


if __name__ == "__main__":
    main()
