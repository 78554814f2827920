"""TF102 function-created-repeatedly: a new tf.function object per iteration or per call."""

from conformance.variant import V

VARIANTS = [
    V("wrap-in-loop", """
        import tensorflow as tf

        def loss(x):
            return tf.reduce_sum(x * x)

        def main():
            out = []
            for i in range(6):
                step = tf.function(loss)
                out.append(step(tf.ones([2]) * i))
            return out
        """, tf="retraces", real=True),
    V("lambda-per-call-in-loop", """
        import tensorflow as tf

        def predict(scale, x):
            fast = tf.function(lambda v: v * scale)
            return fast(x)

        def main():
            return [predict(2.0, tf.ones([2])) for _ in range(6)]
        """, tf="retraces", real=True),
    V("decorated-def-in-loop", """
        import tensorflow as tf

        def evaluate(batches):
            out = []
            for b in batches:
                @tf.function
                def score(v):
                    return tf.reduce_mean(v)
                out.append(score(b))
            return out

        def main():
            return evaluate([tf.ones([3])] * 6)
        """, tf="retraces", real=True),
    V("closure-over-each-layer-in-loop", """
        import tensorflow as tf

        def main():
            out = []
            for width in (1, 2, 3, 4, 5, 6):
                layer = tf.keras.layers.Dense(width)
                step = tf.function(lambda v: layer(v))
                out.append(step(tf.ones([2, 3])).shape[-1])
            return out
        """, tf="same", real=True,
      note="a benchmark comparing layers: each tf.function closes over another layer; one made before the "
           "loop would keep the first layer, so the traces are needed"),
    V("decorated-def-over-each-model-in-loop", """
        import tensorflow as tf

        def main():
            out = []
            for units in (2, 4, 8, 16, 32, 64):
                model = tf.keras.Sequential([tf.keras.layers.Dense(units)])

                @tf.function
                def predict(x):
                    return model(x)

                out.append(int(predict(tf.ones([1, 3])).shape[-1]))
            return out
        """, tf="same", real=True, note="each decorated closure reads another model: one trace per model is needed"),
    V("wrap-once-at-module", """
        import tensorflow as tf

        def loss(x):
            return tf.reduce_sum(x * x)

        step = tf.function(loss)

        def main():
            return [step(tf.ones([2]) * i) for i in range(6)]
        """, tf="same", real=True),
    V("wrap-in-init", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.step = tf.function(self._step)

            def _step(self, x):
                return x * 2.0

        def main():
            t = Trainer()
            return [t.step(tf.ones([2])) for _ in range(6)]
        """, tf="same", real=True),
    V("builder-called-once", """
        import tensorflow as tf

        def make_step(scale):
            @tf.function
            def step(x):
                return x * scale
            return step

        def main():
            step = make_step(3.0)
            return [step(tf.ones([2])) for _ in range(6)]
        """, tf="same", real=True, note="a factory that returns a tf.function, called once"),
    V("new-shape-every-iteration", """
        import tensorflow as tf

        def total(x):
            return tf.reduce_sum(x)

        def main():
            out = []
            for n in range(1, 7):
                out.append(tf.function(total)(tf.ones([n])))
            return out
        """, tf="same", real=True, note="issue 20: each call has a new shape, so each traces anyway"),
    V("wrap-and-call-at-once-in-loop", """
        import tensorflow as tf

        def norm(x):
            return tf.sqrt(tf.reduce_sum(x * x))

        def main():
            return [tf.function(norm)(tf.ones([3])) for _ in range(6)]
        """, tf="retraces"),
    V("per-host-functions-in-setup-loop", """
        import tensorflow as tf

        def main():
            steps = []
            for host in range(3):
                @tf.function
                def step(x, host=host):
                    return x + host
                steps.append(step)
            out = []
            for _ in range(4):
                out.extend(s(tf.ones([2])) for s in steps)
            return out
        """, tf="same", real=True, note="a loop that sets up one function per host, each kept and called many times"),
    V("lambda-in-function-called-twice", """
        import tensorflow as tf

        def export(x):
            f = tf.function(lambda v: v + 1.0)
            return f(x)

        def main():
            return [export(tf.ones([2])), export(tf.ones([2]))]
        """, tf="same", note="two calls, two traces: fewer than TensorFlow's retracing warning needs"),
    V("retrace-with-relaxed-option-in-loop", """
        import tensorflow as tf

        def loss(x):
            return tf.reduce_mean(x)

        def main():
            out = []
            for i in range(6):
                out.append(tf.function(loss, reduce_retracing=True)(tf.ones([4])))
            return out
        """, tf="retraces"),
    V("decorated-def-per-round-given-a-new-model", """
        import tensorflow as tf

        def main():
            out = []
            for round_ in range(6):
                model = tf.keras.Sequential([tf.keras.layers.Dense(2)])

                @tf.function
                def test_step(m, x):
                    return tf.reduce_mean(m(x))

                for _ in range(3):
                    out.append(float(test_step(model, tf.ones([4, 3]))))
            return len(out)
        """, tf="same", real=True,
      note="a pruning round per iteration builds a new model and passes it in: a tf.function made once "
           "would trace again for each model too"),
    V("decorated-def-per-round-given-new-batches", """
        import tensorflow as tf

        def make_batch(i):
            return tf.ones([4, 3]) * i

        def main():
            out = []
            for round_ in range(6):
                batch = make_batch(round_)

                @tf.function
                def score(x):
                    return tf.reduce_mean(x * 2.0)

                out.append(float(score(batch)))
            return out
        """, tf="retraces", real=True, note="new batches of one shape: one tf.function made once would trace once"),
    V("decorated-def-in-function-called-per-epoch", """
        import tensorflow as tf

        def train(batches):
            @tf.function
            def train_step(x):
                return tf.reduce_mean(x * 2.0)

            return [train_step(b) for b in batches]

        def main():
            out = []
            for epoch in range(6):
                out.extend(train([tf.ones([4]), tf.zeros([4])]))
            return len(out)
        """, tf="retraces", real=True, note="a train() called once per epoch that defines its step inside"),
    V("decorated-def-in-function-called-once", """
        import tensorflow as tf

        def train(batches):
            @tf.function
            def train_step(x):
                return tf.reduce_mean(x * 2.0)

            return [train_step(b) for b in batches]

        def main():
            return len(train([tf.ones([4]) for _ in range(6)]))
        """, tf="same", real=True),
    V("decorated-def-in-function-whose-loop-follows-a-return", """
        import tensorflow as tf

        def detect(image):
            @tf.function
            def detect_fn(x):
                return tf.reduce_max(x)

            return detect_fn(image)

        def main():
            first = detect(tf.ones([4]))
            return first
            for i in range(6):
                detect(tf.ones([4]) * i)
        """, tf="same", real=True,
      note="heldout29: a main that returns before its per-image loop (left in while debugging)"),
    V("decorated-def-in-function-called-per-new-model", """
        import tensorflow as tf

        def train_model(model, batches):
            @tf.function
            def train_batch(x):
                return tf.reduce_mean(model(x))

            return [train_batch(b) for b in batches]

        def main():
            out = []
            for units in range(1, 7):
                model = tf.keras.Sequential([tf.keras.layers.Dense(units)])
                out.extend(train_model(model, [tf.ones([4, 3]), tf.zeros([4, 3])]))
            return len(out)
        """, tf="same", real=True,
      note="a hyperparameter search trains a new model per setting through a function that makes its step "
           "around it: a step made once would trace again for each model too (heldout26)"),
]
