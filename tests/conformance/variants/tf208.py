"""TF208 python-list-in-tf-loop: a Python list appended to inside a TensorFlow loop."""

from conformance.variant import V

VARIANTS = [
    V("append-in-tf-range", """
        import tensorflow as tf

        @tf.function
        def doubled(x):
            outputs = []
            for i in tf.range(tf.shape(x)[0]):
                outputs.append(x[i] * 2.0)
            return tf.stack(outputs)

        def main():
            return doubled(tf.ones([3]))
        """, tf="raises", real=True),
    V("append-in-dataset-loop", """
        import tensorflow as tf

        @tf.function
        def collect(dataset):
            losses = []
            for batch in dataset:
                losses.append(tf.reduce_mean(batch))
            return tf.stack(losses)

        def main():
            return collect(tf.data.Dataset.range(6).map(lambda i: tf.cast(i, tf.float32)).batch(2))
        """, tf="raises", real=True),
    V("tensorarray-instead", """
        import tensorflow as tf

        @tf.function
        def doubled(x):
            n = tf.shape(x)[0]
            ta = tf.TensorArray(tf.float32, size=n)
            for i in tf.range(n):
                ta = ta.write(i, x[i] * 2.0)
            return ta.stack()

        def main():
            return doubled(tf.ones([3]))
        """, tf="same", real=True),
    V("append-in-python-range", """
        import tensorflow as tf

        @tf.function
        def stacked(x):
            outputs = []
            for i in range(3):
                outputs.append(x * i)
            return tf.stack(outputs)

        def main():
            return stacked(tf.ones([2]))
        """, tf="same", real=True),
    V("list-made-inside-tf-loop-rebinding-same-structure", """
        import tensorflow as tf

        @tf.function
        def accumulate(x, n):
            arrays = [tf.TensorArray(tf.float32, size=n) for _ in range(2)]
            for i in tf.range(n):
                new = []
                for k, ta in enumerate(arrays):
                    new.append(ta.write(i, x * float(k)))
                arrays = new
            return [ta.stack() for ta in arrays]

        def main():
            return accumulate(tf.ones([2]), tf.constant(3))
        """, tf="same", real=True,
      note="issue 20: a list made inside the loop body that only rebinds a loop variable of the same structure"),
    V("append-in-tensor-while", """
        import tensorflow as tf

        @tf.function
        def halvings(x):
            seen = []
            while tf.reduce_max(x) > 1.0:
                x = x / 2.0
                seen.append(x)
            return len(seen)

        def main():
            return halvings(tf.constant([8.0]))
        """, tf="differs", note="the graph keeps one element: the append ran once, while tracing", real=True),
    V("list-built-and-consumed-inside-body", """
        import tensorflow as tf

        @tf.function
        def total(x, n):
            acc = tf.zeros([2])
            for i in tf.range(n):
                parts = []
                parts.append(x * 2.0)
                parts.append(x + 1.0)
                acc += tf.add_n(parts)
            return acc

        def main():
            return total(tf.ones([2]), tf.constant(3))
        """, tf="same", real=True, note="the list lives and dies within one iteration"),
    V("append-in-loop-over-tensor-param", """
        import tensorflow as tf

        @tf.function
        def rows(m):
            out = []
            for row in m:
                out.append(tf.reduce_sum(row))
            return tf.stack(out)

        def main():
            return rows(tf.ones([3, 2]))
        """, tf="raises", real=True),
    V("append-in-python-loop-over-list-of-tensors", """
        import tensorflow as tf

        @tf.function
        def sums(xs):
            out = []
            for x in xs:
                out.append(tf.reduce_sum(x))
            return tf.stack(out)

        def main():
            return sums([tf.ones([2]), tf.ones([3])])
        """, tf="same", real=True),
    V("append-python-value-in-tf-loop-unused-after", """
        import tensorflow as tf

        @tf.function
        def count(n):
            log = []
            total = tf.constant(0)
            for i in tf.range(n):
                log.append("step")
                total += i
            return total

        def main():
            return count(tf.constant(4))
        """, tf="same", note="a Python string appended (once, at trace time) and never read"),
    V("append-in-tf-range-literal", """
        import tensorflow as tf

        @tf.function
        def squares():
            out = []
            for i in tf.range(4):
                out.append(i * i)
            return tf.stack(out)

        def main():
            return squares()
        """, tf="raises"),
    V("list-of-output-dicts-from-a-model-handed-to-the-loss", """
        import tensorflow as tf

        class Head(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(2)

            def call(self, x):
                y = self.dense(x)
                return y, [{"logits": y * k} for k in range(3)]

        def total_loss(pred, aux_outputs=None):
            preds = []
            if aux_outputs is not None:
                for out in aux_outputs:
                    preds.append(out["logits"])
            preds.append(pred)
            return tf.add_n([tf.reduce_sum(p) for p in preds])

        model = Head()

        @tf.function
        def step(model, x):
            with tf.GradientTape() as tape:
                pred, aux_outputs = model(x, training=True)
                loss = total_loss(pred, aux_outputs=aux_outputs)
            return loss, tape.gradient(loss, model.trainable_variables)

        def main():
            return [step(model, tf.ones([2, 3]))[0] for _ in range(2)]
        """, tf="same", real=True,
      note="a loop whose elements are indexed by strings iterates a Python list of dicts: AutoGraph leaves "
           "it a Python loop (heldout27: a segmentation model's auxiliary outputs)"),
]
