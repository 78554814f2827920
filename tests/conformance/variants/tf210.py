"""TF210 tensorarray-write-dropped: a TensorArray write whose result is thrown away."""

from conformance.variant import V

VARIANTS = [
    V("gradient-norms-per-sample-write-dropped", """
        import tensorflow as tf

        w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])

        @tf.function
        def gradient_norms(x):
            norms = tf.TensorArray(size=3, dtype=tf.float32)
            for i in range(3):
                noisy = x + 0.1 * float(i)
                with tf.GradientTape() as tape:
                    tape.watch(noisy)
                    out = tf.reduce_sum(tf.matmul(noisy, w))
                grad = tape.gradient(out, noisy)
                norms.write(i, tf.reduce_max(tf.norm(grad, axis=-1)))
            return norms.stack()

        def main():
            return gradient_norms(tf.ones([2, 2]))
        """, tf="differs", real=True, note="a perturbation score's sampling loop (heldout20's clever_t)"),
    V("tf-range-loop-write-dropped", """
        import tensorflow as tf

        @tf.function
        def cumulative(x):
            out = tf.TensorArray(tf.float32, size=tf.shape(x)[0])
            total = tf.constant(0.0)
            for i in tf.range(tf.shape(x)[0]):
                total += x[i]
                out.write(i, total)
            return out.stack()

        def main():
            return cumulative(tf.constant([1.0, 2.0, 3.0]))
        """, tf="differs", real=True),
    V("micro-batch-losses-write-dropped", """
        import tensorflow as tf

        dense = tf.keras.layers.Dense(1, kernel_initializer="ones")

        @tf.function
        def accumulated_loss(x, y):
            losses = tf.TensorArray(tf.float32, size=4)
            for k in range(4):
                xb, yb = x[k::4], y[k::4]
                losses.write(k, tf.reduce_mean(tf.square(dense(xb) - yb)))
            return tf.reduce_mean(losses.stack())

        def main():
            return accumulated_loss(tf.ones([8, 3]), tf.zeros([8, 1]))
        """, tf="differs", real=True),
    V("unstack-dropped-then-read", """
        import tensorflow as tf

        @tf.function
        def first_step(sequence):
            steps = tf.TensorArray(tf.float32, size=3)
            steps.unstack(sequence)
            return steps.read(0) * 2.0

        def main():
            return first_step(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
        """, tf="differs", real=False),
    V("write-reassigned", """
        import tensorflow as tf

        @tf.function
        def squares(x):
            out = tf.TensorArray(tf.float32, size=3)
            for i in range(3):
                out = out.write(i, x * float(i))
            return out.stack()

        def main():
            return squares(tf.constant(2.0))
        """, tf="same", real=True),
    V("chained-writes-reassigned", """
        import tensorflow as tf

        @tf.function
        def pair(a, b):
            out = tf.TensorArray(tf.float32, size=2)
            out = out.write(0, a).write(1, b)
            return out.stack()

        def main():
            return pair(tf.constant(1.0), tf.constant(2.0))
        """, tf="same", real=False),
    V("helper-returns-the-written-array", """
        import tensorflow as tf

        def record(array, i, value):
            return array.write(i, value)

        @tf.function
        def scaled(x):
            out = tf.TensorArray(tf.float32, size=3)
            for i in range(3):
                out = record(out, i, x * 3.0)
            return out.stack()

        def main():
            return scaled(tf.constant(1.5))
        """, tf="same", real=True),
    V("eager-function-write-dropped", """
        import tensorflow as tf

        def collect(x):
            out = tf.TensorArray(tf.float32, size=3)
            for i in range(3):
                out.write(i, x + float(i))
            return out.stack()

        def main():
            return collect(tf.constant(1.0))
        """, tf="same", real=True, note="eagerly a TensorArray changes in place"),
    V("dropped-write-never-read", """
        import tensorflow as tf

        @tf.function
        def total(x):
            trace = tf.TensorArray(tf.float32, size=3)
            acc = tf.constant(0.0)
            for i in range(3):
                acc += x * float(i)
                trace.write(i, acc)
            return acc

        def main():
            return total(tf.constant(2.0))
        """, tf="same", real=True, note="nothing reads the array: nothing is lost"),
    V("scatter-dropped-then-gathered", """
        import tensorflow as tf

        @tf.function
        def reorder(values):
            out = tf.TensorArray(tf.float32, size=3)
            out.scatter([2, 0, 1], values)
            return out.gather([0, 1, 2])

        def main():
            return reorder(tf.constant([10.0, 20.0, 30.0]))
        """, tf="differs", real=False),
]
