"""Two rounds, each with a new Keras model and a new optimizer, trained by the same eager step.

The optimizer builds its variables in the step's first call of each round: one tf.function for
the whole program would raise in round two (only a first trace may create variables); one per
call of ``train_round`` traces each round's objects first.
"""

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import keras
import numpy as np
import tensorflow as tf


def train_step(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def train_round(model, optimizer, x_all, y_all):
    loss = tf.constant(0.0)
    for i in range(40):
        loss = train_step(model, optimizer, x_all[i % 8], y_all[i % 8])
    return float(loss)


def main():
    keras.utils.set_random_seed(3)
    rng = np.random.default_rng(3)
    x_all = tf.constant(rng.normal(size=(8, 16, 6)).astype("float32"))
    y_all = tf.reduce_sum(x_all, axis=-1, keepdims=True)
    for round_ in range(2):
        model = keras.Sequential([keras.Input(shape=(6,)), keras.layers.Dense(16, activation="relu"),
                                  keras.layers.Dense(16, activation="relu"), keras.layers.Dense(1)])
        loss = train_round(model, keras.optimizers.Adam(0.01), x_all, y_all)
        print(f"round {round_}: loss {loss:.4f}")


if __name__ == "__main__":
    main()
