"""TF305 iterate-tensor: Python iterating a symbolic tensor (comprehension, unpacking, list(), zip())."""

from conformance.variant import V

VARIANTS = [
    V("unpack-in-an-isinstance-branch", """
        import tensorflow as tf

        @tf.function
        def normalize_boxes(boxes, image_shape):
            if isinstance(image_shape, (list, tuple)):
                height, width = image_shape
            else:
                image_shape = tf.cast(image_shape, boxes.dtype)
                height, width = image_shape[..., 0:1], image_shape[..., 1:2]
            return boxes[..., 0:1] / height + boxes[..., 1:2] / width

        def main():
            boxes = tf.ones([3, 4])
            normalize_boxes(boxes, tf.constant([640.0, 480.0]))
            return normalize_boxes(boxes, [640.0, 480.0])
        """, tf="same", real=True),
    V("stack-comprehension-over-tensor-param", """
        import tensorflow as tf

        @tf.function
        def row_sums(x):
            return tf.stack([tf.reduce_sum(r) for r in x])

        def main():
            return row_sums(tf.ones([3, 2]))
        """, tf="raises", real=True,
      note="issue 20's missed case: the only call passes a tensor"),
]

VARIANTS += [
    V("unpack-shape", """
        import tensorflow as tf

        @tf.function
        def resize_half(image):
            h, w = tf.shape(image)[:2]
            return tf.image.resize(image, [h // 2, w // 2])

        def main():
            return resize_half(tf.ones([4, 4, 1]))
        """, tf="raises", real=True),
    V("index-shape-instead", """
        import tensorflow as tf

        @tf.function
        def resize_half(image):
            shape = tf.shape(image)
            h, w = shape[0], shape[1]
            return tf.image.resize(image, [h // 2, w // 2])

        def main():
            return resize_half(tf.ones([4, 4, 1]))
        """, tf="same", real=True),
    V("concat-of-comprehension-over-old-binding", """
        import tensorflow as tf

        def f(v):
            return v * 2.0

        @tf.function
        def expand(x):
            x = tf.concat([f(v) for v in x], 0)
            return x

        def main():
            return expand([tf.ones([2]), tf.ones([3])])
        """, tf="same", real=True, note="issue 20: the comprehension iterates the old binding, a list"),
    V("comprehension-over-unstack", """
        import tensorflow as tf

        @tf.function
        def norms(m):
            return tf.stack([tf.norm(row) for row in tf.unstack(m, num=3)])

        def main():
            return norms(tf.ones([3, 2]))
        """, tf="same", real=True),
    V("zip-tensor-and-list", """
        import tensorflow as tf

        @tf.function
        def pairs(x, ys):
            a = tf.abs(x)
            return [u * v for u, v in zip(a, ys)]

        def main():
            return pairs(tf.ones([2]), [1.0, 2.0])
        """, tf="raises", real=True),
    V("zip-list-params-decoding", """
        import tensorflow as tf

        @tf.function
        def decode(types, features):
            out = []
            for dtype, feature in zip(types, features):
                out.append(tf.cast(feature, dtype))
            return out

        def main():
            return decode([tf.int32, tf.float32], [tf.ones([2]), tf.ones([2])])
        """, tf="same", real=True),
    V("list-of-tensor", """
        import tensorflow as tf

        @tf.function
        def first(x):
            items = list(tf.reshape(x, [-1]))
            return items[0]

        def main():
            return first(tf.ones([2, 2]))
        """, tf="raises", real=True),
    V("for-statement-over-tensor", """
        import tensorflow as tf

        @tf.function
        def total(x):
            s = tf.constant(0.0)
            for r in x:
                s += tf.reduce_sum(r)
            return s

        def main():
            return total(tf.ones([3, 2]))
        """, tf="same", real=True, note="a for statement over a tensor becomes a TensorFlow loop"),
    V("comprehension-over-python-list-param", """
        import tensorflow as tf

        @tf.function
        def sums(xs):
            return tf.stack([tf.reduce_sum(x) for x in xs])

        def main():
            return sums([tf.ones([2]), tf.ones([2])])
        """, tf="same", real=True),
    V("unpack-split-result", """
        import tensorflow as tf

        @tf.function
        def halves(x):
            a, b = tf.split(x, 2)
            return a + b

        def main():
            return halves(tf.ones([4]))
        """, tf="same", real=True),
    V("unpack-static-shape", """
        import tensorflow as tf

        @tf.function
        def area(x):
            h, w = x.shape
            return x * (h * w)

        def main():
            return area(tf.ones([2, 3]))
        """, tf="same", real=True),
    V("enumerate-over-tensor-comprehension", """
        import tensorflow as tf

        @tf.function
        def weighted(x):
            return tf.add_n([v * i for i, v in enumerate(x)])

        def main():
            return weighted(tf.ones([3]))
        """, tf="raises"),
    V("list-of-a-row-of-a-model-output-in-a-step", """
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(3)])

        @tf.function
        def training_step(images):
            result = model(images, training=True)
            predictions = []
            for pre in result:
                scores = list(pre)
                predictions.append(scores.index(max(scores)))
            return result

        def main():
            return training_step(tf.ones([2, 4]))
        """, tf="raises", real=True, note="OperatorNotAllowedInGraphError: Iterating over a symbolic tf.Tensor"),
    V("tf-ops-on-rows-of-a-model-output-in-a-step", """
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(3)])

        @tf.function
        def training_step(images):
            result = model(images, training=True)
            total = tf.constant(0, tf.int64)
            for pre in result:
                total += tf.argmax(pre)
            return total

        def main():
            return training_step(tf.ones([2, 4]))
        """, tf="same", real=True, note="a for statement over a tensor is an AutoGraph loop"),
    V("for-over-a-tensor-in-a-keras-layer-call-under-fit", """
        import tensorflow as tf

        class Rows(tf.keras.layers.Layer):
            def call(self, x):
                rows = []
                for row in x:
                    rows.append(row * 2.0)
                return tf.stack(rows)

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.rows = Rows()
                self.dense = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.dense(self.rows(x))

        def main():
            model = Net()
            model.compile(optimizer="sgd", loss="mse")
            model.fit(tf.ones([8, 3]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([2, 3]))
        """, tf="raises", real=True,
      note="Keras 3 traces a layer's call without AutoGraph: a for statement over a tensor is not "
           "converted there (TensorFlow 2.21: Iterating over a symbolic tf.Tensor is not allowed)"),
    V("for-over-a-static-range-in-a-keras-layer-call", """
        import tensorflow as tf

        class Rows(tf.keras.layers.Layer):
            def call(self, x):
                rows = []
                for i in range(3):
                    rows.append(x[:, i] * 2.0)
                return tf.stack(rows, axis=1)

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.rows = Rows()
                self.dense = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.dense(self.rows(x))

        def main():
            model = Net()
            model.compile(optimizer="sgd", loss="mse")
            model.fit(tf.ones([8, 3]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([2, 3]))
        """, tf="same", real=True,
      note="the control: a Python loop over a Python range is unrolled, in a layer's call too"),
    V("comprehension-over-the-list-a-multiline-concat-rebinds", """
        import tensorflow as tf

        def negatives(batch, length, mask):
            picked = []
            for row in range(batch):
                top = tf.reduce_sum(mask[row]) - 1
                picked.append(tf.random.uniform([length], 0, top, dtype=tf.int32) + row * length)
            picked = tf.concat([
                tf.expand_dims(p, 0) for p in picked], 0)
            return picked

        class Sampler(tf.keras.layers.Layer):
            def call(self, mask):
                return negatives(mask.shape[0], 6, mask)

        sampler = Sampler()

        @tf.function
        def step(mask):
            return sampler(mask)

        def main():
            return tf.shape(step(tf.ones([2, 6], tf.int32)))
        """, tf="same", real=True,
      note="the rebinding statement spans two lines: its comprehension still iterates the old binding, "
           "a Python list (heldout45's negative sampler in a layer's call)"),
    V("comprehension-after-a-multiline-statement-on-its-last-line", """
        import tensorflow as tf

        @tf.function
        def sums(xs):
            t = tf.stack(
                xs); out = [tf.reduce_sum(r) for r in t]
            return tf.stack(out)

        def main():
            return sums([tf.ones([2]), tf.ones([2])])
        """, tf="raises",
      note="the statement before ends on the read's line: the comprehension iterates the new tensor "
           "(the review of the thirtieth session)"),
]
