"""TF302 defined-in-one-branch: a name set in one branch of a tensor if and used after it."""

from conformance.variant import V

VARIANTS = [
    V("relu-in-body-only", """
        import tensorflow as tf

        @tf.function
        def relu_or_zero(x):
            if tf.reduce_sum(x) > 0:
                y = tf.nn.relu(x)
            return y

        def main():
            return relu_or_zero(tf.ones([2]))
        """, tf="raises", real=True),
    V("scale-missing-in-else", """
        import tensorflow as tf

        @tf.function
        def pick(x, threshold):
            total = tf.reduce_sum(x)
            if total > threshold:
                scale = 2.0
            else:
                tf.print("below")
            return x * scale

        def main():
            return pick(tf.ones([2]), 1.0)
        """, tf="raises", real=True),
    V("initialised-before", """
        import tensorflow as tf

        @tf.function
        def relu_or_zero(x):
            y = tf.zeros_like(x)
            if tf.reduce_sum(x) > 0:
                y = tf.nn.relu(x)
            return y

        def main():
            return relu_or_zero(tf.ones([2]))
        """, tf="same", real=True),
    V("python-flag-branch", """
        import tensorflow as tf

        @tf.function
        def forward(x, training=False):
            if training:
                noise = x * 0.1
                x = x + noise
            return x

        def main():
            return forward(tf.ones([2]))
        """, tf="empty", real=True),
    V("set-in-both-branches", """
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
    V("used-only-inside-branch", """
        import tensorflow as tf

        @tf.function
        def log_big(x):
            if tf.reduce_max(x) > 1.0:
                m = tf.reduce_max(x)
                tf.print(m)
            return x

        def main():
            return log_big(tf.ones([2]))
        """, tf="same", real=True),
    V("else-returns-early", """
        import tensorflow as tf

        @tf.function
        def f(x):
            if tf.reduce_sum(x) > 0:
                y = x * 2.0
            else:
                return x
            return y

        def main():
            return f(tf.ones([2]))
        """, tf="same", note="the path without y returns first"),
    V("elif-chain-missing-else", """
        import tensorflow as tf

        @tf.function
        def bucket(x):
            s = tf.reduce_sum(x)
            if s > 10.0:
                w = 3.0
            elif s > 1.0:
                w = 2.0
            return x * w

        def main():
            return bucket(tf.ones([4]))
        """, tf="raises", real=True),
    V("rebound-before-use", """
        import tensorflow as tf

        @tf.function
        def f(x):
            if tf.reduce_sum(x) > 0:
                tmp = x * 2.0
                tf.print(tmp)
            tmp = x + 1.0
            return tmp

        def main():
            return f(tf.ones([2]))
        """, tf="same"),
    V("loss-defined-in-tensor-if-of-train-step", """
        import tensorflow as tf

        @tf.function
        def step(x, y):
            if tf.reduce_any(tf.math.is_nan(x)):
                tf.print("nan input")
            else:
                loss = tf.reduce_mean(tf.square(x - y))
            return loss

        def main():
            return step(tf.ones([2]), tf.zeros([2]))
        """, tf="raises", real=True),
]
