"""TF404 recursion: a tf.function that recurses on a tensor condition."""

from conformance.variant import V

VARIANTS = [
    V("collatz-on-tensor", """
        import tensorflow as tf

        @tf.function
        def collatz_steps(n):
            if n == 1:
                return tf.constant(0)
            return 1 + collatz_steps(tf.where(n % 2 == 0, n // 2, 3 * n + 1))

        def main():
            return collatz_steps(tf.constant(6))
        """, tf="raises", real=True),
    V("mutual-even-odd", """
        import tensorflow as tf

        def is_even(k):
            return tf.constant(True) if k == 0 else is_odd(k - 1)

        @tf.function
        def is_odd(k):
            return tf.constant(False) if k == 0 else is_even(k - 1)

        def main():
            return is_odd(tf.constant(3))
        """, tf="raises", real=True),
    V("while-loop-instead", """
        import tensorflow as tf

        @tf.function
        def collatz_steps(n):
            steps = tf.constant(0)
            while n != 1:
                n = tf.where(n % 2 == 0, n // 2, 3 * n + 1)
                steps += 1
            return steps

        def main():
            return collatz_steps(tf.constant(6))
        """, tf="same", real=True),
    V("recursive-python-helper-over-structure", """
        import tensorflow as tf

        def flatten(structure):
            if isinstance(structure, (list, tuple)):
                return [leaf for item in structure for leaf in flatten(item)]
            return [structure]

        @tf.function
        def total(xs):
            return tf.add_n(flatten(xs))

        def main():
            return total([tf.ones([2]), [tf.ones([2]), tf.ones([2])]])
        """, tf="same", real=True),
    V("recursion-on-python-depth", """
        import tensorflow as tf

        @tf.function
        def tree(x, depth):
            if depth == 0:
                return x
            return tree(x * 2.0, depth - 1) + tree(x, depth - 1)

        def main():
            return tree(tf.ones([2]), 2)
        """, tf="same", real=True, note="a tf.function calling itself while tracing: TensorFlow refuses"),
    V("recursive-helper-on-python-depth", """
        import tensorflow as tf

        def block(x, depth):
            if depth == 0:
                return x
            return block(tf.nn.relu(x), depth - 1)

        @tf.function
        def net(x):
            return block(x, 3)

        def main():
            return net(tf.ones([2]))
        """, tf="same", real=True),
    V("recursive-nested-dict-map", """
        import tensorflow as tf

        def scale_all(d, s):
            return {k: scale_all(v, s) if isinstance(v, dict) else v * s for k, v in d.items()}

        @tf.function
        def step(features):
            return scale_all(features, 2.0)

        def main():
            return step({"a": tf.ones([2]), "b": {"c": tf.ones([1])}})
        """, tf="same", real=True),
    V("recursive-helper-on-tensor-condition", """
        import tensorflow as tf

        def halve(x):
            if tf.reduce_max(x) > 1.0:
                return halve(x / 2.0)
            return x

        @tf.function
        def normalise(x):
            return halve(x)

        def main():
            return normalise(tf.constant([8.0]))
        """, tf="raises", real=True),
    V("factorial-python-int-in-tf-function", """
        import tensorflow as tf

        def fact(n):
            return 1 if n <= 1 else n * fact(n - 1)

        @tf.function
        def scaled(x):
            return x * fact(4)

        def main():
            return scaled(tf.ones([2]))
        """, tf="same", real=True),
    V("recursive-decorated-eager-helper-not-called", """
        import tensorflow as tf

        @tf.function
        def depth_sum(x, n):
            if n <= 0:
                return x
            return x + depth_sum(x, n - 1)

        def main():
            return tf.ones([2])
        """, tf="same", note="never called: nothing to trace"),
]
