"""TF607 input-bound (run time: fires from a measured Keras training)."""

from __future__ import annotations

from tfadvisor.model import Severity
from tfadvisor.rules.base import Rule, register


@register
class InputBound(Rule):
    code = "TF607"
    name = "input-bound"
    severity = Severity.WARNING
    scope = "runtime"
    detection = "D"
    summary = "measured: the training step waits on its tf.data input pipeline"
    why = """\
A `tf.data` pipeline runs its `map` functions one element at a time unless given
`num_parallel_calls`, and produces the next batch only when asked unless it ends with `prefetch`:
then the training step and the input pipeline take turns instead of overlapping. A deterministic
preprocessing `map` (decoding, tokenizing, normalising) also runs again every epoch unless the
dataset is `cache()`d after it. `tfadvisor run` measures how long a step waits on data (the same
step on batches already in memory against the program's own pipeline), then measures the
program's pipeline with `num_parallel_calls=tf.data.AUTOTUNE`, `prefetch(tf.data.AUTOTUNE)` and
`cache()` after the deterministic prefix (never after random augmentation or a shuffle, never
above 1 GiB) and advises the edits that were clearly faster. Parallel maps keep the order of
elements; random draws inside them are not reproducible from run to run.
"""
    bad = (
        """\
import tensorflow as tf

def augment(image, label):
    return tf.image.random_flip_left_right(image), label

images = tf.random.uniform([2048, 32, 32, 3])
labels = tf.zeros([2048], tf.int32)
train = tf.data.Dataset.from_tensor_slices((images, labels)).map(augment).batch(64)  # TF607
""",
        """\
import tensorflow as tf

def tokenize(text, label):
    words = tf.strings.split(tf.strings.lower(text))
    return tf.strings.to_hash_bucket_fast(words[:32], 10000), label

texts = tf.constant(["A Fine Film", "An Awful Plot"] * 5000)
labels = tf.constant([1, 0] * 5000)
train = (tf.data.Dataset.from_tensor_slices((texts, labels))
         .map(tokenize)  # TF607
         .shuffle(1000)
         .padded_batch(32))
""",
    )
    good = (
        """\
import tensorflow as tf

def augment(image, label):
    return tf.image.random_flip_left_right(image), label

images = tf.random.uniform([2048, 32, 32, 3])
labels = tf.zeros([2048], tf.int32)
train = (tf.data.Dataset.from_tensor_slices((images, labels))
         .map(augment, num_parallel_calls=tf.data.AUTOTUNE)
         .batch(64)
         .prefetch(tf.data.AUTOTUNE))
""",
        """\
import tensorflow as tf

def tokenize(text, label):
    words = tf.strings.split(tf.strings.lower(text))
    return tf.strings.to_hash_bucket_fast(words[:32], 10000), label

texts = tf.constant(["A Fine Film", "An Awful Plot"] * 5000)
labels = tf.constant([1, 0] * 5000)
train = (tf.data.Dataset.from_tensor_slices((texts, labels))
         .map(tokenize, num_parallel_calls=tf.data.AUTOTUNE)
         .cache()  # deterministic work done once, not every epoch
         .shuffle(1000)
         .padded_batch(32)
         .prefetch(tf.data.AUTOTUNE))
""",
    )
    fix = "safe"
    fix_by = "keras"
    fix_description = ("add num_parallel_calls=tf.data.AUTOTUNE to the map calls, .prefetch(tf.data.AUTOTUNE) "
                       "at the end, .cache() after the deterministic prefix: only the measured ones")
