"""TF303 undefined-before-loop: a name first set inside a TensorFlow loop and used after it."""

from conformance.variant import V

VARIANTS = [
    V("last-in-tf-range", """
        import tensorflow as tf

        @tf.function
        def last_value(x):
            for i in tf.range(tf.shape(x)[0]):
                last = x[i]
            return last

        def main():
            return last_value(tf.ones([3]))
        """, tf="same", note="TensorFlow 2.21 accepts a name first bound in a tf.range loop", real=True),
    V("result-in-tensor-while", """
        import tensorflow as tf

        @tf.function
        def countdown(n):
            n = tf.constant(n)
            while n > 0:
                result = n * 2
                n -= 1
            return result

        def main():
            return countdown(3)
        """, tf="same", note="TensorFlow 2.21 accepts a name first bound in a tensor while loop", real=True),
    V("initialised-before-loop", """
        import tensorflow as tf

        @tf.function
        def last_value(x):
            last = tf.zeros_like(x[0])
            for i in tf.range(tf.shape(x)[0]):
                last = x[i]
            return last

        def main():
            return last_value(tf.ones([3]))
        """, tf="same", real=True),
    V("python-range-unrolled", """
        import tensorflow as tf

        @tf.function
        def unrolled(x):
            for i in range(3):
                y = x * i
            return y

        def main():
            return unrolled(tf.ones([2]))
        """, tf="same", real=True),
    V("dataset-loop-loss-used-after", """
        import tensorflow as tf

        @tf.function
        def train(ds):
            for batch in ds:
                loss = tf.reduce_mean(batch)
            return loss

        def main():
            return train(tf.data.Dataset.range(6).map(lambda i: tf.cast(i, tf.float32)).batch(2))
        """, tf="raises", real=True),
    V("temp-used-only-inside", """
        import tensorflow as tf

        @tf.function
        def total(x):
            acc = tf.constant(0.0)
            for i in tf.range(tf.shape(x)[0]):
                sq = x[i] * x[i]
                acc += sq
            return acc

        def main():
            return total(tf.ones([3]))
        """, tf="same", real=True),
    V("loop-over-tensor-param-last-row", """
        import tensorflow as tf

        @tf.function
        def last_row(m):
            for row in m:
                out = row * 2.0
            return out

        def main():
            return last_row(tf.ones([3, 2]))
        """, tf="same", real=True, note="TensorFlow 2.21 accepts it in a loop over a tensor"),
    V("python-list-loop", """
        import tensorflow as tf

        @tf.function
        def apply_all(x, scales):
            for s in scales:
                y = x * s
            return y

        def main():
            return apply_all(tf.ones([2]), [1.0, 2.0])
        """, tf="same", real=True),
    V("rebound-after-loop-before-use", """
        import tensorflow as tf

        @tf.function
        def f(x):
            for i in tf.range(3):
                tmp = x * tf.cast(i, tf.float32)
            tmp = x + 1.0
            return tmp

        def main():
            return f(tf.ones([2]))
        """, tf="same"),
    V("tf-range-literal-result", """
        import tensorflow as tf

        @tf.function
        def f():
            for i in tf.range(5):
                sq = i * i
            return sq

        def main():
            return f()
        """, tf="same"),
    V("train-loop-over-ds-metrics-after", """
        import tensorflow as tf

        w = tf.Variable(1.0)

        @tf.function
        def train_epoch(ds):
            for x in ds:
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(w * x - 1.0))
                w.assign_sub(0.1 * tape.gradient(loss, w))
            return loss

        def main():
            return train_epoch(tf.data.Dataset.range(4).map(lambda i: tf.cast(i, tf.float32)))
        """, tf="raises", real=True),
    V("dataset-built-in-function", """
        import tensorflow as tf

        @tf.function
        def last_mean(n):
            for batch in tf.data.Dataset.range(n).batch(2):
                mean = tf.reduce_mean(batch)
            return mean

        def main():
            return last_mean(tf.constant(6, tf.int64))
        """, tf="raises", real=True),
]
