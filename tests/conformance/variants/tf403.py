"""TF403 assert-on-tensor: a Python assert on a tensor in graph code."""

from conformance.variant import V

VARIANTS = [
    V("assert-positive-fails", """
        import tensorflow as tf

        @tf.function
        def safe_log(x):
            assert tf.reduce_min(x) > 0.0, "x must be positive"
            return tf.math.log(x)

        def main():
            return safe_log(-tf.ones([2]))
        """, tf="differs", real=True, note="eager raises AssertionError, the graph InvalidArgumentError"),
    V("assert-f-string-message", """
        import tensorflow as tf

        @tf.function
        def normalise(x):
            total = tf.reduce_sum(x)
            assert total != 0, f"cannot normalise, sum is {total}"
            return x / total

        def main():
            return normalise(tf.zeros([2]))
        """, tf="differs", real=True),
    V("debugging-assert-instead", """
        import tensorflow as tf

        @tf.function
        def safe_log(x):
            tf.debugging.assert_positive(x, message="x must be positive")
            return tf.math.log(x)

        def main():
            return safe_log(tf.ones([2]))
        """, tf="same", real=True),
    V("assert-on-static-rank", """
        import tensorflow as tf

        @tf.function
        def flatten(x):
            assert x.shape.rank == 2, "expects a matrix"
            return tf.reshape(x, [-1])

        def main():
            return flatten(tf.ones([2, 2]))
        """, tf="same", real=True),
    V("assert-passes", """
        import tensorflow as tf

        @tf.function
        def safe_log(x):
            assert tf.reduce_min(x) > 0.0, "x must be positive"
            return tf.math.log(x)

        def main():
            return safe_log(tf.ones([2]))
        """, tf="raises", real=True, note="a tensor assert that holds: the graph runs the check and passes"),
    V("assert-shape-equal-fails", """
        import tensorflow as tf

        @tf.function
        def add(a, b):
            assert tf.reduce_all(tf.shape(a) == tf.shape(b))
            return a + b

        def main():
            return add(tf.ones([2]), tf.ones([1]))
        """, tf="differs", real=True),
    V("assert-on-python-arg", """
        import tensorflow as tf

        @tf.function
        def repeat(x, n):
            assert n > 0
            return tf.tile(x, [n])

        def main():
            return repeat(tf.ones([2]), 2)
        """, tf="same", real=True),
    V("assert-isinstance", """
        import tensorflow as tf

        @tf.function
        def f(x):
            assert isinstance(x, tf.Tensor)
            return x + 1.0

        def main():
            return f(tf.ones([2]))
        """, tf="same", real=True),
    V("assert-nan-check-fails", """
        import tensorflow as tf

        @tf.function
        def step(x):
            loss = tf.reduce_mean(x)
            assert not tf.math.is_nan(loss)
            return loss

        def main():
            return step(tf.constant([float("nan")]))
        """, tf="differs", real=True),
    V("assert-dtype", """
        import tensorflow as tf

        @tf.function
        def f(x):
            assert x.dtype == tf.float32
            return x * 2.0

        def main():
            return f(tf.ones([2]))
        """, tf="same"),
]
