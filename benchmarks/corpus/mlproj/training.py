"""Training and evaluation steps for the custom training loop."""

import keras
import tensorflow as tf

loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)


def train_step(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = loss_fn(y, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def eval_step(model, x, y):
    logits = model(x, training=False)
    loss = loss_fn(y, logits)
    preds = tf.argmax(logits, axis=-1, output_type=tf.int32)
    acc = tf.reduce_mean(tf.cast(tf.equal(preds, y), tf.float32))
    return loss, acc


def train_step_l2(model, optimizer, x, y, weight_decay=1e-4):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        l2 = tf.add_n([tf.nn.l2_loss(w) for w in model.trainable_variables])
        loss = loss_fn(y, logits) + weight_decay * l2
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def distill_step(teacher, student, optimizer, x, temperature=2.0):
    teacher_probs = tf.nn.softmax(teacher(x, training=False) / temperature)
    with tf.GradientTape() as tape:
        student_logits = student(x, training=True) / temperature
        loss = tf.reduce_mean(
            tf.nn.softmax_cross_entropy_with_logits(labels=teacher_probs, logits=student_logits)
        )
    grads = tape.gradient(loss, student.trainable_variables)
    optimizer.apply_gradients(zip(grads, student.trainable_variables))
    return loss


@tf.function
def train_step_compiled(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = loss_fn(y, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def train_step_warmup(model, optimizer, x, y, step, base_lr=0.01, warmup=100):
    lr = base_lr * min(1.0, (step + 1) / warmup)
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = loss_fn(y, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    for g, v in zip(grads, model.trainable_variables):
        v.assign_sub(lr * g)
    return loss


class Trainer:
    """Owns the model and optimizer; counts steps and keeps a loss history."""

    def __init__(self, model, optimizer):
        self.model = model
        self.optimizer = optimizer
        self.steps = 0
        self.history = []

    def train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, self.model(x, training=True))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.steps += 1
        return loss

    def record(self, loss):
        self.history.append(float(loss))

    def fit(self, dataset, epochs=1):
        for epoch in range(epochs):
            for x, y in dataset:
                loss = self.train_step(x, y)
                self.record(loss)
            print(f"epoch {epoch}: loss {self.history[-1]:.4f} after {self.steps} steps")
        return self.history
