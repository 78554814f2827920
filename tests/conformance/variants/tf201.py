"""TF201 print-in-graph: Python print runs once per trace and shows symbolic tensors."""

from conformance.variant import V

VARIANTS = [
    V("message-before-raise", """
        import tensorflow as tf

        @tf.function
        def decode(image, image_type):
            if image_type == "png":
                return tf.image.decode_png(image)
            else:
                print("error: unsupported image type: {}".format(image_type))
                raise ValueError(image_type)

        def main():
            failures = 0
            for _ in range(3):
                try:
                    decode(tf.constant(b""), "tiff")
                except ValueError:
                    failures += 1
            return failures
        """, tf="same", real=True),
    V("print-loss-in-train-step", """
        import tensorflow as tf

        @tf.function
        def train_step(x):
            loss = tf.reduce_sum(x * x)
            print("loss", loss)
            return loss

        def main():
            return [train_step(tf.ones([2])) for _ in range(3)]
        """, tf="differs", real=True),
    V("print-in-helper-called-from-graph", """
        import tensorflow as tf

        def log(value):
            print("value:", value)

        @tf.function
        def step(x):
            y = tf.nn.relu(x)
            log(y)
            return y

        def main():
            return [step(tf.ones([2])) for _ in range(2)]
        """, tf="differs", real=True),
    V("print-in-an-except-handler", """
        import tensorflow as tf

        @tf.function
        def safe_ratio(x, y):
            try:
                ratio = x / y
            except ValueError as e:
                print("could not divide:", e)
                ratio = tf.zeros_like(x)
            return ratio

        def main():
            return [safe_ratio(tf.ones([2]) * k, tf.ones([2])) for k in (1.0, 2.0, 3.0)]
        """, tf="same", real=True),
    V("tf-print-instead", """
        import sys
        import tensorflow as tf

        @tf.function
        def train_step(x):
            loss = tf.reduce_sum(x * x)
            tf.print("loss", loss, output_stream=sys.stdout)
            return loss

        def main():
            return [train_step(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("print-in-while-body-called-eagerly", """
        import tensorflow as tf

        def body(i, total):
            print("step", int(i))
            return i + 1, total + tf.cast(i, tf.float32)

        def accumulate(n):
            return tf.while_loop(lambda i, t: i < n, body, [tf.constant(0), tf.constant(0.0)])

        def main():
            return [accumulate(tf.constant(3)) for _ in range(2)]
        """, tf="same", real=True),
    V("print-in-cond-branch-under-tf-function", """
        import tensorflow as tf

        def positive(x):
            print("positive branch", x)
            return x * 2.0

        @tf.function
        def step(x):
            return tf.cond(tf.reduce_sum(x) > 0, lambda: positive(x), lambda: x)

        def main():
            return [step(tf.ones([2])) for _ in range(3)]
        """, tf="differs", real=True),
    V("print-in-eager-report", """
        import tensorflow as tf

        @tf.function
        def step(x):
            return x * 2.0

        def report(history):
            print("epochs run:", len(history))

        def main():
            h = [step(tf.ones([2])) for _ in range(3)]
            report(h)
            return h
        """, tf="same", real=True),
    V("print-epoch-number-in-step", """
        import tensorflow as tf

        @tf.function
        def train_epoch(x, epoch):
            print("epoch", epoch)
            return x * 2.0

        def main():
            return [train_epoch(tf.ones([2]), tf.constant(e)) for e in range(3)]
        """, tf="differs", real=True),
    V("print-shape-once-single-call", """
        import tensorflow as tf

        @tf.function
        def encode(x):
            print("input shape", x.shape)
            return tf.nn.relu(x)

        def main():
            return encode(tf.ones([2, 3]))
        """, tf="same", real=True, note="a static value printed by a function called once: the same text"),
    V("print-static-text-once", """
        import tensorflow as tf

        @tf.function
        def build(x):
            print("building the graph")
            return x + 1.0

        def main():
            return build(tf.ones([2]))
        """, tf="same"),
    V("print-f-string-of-tensor", """
        import tensorflow as tf

        @tf.function
        def step(x):
            m = tf.reduce_mean(x)
            print(f"mean={m}")
            return m

        def main():
            return step(tf.ones([4]))
        """, tf="differs", real=True),
    V("print-python-int-arg-per-call", """
        import tensorflow as tf

        @tf.function
        def step(x, n):
            print("n =", n)
            return x * n

        def main():
            return [step(tf.ones([2]), 3) for _ in range(3)]
        """, tf="differs", note="one trace, three calls: printed once instead of three times"),
    V("print-in-python-unrolled-loop-of-keras-model", """
        import tensorflow as tf

        model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])

        @tf.function
        def predict(x):
            y = model(x)
            print("prediction", y)
            return y

        def main():
            return [predict(tf.ones([1, 2])) for _ in range(2)]
        """, tf="differs", real=True),
    V("print-under-a-debug-flag-of-a-trainer", """
        import tensorflow as tf

        class Trainer:
            def __init__(self, debug=False):
                self.debug = debug
                self.w = tf.Variable(2.0)

            @tf.function
            def step(self, x):
                loss = tf.reduce_sum(x * self.w)
                if self.debug:
                    print("step loss", loss)
                return loss

        def main():
            trainer = Trainer()
            return [float(trainer.step(tf.ones([3]))) for _ in range(3)]
        """, tf="same", real=True,
      note="a Python flag, off: the branch is never traced, so nothing prints in either mode (heldout28)"),
    V("print-in-a-loss-while-the-script-runs-functions-eagerly", """
        import tensorflow as tf

        tf.config.run_functions_eagerly(True)

        @tf.function
        def loss_function(pred, iteration):
            loss = tf.reduce_mean(pred ** 2)
            if iteration % 2 == 0:
                print("iteration", iteration, "loss", float(loss))
            return loss

        def main():
            return [float(loss_function(tf.ones([3]) * i, i)) for i in range(4)]
        """, tf="eager-on", real=True,
      note="graph mode is off for the whole script: the print runs on every call that takes the branch (heldout36)"),
    V("print-in-a-keras-ops-while-loop-body", """
        import tensorflow as tf
        from keras import ops

        def body(i, tokens):
            print("decoding position", i)
            return i + 1, tokens * 2

        @tf.function
        def generate(tokens):
            return ops.while_loop(lambda i, tokens: i < 3, body, (0, tokens))

        def main():
            return [generate(tf.ones([2])) for _ in range(2)]
        """, tf="differs", real=True,
      note="keras.ops.while_loop is tf.while_loop on the TensorFlow backend: traced, the body prints once (heldout36: a decoding loop's progress print)"),
]
