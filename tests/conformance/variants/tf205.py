"""TF205 trace-time-constant: NumPy/Python randomness or clocks frozen at trace time."""

from conformance.variant import V

VARIANTS = [
    V("np-random-noise-in-augment", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def augment(images):
            noise = np.random.normal(size=(4,)).astype("float32")
            return images + noise

        def main():
            return [augment(tf.zeros([4])) for _ in range(3)]
        """, tf="differs", real=True),
    V("mixup-np-beta", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def mixup(x, y):
            lam = np.random.beta(0.2, 0.2)
            return lam * x + (1 - lam) * y

        def main():
            return [mixup(tf.ones([2]), tf.zeros([2])) for _ in range(3)]
        """, tf="differs", real=True),
    V("tf-random-instead", """
        import tensorflow as tf

        @tf.function
        def augment(images):
            noise = tf.random.stateless_normal(tf.shape(images), seed=[1, 2])
            return images + noise

        def main():
            return [augment(tf.zeros([4])) for _ in range(3)]
        """, tf="same", real=True),
    V("np-random-outside-graph", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def step(x, noise):
            return x + noise

        def main():
            return [step(tf.zeros([3]), np.random.normal(size=(3,)).astype("float32")) for _ in range(3)]
        """, tf="same", real=True),
    V("python-random-choice-of-op", """
        import random
        import tensorflow as tf

        @tf.function
        def maybe_flip(x):
            if random.random() < 0.5:
                return tf.reverse(x, [0])
            return x

        def main():
            return [maybe_flip(tf.constant([1.0, 2.0, 3.0])) for _ in range(6)]
        """, tf="differs+empty", real=True, note="the graph holds no op when the draw skipped the flip"),
    V("np-random-permutation-of-indices", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def shuffle(x):
            idx = np.random.permutation(4)
            return tf.gather(x, idx)

        def main():
            return [shuffle(tf.range(4)) for _ in range(3)]
        """, tf="differs", real=True),
    V("np-constant-array-math", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def scale(x):
            return x * np.float32(np.pi)

        def main():
            return [scale(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("np-random-seeded-in-function", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def jitter(x):
            rng = np.random.RandomState(0)
            return x + rng.normal(size=(2,)).astype("float32")

        def main():
            return [jitter(tf.zeros([2])) for _ in range(3)]
        """, tf="same", note="a fixed seed draws the same value on every call anyway"),
    V("random-uniform-dropout-rate-in-helper", """
        import random
        import tensorflow as tf

        def rate():
            return random.uniform(0.1, 0.5)

        @tf.function
        def step(x):
            return x * rate()

        def main():
            return [step(tf.ones([2])) for _ in range(3)]
        """, tf="differs", real=True),
    V("random-choice-of-augmentation", """
        import random
        import tensorflow as tf

        AUGMENTATIONS = [lambda x: x * 2.0, lambda x: x + 1.0, lambda x: -x]

        @tf.function
        def augment(x):
            return random.choice(AUGMENTATIONS)(x)

        def main():
            return [augment(tf.ones([2])) for _ in range(6)]
        """, tf="differs", real=True),
    V("leftover-np-draw-never-read", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def train_step(images):
            batch_z = np.random.uniform(-1, 1, [2, 3]).astype(np.float32)  # left over
            z = tf.random.stateless_normal([2, 3], seed=[1, 2])
            return tf.reduce_sum(images) + tf.reduce_sum(z)

        def main():
            return [train_step(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
]
