"""TF307 unrolled-loop: a Python loop in graph code unrolled into a large graph, or one that grows with the data."""

from conformance.variant import V

VARIANTS = [
    V("power-iteration-1000", """
        import tensorflow as tf

        @tf.function
        def power_iteration(m, v):
            for _ in range(200):
                v = tf.linalg.matvec(m, v)
                v = v / tf.norm(v)
            return v

        def main():
            return power_iteration(tf.eye(2), tf.ones([2]))
        """, tf="unrolled", real=True),
    V("range-of-static-dim", """
        import tensorflow as tf

        @tf.function
        def cumulative(x):
            total = tf.zeros_like(x[0])
            for i in range(x.shape[0]):
                total += x[i]
            return total

        def main():
            return [cumulative(tf.ones([n, 2])) for n in (3, 5, 7)]
        """, tf="unrolled", real=True),
    V("len-of-clipped-gradient-list", """
        import tensorflow as tf

        w = [tf.Variable(tf.ones([2])), tf.Variable(tf.ones([3]))]

        @tf.function
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w[0] * x) + tf.reduce_sum(w[1])
            grads = tape.gradient(loss, w)
            clipped, _ = tf.clip_by_global_norm(grads, clip_norm=1.0)
            for i in range(len(clipped)):
                w[i].assign_sub(0.1 * clipped[i])
            return loss

        def main():
            return [step(tf.ones([2]) * k) for k in (1.0, 2.0, 3.0)]
        """, tf="same", real=True),
    V("len-of-a-dynamic-length-tensor", """
        import tensorflow as tf

        @tf.function
        def total_of_positives(x):
            kept = tf.boolean_mask(x, x > 0)
            total = tf.constant(0.0)
            for i in range(len(kept)):
                total += kept[i]
            return total

        def main():
            return [total_of_positives(tf.constant(v)) for v in ([1.0, -2.0, 3.0], [4.0, 5.0, -1.0, 2.0])]
        """, tf="same", real=True),
    V("tf-range-instead", """
        import tensorflow as tf

        @tf.function
        def power_iteration(m, v):
            for _ in tf.range(1000):
                v = tf.linalg.matvec(m, v)
                v = v / tf.norm(v)
            return v

        def main():
            return power_iteration(tf.eye(2), tf.ones([2]))
        """, tf="same", real=True),
    V("three-residual-blocks", """
        import tensorflow as tf

        @tf.function
        def residual(x):
            for _ in range(3):
                x = x + tf.nn.relu(x)
            return x

        def main():
            return residual(tf.ones([2]))
        """, tf="same", real=True),
    V("loop-over-layers-list", """
        import tensorflow as tf

        layers = [tf.keras.layers.Dense(2, kernel_initializer="ones") for _ in range(4)]

        @tf.function
        def forward(x):
            for layer in layers:
                x = layer(x)
            return x

        def main():
            return [forward(tf.ones([1, 2])) for _ in range(2)]
        """, tf="same", real=True),
    V("range-of-python-arg-large", """
        import tensorflow as tf

        @tf.function
        def smooth(x, steps):
            for _ in range(steps):
                x = 0.5 * (x + tf.roll(x, 1, 0))
            return x

        def main():
            return smooth(tf.ones([4]), 200)
        """, tf="unrolled", real=True),
    V("range-of-tensor-becomes-tf-loop", """
        import tensorflow as tf

        @tf.function
        def smooth(x, steps):
            for _ in range(steps):
                x = 0.5 * (x + tf.roll(x, 1, 0))
            return x

        def main():
            return smooth(tf.ones([4]), tf.constant(200))
        """, tf="same", real=True, note="range(tensor) becomes tf.range"),
    V("range-64-small-body", """
        import tensorflow as tf

        @tf.function
        def accumulate(x):
            for i in range(64):
                x = x + 1.0
            return x

        def main():
            return accumulate(tf.ones([2]))
        """, tf="same", note="64 iterations of one op: a graph of ~70 ops"),
    V("range-len-of-tensor", """
        import tensorflow as tf

        @tf.function
        def total(x):
            s = tf.constant(0.0)
            for i in range(len(x)):
                s += x[i]
            return s

        def main():
            return [total(tf.ones([n])) for n in (2, 4, 6)]
        """, tf="unrolled", real=True),
    V("range-150-literal", """
        import tensorflow as tf

        @tf.function
        def f(x):
            for _ in range(150):
                x = tf.sin(x) + x
            return x

        def main():
            return f(tf.ones([2]))
        """, tf="unrolled"),
    V("range-static-dim-same-size-always", """
        import tensorflow as tf

        @tf.function
        def heads(x):
            out = []
            for i in range(x.shape[-1]):
                out.append(x[..., i] * 2.0)
            return tf.stack(out)

        def main():
            return [heads(tf.ones([2, 4])) for _ in range(3)]
        """, tf="same", real=True, note="a fixed feature dimension: one small graph"),
    V("range-500-gradient-steps", """
        import tensorflow as tf

        w = tf.Variable(1.0)

        @tf.function
        def fit():
            for _ in range(500):
                w.assign_sub(0.01 * w)
            return w.read_value()

        def main():
            return fit()
        """, tf="unrolled", real=True),
    V("loop-over-small-config-list", """
        import tensorflow as tf

        SCALES = [1.0, 0.5, 0.25]

        @tf.function
        def pyramid(x):
            out = []
            for s in SCALES:
                out.append(x * s)
            return tf.stack(out)

        def main():
            return pyramid(tf.ones([2]))
        """, tf="same", real=True),
    V("range-num-heads-constant", """
        import tensorflow as tf

        NUM_HEADS = 8

        @tf.function
        def split_heads(x):
            return tf.stack([x * float(h) for h in range(NUM_HEADS)])

        def main():
            return split_heads(tf.ones([2]))
        """, tf="same", real=True),
    V("tf-range-over-data-dim", """
        import tensorflow as tf

        @tf.function
        def cumulative(x):
            total = tf.zeros_like(x[0])
            for i in tf.range(tf.shape(x)[0]):
                total += x[i]
            return total

        def main():
            return [cumulative(tf.ones([n, 2])) for n in (3, 5, 7)]
        """, tf="same", real=True),
    V("unrolled-rnn-over-time-steps-literal", """
        import tensorflow as tf

        cell = tf.keras.layers.SimpleRNNCell(4)

        @tf.function
        def run(x):
            h = [tf.zeros([1, 4])]
            for t in range(120):
                out, h = cell(x, h)
            return out

        def main():
            return run(tf.ones([1, 3]))
        """, tf="unrolled", real=True),
    V("while-tensor-loop", """
        import tensorflow as tf

        @tf.function
        def halve(x):
            while tf.reduce_max(x) > 1.0:
                x = x / 2.0
            return x

        def main():
            return halve(tf.constant([1000.0]))
        """, tf="same", real=True),
    V("range-of-len-python-list", """
        import tensorflow as tf

        @tf.function
        def total(xs):
            s = tf.constant(0.0)
            for i in range(len(xs)):
                s += tf.reduce_sum(xs[i])
            return s

        def main():
            return total([tf.ones([2])] * 3)
        """, tf="same", real=True),
    V("range-100-two-ops", """
        import tensorflow as tf

        @tf.function
        def f(x):
            for _ in range(100):
                x = tf.tanh(x) * 0.9 + x
            return x

        def main():
            return f(tf.ones([2]))
        """, tf="unrolled"),
    V("range-of-python-arg-small", """
        import tensorflow as tf

        @tf.function
        def stack_blocks(x, depth):
            for _ in range(depth):
                x = tf.nn.relu(x) + x
            return x

        def main():
            return stack_blocks(tf.ones([2]), 4)
        """, tf="same", real=True),
    V("loop-over-boxes-in-a-lambda-applied-to-eager-outputs", """
        import tensorflow as tf
        from tensorflow.keras.layers import Lambda

        def pick(scores):
            classes = tf.argmax(scores, axis=1)
            best = []
            for i in range(len(classes)):
                best.append(scores[i, classes[i]])
            return tf.stack(best)

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(3)])
            scores = model(tf.ones([4, 2]))  # eager outputs of a model called on an image
            return Lambda(lambda x: pick(x), name="pick")(scores)
        """, tf="same", real=True,
      note="a Lambda layer applied at once to a model's eager outputs calls its function right there, "
           "eagerly: no trace, nothing unrolled (heldout34: a detection script's NMS, TF307 and TF208 "
           "judged wrong, run)"),
    V("epochs-as-a-default-argument", """
        import tensorflow as tf

        w = tf.Variable(1.0)

        @tf.function
        def fit(x, y, epochs=300):
            for _ in range(epochs):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(w * x - y))
                w.assign_sub(0.01 * tape.gradient(loss, w))
            return loss

        def main():
            return fit(tf.ones([4]), tf.ones([4]) * 2.0)
        """, tf="unrolled", real=True,
      note="a whole fit in one tf.function, its epoch count a Python default: every epoch copied into "
           "the graph (heldout47: a notebook's train_step with epoch=1000, traced in 73 s)"),
    V("epochs-passed-by-keyword", """
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        opt = tf.keras.optimizers.SGD(0.01)

        @tf.function
        def train(x, y, model, epochs):
            for _ in range(epochs):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                grads = tape.gradient(loss, model.trainable_variables)
                opt.apply_gradients(zip(grads, model.trainable_variables))
            return loss

        def main():
            model(tf.ones([4, 1]))
            return train(tf.ones([4, 1]), tf.ones([4, 1]), model, epochs=150)
        """, tf="unrolled", real=True),
    V("epochs-fixed-by-an-input-signature", """
        import tensorflow as tf

        @tf.function(input_signature=[tf.TensorSpec([4], tf.float32), tf.TensorSpec([], tf.int32)])
        def smooth(x, steps):
            for _ in range(steps):
                x = 0.5 * (x + tf.roll(x, 1, 0))
            return x

        def main():
            return smooth(tf.ones([4]), 200)
        """, tf="same", real=True, note="the signature makes the 200 a tensor: range becomes tf.range"),
]
