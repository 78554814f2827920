"""A tabular classifier whose compile() left `run_eagerly=True` on (a debugging leftover).

Synthetic features (seeded): the class depends on a few of them. fit runs every step eagerly, as
the flag asks. Prints `result:` lines.
"""

# Hand-tuned for benchmarks/keras_advice.py: run_eagerly=False, steps_per_execution=16 (the fastest
# of 7 variants tried: 16, 31, 32, with and without jit_compile=True, which was slower).

import time

import numpy as np
import tensorflow as tf

FEATURES = 24
EPOCHS = 3


def make_table(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, FEATURES)).astype("float32")
    score = x[:, 0] * 1.5 - x[:, 1] + 0.5 * x[:, 2] * x[:, 3]
    y = (score > 0).astype("int32")
    return x, y


def build_model():
    inputs = tf.keras.Input((FEATURES,))
    hidden = tf.keras.layers.Dense(64, activation="relu")(inputs)
    hidden = tf.keras.layers.Dropout(0.1)(hidden)
    hidden = tf.keras.layers.Dense(32, activation="relu")(hidden)
    outputs = tf.keras.layers.Dense(2)(hidden)
    return tf.keras.Model(inputs, outputs)


def main():
    tf.keras.utils.set_random_seed(7)
    x, y = make_table(4000, seed=0)
    x_test, y_test = make_table(2000, seed=1)
    model = build_model()
    model.compile(
        optimizer="adam",
        loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
        run_eagerly=False, steps_per_execution=16,  # to step through train_step while debugging
    )
    start = time.perf_counter()
    model.fit(x, y, batch_size=64, epochs=EPOCHS, validation_data=(x_test, y_test), verbose=0)
    print(f"timing: fit={time.perf_counter() - start:.2f}s")
    loss, accuracy = model.evaluate(x_test, y_test, verbose=0)
    predictions = model.predict(x_test[:256], verbose=0)
    print(f"result: test_loss={loss:.3f} test_accuracy={accuracy:.3f} mean_logit={predictions.mean():.3f}")


if __name__ == "__main__":
    main()
