"""TF206 eager-only-call: .numpy(), NumPy on a tensor, float()/int() where AutoGraph cannot convert them."""

from conformance.variant import V

VARIANTS = [
    V("numpy-inside-a-py-function-decorator", """
        import numpy as np
        import tensorflow as tf

        @tf.py_function(Tout=tf.bool)
        def best_match(cost_matrix):
            assignment = np.zeros_like(cost_matrix, dtype=bool)
            assignment[np.arange(len(cost_matrix)), np.argmin(cost_matrix, axis=1)] = True
            return assignment

        @tf.function(reduce_retracing=True)
        def compute_matching(cost):
            return best_match(cost)

        def main():
            return compute_matching(tf.constant([[1.0, 2.0], [2.0, 0.5]]))
        """, tf="same", real=True),
    V("numpy-on-a-name-just-rebound-to-an-op", """
        import numpy as np
        import tensorflow as tf

        @tf.function(input_signature=[tf.TensorSpec(shape=(8,), dtype=tf.float32)])
        def spectrum(x):
            x = tf.cast(x, tf.complex64)
            x = np.pad(x, [[4, 4]], mode="constant")
            return tf.abs(tf.signal.fft(x))

        def main():
            return spectrum(tf.ones(8))
        """, tf="raises", real=True,
      note="x is bound to a tensor and, on the next line, to an array; np.pad reads the tensor the cast "
           "just made, on every path (heldout44: a chroma layer's constant-Q transform)"),
    V("numpy-method-in-metric", """
        import tensorflow as tf

        @tf.function
        def accuracy(logits, labels):
            hits = tf.equal(tf.argmax(logits, 1), labels)
            return hits.numpy().mean()

        def main():
            return accuracy(tf.ones([2, 3]), tf.constant([0, 0], tf.int64))
        """, tf="raises", real=True),
    V("np-max-on-tensor", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def normalise(x):
            y = tf.abs(x)
            return y / np.max(y)

        def main():
            return normalise(tf.constant([1.0, -2.0]))
        """, tf="raises", real=True),
    V("float-of-tensor-autograph", """
        import tensorflow as tf

        @tf.function
        def loss_value(x):
            return float(tf.reduce_sum(x)) * 2.0

        def main():
            return loss_value(tf.ones([3]))
        """, tf="same", real=True, note="issue 20: AutoGraph converts float(t) to a cast"),
    V("int-of-tensor-mixed-with-float", """
        import tensorflow as tf

        @tf.function
        def count(x):
            n = int(tf.reduce_sum(tf.cast(x > 0, tf.int32)))
            return tf.zeros([2]) + n

        def main():
            return count(tf.constant([1.0, -1.0, 2.0]))
        """, tf="raises", real=True, note="AutoGraph converts int(t) to a cast: an int32 tensor, not a Python int, so adding it to floats fails",
      known="int(t) itself works; the dtype clash after it is no eager-only call"),
    V("float-of-tensor-autograph-off", """
        import tensorflow as tf

        @tf.function(autograph=False)
        def loss_value(x):
            return float(tf.reduce_sum(x)) * 2.0

        def main():
            return loss_value(tf.ones([3]))
        """, tf="raises", real=True, note="without AutoGraph, float() asks Python for the value"),
    V("numpy-in-eager-report", """
        import tensorflow as tf

        @tf.function
        def step(x):
            return tf.reduce_mean(x)

        def main():
            value = step(tf.ones([2]))
            return value.numpy()
        """, tf="same", real=True),
    V("np-size-on-tensor", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def mean(x):
            return tf.reduce_sum(x) / np.size(x)

        def main():
            return mean(tf.ones([4]))
        """, tf="raises", note="NumPy converts its argument to an array first"),
    V("float-of-python-number", """
        import tensorflow as tf

        @tf.function
        def scale(x, factor):
            return x * float(factor)

        def main():
            return scale(tf.ones([2]), 3)
        """, tf="same", real=True),
    V("item-on-tensor", """
        import tensorflow as tf

        @tf.function
        def first(x):
            return x[0].numpy().item()

        def main():
            return first(tf.ones([2]))
        """, tf="raises"),
    V("np-array-of-tensor", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def to_numpy(x):
            return np.array(x) * 2

        def main():
            return to_numpy(tf.ones([2]))
        """, tf="raises", real=True),
    V("int-of-shape-dim", """
        import tensorflow as tf

        @tf.function
        def half(x):
            n = int(x.shape[0])
            return x[: n // 2]

        def main():
            return half(tf.ones([4]))
        """, tf="same", real=True),
    V("int-of-tensor-used-as-range-bound", """
        import tensorflow as tf

        @tf.function
        def repeat(x, n):
            total = x
            for _ in range(int(n)):
                total += x
            return total

        def main():
            return repeat(tf.ones([2]), tf.constant(3))
        """, tf="same", real=True, note="int(t) becomes a cast, and range(t) a tf.range loop"),
    V("numpy-of-loss-for-logging-in-step", """
        import tensorflow as tf

        @tf.function
        def train_step(x):
            loss = tf.reduce_mean(x * x)
            log = {"loss": loss.numpy()}
            return loss, log["loss"]

        def main():
            return train_step(tf.ones([2]))
        """, tf="raises", real=True),
    V("np-mean-on-predictions", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def score(p):
            return np.mean(p)

        def main():
            return score(tf.ones([3]))
        """, tf="raises", real=True),
    V("np-constant-only", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def scale(x):
            return x * np.sqrt(2.0).astype(np.float32)

        def main():
            return scale(tf.ones([2]))
        """, tf="same", real=True),
    V("float-of-reduce-in-condition", """
        import tensorflow as tf

        @tf.function
        def clip(x):
            m = float(tf.reduce_max(x))
            return x / m

        def main():
            return clip(tf.constant([1.0, 2.0]))
        """, tf="same", real=True),
    V("numpy-on-eager-result-outside", """
        import tensorflow as tf

        @tf.function
        def predict(x):
            return x * 2.0

        def main():
            return [predict(tf.ones([2])).numpy().tolist() for _ in range(2)]
        """, tf="same", real=True),
    V("np-argmax-on-logits", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def classify(logits):
            return np.argmax(logits, axis=-1)

        def main():
            return classify(tf.constant([[0.1, 0.9]]))
        """, tf="raises", real=True),
    V("int-of-python-len", """
        import tensorflow as tf

        @tf.function
        def first_half(xs):
            n = int(len(xs) / 2)
            return tf.add_n(xs[:n])

        def main():
            return first_half([tf.ones([2])] * 4)
        """, tf="same", real=True),
    V("tolist-on-tensor", """
        import tensorflow as tf

        @tf.function
        def to_list(x):
            return x.numpy().tolist()

        def main():
            return to_list(tf.ones([2]))
        """, tf="raises"),
    V("percent-format-of-a-loss-in-a-step", """
        import tensorflow as tf

        w = tf.Variable(1.0)

        @tf.function
        def train_step(x):
            loss = tf.reduce_mean((w * x - 1.0) ** 2)
            print("loss %.4f" % loss)
            return loss

        def main():
            return [train_step(tf.ones([2])) for _ in range(2)]
        """, tf="raises", real=True, note="TypeError: must be real number, not SymbolicTensor"),
    V("percent-d-of-a-step-counter-variable-made-by-the-enclosing-function", """
        import tensorflow as tf

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            global_steps = tf.Variable(1, trainable=False, dtype=tf.int64)

            @tf.function
            def test_step(x):
                loss = tf.reduce_mean(model(x))
                tf.print("=> TEST STEP %4d   loss: %4.2f" % (global_steps, 0.5))
                return loss

            return [test_step(tf.ones([2, 3])) for _ in range(2)]
        """, tf="raises", real=True, note="AttributeError: 'SymbolicTensor' object has no attribute ..."),
    V("percent-d-of-a-python-counter-of-the-enclosing-function", """
        import tensorflow as tf

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            global_steps = 1

            @tf.function
            def test_step(x):
                loss = tf.reduce_mean(model(x))
                tf.print("=> TEST STEP %4d" % global_steps, loss)
                return loss

            return [test_step(tf.ones([2, 3])) for _ in range(2)]
        """, tf="same", real=True, note="a Python int is formatted while tracing"),
    V("f-string-format-spec-of-a-tensor", """
        import tensorflow as tf

        @tf.function
        def report(t):
            total = tf.reduce_sum(t)
            message = f"total {total:.2f}"
            return total

        def main():
            return report(tf.ones([3]))
        """, tf="raises", real=True),
    V("str-format-of-a-float-of-a-tensor", """
        import tensorflow as tf

        @tf.function
        def report(t):
            total = tf.reduce_sum(t)
            message = "total {:.2f}".format(float(total))
            return total

        def main():
            return report(tf.ones([3]))
        """, tf="raises", note="AutoGraph makes float() a tf.cast: still a tensor to format"),
    V("percent-s-of-a-tensor", """
        import tensorflow as tf

        @tf.function
        def report(t):
            total = tf.reduce_sum(t)
            message = "total %s" % total
            return total

        def main():
            return report(tf.ones([3]))
        """, tf="same", real=True, note="%s shows the symbolic tensor; it does not raise"),
    V("percent-d-of-a-python-epoch", """
        import tensorflow as tf

        @tf.function
        def train_step(x, epoch):
            loss = tf.reduce_sum(x)
            tf.print("epoch %d loss" % epoch, loss)
            return loss

        def main():
            return [train_step(tf.ones([2]), 3) for _ in range(2)]
        """, tf="same", real=True),
    V("f-string-without-spec", """
        import tensorflow as tf

        @tf.function
        def report(t):
            total = tf.reduce_sum(t)
            message = f"total {total}"
            return total

        def main():
            return report(tf.ones([3]))
        """, tf="same"),
    V("keras-backend-get-value-in-a-loss", """
        import tensorflow as tf

        K = tf.keras.backend

        @tf.function
        def distance(a, b):
            d = tf.reduce_sum(tf.math.squared_difference(a, b))
            return K.get_value(d)

        def main():
            return distance(tf.ones([3]), tf.zeros([3]))
        """, tf="raises", real=True, note="heldout23: a perceptual distance read back with K.get_value, called from a step"),
    V("keras-backend-get-value-after-the-step", """
        import tensorflow as tf

        K = tf.keras.backend

        @tf.function
        def distance(a, b):
            return tf.reduce_sum(tf.math.squared_difference(a, b))

        def main():
            return K.get_value(distance(tf.ones([3]), tf.zeros([3])))
        """, tf="same", real=True, note="the value read back in eager code, outside the tf.function"),
    V("get-weights-in-a-soft-target-update", """
        import tensorflow as tf

        net = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
        target = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])

        @tf.function
        def update_target(tau):
            mixed = [tau * w + (1 - tau) * t for w, t in zip(net.get_weights(), target.get_weights())]
            target.set_weights(mixed)

        def main():
            update_target(0.5)
            return [w.numpy() for w in target.weights]
        """, tf="raises", real=True, note="heldout23: a soft target update written with get_weights/set_weights"),
    V("weights-list-in-a-soft-target-update", """
        import tensorflow as tf

        net = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
        target = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])

        @tf.function
        def update_target(tau):
            for w, t in zip(net.weights, target.weights):
                t.assign(tau * w + (1 - tau) * t)

        def main():
            update_target(0.5)
            return [w.numpy() for w in target.weights]
        """, tf="same", real=True, note="the same update on the variables: graph-safe"),
    V("generator-predict-in-a-step", """
        import tensorflow as tf

        class GAN:
            def __init__(self):
                self.generator = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8)])
                self.discriminator = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])

            @tf.function
            def score_fakes(self, noise):
                fake = self.generator.predict(noise, verbose=0)
                return tf.reduce_mean(self.discriminator(fake))

        def main():
            gan = GAN()
            return [gan.score_fakes(tf.ones([2, 4])) for _ in range(2)][-1]
        """, tf="raises", real=True, note="heldout26: a conditional DCGAN's discriminator step"),
    V("generator-called-in-a-step", """
        import tensorflow as tf

        class GAN:
            def __init__(self):
                self.generator = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8)])
                self.discriminator = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])

            @tf.function
            def score_fakes(self, noise):
                fake = self.generator(noise, training=False)
                return tf.reduce_mean(self.discriminator(fake))

        def main():
            gan = GAN()
            return [gan.score_fakes(tf.ones([2, 4])) for _ in range(2)][-1]
        """, tf="same", real=True),
    V("numpy-under-an-isinstance-guard", """
        import numpy as np
        import tensorflow as tf

        @tf.function
        def shape_list(tensor):
            if isinstance(tensor, np.ndarray) or isinstance(tensor, list):
                return float(np.array(tensor).sum())
            return tf.reduce_sum(tensor) * 2.0

        def main():
            return [shape_list(tf.ones([2, 3])) for _ in range(3)][-1]
        """, tf="same", real=True,
      note="the isinstance test runs while tracing and is False for a tensor: the NumPy branch is never traced (heldout26: ELECTRA's shape helper)"),
    V("numpy-under-a-debug-flag-of-an-agent-wrapped-only-out-of-debug", """
        import tensorflow as tf

        class Agent:
            def __init__(self, debug):
                self._is_debug = debug
                self.w = tf.Variable(tf.ones([3, 1]))
                self.opt = tf.keras.optimizers.SGD(0.1)
                self.step = self._step if debug else tf.function(self._step)

            def _step(self, x):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.matmul(x, self.w) ** 2)
                if self._is_debug:
                    print("loss", loss.numpy())
                grads = tape.gradient(loss, [self.w])
                self.opt.apply_gradients(zip(grads, [self.w]))
                return loss

        def main():
            agent = Agent(debug=False)
            return [float(agent.step(tf.ones([2, 3]))) for _ in range(3)]
        """, tf="same", real=True,
      note="the flag is a Python bool: off, the branch is not traced; on, the program runs eagerly (heldout28: an RL agent's debug prints)"),
    V("numpy-in-a-loss-while-the-script-runs-functions-eagerly", """
        import numpy as np
        import tensorflow as tf

        tf.config.run_functions_eagerly(True)  # left on: every tf.function below runs eagerly

        history = []

        @tf.function
        def loss_function(pred, threshold):
            sim = tf.matmul(pred, pred, transpose_b=True)
            history.append(np.mean(sim.numpy() > threshold))
            return tf.reduce_mean(sim)

        def main():
            pred = tf.reshape(tf.range(6, dtype=tf.float32), [2, 3]) / 6.0
            losses = [float(loss_function(pred, 0.5)) for _ in range(3)]
            return losses, history
        """, tf="eager-on", real=True,
      note="the switch at the top of the script runs the decorated loss eagerly: .numpy() works (heldout36: a clustering script that plots from its loss)"),
    V("learning-rate-schedule-reads-numpy-under-fit", """
        import numpy as np
        import tensorflow as tf

        class WarmupSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
            def __init__(self, base):
                super().__init__()
                self.base = base
                self.current = base

            def __call__(self, step):
                lr = self.base / tf.sqrt(tf.cast(step, tf.float32) + 1.0)
                self.current = lr.numpy()
                return lr

        def main():
            model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
            model.compile(optimizer=tf.keras.optimizers.Adam(WarmupSchedule(0.01)), loss="mse")
            model.fit(np.ones((8, 4)), np.ones((8, 1)), epochs=1, verbose=0)
            return model.optimizer.iterations.numpy()
        """, tf="raises", real=True,
      note="the optimizer calls the schedule inside Keras's compiled step: lr is symbolic there "
           "(heldout48: a segmentation project's schedule that stored its rate with .numpy())"),
    V("learning-rate-schedule-reads-numpy-in-an-eager-loop", """
        import numpy as np
        import tensorflow as tf

        class WarmupSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
            def __init__(self, base):
                super().__init__()
                self.base = base
                self.current = base

            def __call__(self, step):
                lr = self.base / tf.sqrt(tf.cast(step, tf.float32) + 1.0)
                self.current = lr.numpy()
                return lr

        def main():
            model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
            optimizer = tf.keras.optimizers.Adam(WarmupSchedule(0.01))
            for _ in range(3):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(np.ones((8, 4))) - 1.0))
                grads = tape.gradient(loss, model.trainable_variables)
                optimizer.apply_gradients(zip(grads, model.trainable_variables))
            return float(loss)
        """, tf="same", real=True,
      note="an eager loop calls the optimizer, and so the schedule, with concrete tensors"),
]
