"""TF202 python-state-mutation: Python state changed in graph code runs only while tracing."""

from conformance.variant import V

VARIANTS = [
    V("append-loss-to-global-history", """
        import tensorflow as tf

        history = []

        @tf.function
        def train_step(x):
            loss = tf.reduce_mean(x)
            history.append(loss)
            return loss

        def main():
            for _ in range(3):
                train_step(tf.ones([2]))
            return len(history)
        """, tf="differs", real=True),
    V("self-counter-increment", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.steps = 0

            @tf.function
            def step(self, x):
                self.steps += 1
                return tf.reduce_sum(x)

        def main():
            t = Trainer()
            for _ in range(3):
                t.step(tf.ones([2]))
            return t.steps
        """, tf="differs", real=True),
    V("local-list-stacked", """
        import tensorflow as tf

        @tf.function
        def train_step(x):
            losses = []
            for i in range(3):
                losses.append(tf.reduce_mean(x) * i)
            return tf.add_n(losses)

        def main():
            return [train_step(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("variable-counter", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.steps = tf.Variable(0)

            @tf.function
            def step(self, x):
                self.steps.assign_add(1)
                return tf.reduce_sum(x)

        def main():
            t = Trainer()
            for _ in range(3):
                t.step(tf.ones([2]))
            return t.steps
        """, tf="same", real=True),
    V("global-counter-statement", """
        import tensorflow as tf

        calls = 0

        @tf.function
        def step(x):
            global calls
            calls += 1
            return x * 2.0

        def main():
            for _ in range(3):
                step(tf.ones([2]))
            return calls
        """, tf="differs", real=True),
    V("dict-cache-of-python-values", """
        import tensorflow as tf

        stats = {}

        @tf.function
        def step(x, name):
            stats[name] = stats.get(name, 0) + 1
            return x + 1.0

        def main():
            for _ in range(3):
                step(tf.ones([2]), "a")
            return stats
        """, tf="differs"),
    V("local-dict-of-outputs", """
        import tensorflow as tf

        @tf.function
        def heads(x):
            out = {}
            out["mean"] = tf.reduce_mean(x)
            out["max"] = tf.reduce_max(x)
            return out

        def main():
            return [heads(tf.ones([3])) for _ in range(2)]
        """, tf="same", real=True),
    V("create-once-guard", """
        import tensorflow as tf

        class Dense:
            def __init__(self):
                self.w = None

            @tf.function
            def __call__(self, x):
                if self.w is None:
                    self.w = tf.Variable(tf.ones([2, 2]))
                return tf.matmul(x, self.w)

        def main():
            d = Dense()
            return [d(tf.ones([1, 2])) for _ in range(3)]
        """, tf="same", real=True),
    V("nonlocal-counter-in-closure", """
        import tensorflow as tf

        def make():
            count = 0

            @tf.function
            def step(x):
                nonlocal count
                count += 1
                return x * 2.0

            for _ in range(3):
                step(tf.ones([2]))
            return count

        def main():
            return make()
        """, tf="differs"),
    V("self-list-of-losses-appended", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.losses = []

            @tf.function
            def step(self, x):
                loss = tf.reduce_sum(x)
                self.losses.append(loss)
                return loss

        def main():
            t = Trainer()
            for _ in range(3):
                t.step(tf.ones([2]))
            return len(t.losses)
        """, tf="differs", real=True),
    V("scratch-dict-reset-by-a-method-then-returned", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.model = tf.keras.layers.Dense(1)
                self.losses = {}

            def reset_losses(self):
                self.losses = {"pixel": 0.0, "smooth": 0.0}

            def compute_losses(self, x):
                self.reset_losses()
                for scale in range(2):
                    y = self.model(x) / (2 ** scale)
                    self.losses["pixel"] += tf.reduce_mean(tf.abs(y))
                    self.losses["smooth"] += tf.reduce_mean(tf.square(y))
                self.losses["pixel"] /= 2
                self.losses["total"] = self.losses["pixel"] + self.losses["smooth"]
                return self.losses

            @tf.function
            def step(self, x):
                return self.compute_losses(x)

        def main():
            trainer = Trainer()
            totals = [float(trainer.step(tf.fill([4, 3], float(i)))["total"]) for i in range(3)]
            return totals
        """, tf="same", real=True,
      note="each trace fills a dict made anew at the top of the call and returns it: per call, as eagerly"),
    V("scratch-list-made-at-the-top-then-appended", """
        import tensorflow as tf

        class Model:
            def __init__(self):
                self.layer = tf.keras.layers.Dense(2)
                self.outputs = []

            @tf.function
            def forward(self, x):
                self.outputs = []
                for _ in range(3):
                    x = self.layer(x)
                    self.outputs.append(x)
                return tf.add_n(self.outputs)

        def main():
            m = Model()
            return [m.forward(tf.ones([1, 2]) * i).numpy().tolist() for i in range(3)]
        """, tf="same", real=True, note="a list rebound at the top of the function: the call's own"),
    V("entry-of-a-self-dict-of-lists-appended", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.info = {"losses": {"a": [], "b": []}}

            @tf.function
            def step(self, x):
                loss = tf.reduce_sum(x)
                self.info["losses"]["a"].append(loss)
                return loss

        def main():
            t = Trainer()
            for _ in range(3):
                t.step(tf.ones([2]))
            return len(t.info["losses"]["a"])
        """, tf="differs", real=True, note="heldout23: a train step logging into a nested dict of lists"),
    V("entry-of-a-local-dict-appended", """
        import tensorflow as tf

        @tf.function
        def step(x):
            logs = {"loss": []}
            logs["loss"].append(tf.reduce_sum(x))
            return tf.add_n(logs["loss"])

        def main():
            return [step(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True, note="a dict made per call: its lists are the call's own"),
]
