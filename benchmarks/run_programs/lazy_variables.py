"""A module that creates its weights on its first call, trained by a decorated train step.

``Dense`` builds its kernel lazily, on the first call, from a seeded random initializer: inside
the tf.function that is the first trace, and the graph's random stream draws other numbers than
eager code would. Removing the decorator changes the initial weights and every loss after.

Run: python lazy_variables.py [--epochs N]
"""

from __future__ import annotations

import argparse
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np
import tensorflow as tf

FEATURES = 12
BATCH = 32
BATCHES = 60


class Dense(tf.Module):
    def __init__(self, units: int, name: str) -> None:
        super().__init__(name=name)
        self.units = units
        self.kernel = None
        self.bias = None

    def __call__(self, x):
        if self.kernel is None:
            self.kernel = tf.Variable(tf.random.normal([x.shape[-1], self.units], stddev=0.3, seed=7))
            self.bias = tf.Variable(tf.zeros([self.units]))
        return tf.matmul(x, self.kernel) + self.bias


class Net(tf.Module):
    def __init__(self) -> None:
        super().__init__()
        self.hidden = Dense(24, "hidden")
        self.out = Dense(1, "out")

    def __call__(self, x):
        return self.out(tf.nn.relu(self.hidden(x)))


@tf.function
def train_step(net, x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(net(x) - y))
    variables = net.trainable_variables
    grads = tape.gradient(loss, variables)
    for var, grad in zip(variables, grads):
        var.assign_sub(0.05 * grad)
    return loss


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=3)
    epochs = parser.parse_args().epochs
    tf.random.set_seed(11)
    rng = np.random.default_rng(11)
    x_all = rng.normal(size=(BATCH * BATCHES, FEATURES)).astype("float32")
    y_all = (x_all[:, :1] * 0.5 - x_all[:, 1:2]).astype("float32")
    net = Net()
    for epoch in range(epochs):
        total = 0.0
        for i in range(BATCHES):
            total += float(train_step(net, tf.constant(x_all[i * BATCH:(i + 1) * BATCH]),
                                      tf.constant(y_all[i * BATCH:(i + 1) * BATCH])))
        print(f"epoch {epoch + 1}: loss {total / BATCHES:.5f}")
    print(f"result: final loss {total / BATCHES:.5f}")


if __name__ == "__main__":
    main()
