"""A small real training module used as the source the report tests point at."""

import random

import tensorflow as tf


class Trainer:
    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.steps = 0

    @tf.function
    def step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.steps += 1
        print("step", self.steps)
        return loss


def predict(model, x):
    return tf.nn.softmax(model(x))


def noisy(x):
    if tf.reduce_sum(x) > 0:
        return x * random.random()


def label(x):
    html = "</script><script>alert('x')</script> <b>&amp;</b>"
    return tf.strings.join([html, tf.strings.as_string(x)])
