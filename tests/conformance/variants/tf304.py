"""TF304 tensor-as-bool: Python needs the truth value of a symbolic tensor."""

from conformance.variant import V

VARIANTS = [
    V("comprehension-condition-on-tensor", """
        import tensorflow as tf

        @tf.function
        def positive_rows(rows):
            return [r for r in rows if tf.reduce_sum(r) > 0]

        def main():
            return positive_rows([tf.ones([2]), -tf.ones([2])])
        """, tf="raises", real=True),
    V("bool-of-reduce-any", """
        import tensorflow as tf

        @tf.function
        def any_nan(x):
            return bool(tf.reduce_any(tf.math.is_nan(x)))

        def main():
            return any_nan(tf.ones([2]))
        """, tf="raises", real=True),
    V("if-with-autograph-off", """
        import tensorflow as tf

        @tf.function(autograph=False)
        def clip(x):
            if tf.reduce_max(x) > 1.0:
                x = x / tf.reduce_max(x)
            return x

        def main():
            return clip(tf.constant([2.0, 1.0]))
        """, tf="raises", real=True),
    V("if-with-autograph", """
        import tensorflow as tf

        @tf.function
        def clip(x):
            if tf.reduce_max(x) > 1.0:
                x = x / tf.reduce_max(x)
            return x

        def main():
            return clip(tf.constant([2.0, 1.0]))
        """, tf="same", real=True),
    V("boolean-mask-instead", """
        import tensorflow as tf

        @tf.function
        def positive(x):
            return tf.boolean_mask(x, x > 0)

        def main():
            return positive(tf.constant([1.0, -1.0]))
        """, tf="same", real=True),
    V("and-of-two-tensor-conditions", """
        import tensorflow as tf

        @tf.function
        def both(x):
            if tf.reduce_min(x) > 0 and tf.reduce_max(x) < 10:
                return x
            return -x

        def main():
            return both(tf.constant([1.0, 2.0]))
        """, tf="same", real=True, note="AutoGraph converts `and` in an if test to tf.logical_and"),
    V("ternary-on-tensor", """
        import tensorflow as tf

        @tf.function
        def sign(x):
            return 1.0 if tf.reduce_sum(x) > 0 else -1.0

        def main():
            return sign(tf.ones([2]))
        """, tf="same", real=True, note="AutoGraph converts a conditional expression to tf.cond"),
    V("not-of-tensor-in-if", """
        import tensorflow as tf

        @tf.function
        def f(x):
            if not tf.reduce_any(x > 5.0):
                x = x + 1.0
            return x

        def main():
            return f(tf.ones([2]))
        """, tf="same", real=True),
    V("while-with-autograph-off", """
        import tensorflow as tf

        @tf.function(autograph=False)
        def halve(x):
            while tf.reduce_max(x) > 1.0:
                x = x / 2.0
            return x

        def main():
            return halve(tf.constant([8.0]))
        """, tf="raises"),
    V("assert-with-autograph-off", """
        import tensorflow as tf

        @tf.function(autograph=False)
        def checked(x):
            assert tf.reduce_all(x > 0)
            return x

        def main():
            return checked(tf.ones([2]))
        """, tf="raises"),
    V("python-condition-in-comprehension", """
        import tensorflow as tf

        @tf.function
        def pick(xs, keep):
            return [x for i, x in enumerate(xs) if i in keep]

        def main():
            return pick([tf.ones([2]), tf.zeros([2])], [0])
        """, tf="empty", real=True),
    V("bool-of-python-flag", """
        import tensorflow as tf

        @tf.function
        def f(x, training=0):
            return x * 2.0 if bool(training) else x

        def main():
            return f(tf.ones([2]), 1)
        """, tf="same", real=True),
]
