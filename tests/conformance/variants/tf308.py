"""TF308 loop-variable-changes-type: a loop variable changes type, dtype or structure in a TF loop."""

from conformance.variant import V

VARIANTS = [
    V("int-total-over-dataset", """
        import tensorflow as tf

        @tf.function
        def mean_loss(dataset):
            total = 0
            for batch in dataset:
                total += tf.reduce_mean(batch)
            return total

        def main():
            return mean_loss(tf.data.Dataset.range(4).map(lambda i: tf.cast(i, tf.float32)).batch(2))
        """, tf="raises", real=True),
    V("python-counter-becomes-tensor-in-while", """
        import tensorflow as tf

        @tf.function
        def halve_until_small(x):
            steps = 0
            while steps < 10:
                x = x / 2.0
                steps = steps + tf.constant(1)
            return x

        def main():
            return halve_until_small(tf.ones([2]))
        """, tf="raises", real=True),
    V("none-before-tf-range", """
        import tensorflow as tf

        @tf.function
        def last_row(x):
            last = None
            for i in tf.range(tf.shape(x)[0]):
                last = x[i]
            return last

        def main():
            return last_row(tf.ones([3, 2]))
        """, tf="same", note="TensorFlow 2.21 accepts None before a tf.range loop", real=True),
    V("float-total-over-dataset", """
        import tensorflow as tf

        @tf.function
        def mean_loss(dataset):
            total = 0.0
            for batch in dataset:
                total += tf.reduce_mean(batch)
            return total

        def main():
            return mean_loss(tf.data.Dataset.range(4).map(lambda i: tf.cast(i, tf.float32)).batch(2))
        """, tf="same", real=True),
    V("int-counter-stays-int", """
        import tensorflow as tf

        @tf.function
        def count(x):
            n = 0
            for i in tf.range(tf.shape(x)[0]):
                n += 1
            return n

        def main():
            return count(tf.ones([3]))
        """, tf="same", real=True),
    V("concat-onto-a-start-sized-by-a-tensor", """
        import tensorflow as tf

        @tf.function
        def repeat_indices(repeats):
            arr = tf.repeat(0, repeats[0])
            for i in tf.range(1, tf.size(repeats)):
                arr = tf.concat([arr, tf.repeat(i, repeats[i])], axis=0)
            return arr

        def main():
            repeat_indices(tf.constant([2, 1, 1, 3]))
            return repeat_indices(tf.constant([1, 5, 2]))
        """, tf="same", real=True),
    V("growing-concat-without-invariant", """
        import tensorflow as tf

        @tf.function
        def collect(n):
            acc = tf.zeros([0])
            for i in tf.range(n):
                acc = tf.concat([acc, [tf.cast(i, tf.float32)]], 0)
            return acc

        def main():
            return collect(tf.constant(3))
        """, tf="raises", real=True),
    V("growing-concat-with-shape-invariant", """
        import tensorflow as tf

        @tf.function
        def collect(n):
            acc = tf.zeros([0])
            for i in tf.range(n):
                tf.autograph.experimental.set_loop_options(shape_invariants=[(acc, tf.TensorShape([None]))])
                acc = tf.concat([acc, [tf.cast(i, tf.float32)]], 0)
            return acc

        def main():
            return collect(tf.constant(3))
        """, tf="same", real=True),
    V("int-total-over-int-dataset", """
        import tensorflow as tf

        @tf.function
        def count_items(dataset):
            total = 0
            for batch in dataset:
                total += tf.size(batch)
            return total

        def main():
            return count_items(tf.data.Dataset.range(4).batch(2))
        """, tf="same", real=True, note="tf.size gives int32, the literal 0 too"),
    V("int-literal-plus-float-in-tf-range", """
        import tensorflow as tf

        @tf.function
        def f(x, n):
            s = 0
            for i in tf.range(n):
                s += tf.reduce_mean(x)
            return s

        def main():
            return f(tf.ones([2]), tf.constant(3))
        """, tf="raises", note="0 (int32 in the loop) then a float32 tensor"),
    V("tensor-start-same-dtype", """
        import tensorflow as tf

        @tf.function
        def f(x):
            acc = tf.zeros_like(x)
            i = tf.constant(0)
            while i < 3:
                acc += x
                i += 1
            return acc

        def main():
            return f(tf.ones([2]))
        """, tf="same", real=True),
    V("python-loop-var-changes-type-fine", """
        import tensorflow as tf

        @tf.function
        def f(x):
            acc = None
            for i in range(3):
                acc = x if acc is None else acc + x
            return acc

        def main():
            return f(tf.ones([2]))
        """, tf="same", real=True, note="a Python loop is unrolled: the variable may change type"),
    V("none-before-dataset-loop", """
        import tensorflow as tf

        @tf.function
        def last_batch(dataset):
            last = None
            for batch in dataset:
                last = batch
            return last

        def main():
            return last_batch(tf.data.Dataset.range(4).batch(2))
        """, tf="raises", real=True),
]
