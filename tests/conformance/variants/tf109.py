"""TF109 numpy-float64-argument: NumPy arrays (float64) meeting float32 tensors in a tf.function."""

from conformance.variant import V

VARIANTS = [
    V("variable-times-array", """
        import numpy as np
        import tensorflow as tf

        w = tf.Variable(tf.ones([3]))

        @tf.function
        def predict(x):
            return tf.reduce_sum(w * x)

        def main():
            return predict(np.array([1.0, 2.0, 3.0]))
        """, tf="raises"),
    V("model-output-minus-labels", """
        import numpy as np
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.SGD(0.01)

        @tf.function
        def train_step(x, y):
            with tf.GradientTape() as tape:
                pred = model(x)
                loss = tf.reduce_mean(tf.square(pred - y))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        def main():
            xs, ys = np.random.rand(16, 3), np.random.rand(16, 1)
            return [train_step(xs, ys) for _ in range(3)][-1]
        """, tf="raises", real=True),
    V("linear-model-object-call", """
        import numpy as np
        import tensorflow as tf

        class Linear:
            def __init__(self):
                self.w = tf.Variable(tf.random.normal([1]))
                self.b = tf.Variable(tf.zeros([1]))

            def __call__(self, x):
                return self.w * x + self.b

        @tf.function
        def train(model, x, y, lr):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            dw, db = tape.gradient(loss, [model.w, model.b])
            model.w.assign_sub(lr * dw)
            model.b.assign_sub(lr * db)
            return loss

        def main():
            model = Linear()
            x = np.linspace(0, 1, 32)
            y = 3 * x + 1
            return [train(model, x, y, 0.1) for _ in range(3)][-1]
        """, tf="raises", real=True),
    V("matmul-with-weights", """
        import numpy as np
        import tensorflow as tf

        W = tf.Variable(tf.random.normal([3, 2]))

        @tf.function
        def forward(x):
            return tf.matmul(tf.transpose(W), x)

        def main():
            return forward(np.random.rand(3, 4))
        """, tf="raises", real=True),
    V("matmul-array-first", """
        import numpy as np
        import tensorflow as tf

        W = tf.Variable(tf.random.normal([3, 2]))

        @tf.function
        def forward(x):
            return tf.matmul(x, W)

        def main():
            return forward(np.random.rand(4, 3))
        """, tf="differs", real=True, note="the array first fails eagerly too: not a tf.function matter"),
    V("layer-output-times-weights-array", """
        import numpy as np
        import tensorflow as tf

        dense = tf.keras.layers.Dense(2)

        @tf.function
        def score(x, weights):
            return tf.reduce_sum(dense(x) * weights)

        def main():
            return score(np.ones([4, 3], np.float32), np.random.rand(4, 2))
        """, tf="raises", real=True),
    V("cast-inside", """
        import numpy as np
        import tensorflow as tf

        w = tf.Variable(tf.ones([3]))

        @tf.function
        def predict(x):
            return tf.reduce_sum(w * tf.cast(x, tf.float32))

        def main():
            return predict(np.array([1.0, 2.0, 3.0]))
        """, tf="same"),
    V("keras-layer-casts-its-input", """
        import numpy as np
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

        @tf.function
        def predict(x):
            return model(x)

        def main():
            return predict(np.random.rand(8, 3))
        """, tf="same", real=True),
    V("tensor-argument", """
        import numpy as np
        import tensorflow as tf

        w = tf.Variable(tf.ones([3]))

        @tf.function
        def predict(x):
            return tf.reduce_sum(w * x)

        def main():
            return predict(tf.constant([1.0, 2.0, 3.0]))
        """, tf="same"),
    V("float64-variable-from-numpy", """
        import numpy as np
        import tensorflow as tf

        class Linear:
            def __init__(self):
                self.w = tf.Variable(np.ones((2, 1)))

            def __call__(self, x):
                return x @ self.w

        @tf.function
        def predict(model, x):
            return model(x)

        def main():
            return predict(Linear(), np.ones((4, 2)))
        """, tf="same", real=True, note="a variable made from a NumPy array is float64 too: the dtypes match"),
    V("array-with-array", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def mse(pred, y):
            return tf.reduce_mean(tf.square(pred - y))

        def main():
            return mse(np.random.rand(8), np.random.rand(8))
        """, tf="same", real=True),
    V("rebound-with-convert", """
        import numpy as np
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

        @tf.function
        def loss(x, y):
            y = tf.convert_to_tensor(y, tf.float32)
            return tf.reduce_mean(tf.square(model(x) - y))

        def main():
            return loss(np.random.rand(8, 3), np.random.rand(8, 1))
        """, tf="raises", real=True, note="converting a float64 tensor to float32 raises ValueError; an array converts"),
    V("python-float-scale", """
        import numpy as np
        import tensorflow as tf

        w = tf.Variable(tf.ones([3]))

        @tf.function
        def scale(s):
            return w * s

        def main():
            return scale(0.5)
        """, tf="same"),
    V("arrays-cast-to-float32-after-arithmetic", """
        import numpy as np
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

        @tf.function
        def loss(inputs, targets):
            return tf.reduce_mean(tf.square(targets - model(inputs)))

        def main():
            X = np.random.random((16, 1)) * 2 - 1
            Y = X.dot(np.random.randn(1, 1)) + np.random.randn(16, 1) * 0.1
            X = X.astype(np.float32)
            Y = Y.astype(np.float32)
            return [loss(X, Y) for _ in range(3)][-1]
        """, tf="same", real=True, note="astype(np.float32) after the float64 arithmetic: float32 arrays trace as float32"),
    V("array-built-with-a-float32-dtype", """
        import numpy as np
        import tensorflow as tf

        w = tf.Variable(tf.ones([3]))

        @tf.function
        def predict(x):
            return tf.reduce_sum(w * x)

        def main():
            rows = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
            return predict(np.array(rows, dtype=np.float32))
        """, tf="same", real=True, note="the dtype keyword makes a float32 array"),
]
