"""TF407 method-on-temporary: a tf.function method called on an object nothing holds."""

from conformance.variant import V

VARIANTS = [
    V("scaler-temporary-apply", """
        import tensorflow as tf

        class Scaler:
            def __init__(self, factor):
                self.factor = factor

            @tf.function
            def apply(self, x):
                return x * self.factor

        def main():
            return Scaler(2.0).apply(tf.ones([3]))
        """, tf="raises", real=True),
    V("loss-temporary-call", """
        import tensorflow as tf

        class Loss:
            @tf.function
            def __call__(self, y, p):
                return tf.reduce_mean(tf.square(y - p))

        def main():
            return Loss()(tf.ones([2]), tf.zeros([2]))
        """, tf="same", note="TensorFlow 2.21 keeps the instance alive through __call__", real=True),
    V("kept-in-variable", """
        import tensorflow as tf

        class Scaler:
            def __init__(self, factor):
                self.factor = factor

            @tf.function
            def apply(self, x):
                return x * self.factor

        def main():
            scaler = Scaler(2.0)
            return scaler.apply(tf.ones([3]))
        """, tf="same", real=True),
    V("plain-method-on-temporary", """
        import tensorflow as tf

        class Scaler:
            def __init__(self, factor):
                self.factor = factor

            def apply(self, x):
                return x * self.factor

        def main():
            return Scaler(2.0).apply(tf.ones([3]))
        """, tf="same", real=True),
    V("temporary-method-not-using-self", """
        import tensorflow as tf

        class Ops:
            @tf.function
            def double(self, x):
                return x * 2.0

        def main():
            return Ops().double(tf.ones([2]))
        """, tf="same", real=True, note="the weak reference dies, but nothing reads it"),
    V("keras-model-temporary-predict", """
        import tensorflow as tf

        def main():
            return tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])(tf.ones([1, 2]))
        """, tf="same", real=True),
    V("temporary-in-list-comprehension", """
        import tensorflow as tf

        class Scaler:
            def __init__(self, factor):
                self.factor = factor

            @tf.function
            def apply(self, x):
                return x * self.factor

        def main():
            return [Scaler(f).apply(tf.ones([2])) for f in (1.0, 2.0)]
        """, tf="raises", real=True),
    V("kept-in-list", """
        import tensorflow as tf

        class Scaler:
            def __init__(self, factor):
                self.factor = factor

            @tf.function
            def apply(self, x):
                return x * self.factor

        def main():
            scalers = [Scaler(f) for f in (1.0, 2.0)]
            return [s.apply(tf.ones([2])) for s in scalers]
        """, tf="same", real=True),
    V("tf-module-temporary", """
        import tensorflow as tf

        class Dense(tf.Module):
            def __init__(self):
                self.w = tf.Variable(2.0)

            @tf.function
            def __call__(self, x):
                return x * self.w

        def main():
            return Dense()(tf.ones([2]))
        """, tf="same", real=True),
    V("factory-returns-kept-object", """
        import tensorflow as tf

        class Scaler:
            def __init__(self, factor):
                self.factor = factor

            @tf.function
            def apply(self, x):
                return x * self.factor

        def make():
            return Scaler(3.0)

        model = make()

        def main():
            return model.apply(tf.ones([2]))
        """, tf="same"),
    V("normalizer-temporary-method", """
        import tensorflow as tf

        class Normalizer:
            def __init__(self, mean, std):
                self.mean, self.std = mean, std

            @tf.function
            def normalize(self, x):
                return (x - self.mean) / self.std

        def main():
            return Normalizer(1.0, 2.0).normalize(tf.ones([3]))
        """, tf="raises", real=True),
]
