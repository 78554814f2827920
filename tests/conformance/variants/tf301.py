"""TF301 return-in-one-branch: a tensor if that returns on one path only."""

from conformance.variant import V

VARIANTS = [
    V("greater-returns-in-body-only", """
        import tensorflow as tf

        @tf.function
        def f(a, b):
            if tf.greater(a, b):
                return tf.constant(1)

        def main():
            return f(tf.constant(2), tf.constant(1))
        """, tf="raises", real=True, note="the seed's example"),
    V("falls-through-after-print", """
        import tensorflow as tf

        @tf.function
        def clip(x):
            total = tf.reduce_sum(x)
            if total > 10.0:
                return x / total
            tf.print("small")

        def main():
            return clip(tf.ones([2]))
        """, tf="raises", real=True),
    V("returns-on-both-paths", """
        import tensorflow as tf

        @tf.function
        def f(a, b):
            if tf.greater(a, b):
                return tf.constant(1)
            return tf.constant(0)

        def main():
            return f(tf.constant(2), tf.constant(1))
        """, tf="same", real=True),
    V("python-flag-returns-one-branch", """
        import tensorflow as tf

        @tf.function
        def f(x, training=False):
            if not training:
                return x

        def main():
            return f(tf.ones([2]))
        """, tf="empty", real=True),
    V("early-return-then-else-path-returns", """
        import tensorflow as tf

        @tf.function
        def safe_div(x, y):
            if tf.reduce_all(y == 0.0):
                return tf.zeros_like(x)
            z = x / y
            return z

        def main():
            return safe_div(tf.ones([2]), tf.ones([2]))
        """, tf="same", real=True),
    V("reservoir-if-else-both-return", """
        import tensorflow as tf

        @tf.function
        def sample(values, size):
            if tf.less(tf.size(values), size):
                return tf.concat([values, [1.0]], 0)
            else:
                smallest = tf.reduce_min(values)
                if smallest < 0.5:
                    return values
                return values * 2.0

        def main():
            return sample(tf.ones([2]), tf.constant(4))
        """, tf="same", real=True),
    V("nested-if-missing-inner-else", """
        import tensorflow as tf

        @tf.function
        def pick(x):
            if tf.reduce_sum(x) > 0:
                if tf.reduce_max(x) > 5:
                    return x * 2.0
            else:
                return x

        def main():
            return pick(tf.ones([2]))
        """, tf="raises", real=True),
    V("return-none-both-ways", """
        import tensorflow as tf

        v = tf.Variable(0.0)

        @tf.function
        def maybe_update(x):
            if tf.reduce_sum(x) > 0:
                v.assign_add(1.0)
                return
            v.assign_sub(1.0)

        def main():
            maybe_update(tf.ones([2]))
            return v
        """, tf="raises", note="no value on either path: tf.cond has nothing to match"),
    V("raise-on-other-path", """
        import tensorflow as tf

        @tf.function
        def checked(x):
            if tf.reduce_all(x > 0):
                return tf.math.log(x)
            raise ValueError("needs positive values")

        def main():
            return checked(tf.ones([2]))
        """, tf="raises", note="a Python raise on a tensor path: AutoGraph cannot make it a branch"),
    V("elif-chain-without-final-return", """
        import tensorflow as tf

        @tf.function
        def scale(x):
            s = tf.reduce_sum(x)
            if s > 10.0:
                return x * 2.0
            elif s > 0.0:
                return x

        def main():
            return scale(tf.ones([2]))
        """, tf="raises", real=True),
]
