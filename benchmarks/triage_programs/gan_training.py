"""A small DCGAN-style training loop on synthetic data (custom loop, two optimizers)."""

import time

import numpy as np
import tensorflow as tf

LATENT = 32
BATCH = 64
history = {"g": [], "d": []}


def make_generator():
    return tf.keras.Sequential([
        tf.keras.layers.Dense(128, activation="relu", input_shape=(LATENT,)),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(28 * 28, activation="tanh"),
        tf.keras.layers.Reshape((28, 28, 1)),
    ])


def make_discriminator():
    return tf.keras.Sequential([
        tf.keras.layers.Flatten(input_shape=(28, 28, 1)),
        tf.keras.layers.Dense(256),
        tf.keras.layers.LeakyReLU(0.2),
        tf.keras.layers.Dense(1),
    ])


generator = make_generator()
discriminator = make_discriminator()
g_opt = tf.keras.optimizers.Adam(1e-4)
d_opt = tf.keras.optimizers.Adam(1e-4)
bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)


def discriminator_loss(real_logits, fake_logits):
    real = bce(tf.ones_like(real_logits), real_logits)
    fake = bce(tf.zeros_like(fake_logits), fake_logits)
    return real + fake


def generator_loss(fake_logits):
    return bce(tf.ones_like(fake_logits), fake_logits)


@tf.function
def train_step(images):
    noise = tf.random.normal([tf.shape(images)[0], LATENT])
    with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
        fakes = generator(noise, training=True)
        real_logits = discriminator(images, training=True)
        fake_logits = discriminator(fakes, training=True)
        g_loss = generator_loss(fake_logits)
        d_loss = discriminator_loss(real_logits, fake_logits)
    g_grads = g_tape.gradient(g_loss, generator.trainable_variables)
    d_grads = d_tape.gradient(d_loss, discriminator.trainable_variables)
    g_opt.apply_gradients(zip(g_grads, generator.trainable_variables))
    d_opt.apply_gradients(zip(d_grads, discriminator.trainable_variables))
    history["g"].append(g_loss)
    return g_loss, d_loss


@tf.function
def sample(n):
    seed = np.random.normal(size=(n, LATENT)).astype("float32")
    return generator(seed, training=False)


def dataset():
    images = np.random.uniform(-1, 1, size=(1024, 28, 28, 1)).astype("float32")
    return tf.data.Dataset.from_tensor_slices(images).shuffle(1024).batch(BATCH)


def train(epochs):
    ds = dataset()
    for epoch in range(epochs):
        start = time.time()
        for batch in ds:
            g_loss, d_loss = train_step(batch)
        history["d"].append(float(d_loss))
        print(f"epoch {epoch}: g={float(g_loss):.3f} d={float(d_loss):.3f} ({time.time() - start:.1f}s)")
    return sample(16)


if __name__ == "__main__":
    train(2)
