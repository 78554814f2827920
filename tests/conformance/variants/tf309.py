"""TF309 branch-dtype-mismatch: the branches of a tensor if give a name different dtypes or structures."""

from conformance.variant import V

VARIANTS = [
    V("int-and-float-literals", """
        import tensorflow as tf

        @tf.function
        def sign(x):
            if tf.reduce_sum(x) > 0:
                s = 1
            else:
                s = -1.0
            return x * s

        def main():
            return sign(tf.ones([2]))
        """, tf="raises", real=True),
    V("tensor-and-none", """
        import tensorflow as tf

        @tf.function
        def maybe_mask(x):
            if tf.reduce_any(x < 0):
                mask = tf.cast(x < 0, tf.float32)
            else:
                mask = None
            return mask

        def main():
            return maybe_mask(tf.ones([2]))
        """, tf="raises", real=True),
    V("same-float-literals", """
        import tensorflow as tf

        @tf.function
        def sign(x):
            if tf.reduce_sum(x) > 0:
                s = 1.0
            else:
                s = -1.0
            return x * s

        def main():
            return sign(tf.ones([2]))
        """, tf="same", real=True),
    V("python-flag-branch-mixed", """
        import tensorflow as tf

        @tf.function
        def mode(x, training=False):
            if training:
                scale = 1
            else:
                scale = 0.5
            return x * scale

        def main():
            return mode(tf.ones([2]))
        """, tf="same", real=True),
    V("cast-int-vs-float-tensor", """
        import tensorflow as tf

        @tf.function
        def pick(x):
            if tf.reduce_sum(x) > 0:
                y = tf.cast(x, tf.int32)
            else:
                y = x
            return y

        def main():
            return pick(tf.ones([2]))
        """, tf="raises", real=True),
    V("zeros-float-vs-int-constant", """
        import tensorflow as tf

        @tf.function
        def f(x):
            if tf.reduce_sum(x) > 0:
                out = tf.zeros([2])
            else:
                out = tf.constant([1, 2])
            return out

        def main():
            return f(tf.ones([2]))
        """, tf="raises", real=True),
    V("both-tensors-same-dtype", """
        import tensorflow as tf

        @tf.function
        def f(x):
            if tf.reduce_sum(x) > 0:
                out = tf.nn.relu(x)
            else:
                out = tf.zeros_like(x)
            return out

        def main():
            return f(tf.ones([2]))
        """, tf="same", real=True),
    V("int-literal-vs-int-tensor", """
        import tensorflow as tf

        @tf.function
        def steps(x):
            if tf.reduce_sum(x) > 0:
                n = 1
            else:
                n = tf.size(x)
            return n

        def main():
            return steps(tf.ones([2]))
        """, tf="same", real=True),
    V("float-literal-vs-float-op", """
        import tensorflow as tf

        @tf.function
        def f(x):
            if tf.reduce_sum(x) > 0:
                w = 0.5
            else:
                w = tf.reduce_mean(x)
            return x * w

        def main():
            return f(tf.ones([2]))
        """, tf="same"),
    V("int-vs-float-overwritten-after", """
        import tensorflow as tf

        @tf.function
        def f(x):
            if tf.reduce_sum(x) > 0:
                s = 1
            else:
                s = 2.0
            s = 3.0
            return x * s

        def main():
            return f(tf.ones([2]))
        """, tf="same", note="neither branch value is used after the if"),
]
