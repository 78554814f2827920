"""TF203 hidden-side-effect: graph code calls a function that mutates Python state."""

from conformance.variant import V

VARIANTS = [
    V("seed-change-state-in-tensor-if", """
        import tensorflow as tf

        class C:
            def change_state(self):
                self.a += 1

            @tf.function
            def f(self):
                self.a = tf.constant(0)
                if tf.constant(True):
                    self.change_state()
                return self.a

        def main():
            c = C()
            return c.f()
        """, tf="raises", real=True, note="the seed's example"),
    V("remember-in-dict-helper", """
        import tensorflow as tf

        seen = {}

        def remember(key):
            seen[key] = seen.get(key, 0) + 1

        @tf.function
        def step(x):
            remember("calls")
            return tf.square(x)

        def main():
            for _ in range(3):
                step(tf.ones([2]))
            return seen
        """, tf="differs", real=True),
    V("pure-helper", """
        import tensorflow as tf

        def scale(x, factor):
            return x * factor

        @tf.function
        def step(x):
            return scale(tf.square(x), 2.0)

        def main():
            return [step(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("counter-method-on-self", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.count = 0

            def tick(self):
                self.count += 1

            @tf.function
            def step(self, x):
                self.tick()
                return x * 2.0

        def main():
            t = Trainer()
            for _ in range(3):
                t.step(tf.ones([2]))
            return t.count
        """, tf="differs", real=True),
    V("log-to-global-list-helper", """
        import tensorflow as tf

        LOG = []

        def log(msg):
            LOG.append(msg)

        @tf.function
        def step(x):
            log("step")
            return x + 1.0

        def main():
            for _ in range(4):
                step(tf.ones([2]))
            return len(LOG)
        """, tf="differs", real=True),
    V("helper-builds-local-list", """
        import tensorflow as tf

        def features(x):
            out = []
            out.append(x * 2.0)
            out.append(x + 1.0)
            return out

        @tf.function
        def step(x):
            return tf.add_n(features(x))

        def main():
            return [step(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("helper-assigns-variable", """
        import tensorflow as tf

        total = tf.Variable(0.0)

        def accumulate(v):
            total.assign_add(tf.reduce_sum(v))

        @tf.function
        def step(x):
            accumulate(x)
            return x

        def main():
            for _ in range(3):
                step(tf.ones([2]))
            return total
        """, tf="same", real=True),
    V("setter-called-once-then-read", """
        import tensorflow as tf

        class Net:
            def set_mode(self, mode):
                self.mode = mode

            @tf.function
            def forward(self, x):
                self.set_mode("train")
                return x * (2.0 if self.mode == "train" else 1.0)

        def main():
            n = Net()
            return [n.forward(tf.ones([2])) for _ in range(3)]
        """, tf="same", note="the state it sets is read back in the same trace and nowhere else"),
    V("cache-helper-called-under-guard", """
        import tensorflow as tf

        class Model:
            def __init__(self):
                self.table = None

            def build_table(self):
                self.table = tf.Variable([1.0, 2.0])

            @tf.function
            def lookup(self, i):
                if self.table is None:
                    self.build_table()
                return tf.gather(self.table, i)

        def main():
            m = Model()
            return [m.lookup(tf.constant(1)) for _ in range(3)]
        """, tf="same", real=True),
    V("helper-method-on-module-level-instance", """
        import tensorflow as tf

        class Stats:
            def __init__(self):
                self.batches = 0

            def record(self):
                self.batches += 1

        stats = Stats()

        @tf.function
        def step(x):
            stats.record()
            return x - 1.0

        def main():
            for _ in range(3):
                step(tf.ones([2]))
            return stats.batches
        """, tf="differs", real=True,
      known="`stats.record()` on a module-level instance is not resolved to Stats.record by the project pass"),
    V("history-method-appends-loss", """
        import tensorflow as tf

        class Trainer:
            def __init__(self):
                self.history = []

            def record(self, loss):
                self.history.append(loss)

            @tf.function
            def step(self, x):
                loss = tf.reduce_mean(x)
                self.record(loss)
                return loss

        def main():
            t = Trainer()
            for _ in range(3):
                t.step(tf.ones([2]))
            return len(t.history)
        """, tf="differs", real=True),
    V("global-step-counter-helper", """
        import tensorflow as tf

        STEP = 0

        def bump():
            global STEP
            STEP += 1

        @tf.function
        def train_step(x):
            bump()
            return x * 2.0

        def main():
            for _ in range(4):
                train_step(tf.ones([2]))
            return STEP
        """, tf="differs", real=True),
    V("helper-reads-config-only", """
        import tensorflow as tf

        CONFIG = {"scale": 2.0}

        def scale_of():
            return CONFIG["scale"]

        @tf.function
        def step(x):
            return x * scale_of()

        def main():
            return [step(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("metric-helper-updates-variable", """
        import tensorflow as tf

        class Mean:
            def __init__(self):
                self.total = tf.Variable(0.0)
                self.count = tf.Variable(0.0)

            def update(self, v):
                self.total.assign_add(tf.reduce_sum(v))
                self.count.assign_add(tf.cast(tf.size(v), tf.float32))

        metric = Mean()

        @tf.function
        def step(x):
            metric.update(x)
            return x

        def main():
            for _ in range(3):
                step(tf.ones([2]))
            return metric.total, metric.count
        """, tf="same", real=True),
    V("helper-returns-new-dict", """
        import tensorflow as tf

        def merge(a, b):
            out = dict(a)
            out.update(b)
            return out

        @tf.function
        def step(x):
            d = merge({"x": x}, {"y": x * 2.0})
            return d["x"] + d["y"]

        def main():
            return [step(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("cache-dict-on-self-via-method", """
        import tensorflow as tf

        class Model:
            def __init__(self):
                self.calls = {}

            def note(self, key):
                self.calls[key] = self.calls.get(key, 0) + 1

            @tf.function
            def forward(self, x):
                self.note("forward")
                return x + 1.0

        def main():
            m = Model()
            for _ in range(3):
                m.forward(tf.ones([2]))
            return m.calls
        """, tf="differs", real=True),
    V("helper-mutates-its-argument-list", """
        import tensorflow as tf

        def add_features(features, x):
            features.append(x * 2.0)
            features.append(x + 1.0)

        @tf.function
        def step(x):
            features = []
            add_features(features, x)
            return tf.add_n(features)

        def main():
            return [step(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True, note="the list is made per call in the caller: nothing outlives the call"),
    V("helper-in-tensor-branch-sets-self-tensor", """
        import tensorflow as tf

        class Agent:
            def __init__(self):
                self.eps = 1.0

            def decay(self):
                self.eps = self.eps * 0.5

            @tf.function
            def act(self, q):
                if tf.reduce_max(q) > 0:
                    self.decay()
                return q * self.eps

        def main():
            a = Agent()
            return [a.act(tf.ones([2])) for _ in range(3)]
        """, tf="differs", real=True),
    V("pure-static-helper-method", """
        import tensorflow as tf

        class Net:
            @staticmethod
            def norm(x):
                return x / tf.norm(x)

            @tf.function
            def forward(self, x):
                return self.norm(x)

        def main():
            n = Net()
            return [n.forward(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("logger-helper-appends-to-module-list-once", """
        import tensorflow as tf

        EVENTS = []

        def trace_event(name):
            EVENTS.append(name)

        @tf.function
        def predict(x):
            trace_event("predict")
            return x * 3.0

        def main():
            for _ in range(5):
                predict(tf.ones([2]))
            return EVENTS
        """, tf="differs"),
    V("fields-on-a-box-list-made-in-the-mapped-function", """
        import tensorflow as tf

        class Boxes:
            def __init__(self, corners):
                self.fields = {"corners": corners}

            def add(self, name, value):
                self.fields[name] = value

            def get(self, name):
                return self.fields[name]

        def scaled(boxes, factor):
            out = Boxes(boxes.get("corners") * factor)
            out.add("area", tf.reduce_prod(out.get("corners"), axis=-1))
            return out

        def parse(corners):
            boxes = Boxes(corners)
            boxes.add("ids", tf.range(tf.shape(corners)[0]))
            return scaled(boxes, 2.0).get("area")

        def main():
            data = tf.data.Dataset.from_tensor_slices(tf.reshape(tf.range(24.0), [3, 2, 4])).map(parse)
            return [t for t in data]
        """, tf="same", real=True, note="object-detection pipelines: helper objects live and die in one trace"),
    V("copy-fields-helper-onto-a-new-object", """
        import tensorflow as tf

        class Record:
            def __init__(self, value):
                self.extra = {}
                self.value = value

            def put(self, key, tensor):
                self.extra[key] = tensor

        def copy_extra(dst, src):
            for key, tensor in src.extra.items():
                dst.put(key, tensor)

        @tf.function
        def rescale(x):
            src = Record(x)
            src.put("norm", tf.norm(x))
            dst = Record(x * 2.0)
            copy_extra(dst, src)
            return dst.value + dst.extra["norm"]

        def main():
            return [rescale(tf.ones([3]) * i) for i in range(3)]
        """, tf="same", real=True),
    V("module-level-box-list-filled-in-the-trace", """
        import tensorflow as tf

        class Boxes:
            def __init__(self):
                self.fields = {}

            def add(self, name, value):
                self.fields[name] = value

        LAST = Boxes()

        @tf.function
        def parse(corners):
            LAST.add("corners", corners)
            return corners * 2.0

        def main():
            for i in range(3):
                parse(tf.ones([2]) * i)
            return LAST.fields["corners"]
        """, tf="differs", note="the object outlives the trace: it keeps the trace's symbolic tensor"),
    V("object-passed-in-from-outside-the-trace", """
        import tensorflow as tf

        class Tally:
            def __init__(self):
                self.seen = []

            def add(self, value):
                self.seen.append(value)

        def record(tally, x):
            tally.add(1)
            return x

        @tf.function
        def step(tally, x):
            return record(tally, x) * 2.0

        def main():
            tally = Tally()
            for _ in range(3):
                step(tally, tf.ones([2]))
            return len(tally.seen)
        """, tf="differs"),
]
