"""TF306 tensor-break-in-python-loop: a tensor-dependent break or return inside a Python loop."""

from conformance.variant import V

VARIANTS = [
    V("break-on-element-in-range", """
        import tensorflow as tf

        @tf.function
        def first_negative(x):
            result = tf.constant(-1)
            for i in range(3):
                if x[i] < 0:
                    result = tf.constant(i)
                    break
            return result

        def main():
            return first_negative(tf.constant([1.0, -1.0, 2.0]))
        """, tf="raises", real=True),
    V("return-on-convergence", """
        import tensorflow as tf

        @tf.function
        def converge(x):
            for _ in range(100):
                x = x * 0.5
                if tf.reduce_max(tf.abs(x)) < 1e-3:
                    return x
            return x

        def main():
            return converge(tf.ones([2]))
        """, tf="raises", real=True),
    V("break-in-tf-range", """
        import tensorflow as tf

        @tf.function
        def first_negative(x):
            result = tf.constant(-1)
            for i in tf.range(3):
                if x[i] < 0:
                    result = i
                    break
            return result

        def main():
            return first_negative(tf.constant([1.0, -1.0, 2.0]))
        """, tf="same", real=True),
    V("python-break-on-index", """
        import tensorflow as tf

        @tf.function
        def first_layers(x, scales):
            for i, s in enumerate(scales):
                if i >= 2:
                    break
                x = x * s
            return x

        def main():
            return first_layers(tf.ones([2]), [1.0, 2.0, 3.0])
        """, tf="same", real=True),
    V("early-stop-in-epoch-loop", """
        import tensorflow as tf

        @tf.function
        def train(x):
            loss = tf.reduce_sum(x)
            for epoch in range(10):
                loss = loss * 0.5
                if loss < 0.1:
                    break
            return loss

        def main():
            return train(tf.ones([2]))
        """, tf="raises", real=True),
    V("return-inside-tensor-loop-over-param", """
        import tensorflow as tf

        @tf.function
        def first_big(x):
            for v in x:
                if v > 2.0:
                    return v
            return tf.constant(-1.0)

        def main():
            return first_big(tf.constant([1.0, 3.0]))
        """, tf="raises", real=True),
    V("break-on-python-value-in-python-loop", """
        import tensorflow as tf

        @tf.function
        def repeat(x, n):
            for i in range(10):
                if i == n:
                    break
                x = x + 1.0
            return x

        def main():
            return repeat(tf.ones([2]), 3)
        """, tf="same", real=True),
    V("beam-search-stop-in-range", """
        import tensorflow as tf

        @tf.function
        def decode(logits):
            tokens = tf.zeros([0], tf.int64)
            for t in range(4):
                tok = tf.argmax(logits[t])
                if tok == 0:
                    break
                tokens = tf.concat([tokens, [tok]], 0)
            return tokens

        def main():
            return decode(tf.one_hot([1, 2, 0, 1], 3))
        """, tf="raises", real=True),
    V("while-true-with-tensor-break", """
        import tensorflow as tf

        @tf.function
        def halve(x):
            while True:
                x = x / 2.0
                if tf.reduce_max(x) < 1.0:
                    break
            return x

        def main():
            return halve(tf.constant([8.0]))
        """, tf="raises", note="`while True` is a Python loop: its tensor break is not supported either"),
    V("continue-on-tensor-in-range", """
        import tensorflow as tf

        @tf.function
        def sum_positive(x):
            total = tf.constant(0.0)
            for i in range(3):
                if x[i] < 0:
                    continue
                total += x[i]
            return total

        def main():
            return sum_positive(tf.constant([1.0, -1.0, 2.0]))
        """, tf="same", note="continue under a tensor condition in a Python loop is converted"),
    V("break-in-loop-over-module-dataset-from-a-builder", """
        import tensorflow as tf

        def build_dataset():
            dataset = tf.data.Dataset.from_tensor_slices(tf.range(10.0))
            dataset = dataset.map(lambda x: x * 2.0)
            dataset = dataset.repeat().batch(2)
            return dataset

        dataset = build_dataset()

        @tf.function
        def train():
            step = 0
            total = tf.constant(0.0)
            for x in dataset:
                step += 1
                total += tf.reduce_sum(x)
                if tf.equal(step, 5):
                    break
            return total

        def main():
            return train()
        """, tf="same", real=True, note="AutoGraph converts a loop over a dataset, break included"),
]
