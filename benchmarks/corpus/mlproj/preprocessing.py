"""Input preprocessing and augmentation."""

import numpy as np
import tensorflow as tf

MEAN = tf.constant([0.485, 0.456, 0.406])
STD = tf.constant([0.229, 0.224, 0.225])


def normalize_images(images):
    x = tf.cast(images, tf.float32) / 255.0
    x = (x - MEAN) / STD
    return tf.clip_by_value(x, -3.0, 3.0)


def random_augment(images, seed):
    x = tf.image.stateless_random_flip_left_right(images, seed=seed)
    x = tf.image.stateless_random_brightness(x, 0.1, seed=seed + 1)
    x = tf.image.stateless_random_contrast(x, 0.8, 1.2, seed=seed + 2)
    x = tf.image.stateless_random_saturation(x, 0.8, 1.2, seed=seed + 3)
    return tf.clip_by_value(x, 0.0, 1.0)


def augment_numpy(images):
    brightness = np.random.uniform(-0.1, 0.1)
    contrast = np.random.uniform(0.8, 1.2)
    mean = tf.reduce_mean(images, axis=[1, 2], keepdims=True)
    x = (images - mean) * contrast + mean + brightness
    return tf.clip_by_value(x, 0.0, 1.0)


def standardize(x):
    mean = np.mean(x.numpy())
    std = np.std(x.numpy()) + 1e-6
    return (x - mean) / std


def tokenize(texts, vocab):
    ids = []
    for text in texts:
        ids.append([vocab.get(tok, 1) for tok in text.lower().split()])
    return ids


def pad_batch(sequences, maxlen):
    padded = [seq[:maxlen] + [0] * (maxlen - len(seq[:maxlen])) for seq in sequences]
    return tf.constant(padded, dtype=tf.int32)


def one_hot_labels(labels, depth):
    return tf.one_hot(labels, depth)


def resize_and_crop(image, size=(24, 24)):
    image = tf.image.resize(image, (size[0] + 4, size[1] + 4))
    return tf.image.central_crop(image, size[0] / (size[0] + 4))


@tf.function
def decode_and_resize(raw, size=(32, 32)):
    image = tf.io.decode_png(raw, channels=3)
    image = tf.image.resize(image, size)
    return tf.cast(image, tf.float32) / 255.0


@tf.function
def image_stats(images):
    x = tf.cast(images, tf.float32)
    mean = tf.reduce_mean(x, axis=[0, 1, 2])
    std = tf.math.reduce_std(x, axis=[0, 1, 2])
    lo = tf.reduce_min(x, axis=[0, 1, 2])
    hi = tf.reduce_max(x, axis=[0, 1, 2])
    return mean, std, lo, hi


def clean_text(texts):
    x = tf.strings.lower(texts)
    x = tf.strings.regex_replace(x, r"[^a-z0-9 ]", " ")
    x = tf.strings.regex_replace(x, r"\s+", " ")
    x = tf.strings.strip(x)
    return tf.strings.split(x).to_tensor(default_value="")


def minmax_scale(x):
    lo = tf.reduce_min(x, axis=0, keepdims=True)
    hi = tf.reduce_max(x, axis=0, keepdims=True)
    scaled = (x - lo) / (hi - lo + 1e-8)
    centered = scaled - tf.reduce_mean(scaled, axis=0)
    return centered * 2.0, lo, hi
