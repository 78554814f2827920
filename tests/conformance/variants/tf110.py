"""TF110 modified-argument: a tf.function that changes a list or dict it was given."""

from conformance.variant import V

VARIANTS = [
    V("pop-from-kwargs", """
        import tensorflow as tf

        class Argmax(tf.keras.layers.Layer):
            @tf.function
            def call(self, inputs, **parameters):
                if "training" in parameters:
                    del parameters["training"]
                parameters.pop("mask", None)
                return tf.argmax(inputs, axis=-1)

        def main():
            layer = Argmax()
            return layer(tf.ones([2, 3]), training=True)
        """, tf="same", real=True),
    V("pop-label-from-features", """
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

        @tf.function
        def train_step(inputs):
            labels = inputs.pop("label")
            return tf.reduce_mean(tf.square(model(inputs["x"]) - labels))

        def main():
            return train_step({"x": tf.ones([4, 3]), "label": tf.zeros([4, 1])})
        """, tf="raises", real=True),
    V("pop-label-in-a-recommender-train-loop", """
        import tensorflow as tf

        class Manager:
            def __init__(self):
                self.model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
                self.optimizer = tf.keras.optimizers.SGD(0.1)

            def train_step(self, batches, label="click"):
                @tf.function
                def train_loop(inputs):
                    with tf.GradientTape() as tape:
                        target = inputs.pop(label)
                        loss = tf.reduce_mean(tf.square(self.model(inputs["dense"]) - target))
                    grads = tape.gradient(loss, self.model.trainable_variables)
                    self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
                    return loss
                return [train_loop(b) for b in batches]

        def main():
            batches = [{"dense": tf.ones([4, 2]) * k, "click": tf.zeros([4, 1])} for k in (1.0, 2.0)]
            return Manager().train_step(batches)[-1]
        """, tf="raises", real=True),
    V("item-assignment", """
        import tensorflow as tf

        @tf.function
        def add_total(batch):
            batch["total"] = batch["a"] + batch["b"]
            return batch["total"]

        def main():
            return add_total({"a": tf.ones([2]), "b": tf.ones([2])})
        """, tf="raises", real=True),
    V("append-to-a-list-argument", """
        import tensorflow as tf

        @tf.function
        def collect(values, x):
            values.append(x * 2.0)
            return tf.add_n(values)

        def main():
            return collect([tf.ones([2])], tf.ones([2]))
        """, tf="raises"),
    V("del-a-key", """
        import tensorflow as tf

        @tf.function
        def drop_ids(features):
            del features["id"]
            return tf.reduce_sum(features["x"])

        def main():
            return drop_ids({"x": tf.ones([3]), "id": tf.constant([1, 2, 3])})
        """, tf="raises", real=True),
    V("method-step-pops-from-batch", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.w = tf.Variable(tf.ones([3, 1]))

            @tf.function
            def step(self, batch):
                y = batch.pop("y")
                return tf.reduce_mean(tf.square(tf.matmul(batch["x"], self.w) - y))

        trainer = Trainer()

        def main():
            return trainer.step({"x": tf.ones([2, 3]), "y": tf.ones([2, 1])})
        """, tf="raises", real=True),
    V("copy-then-pop", """
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

        @tf.function
        def train_step(inputs):
            inputs = dict(inputs)
            labels = inputs.pop("label")
            return tf.reduce_mean(tf.square(model(inputs["x"]) - labels))

        def main():
            return train_step({"x": tf.ones([4, 3]), "label": tf.zeros([4, 1])})
        """, tf="same", real=True),
    V("read-label-without-removing", """
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

        @tf.function
        def train_step(inputs):
            labels = inputs["label"]
            return tf.reduce_mean(tf.square(model(inputs["x"]) - labels))

        def main():
            return train_step({"x": tf.ones([4, 3]), "label": tf.zeros([4, 1])})
        """, tf="same", real=True),
    V("map-function-pops-the-label", """
        import tensorflow as tf

        def split_label(features):
            label = features.pop("label")
            return features["x"], label

        def main():
            ds = tf.data.Dataset.from_tensor_slices({"x": [[1.0], [2.0]], "label": [0.0, 1.0]}).map(split_label)
            return [x for x, _ in ds]
        """, tf="same", real=True),
    V("helper-inside-the-graph-changes-its-argument", """
        import tensorflow as tf

        def without_label(features):
            features.pop("label")
            return features

        @tf.function
        def forward(x, label):
            parts = without_label({"x": x, "label": label})
            return tf.reduce_sum(parts["x"])

        def main():
            return forward(tf.ones([3]), tf.zeros([3]))
        """, tf="same", real=True),
    V("local-list-appended", """
        import tensorflow as tf

        @tf.function
        def stack_twice(x):
            values = []
            values.append(x)
            values.append(x * 2.0)
            return tf.stack(values)

        def main():
            return stack_twice(tf.ones([2]))
        """, tf="same"),
    V("object-update-method", """
        import tensorflow as tf

        class Tracker:
            def __init__(self):
                self.total = tf.Variable(0.0)

            def update(self, value):
                self.total.assign_add(value)

        @tf.function
        def step(tracker, x):
            tracker.update(tf.reduce_sum(x))
            return x * 2.0

        def main():
            tracker = Tracker()
            return step(tracker, tf.ones([2]))
        """, tf="same"),
]
