"""TF103 python-object-argument: a fresh Python object per call is a new trace."""

from conformance.variant import V

VARIANTS = [
    V("new-config-instance-per-call", """
        import tensorflow as tf

        class Config:
            def __init__(self, scale):
                self.scale = scale

        @tf.function
        def apply(x, config):
            return x * config.scale

        def main():
            return [apply(tf.ones([2]), Config(0.5)) for _ in range(6)][-1]
        """, tf="retraces", real=True),
    V("lambda-per-call", """
        import tensorflow as tf

        @tf.function
        def transform(x, fn):
            return fn(x)

        def main():
            return [transform(b, lambda v: v * 2.0) for b in [tf.ones([2])] * 6][-1]
        """, tf="retraces", real=True),
    V("same-config-instance", """
        import tensorflow as tf

        class Config:
            def __init__(self, scale):
                self.scale = scale

        @tf.function
        def apply(x, config):
            return x * config.scale

        def main():
            config = Config(0.5)
            return [apply(tf.ones([2]), config) for _ in range(6)][-1]
        """, tf="same", real=True),
    V("list-of-tensors", """
        import tensorflow as tf

        @tf.function
        def apply(x, scales):
            return x * scales[0]

        def main():
            return [apply(tf.ones([2]), [tf.constant(0.5)]) for _ in range(6)][-1]
        """, tf="same", real=True),
    V("new-dataclass-equal-values", """
        import dataclasses
        import tensorflow as tf

        @dataclasses.dataclass(frozen=True)
        class Opts:
            scale: float

        @tf.function
        def apply(x, opts):
            return x * opts.scale

        def main():
            return [apply(tf.ones([2]), Opts(0.5)) for _ in range(6)][-1]
        """, tf="retraces", note="equal fields, but a new object each call: matched by identity"),
    V("new-shape-each-call-with-new-object", """
        import tensorflow as tf

        class Spec:
            def __init__(self, n):
                self.n = n

        @tf.function
        def head(x, spec):
            return x[:spec.n]

        def main():
            return [head(tf.ones([n + 1]), Spec(n)) for n in range(1, 7)][-1]
        """, tf="same", real=True, note="issue 20: a new shape per call traces anyway; the object adds nothing"),
    V("bound-method-of-kept-object", """
        import tensorflow as tf

        class Model:
            def scale(self, v):
                return v * 3.0

        @tf.function
        def run(x, fn):
            return fn(x)

        def main():
            m = Model()
            return [run(tf.ones([2]), m.scale) for _ in range(6)][-1]
        """, tf="retraces", real=True, note="`m.scale` makes a new bound method on every call: a new trace each time"),
    V("keras-layer-passed", """
        import tensorflow as tf

        @tf.function
        def apply(layer, x):
            return layer(x)

        def main():
            layer = tf.keras.layers.Dense(2, kernel_initializer="ones")
            return [apply(layer, tf.ones([1, 3])) for _ in range(6)][-1]
        """, tf="same", real=True),
    V("new-object-two-calls", """
        import tensorflow as tf

        class Config:
            def __init__(self, scale):
                self.scale = scale

        @tf.function
        def apply(x, config):
            return x * config.scale

        def main():
            a = apply(tf.ones([2]), Config(0.5))
            b = apply(tf.ones([2]), Config(0.5))
            return [a, b]
        """, tf="same", note="two objects, two traces: fewer than TensorFlow's retracing warning needs"),
    V("new-dict-per-call", """
        import tensorflow as tf

        @tf.function
        def apply(x, opts):
            return x * opts["scale"]

        def main():
            return [apply(tf.ones([2]), {"scale": 0.5}) for _ in range(6)][-1]
        """, tf="same", real=True, note="a dict of Python values is matched by value: same trace"),
    V("new-instance-in-eval-loop", """
        import tensorflow as tf

        class Metric:
            def __init__(self):
                self.weight = 2.0

        @tf.function
        def score(y, metric):
            return tf.reduce_sum(y) * metric.weight

        def main():
            out = 0.0
            for batch in tf.data.Dataset.range(6).map(lambda i: tf.cast(i, tf.float32)):
                out = score(batch, Metric())
            return out
        """, tf="retraces", real=True),
    V("partial-of-the-model-per-call", """
        import functools

        import tensorflow as tf

        dense = tf.keras.layers.Dense(1)

        def discriminator(x, training=False):
            return dense(x, training=training)

        @tf.function
        def gradient_penalty(f, x):
            with tf.GradientTape() as tape:
                tape.watch(x)
                pred = f(x)
            return tf.reduce_mean(tape.gradient(pred, x) ** 2)

        def main():
            return [float(gradient_penalty(functools.partial(discriminator, training=True), tf.ones([2, 3]) * i))
                    for i in range(6)]
        """, tf="retraces", real=True, note="a partial made in the call is a new object each time: TF 2.21 traces each"),
    V("step-defined-in-the-batch-loop-handed-over", """
        import tensorflow as tf

        w = tf.Variable(1.0)

        @tf.function
        def get_loss(work, x):
            return work(x)

        def main():
            out = []
            for i in range(6):
                def train_step(x):
                    return tf.reduce_sum(x * w)
                out.append(float(get_loss(train_step, tf.ones([2]) * i)))
            return out
        """, tf="retraces", real=True, note="a def inside the loop is a new function object each iteration"),
    V("step-defined-once-before-the-loop", """
        import tensorflow as tf

        w = tf.Variable(1.0)

        @tf.function
        def get_loss(work, x):
            return work(x)

        def main():
            def train_step(x):
                return tf.reduce_sum(x * w)
            return [float(get_loss(train_step, tf.ones([2]) * i)) for i in range(6)]
        """, tf="same", real=True),
]
