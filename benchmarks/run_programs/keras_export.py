"""A subclassed Keras model with tracked sub-layers, trained in a custom loop, saved as .keras and
exported as a SavedModel whose ``serve`` method has an input signature.

Keras tracks the layers held in attributes and lists; the saved .keras file and the exported
SavedModel must give the same predictions as the live model.

Run: python keras_export.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras
import numpy as np
import tensorflow as tf

FEATURES = 6
BATCH = 32
BATCHES = 50


@keras.saving.register_keras_serializable(package="run_programs")
class Residual(keras.layers.Layer):
    def __init__(self, units: int, **kwargs) -> None:
        super().__init__(**kwargs)
        self.units = units
        self.inner = keras.layers.Dense(units, activation="relu")
        self.outer = keras.layers.Dense(units)

    def call(self, x):
        return x + self.outer(self.inner(x))

    def get_config(self):
        return {**super().get_config(), "units": self.units}


@keras.saving.register_keras_serializable(package="run_programs")
class Tower(keras.Model):
    def __init__(self, width: int = 16, depth: int = 2, **kwargs) -> None:
        super().__init__(**kwargs)
        self.width, self.depth = width, depth
        self.stem = keras.layers.Dense(width)
        self.blocks = [Residual(width) for _ in range(depth)]
        self.head = keras.layers.Dense(1)

    def call(self, x):
        h = self.stem(x)
        for block in self.blocks:
            h = block(h)
        return self.head(h)

    def get_config(self):
        return {**super().get_config(), "width": self.width, "depth": self.depth}


class Server(tf.Module):
    def __init__(self, model: keras.Model) -> None:
        super().__init__()
        self.model = model

    @tf.function(input_signature=[tf.TensorSpec([None, FEATURES], tf.float32, name="features")])
    def serve(self, features):
        return {"score": self.model(features, training=False)}


def train_step(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    epochs = parser.parse_args().epochs
    keras.utils.set_random_seed(6)
    rng = np.random.default_rng(6)
    x_all = rng.normal(size=(BATCH * BATCHES, FEATURES)).astype("float32")
    y_all = np.cos(x_all[:, :1]).astype("float32")
    model, optimizer = Tower(), keras.optimizers.Adam(0.005)
    for epoch in range(epochs):
        total = 0.0
        for i in range(BATCHES):
            total += float(train_step(model, optimizer, tf.constant(x_all[i * BATCH:(i + 1) * BATCH]),
                                      tf.constant(y_all[i * BATCH:(i + 1) * BATCH])))
        print(f"epoch {epoch + 1}: loss {total / BATCHES:.5f}")
    probe = tf.constant(x_all[:3])
    live = model(probe).numpy()
    print("tracked weights:", len(model.weights))
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "tower.keras")
        model.save(path)
        reloaded = keras.models.load_model(path)
        export = os.path.join(folder, "serving")
        server = Server(model)
        tf.saved_model.save(server, export, signatures={"serving_default": server.serve})
        served = tf.saved_model.load(export)
        scored = served.signatures["serving_default"](features=probe)["score"].numpy()
        called = served.serve(probe)["score"].numpy()
    print("result: .keras reload equal", bool(np.allclose(live, reloaded(probe).numpy(), atol=1e-5)))
    print("result: served equal", bool(np.allclose(live, scored, atol=1e-5)), bool(np.allclose(live, called, atol=1e-5)))
    print("result: prediction", np.round(live[:, 0], 4).tolist())


if __name__ == "__main__":
    main()
