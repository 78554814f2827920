"""A tf.Module exported with tf.saved_model.save, reloaded and served; a checkpoint restored."""
import os
import re
import sys
import tempfile

import numpy as np
import tensorflow as tf


class Scale(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.5], [-0.5]])

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def __call__(self, x):
        return tf.matmul(x, self.w)


@tf.function
def double(x):
    return 2.0 * x


def step(module, x):
    return tf.reduce_sum(module(x))


def main():
    module = Scale()
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    print("sum", [float(step(module, x)) for _ in range(3)])
    print("signature", re.sub(r"\d{6,}", "<id>", module.__call__.pretty_printed_concrete_signatures()))
    concrete = double.get_concrete_function(tf.TensorSpec([2], tf.float32))
    print("concrete", concrete(tf.constant([1.0, 2.0])).numpy().tolist())
    print("is a tf.function", isinstance(module.__call__, tf.types.experimental.PolymorphicFunction))
    with tempfile.TemporaryDirectory() as folder:
        tf.saved_model.save(module, folder)
        loaded = tf.saved_model.load(folder)
        print("served", loaded(x).numpy().ravel().tolist())
        print("signatures", sorted(loaded.signatures))
        checkpoint = tf.train.Checkpoint(module=module)
        path = checkpoint.save(os.path.join(folder, "ckpt"))
        module.w.assign([[0.0], [0.0]])
        checkpoint.restore(path).assert_consumed()
        print("restored", module.w.numpy().ravel().tolist())
    sys.stdout.flush()


if __name__ == "__main__":
    main()
