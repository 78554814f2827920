"""Image classification: tf.data augmentation, a small CNN, a custom loop with metrics and early stop."""

import random

import numpy as np
import tensorflow as tf

IMG = 32
NUM_CLASSES = 10
CONFIG = {"lr": 1e-3, "batch": 32}


@tf.function
def augment(image, label):
    if random.random() > 0.5:
        image = tf.image.flip_left_right(image)
    image = tf.image.random_brightness(image, 0.1)
    h, w = tf.shape(image)[0], tf.shape(image)[1]
    image = tf.image.resize_with_crop_or_pad(image, h + 4, w + 4)
    image = tf.image.random_crop(image, [IMG, IMG, 3])
    return image, label


def normalise(image, label):
    return tf.cast(image, tf.float32) / 255.0, label


def make_dataset(n=512):
    images = np.random.randint(0, 255, size=(n, IMG, IMG, 3)).astype("uint8")
    labels = np.random.randint(0, NUM_CLASSES, size=(n,))
    ds = tf.data.Dataset.from_tensor_slices((images, labels))
    ds = ds.map(normalise).map(augment, num_parallel_calls=tf.data.AUTOTUNE)
    return ds.shuffle(n).batch(CONFIG["batch"]).prefetch(tf.data.AUTOTUNE)


class SmallCNN(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv1 = tf.keras.layers.Conv2D(32, 3, activation="relu")
        self.pool = tf.keras.layers.MaxPooling2D()
        self.conv2 = tf.keras.layers.Conv2D(64, 3, activation="relu")
        self.flat = tf.keras.layers.Flatten()
        self.dropout = tf.keras.layers.Dropout(0.3)
        self.head = tf.keras.layers.Dense(NUM_CLASSES)

    def call(self, x, training=False):
        x = self.pool(self.conv1(x))
        x = self.pool(self.conv2(x))
        return self.head(self.dropout(self.flat(x), training=training))


model = SmallCNN()
optimizer = tf.keras.optimizers.Adam(CONFIG["lr"])
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_acc = tf.keras.metrics.SparseCategoricalAccuracy()
val_acc = tf.keras.metrics.SparseCategoricalAccuracy()


@tf.function
def train_step(images, labels):
    with tf.GradientTape() as tape:
        logits = model(images, training=True)
        loss = loss_fn(labels, logits)
        assert not tf.math.is_nan(loss), "loss is NaN"
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    train_acc.update_state(labels, logits)
    return loss


@tf.function
def eval_step(images, labels):
    logits = model(images, training=False)
    val_acc.update_state(labels, logits)
    preds = tf.argmax(logits, axis=-1)
    return [p for p in preds if p >= 0]


def confusion(labels, preds):
    matrix = np.zeros((NUM_CLASSES, NUM_CLASSES), dtype=int)
    for t, p in zip(labels.numpy(), preds.numpy()):
        matrix[t, p] += 1
    return matrix


def fit(epochs=3, patience=2):
    train_ds, val_ds = make_dataset(), make_dataset(128)
    best, waited = 0.0, 0
    for epoch in range(epochs):
        for images, labels in train_ds:
            loss = train_step(images, labels)
        for images, labels in val_ds:
            eval_step(images, labels)
        acc = float(val_acc.result())
        print(f"epoch {epoch} loss {float(loss):.3f} train {float(train_acc.result()):.3f} val {acc:.3f}")
        train_acc.reset_state()
        val_acc.reset_state()
        if acc > best:
            best, waited = acc, 0
        else:
            waited += 1
            if waited >= patience:
                break
    return best


if __name__ == "__main__":
    fit()
