"""Train a small MLP classifier with a hand-written training loop.

Synthetic data: points in 20 dimensions labelled by which of 4 random directions they lie
closest to. The train step is a plain eager function called for every small batch: this is the
kind of function where graph mode pays off (many small ops, called hundreds of times).

Run: python examples/mlp_training.py
"""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import tensorflow as tf
import keras

FEATURES = 20
CLASSES = 4
BATCH = 32
EPOCHS = 3


def make_dataset(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Points around CLASSES random centres; the label is the nearest centre."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(CLASSES, FEATURES)).astype("float32")
    x = rng.normal(size=(n, FEATURES)).astype("float32")
    y = np.argmax(x @ centres.T, axis=1).astype("int32")
    return x, y


def build_model() -> keras.Model:
    return keras.Sequential(
        [
            keras.Input(shape=(FEATURES,)),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(64, activation="relu"),
            keras.layers.Dense(CLASSES),
        ]
    )


def train_step(model, optimizer, loss_fn, x, y):
    """One gradient step on one batch; returns the batch loss."""
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = loss_fn(y, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def evaluate(model, x, y) -> float:
    logits = model(x, training=False)
    predictions = tf.argmax(logits, axis=1, output_type=tf.int32)
    return float(tf.reduce_mean(tf.cast(predictions == y, tf.float32)))


def main() -> None:
    keras.utils.set_random_seed(0)
    x_train, y_train = make_dataset(12_800, seed=1)
    x_test, y_test = make_dataset(2_000, seed=1)
    model = build_model()
    optimizer = keras.optimizers.SGD(learning_rate=0.05)
    loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    for epoch in range(EPOCHS):
        losses = []
        for start in range(0, len(x_train), BATCH):
            xb = tf.constant(x_train[start : start + BATCH])
            yb = tf.constant(y_train[start : start + BATCH])
            losses.append(float(train_step(model, optimizer, loss_fn, xb, yb)))
        print(f"epoch {epoch + 1}: loss {np.mean(losses):.4f}")

    accuracy = evaluate(model, tf.constant(x_test), tf.constant(y_test))
    print(f"result: test accuracy {accuracy:.4f}")


if __name__ == "__main__":
    main()
