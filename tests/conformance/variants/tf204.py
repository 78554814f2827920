"""TF204 leaked-tensor: a tensor of graph code kept outside the call and used after it."""

from conformance.variant import V

VARIANTS = [
    V("global-cache-printed-after", """
        import tensorflow as tf

        cache = None

        @tf.function
        def encode(x):
            global cache
            cache = tf.nn.relu(x)
            return x

        def main():
            encode(tf.ones([2]))
            return cache + 1.0
        """, tf="raises", real=True),
    V("last-loss-on-self-read-later", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.last_loss = None

            @tf.function
            def step(self, x):
                loss = tf.reduce_mean(x * x)
                self.last_loss = loss
                return loss

        def main():
            t = Trainer()
            t.step(tf.ones([2]))
            return float(t.last_loss)
        """, tf="raises", real=True),
    V("wrapped-layer-kernel-set-each-call", """
        import tensorflow as tf

        class Dense:
            def __init__(self):
                self.w = tf.Variable(tf.ones([2, 2]))
                self.kernel = self.w

            def apply(self, x):
                return tf.matmul(x, self.kernel)

        class SpectralNorm:
            def __init__(self, layer):
                self.layer = layer

            @tf.function
            def __call__(self, x):
                self.layer.kernel = self.layer.w / tf.norm(self.layer.w)
                return self.layer.apply(x)

        def main():
            norm = SpectralNorm(Dense())
            return norm(tf.ones([1, 2])) + norm(tf.ones([3, 2]))[0]
        """, tf="same", real=True),
    V("variable-assign-instead", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.last_loss = tf.Variable(0.0)

            @tf.function
            def step(self, x):
                loss = tf.reduce_mean(x * x)
                self.last_loss.assign(loss)
                return loss

        def main():
            t = Trainer()
            t.step(tf.ones([2]))
            return float(t.last_loss)
        """, tf="same", real=True),
    V("seed-tensor-on-self-read-in-same-trace", """
        import tensorflow as tf

        class C:
            @tf.function
            def f(self):
                self.a = tf.constant(0)
                if tf.constant(True):
                    self.a += 1
                return self.a

        def main():
            c = C()
            return c.f()
        """, tf="same", real=True),
    V("metric-state-attribute-between-methods", """
        import tensorflow as tf

        class Metric:
            def __init__(self):
                self.total = tf.Variable(0.0)

            @tf.function
            def update(self, x):
                self.distances = tf.reduce_mean(x)
                self.total.assign_add(self.distances)

            def result(self):
                return self.total

        def main():
            m = Metric()
            m.update(tf.ones([2]))
            return m.result()
        """, tf="same", real=True, note="the tensor is kept on self but only read inside the trace"),
    V("appended-to-global-list-then-stacked", """
        import tensorflow as tf

        outputs = []

        @tf.function
        def step(x):
            y = x * 2.0
            outputs.append(y)
            return y

        def main():
            step(tf.ones([2]))
            return tf.stack(outputs)
        """, tf="raises", real=True),
    V("returned-not-stored", """
        import tensorflow as tf

        @tf.function
        def encode(x):
            return tf.nn.relu(x)

        def main():
            cache = encode(tf.ones([2]))
            return cache + 1.0
        """, tf="same", real=True),
    V("stored-on-self-never-read", """
        import tensorflow as tf

        class Layer:
            @tf.function
            def call(self, x):
                self.debug_out = x * 2.0
                return x + 1.0

        def main():
            layer = Layer()
            return layer.call(tf.ones([2]))
        """, tf="same", note="nothing reads it, but the object's state holds a symbolic tensor"),
    V("attention-weights-kept-for-plot", """
        import tensorflow as tf

        class Attention:
            def __init__(self):
                self.weights = None

            @tf.function
            def __call__(self, q, k):
                w = tf.nn.softmax(tf.matmul(q, k, transpose_b=True))
                self.weights = w
                return tf.matmul(w, k)

        def main():
            att = Attention()
            att(tf.ones([1, 2]), tf.ones([3, 2]))
            return att.weights.numpy()
        """, tf="raises", real=True),
    V("global-assign-of-python-value", """
        import tensorflow as tf

        traced = False

        @tf.function
        def step(x):
            global traced
            traced = True
            return x * 2.0

        def main():
            step(tf.ones([2]))
            return traced
        """, tf="same"),
    V("variables-appended-to-module-list", """
        import tensorflow as tf

        state = []

        @tf.function
        def scaled(x):
            if not state:
                state.append(tf.Variable(2.0 * x))
                state.append(tf.Variable(state[0] * 3.0))
            return state[0] * x * state[1]

        def main():
            out = [scaled(tf.constant(1.0)), scaled(tf.constant(3.0))]
            return out + [v.numpy() for v in state]
        """, tf="same", real=True),
    V("running-noise-state-carried-on-self", """
        import tensorflow as tf

        class Player:
            def __init__(self):
                self.last_noise = tf.zeros([2])

            @tf.function
            def noisy(self, action):
                noise = 0.5 * self.last_noise + tf.ones([2])
                self.last_noise = noise
                return action + noise

        def main():
            p = Player()
            return [p.noisy(tf.zeros([2])).numpy().tolist() for _ in range(3)]
        """, tf="differs", real=True, note="heldout23: an Ornstein-Uhlenbeck noise state kept on self between calls"),
    V("running-noise-state-in-a-variable", """
        import tensorflow as tf

        class Player:
            def __init__(self):
                self.last_noise = tf.Variable(tf.zeros([2]))

            @tf.function
            def noisy(self, action):
                noise = 0.5 * self.last_noise + tf.ones([2])
                self.last_noise.assign(noise)
                return action + noise

        def main():
            p = Player()
            return [p.noisy(tf.zeros([2])).numpy().tolist() for _ in range(3)]
        """, tf="same", real=True, note="the same state in a tf.Variable"),
    V("attribute-set-then-read-within-one-trace", """
        import tensorflow as tf

        class Block:
            def __init__(self):
                self.hidden = None

            @tf.function
            def forward(self, x):
                self.hidden = tf.nn.relu(x)
                return self.hidden * 2.0

        def main():
            b = Block()
            return [b.forward(tf.ones([2]) * i).numpy().tolist() for i in range(3)]
        """, tf="same", real=True, note="written before it is read in the same trace: nothing carried between calls"),
    V("loss-kept-on-self-and-logged-by-the-driving-method", """
        import tensorflow as tf

        def weight_penalty(model):
            return tf.add_n([tf.reduce_sum(tf.square(w)) for w in model.trainable_variables])

        class Network:
            def __init__(self):
                self.classifier = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
                self.optimizer = tf.keras.optimizers.SGD(0.01)
                self.history = []

            @tf.function
            def train_step(self, x):
                with tf.GradientTape() as tape:
                    self.classifier(x)
                    self.loss = 0 + weight_penalty(self.classifier)
                grads = tape.gradient(self.loss, self.classifier.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.classifier.trainable_variables))

            def train(self, steps):
                for _ in range(steps):
                    self.train_step(tf.ones([2, 3]))
                    self.history.append(tf.identity(self.loss))

        def main():
            net = Network()
            net.train(2)
            return len(net.history)
        """, tf="raises", real=True,
      note="the driving method reads the attribute the trace set, after the call: out of scope (heldout27: "
           "template trainers logging self.loss with tf.summary.scalar)"),
    V("attribute-set-again-by-the-caller-from-the-result", """
        import tensorflow as tf

        class RPN(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.conv = tf.keras.layers.Dense(4)

            @tf.function
            def body(self, x):
                self.pred = self.conv(x) * 2.0
                return self.pred

            def call(self, x):
                self.pred = self.body(x)
                return tf.reduce_sum(self.pred)

        def main():
            rpn = RPN()
            return [rpn(tf.ones([2, 3])) for _ in range(2)]
        """, tf="same", real=True,
      note="the caller sets the attribute from the call's result before reading it: it reads its own "
           "tensor, not the trace's (heldout26: a Faster R-CNN's RPN, judged and run)"),
]
