"""TF502 redundant-decorator: a tf.function with no tensor work."""

from conformance.variant import V

VARIANTS = [
    V("string-formatting", """
        import tensorflow as tf

        @tf.function
        def describe(name, count):
            return tf.constant(f"{name}: {count} items")

        def main():
            return describe("train", 3)
        """, tf="empty", real=True,
      note="tf.constant makes a Const node and nothing else: the traced graph computes nothing"),
    V("python-max", """
        import tensorflow as tf

        @tf.function
        def epochs_left(done, total):
            return max(total - done, 0)

        def main():
            return epochs_left(3, 10)
        """, tf="empty", real=True),
    V("tf-print-demo", """
        import tensorflow as tf

        @tf.function
        def show(x):
            print("tracing")
            tf.print(x)

        def main():
            show(tf.constant(1))
            return show(tf.constant(2))
        """, tf="differs", real=True),
    V("real-loss", """
        import tensorflow as tf

        @tf.function
        def loss(y_true, y_pred):
            return tf.reduce_mean(tf.square(y_true - y_pred))

        def main():
            return loss(tf.ones([2]), tf.zeros([2]))
        """, tf="same", real=True),
    V("returns-config-dict", """
        import tensorflow as tf

        @tf.function
        def config(rate):
            return {"rate": rate, "steps": 10}

        def main():
            return config(0.5)
        """, tf="empty", real=True),
    V("identity-passthrough", """
        import tensorflow as tf

        @tf.function
        def passthrough(x):
            return x

        def main():
            return passthrough(tf.ones([2]))
        """, tf="empty", real=True),
    V("reads-variable", """
        import tensorflow as tf

        v = tf.Variable(3.0)

        @tf.function
        def read():
            return v * 2.0

        def main():
            return read()
        """, tf="same", real=True),
    V("module-variables-times-a-list", """
        import tensorflow as tf

        W = tf.Variable(4.0)
        b = tf.Variable(1.0)

        @tf.function
        def hypothesis(x):
            return W * x + b

        xs = [1.0, 2.0, 3.0]

        def main():
            return hypothesis(xs)
        """, tf="same", real=True,
      note="heldout41: a linear model on module-level variables, fed a Python list"),
    V("module-numbers-times-a-number", """
        import tensorflow as tf

        W = 4.0
        b = 1.0

        @tf.function
        def hypothesis(x):
            return W * x + b

        def main():
            return hypothesis(3.0)
        """, tf="empty", real=True),
    V("dataset-pipeline-builder", """
        import tensorflow as tf

        @tf.function
        def total(ds):
            s = tf.constant(0, tf.int64)
            for x in ds:
                s += x
            return s

        def main():
            return total(tf.data.Dataset.range(4))
        """, tf="same", real=True),
    V("model-call", """
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])

        @tf.function
        def predict(x):
            return model(x)

        def main():
            return predict(tf.ones([1, 2]))
        """, tf="same", real=True),
    V("shape-arithmetic-only", """
        import tensorflow as tf

        @tf.function
        def num_patches(h, w, size):
            return (h // size) * (w // size)

        def main():
            return num_patches(32, 32, 8)
        """, tf="empty"),
    V("python-list-sum", """
        import tensorflow as tf

        @tf.function
        def total(values):
            return sum(values)

        def main():
            return total([1, 2, 3])
        """, tf="empty"),
    V("python-bool-flag-return", """
        import tensorflow as tf

        @tf.function
        def should_log(step, every):
            return step % every == 0

        def main():
            return should_log(10, 5)
        """, tf="differs+empty", real=True),
    V("gradient-step", """
        import tensorflow as tf

        w = tf.Variable([1.0, 2.0])

        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * x)
            w.assign_sub(0.1 * tape.gradient(loss, w))
            return loss

        def main():
            return step(tf.ones([2]))
        """, tf="same", real=True),
    V("tuple-of-args-returned", """
        import tensorflow as tf

        @tf.function
        def pack(a, b):
            return a, b

        def main():
            return pack(tf.ones([2]), tf.zeros([2]))
        """, tf="empty", real=True),
    V("cast-only", """
        import tensorflow as tf

        @tf.function
        def to_float(x):
            return tf.cast(x, tf.float32)

        def main():
            return to_float(tf.ones([2], tf.int32))
        """, tf="same", real=True),
    V("dict-of-tensors-reshaped", """
        import tensorflow as tf

        @tf.function
        def preprocess(features):
            return {k: tf.reshape(v, [-1]) for k, v in features.items()}

        def main():
            return preprocess({"a": tf.ones([2, 2])})
        """, tf="same", real=True),
    V("python-arithmetic-on-hparams", """
        import tensorflow as tf

        @tf.function
        def warmup_steps(epochs, steps_per_epoch):
            return int(0.1 * epochs * steps_per_epoch)

        def main():
            return warmup_steps(10, 100)
        """, tf="empty", real=True),
    V("string-join", """
        import tensorflow as tf

        @tf.function
        def run_name(prefix, idx):
            return "-".join([prefix, str(idx)])

        def main():
            return run_name("exp", 3)
        """, tf="differs+empty", real=True),
    V("layer-norm-math", """
        import tensorflow as tf

        @tf.function
        def normalise(x):
            mean, var = tf.nn.moments(x, axes=[0])
            return (x - mean) / tf.sqrt(var + 1e-6)

        def main():
            return normalise(tf.constant([1.0, 2.0, 3.0]))
        """, tf="same", real=True),
    V("slices-a-map-element-through-a-partial", """
        import functools
        import tensorflow as tf

        @tf.function
        def to_tuple(dataset, n_features=None):
            return dataset[:, :, :n_features], dataset[:, :, n_features:]

        def main():
            split = functools.partial(to_tuple, n_features=2)
            data = tf.data.Dataset.from_tensor_slices(tf.ones([4, 3, 3, 5])).map(split)
            return [a.shape for a, _ in data]
        """, tf="same", real=True,
      note="heldout41: a patch split into features and labels inside Dataset.map"),
    V("map-over-dataset-elements", """
        import tensorflow as tf

        @tf.function
        def square(x):
            return x * x

        def main():
            return list(tf.data.Dataset.range(3).map(square).as_numpy_iterator())
        """, tf="same", real=True),
    V("returns-none", """
        import tensorflow as tf

        @tf.function
        def noop(x):
            return None

        def main():
            return noop(tf.ones([2]))
        """, tf="empty"),
    V("slices-a-tensor-of-the-enclosing-function", """
        import tensorflow as tf

        def main():
            out = []
            for batch in ([1.0, 2.0], [3.0, 4.0]):
                text = tf.constant(batch)

                @tf.function
                def first():
                    return text[0]

                out.append(first())
            return out
        """, tf="same", real=True, note="the slice of the captured tensor is the graph's op (strategy.run's per-replica shard)"),
    V("module-function-whose-body-is-pass", """
        import tensorflow as tf

        @tf.function
        def roi_loss():
            pass

        class Model:
            def __init__(self):
                self.loss_function = roi_loss()

        def main():
            return [Model().loss_function for _ in range(3)]
        """, tf="empty", real=True, note="a placeholder left decorated: nothing to override it, only a trace"),
    V("dataset-map-function-with-a-count-like-parameter", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def times_three(n):
            return n * 3

        def main():
            ds = tf.data.Dataset.from_tensor_slices(np.arange(10)).map(times_three)
            return [int(x) for x in ds]
        """, tf="same", real=True,
      note="what Dataset.map passes are tensors, whatever the parameter is called: n * 3 is tensor work "
           "(heldout27: a notebook's map function, judged keep)"),
    V("python-if-on-a-tensor-comparison", """
        import tensorflow as tf

        @tf.function
        def sign(x):
            if x > 0:
                return "positive"
            else:
                return "not positive"

        def main():
            return [sign(tf.constant(2)), sign(tf.constant(-2))]
        """, tf="differs", real=True,
      note="x > 0 on a tensor is an op and the if becomes a tf.cond: graph work, not an empty graph "
           "(heldout39: an AutoGraph course notebook's demo, told undecorate, judged keep)"),
    V("counts-a-dataset-into-an-attribute-tensor", """
        import tensorflow as tf

        class Files:
            def __init__(self):
                self.files = tf.data.Dataset.range(5)
                self.zero = tf.constant(0, dtype=tf.int64)

            @tf.function
            def count(self):
                n = self.zero
                for _ in self.files:
                    n += 1
                return n

        def main():
            files = Files()
            return int(files.count())
        """, tf="same", real=True,
      note="n += 1 on a tensor the object holds is an op, and the loop over a dataset becomes a reduce: "
           "graph work (heldout48: a U-Net dataset class's element count, told no tensor work)"),
]
