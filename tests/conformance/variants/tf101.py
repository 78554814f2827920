"""TF101 python-scalar-argument: a Python number that changes from call to call retraces."""

from conformance.variant import V

VARIANTS = [
    V("step-counter-in-loop", """
        import tensorflow as tf

        @tf.function
        def train_step(x, step):
            return x * tf.cast(step, tf.float32)

        def main():
            return [train_step(tf.ones([2]), step) for step in range(8)][-1]
        """, tf="retraces", real=True),
    V("decayed-learning-rate", """
        import tensorflow as tf

        @tf.function
        def update(w, lr):
            return w - lr * tf.ones_like(w)

        def main():
            w, lr = tf.zeros([3]), 0.1
            for epoch in range(6):
                lr *= 0.9
                w = update(w, lr)
            return w
        """, tf="retraces", real=True),
    V("epoch-from-enumerate-over-dataset", """
        import tensorflow as tf

        @tf.function
        def step(batch, epoch):
            return tf.reduce_sum(batch) + epoch

        def main():
            ds = tf.data.Dataset.range(12).map(lambda i: tf.cast(i, tf.float32)).batch(2)
            out = 0.0
            for i, batch in enumerate(ds):
                out = step(batch, i)
            return out
        """, tf="retraces", real=True),
    V("log-every-n-inside", """
        import tensorflow as tf

        @tf.function
        def step(x, it):
            if it % 2 == 0:
                x = x * 2.0
            return x + 1.0

        def main():
            x = tf.ones([2])
            for it in range(10):
                x = step(x, it)
            return x
        """, tf="retraces", real=True, note="the number only steers Python control flow: every value retraces anyway"),
    V("constant-training-flag", """
        import tensorflow as tf

        @tf.function
        def forward(x, training):
            return x * 2.0 if training else x

        def main():
            return [forward(tf.ones([2]), True) for _ in range(10)][-1]
        """, tf="same", real=True),
    V("train-eval-alternating-flag", """
        import tensorflow as tf

        @tf.function
        def forward(x, training):
            return x * 0.5 if training else x

        def main():
            out = []
            for epoch in range(6):
                out.append(forward(tf.ones([2]), True))
                out.append(forward(tf.ones([2]), False))
            return out[-2:]
        """, tf="same", real=True, note="two values, two graphs: what the flag is for"),
    V("step-as-tensor", """
        import tensorflow as tf

        @tf.function
        def train_step(x, step):
            return x * tf.cast(step, tf.float32)

        def main():
            return [train_step(tf.ones([2]), tf.constant(step)) for step in range(8)][-1]
        """, tf="same"),
    V("step-from-tf-range", """
        import tensorflow as tf

        @tf.function
        def train_step(x, step):
            return x * tf.cast(step, tf.float32)

        def main():
            out = None
            for step in tf.range(8):
                out = train_step(tf.ones([2]), step)
            return out
        """, tf="same"),
    V("keyword-scale-varies", """
        import tensorflow as tf

        @tf.function
        def scale(x, factor=1.0):
            return x * factor

        def main():
            out = None
            for i in range(7):
                out = scale(tf.ones([2]), factor=0.5 * i)
            return out
        """, tf="retraces"),
    V("three-epochs-only", """
        import tensorflow as tf

        @tf.function
        def run_epoch(x, epoch):
            return x + epoch

        def main():
            out = None
            for epoch in range(3):
                out = run_epoch(tf.ones([2]), epoch)
            return out
        """, tf="same", note="three values trace three graphs: fewer than TensorFlow's retracing warning needs"),
    V("fixed-batch-size-constant", """
        import tensorflow as tf

        BATCH = 4

        @tf.function
        def pad(x, size):
            return tf.pad(x, [[0, size - 2]])

        def main():
            out = None
            for _ in range(8):
                out = pad(tf.ones([2]), BATCH)
            return out
        """, tf="same"),
    V("first-step-flag-in-a-decoding-loop", """
        import tensorflow as tf

        @tf.function
        def decode_step(state, first):
            return state * 2.0 if first else state + 1.0

        def main():
            state = tf.ones([2])
            for i in range(12):
                state = decode_step(state, i == 0)
            return state
        """, tf="same", real=True, note="`i == 0` takes two values: two traces for twelve calls"),
    V("grid-sizes-from-a-loop-inside-a-dataset-map", """
        import tensorflow as tf

        ANCHOR_MASKS = [[6, 7, 8], [3, 4, 5], [0, 1, 2]]

        @tf.function
        def targets_for_output(y, grid_size, anchor_idxs):
            cells = tf.cast(y[..., :2] * grid_size, tf.int32)
            return tf.scatter_nd(cells[:, None, :], tf.ones_like(y[:, :1]), [grid_size, grid_size, 1])

        def transform_targets(y):
            outs = []
            grid_size = 13
            for anchor_idxs in ANCHOR_MASKS:
                outs.append(targets_for_output(y, grid_size, anchor_idxs))
                grid_size *= 2
            return tuple(outs)

        def main():
            ds = tf.data.Dataset.from_tensor_slices(tf.random.uniform([24, 4, 3], seed=1))
            ds = ds.map(lambda y: transform_targets(y))
            return [float(tf.reduce_sum(t)) for batch in ds for t in batch]
        """, tf="same", real=True,
      note="the loop runs while the map function is traced: three traces, once, for every element after"),
    V("loop-in-a-callable-object-handed-to-map", """
        import tensorflow as tf

        class Preprocess:
            def __init__(self, sizes):
                self.sizes = sizes

            def __call__(self, x):
                outs = []
                for size in self.sizes:
                    outs.append(self.grid(x, size))
                return tuple(outs)

            @tf.function
            def grid(self, x, size):
                return tf.zeros((size, size)) + x

        def main():
            ds = tf.data.Dataset.from_tensor_slices(tf.ones([20])).map(Preprocess([13, 26, 52, 104, 208, 416]))
            return [len(o) for o in ds.take(2)]
        """, tf="same", real=True,
      note="tf.data traces the object's __call__ once: one trace of the tf.function per size there, not per element (heldout26)"),
    V("grid-size-doubled-per-anchor-mask", """
        import numpy as np
        import tensorflow as tf

        anchor_masks = np.array([[6, 7, 8], [3, 4, 5], [0, 1, 2]])

        @tf.function
        def targets_for_output(y_true, grid_size, anchor_idxs):
            return tf.zeros([tf.shape(y_true)[0], grid_size, grid_size, 3]) + tf.cast(tf.reduce_sum(anchor_idxs), tf.float32)

        def transform_targets(y_train, masks, size):
            outputs = []
            grid_size = size // 32
            for anchor_idxs in masks:
                outputs.append(targets_for_output(y_true=y_train, grid_size=grid_size, anchor_idxs=anchor_idxs))
                grid_size *= 2
            return tuple(outputs)

        def main():
            shapes = []
            for _ in range(6):
                targets = transform_targets(tf.ones([2, 4]), anchor_masks, 416)
                shapes.append(targets[0].shape)
            return shapes
        """, tf="same", real=True,
      note="a grid size doubled per pyramid level takes the same three values on every call: three traces "
           "(heldout27: YOLOv3's target builder, copied into many repositories)"),
    V("batch-size-of-each-batch-of-a-dataset", """
        import tensorflow as tf

        noise_dim = 4
        dense = tf.keras.layers.Dense(1)

        @tf.function
        def generator_step(batch_size):
            return tf.reduce_mean(dense(tf.random.uniform([batch_size, noise_dim])))

        def main():
            data = tf.data.Dataset.from_tensor_slices(tf.ones([10, 3])).batch(4)
            out = []
            for _ in range(3):
                for b in data:
                    out.append(float(generator_step(b.shape[0])))
            return len(out)
        """, tf="same", real=True,
      note="b.shape[0] is 4, 4, then 2 on every epoch: two traces (heldout28: a WGAN's generator step, judged and run)"),
    V("resolution-cycled-every-ten-batches", """
        import tensorflow as tf

        @tf.function
        def train(res, images):
            resized = tf.image.resize(images, [res, res])
            return tf.reduce_mean(resized) * res

        def main():
            out = []
            for batch in range(60):
                res = 32 + 16 * ((batch // 10) % 3)  # three sizes in turn, changed every ten batches
                out.append(train(res, tf.ones([1, 8, 8, 3])))
            return out
        """, tf="same", real=True,
      note="a Python int cycled through three values traces three times in all, fewer than the five "
           "traces TensorFlow warns at (heldout34: a multi-scale YOLO step, TF101 judged wrong, run)"),
    V("resolution-cycled-through-eight-sizes", """
        import tensorflow as tf

        @tf.function
        def train(res, images):
            resized = tf.image.resize(images, [res, res])
            return tf.reduce_mean(resized) * res

        def main():
            out = []
            for batch in range(80):
                res = 32 + 16 * ((batch // 10) % 8)
                out.append(train(res, tf.ones([1, 8, 8, 3])))
            return out
        """, tf="retraces", real=True,
      note="the control: eight sizes trace eight times, past TensorFlow's warning"),
    V("freeze-flag-chosen-per-epoch", """
        import tensorflow as tf

        w = tf.Variable(tf.ones([3, 1]))
        gate = tf.Variable(tf.ones([3, 1]))
        opt = tf.keras.optimizers.SGD(0.1)

        @tf.function
        def train_step(x, train_gate):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.matmul(x, w * gate) ** 2)
            variables = [w, gate] if train_gate else [w]
            opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
            return loss

        def main():
            losses = []
            for epoch in range(8):
                for step in range(5):
                    losses.append(train_step(tf.ones([2, 3]), True if epoch > 2 else False))
            return losses
        """, tf="same", real=True,
      note="a flag chosen per epoch between two constants takes two values: two traces in all "
           "(heldout37: a graph network's freeze flag, TF101 judged wrong, run)"),
    V("parameter-passed-on-from-a-loop-over-units", """
        import tensorflow as tf

        @tf.function
        def ascent_step(image, unit):
            with tf.GradientTape() as tape:
                tape.watch(image)
                loss = tf.reduce_mean(image[..., unit % 3])
            return image + 0.1 * tape.gradient(loss, image)

        def visualize(unit):
            image = tf.ones([1, 4, 4, 3])
            for _ in range(3):
                image = ascent_step(image, unit)
            return image

        def main():
            return [visualize(u) for u in range(8)]
        """, tf="retraces", real=True,
      note="the caller passes its own parameter on and is called once per unit: one trace per unit "
           "(heldout37: an activation-maximization notebook)"),
    V("three-values-in-a-comprehension", """
        import tensorflow as tf

        @tf.function
        def scale(x, k):
            return x * k

        def main():
            return [scale(tf.ones([2]), k) for k in range(3)]
        """, tf="same", real=True,
      note="three values, three traces: fewer than TensorFlow warns at"),
    V("python-function-called-by-its-own-name-beside-a-wrapped-alias", """
        import tensorflow as tf

        weights = {f"w{k}": tf.Variable(tf.ones([2, 2])) for k in range(8)}

        def layer(x, key):
            return tf.matmul(x, weights[key])

        layer_graph = tf.function(layer)

        def main():
            x = tf.ones([2, 2])
            for k in range(8):
                x = layer(x, f"w{k}")
            return layer_graph(x, "w0")
        """, tf="same", real=True,
      note="only layer_graph is a tf.function: layer(x, key) runs the Python function, which traces nothing "
           "(heldout38: NN_func = tf.function(NN), NN called eagerly elsewhere)"),
]
