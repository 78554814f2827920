"""TF503 primitive-parameters: a tf.function fed changing Python numbers retraces."""

from conformance.variant import V

VARIANTS = [
    V("epoch-of-a-range-over-a-parameter", """
        import tensorflow as tf

        generator = tf.keras.Sequential([tf.keras.layers.Dense(4)])
        opt = tf.keras.optimizers.Adam()

        @tf.function
        def train_step(image, target, epoch):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((generator(image) - target) ** 2)
            grads = tape.gradient(loss, generator.trainable_variables)
            opt.apply_gradients(zip(grads, generator.trainable_variables))
            return loss * tf.cast(epoch, tf.float32)

        def fit(train_ds, epochs):
            for epoch in range(epochs):
                for image, target in train_ds:
                    loss = train_step(image, target, epoch)
            return loss

        def main():
            ds = tf.data.Dataset.from_tensor_slices((tf.ones([4, 3]), tf.ones([4, 4]))).batch(2)
            return fit(ds, 6)
        """, tf="retraces", real=True),
    V("index-forwarded-from-an-outer-loop", """
        import tensorflow as tf

        @tf.function
        def ascent_step(img, filter_index, learning_rate):
            with tf.GradientTape() as tape:
                tape.watch(img)
                loss = tf.reduce_mean(img[:, filter_index])
            return img + learning_rate * tape.gradient(loss, img)

        def visualize_filter(filter_index):
            img = tf.random.uniform((1, 8))
            for _ in range(3):
                img = ascent_step(img, filter_index, 10.0)
            return img

        def main():
            images = []
            for filter_index in range(8):
                images.append(visualize_filter(filter_index))
            return images[-1]
        """, tf="retraces", real=True),
    V("step-number-in-loop", """
        import tensorflow as tf

        @tf.function
        def scaled(x, step):
            return x * tf.cast(step, tf.float32)

        for step in range(50):
            scaled(tf.ones([3]), step)
        """, tf="retraces", real=True),
    V("epoch-in-schedule", """
        import tensorflow as tf

        @tf.function
        def lr_schedule(w, epoch):
            return w * 0.9 ** tf.cast(epoch, tf.float32)

        def run(w):
            for epoch in range(20):
                w = lr_schedule(w, epoch)
            return w

        def main():
            return run(tf.ones([2]))
        """, tf="retraces", real=True),
    V("step-as-tensor", """
        import tensorflow as tf

        @tf.function
        def scaled(x, step):
            return x * tf.cast(step, tf.float32)

        for step in range(50):
            scaled(tf.ones([3]), tf.constant(step))
        """, tf="same", real=True),
    V("constant-flag", """
        import tensorflow as tf

        @tf.function
        def forward(x, training=False):
            return tf.nn.relu(x)

        for _ in range(10):
            forward(tf.ones([2]), training=True)
        """, tf="same", real=True),
    V("tries-counter-in-while", """
        import tensorflow as tf

        @tf.function
        def try_rounding(x, tries):
            return tf.round(x * tf.cast(tries, tf.float32))

        def main():
            tries = 1
            out = try_rounding(tf.ones([2]), tries)
            while tries < 8:
                tries += 1
                out = try_rounding(tf.ones([2]), tries)
            return out
        """, tf="retraces", real=True),
    V("python-int-from-tf-range", """
        import tensorflow as tf

        @tf.function
        def scaled(x, step):
            return x * tf.cast(step, tf.float32)

        for step in tf.range(10):
            scaled(tf.ones([3]), step)
        """, tf="same", real=True),
    V("few-epochs", """
        import tensorflow as tf

        @tf.function
        def epoch_step(x, epoch):
            return x + tf.cast(epoch, tf.float32)

        for epoch in range(2):
            epoch_step(tf.ones([2]), epoch)
        """, tf="same", note="two values: fewer traces than TensorFlow warns at"),
    V("batch-size-fixed", """
        import tensorflow as tf

        @tf.function
        def pad(x, size):
            return tf.pad(x, [[0, size - 2]])

        for _ in range(10):
            pad(tf.ones([2]), 4)
        """, tf="same", real=True),
    V("float-decay-in-loop", """
        import tensorflow as tf

        @tf.function
        def update(w, lr):
            return w - lr * w

        def main():
            w, lr = tf.ones([2]), 0.1
            for _ in range(8):
                lr *= 0.5
                w = update(w, lr)
            return w
        """, tf="retraces", real=True),
    V("index-into-python-list-arg", """
        import tensorflow as tf

        @tf.function
        def pick(x, i):
            return x[i]

        def main():
            x = tf.range(10)
            return [pick(x, i) for i in range(10)]
        """, tf="retraces"),
    V("counter-fed-back-from-the-result", """
        import tensorflow as tf


        def train(model, dataset, epochs, accum_steps):
            optimizer = tf.keras.optimizers.SGD(0.1)
            accum = [tf.zeros_like(v) for v in model.trainable_variables]

            @tf.function
            def train_step(x, y, accum, cnt):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                grads = tape.gradient(loss, model.trainable_variables)
                accum = [a + g for a, g in zip(accum, grads)]
                if cnt >= accum_steps:
                    optimizer.apply_gradients(zip([a / cnt for a in accum], model.trainable_variables))
                    accum = [tf.zeros_like(a) for a in accum]
                    cnt = 0.
                return loss, accum, cnt

            cnt = 0.
            for epoch in range(epochs):
                for x, y in dataset:
                    cnt += 1
                    loss, accum, cnt = train_step(x, y, accum, cnt)
            return loss


        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.build((None, 3))
            ds = tf.data.Dataset.from_tensor_slices((tf.ones([16, 3]), tf.ones([16, 1]))).batch(2)
            return train(model, ds, 2, 4)
        """, tf="same", real=True,
      note="the count goes in a Python float once; from the second call on it is the tensor the function returned"),
]
