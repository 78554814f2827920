"""TF106 stale-attribute: a plain Python attribute changed after the first trace."""

from conformance.variant import V

VARIANTS = [
    V("read-in-a-helper-nested-in-the-step", """
        import tensorflow as tf

        class Runner:
            def __init__(self):
                self.alpha = 0.5

            @tf.function
            def train_step(self, x):
                def weighted_loss(x):
                    alpha = self.alpha
                    return alpha * tf.reduce_mean(x * x)
                return weighted_loss(x)

            def train(self, steps):
                losses = []
                for step in range(steps):
                    self.alpha = 1.0 - step / steps
                    losses.append(self.train_step(tf.ones([2])))
                return losses

        def main():
            return Runner().train(4)[-1]
        """, tf="differs", real=True),
    V("bias-bumped-outside", """
        import tensorflow as tf

        class Model(tf.Module):
            def __init__(self):
                self.bias = 0.0

            @tf.function
            def __call__(self, x):
                return x + self.bias

        model = Model()
        a = model(tf.ones([2]))
        model.bias += 5.0
        b = model(tf.ones([2]))
        """, tf="differs", real=True),
    V("annealed-by-method", """
        import tensorflow as tf

        class Scaler:
            def __init__(self):
                self.factor = 1.0

            def anneal(self):
                self.factor = self.factor * 0.5

            @tf.function
            def apply(self, x):
                return x * self.factor

        def main():
            s = Scaler()
            out = []
            for _ in range(3):
                out.append(s.apply(tf.ones([2])))
                s.anneal()
            return out
        """, tf="differs", real=True),
    V("variable-attribute", """
        import tensorflow as tf

        class Model(tf.Module):
            def __init__(self):
                self.bias = tf.Variable(0.0)

            @tf.function
            def __call__(self, x):
                return x + self.bias

        model = Model()
        a = model(tf.ones([2]))
        model.bias.assign_add(5.0)
        b = model(tf.ones([2]))
        """, tf="same", real=True),
    V("never-changed", """
        import tensorflow as tf

        class Scaler:
            def __init__(self):
                self.factor = 2.0

            @tf.function
            def apply(self, x):
                return x * self.factor

        def main():
            s = Scaler()
            return [s.apply(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("set-before-first-call", """
        import tensorflow as tf

        class Agent:
            def __init__(self):
                self.gamma = 0.9

            def configure(self, gamma):
                self.gamma = gamma

            @tf.function
            def discount(self, r):
                return r * self.gamma

        def main():
            agent = Agent()
            agent.configure(0.99)
            return [agent.discount(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True, note="configured once, before the first call"),
    V("changed-on-another-instance", """
        import tensorflow as tf

        class Scaler:
            def __init__(self):
                self.factor = 1.0

            @tf.function
            def apply(self, x):
                return x * self.factor

        def main():
            a, b = Scaler(), Scaler()
            first = a.apply(tf.ones([2]))
            b.factor = 3.0
            return first, a.apply(tf.ones([2])), b.apply(tf.ones([2]))
        """, tf="same", note="the other instance's method traces for that instance and reads its value"),
    V("epoch-counter-read-in-step", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.epoch = 0

            @tf.function
            def step(self, x):
                return x * (1.0 + self.epoch)

            def fit(self):
                out = []
                for _ in range(3):
                    out.append(self.step(tf.ones([2])))
                    self.epoch += 1
                return out

        def main():
            return Trainer().fit()
        """, tf="differs", real=True),
    V("attribute-written-inside-step", """
        import tensorflow as tf

        class Counter:
            def __init__(self):
                self.scale = 1.0

            @tf.function
            def step(self, x):
                self.scale = 2.0
                return x * self.scale

        def main():
            c = Counter()
            return [c.step(tf.ones([2])) for _ in range(3)]
        """, tf="same", note="written before it is read in the same trace: the graph uses the value it set"),
    V("flag-switched-between-phases", """
        import tensorflow as tf

        class Net:
            def __init__(self):
                self.dropout = 0.5

            def freeze(self):
                self.dropout = 0.0

            @tf.function
            def forward(self, x):
                return x * (1.0 - self.dropout)

        def main():
            n = Net()
            a = n.forward(tf.ones([2]))
            n.freeze()
            return a, n.forward(tf.ones([2]))
        """, tf="differs", real=True),
    V("temperature-lowered-by-loop", """
        import tensorflow as tf

        class Sampler:
            def __init__(self):
                self.temperature = 1.0

            @tf.function
            def logits(self, x):
                return x / self.temperature

        def main():
            s = Sampler()
            out = []
            for t in (1.0, 0.5, 0.25):
                s.temperature = t
                out.append(s.logits(tf.ones([2])))
            return out
        """, tf="differs", real=True),
    V("numpy-weights-read-by-a-loss-handed-to-compile", """
        import numpy as np
        import tensorflow as tf

        class Agent:
            def __init__(self):
                self.model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, kernel_initializer="ones")])
                self.model.compile(optimizer="sgd", loss=self.weighted_loss)
                self.weights = np.ones((8, 1), np.float32)

            def weighted_loss(self, target, predicted):
                return tf.reduce_mean(self.weights * tf.square(target - predicted))

            def evaluate(self, x, y, weights):
                self.weights = weights
                return self.model.test_on_batch(x, y)

        def main():
            agent = Agent()
            x, y = np.ones((8, 3), np.float32), np.zeros((8, 2), np.float32)
            return [agent.evaluate(x, y, np.full((8, 1), w, np.float32)) for w in (1.0, 0.0, 2.0)]
        """, tf="differs", real=True, note="prioritised replay: importance weights set per sample, frozen in Keras's trace"),
    V("numpy-weights-passed-as-sample-weight", """
        import numpy as np
        import tensorflow as tf

        class Agent:
            def __init__(self):
                self.model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, kernel_initializer="ones")])
                self.model.compile(optimizer="sgd", loss="mse")

            def evaluate(self, x, y, weights):
                return self.model.test_on_batch(x, y, sample_weight=weights)

        def main():
            agent = Agent()
            x, y = np.ones((8, 3), np.float32), np.zeros((8, 2), np.float32)
            return [agent.evaluate(x, y, np.full((8,), w, np.float32)) for w in (1.0, 0.0, 2.0)]
        """, tf="same", real=True, note="the fix: the weights go in as data"),
]
