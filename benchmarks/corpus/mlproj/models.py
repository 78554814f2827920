"""Model builders and the project's Keras models."""

import keras
import tensorflow as tf


def build_mlp(input_dim, hidden=64, classes=10):
    """A small classifier; layers are created here, weights on first call."""
    model = keras.Sequential(
        [
            keras.Input(shape=(input_dim,)),
            keras.layers.Dense(hidden, activation="relu"),
            keras.layers.Dense(hidden, activation="relu"),
            keras.layers.Dense(classes),
        ]
    )
    return model


def build_cnn(input_shape=(16, 16, 3), classes=10):
    inputs = keras.Input(shape=input_shape)
    x = keras.layers.Conv2D(8, 3, activation="relu")(inputs)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(classes)(x)
    return keras.Model(inputs, outputs)


def make_optimizer(name="adam", learning_rate=1e-3):
    if name == "adam":
        return keras.optimizers.Adam(learning_rate)
    if name == "sgd":
        return keras.optimizers.SGD(learning_rate, momentum=0.9)
    raise ValueError(f"unknown optimizer {name}")


def count_params(model):
    return sum(int(tf.size(w)) for w in model.trainable_weights)


class Classifier(keras.Model):
    """Subclassed model used by the custom training loop."""

    def __init__(self, hidden=32, classes=10):
        super().__init__()
        self.hidden = keras.layers.Dense(hidden, activation="relu")
        self.out = keras.layers.Dense(classes)

    def call(self, x, training=False):
        h = self.hidden(x)
        return self.out(h)

    def predict_proba(self, x):
        logits = self(x)
        probs = tf.nn.softmax(logits, axis=-1)
        top = tf.reduce_max(probs, axis=-1)
        return probs, top


def build_embedding_model(vocab_size, dim=16):
    return keras.Sequential(
        [
            keras.Input(shape=(None,), dtype="int32"),
            keras.layers.Embedding(vocab_size, dim),
            keras.layers.GlobalAveragePooling1D(),
            keras.layers.Dense(1),
        ]
    )
