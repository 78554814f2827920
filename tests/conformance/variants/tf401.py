"""TF401 variable-per-call: a variable (or a Keras layer with weights) made on every call."""

from conformance.variant import V

VARIANTS = [
    V("variable-in-body", """
        import tensorflow as tf

        @tf.function
        def f(x):
            v = tf.Variable(1.0)
            return x + v

        def main():
            return [f(tf.ones([2])) for _ in range(2)]
        """, tf="raises", real=True, note="the seed's first example"),
    V("dense-in-predict", """
        import tensorflow as tf

        @tf.function
        def predict(x):
            layer = tf.keras.layers.Dense(4)
            return layer(x)

        def main():
            return [predict(tf.ones([1, 2])) for _ in range(2)]
        """, tf="raises", real=True),
    V("builder-returns-unbuilt-sequential", """
        import tensorflow as tf

        @tf.function
        def build_critic():
            layers = [tf.keras.layers.Conv2D(16, 1), tf.keras.layers.Flatten()]
            critic = tf.keras.Sequential(layers + [tf.keras.layers.Dense(1)])
            return tf.constant(len(critic.layers))

        def main():
            return [build_critic() for _ in range(2)]
        """, tf="empty", real=True, note="unbuilt layers make their weights when first called"),
    V("input-placeholder-per-call", """
        import tensorflow as tf

        @tf.function
        def scale(x):
            placeholder = tf.keras.Input(shape=(2,))
            return x * float(len(placeholder.shape))

        def main():
            return [scale(tf.ones([2])) for _ in range(2)]
        """, tf="same", real=True),
    V("sequential-with-input-per-call", """
        import tensorflow as tf

        @tf.function
        def predict(x):
            model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(3)])
            return model(x)

        def main():
            return [predict(tf.ones([1, 2])) for _ in range(2)]
        """, tf="raises", real=True),
    V("guarded-on-self", """
        import tensorflow as tf

        class C:
            def __init__(self):
                self.v = None

            @tf.function
            def f(self, x):
                if self.v is None:
                    self.v = tf.Variable(1.0)
                return x + self.v

        def main():
            c = C()
            return [c.f(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("layer-at-module", """
        import tensorflow as tf

        dense = tf.keras.layers.Dense(4, kernel_initializer="ones")

        @tf.function
        def predict(x):
            return dense(x)

        def main():
            return [predict(tf.ones([1, 2])) for _ in range(2)]
        """, tf="same", real=True),
    V("variable-called-once", """
        import tensorflow as tf

        @tf.function
        def init(x):
            v = tf.Variable(2.0)
            return x * v

        def main():
            return init(tf.ones([2]))
        """, tf="raises", note="the first call may create variables"),
    V("dropout-per-call", """
        import tensorflow as tf

        @tf.function
        def regularise(x):
            return tf.keras.layers.Dropout(0.5)(x, training=False)

        def main():
            return [regularise(tf.ones([2])) for _ in range(2)]
        """, tf="raises", real=True, note="a layer without weights creates no variable"),
    V("variable-in-helper-of-step", """
        import tensorflow as tf

        def make_bias():
            return tf.Variable(tf.zeros([2]))

        @tf.function
        def step(x):
            b = make_bias()
            return x + b

        def main():
            return [step(tf.ones([2])) for _ in range(2)]
        """, tf="raises", real=True),
    V("optimizer-made-in-step", """
        import tensorflow as tf

        w = tf.Variable([1.0, 2.0])

        @tf.function
        def step(x):
            opt = tf.keras.optimizers.SGD(0.1)
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * x)
            opt.apply_gradients([(tape.gradient(loss, w), w)])
            return loss

        def main():
            return [step(tf.ones([2])) for _ in range(2)]
        """, tf="raises", real=True),
    V("variables-in-init", """
        import tensorflow as tf

        class Model(tf.Module):
            def __init__(self):
                self.w = tf.Variable(2.0)

            @tf.function
            def __call__(self, x):
                return x * self.w

        def main():
            m = Model()
            return [m(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("variable-in-init-scope", """
        import tensorflow as tf

        class Model:
            def __init__(self):
                self.w = None

            @tf.function
            def __call__(self, x):
                if self.w is None:
                    with tf.init_scope():
                        self.w = tf.Variable(3.0)
                return x * self.w

        def main():
            m = Model()
            return [m(tf.ones([2])) for _ in range(3)]
        """, tf="same", real=True),
    V("weightless-attention-layer-per-call", """
        import tensorflow as tf

        @tf.function
        def attend(query, values):
            return tf.keras.layers.Attention()([query, values])

        def main():
            return [attend(tf.ones([2, 3, 4]), tf.ones([2, 5, 4])) for _ in range(3)][-1]
        """, tf="same", real=True, note="Attention with its defaults (use_scale=False) owns no weights"),
    V("tf1-optimizer-made-in-the-step", """
        import tensorflow as tf

        w = tf.Variable(tf.ones([4, 1]))

        @tf.function
        def backward(x, y):
            optimizer = tf.compat.v1.train.AdamOptimizer(learning_rate=1e-3)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((tf.matmul(x, w) - y) ** 2)
            grads = tape.gradient(loss, [w])
            optimizer.apply_gradients(zip(grads, [w]))
            return loss

        def main():
            return [backward(tf.ones([8, 4]), tf.ones([8, 1])) for _ in range(3)]
        """, tf="raises", real=True, note="its slot variables are made on apply, on every trace"),
    V("builder-method-replaced-by-its-model", """
        import tensorflow as tf

        class Autoencoder(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.encoder = self.encoder()

            def encoder(self):
                inputs = tf.keras.Input(shape=(4,))
                return tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))

            @tf.function
            def encode(self, x):
                return self.encoder(x)

        def main():
            model = Autoencoder()
            return [model.encode(tf.ones([3, 4])) for _ in range(3)][-1]
        """, tf="same", real=True, note="the instance attribute hides the method: the step calls the model built once"),
    V("initializer-per-call", """
        import tensorflow as tf

        @tf.function
        def scaled(x):
            init = tf.keras.initializers.VarianceScaling(scale=2.0, mode="fan_out", distribution="normal")
            reg = tf.keras.regularizers.L2(1e-4)
            return x * 2.0 + reg(x) * 0.0 + 0.0 * float(init is None)

        def main():
            return [scaled(tf.ones([2])) for _ in range(3)][-1]
        """, tf="same", real=True, note="initializer and regularizer objects own no variables (heldout26: an EfficientNet block)"),
    V("slot-variable-guarded-by-hasattr-on-the-argument", """
        import tensorflow as tf

        class Momentum:
            def __init__(self, lr=0.01, beta=0.9):
                self.lr, self.beta = lr, beta

            @tf.function
            def apply(self, grad, var):
                if not hasattr(var, "velocity"):
                    var.velocity = tf.Variable(tf.zeros_like(var))
                var.velocity.assign(self.beta * var.velocity + grad)
                var.assign_sub(self.lr * var.velocity)

        def main():
            opt = Momentum()
            w, b = tf.Variable(tf.ones([3])), tf.Variable(tf.ones([2, 2]))
            for _ in range(2):
                for var in (w, b):
                    opt.apply(tf.ones_like(var), var)
            return w, b
        """, tf="raises", real=True,
      note="the textbook custom optimizer's slot, one per variable passed: the second variable's trace "
           "creates a variable (heldout43, heldout45)"),
    V("slot-variable-keyed-by-the-argument", """
        import tensorflow as tf

        class Slots:
            def __init__(self):
                self.m = {}

            @tf.function
            def apply(self, grad, var):
                key = var.ref()
                if key not in self.m:
                    self.m[key] = tf.Variable(tf.zeros_like(var))
                self.m[key].assign(0.9 * self.m[key] + grad)
                var.assign_sub(0.01 * self.m[key])

        def main():
            opt = Slots()
            w, b = tf.Variable(tf.ones([3])), tf.Variable(tf.ones([2, 2]))
            for _ in range(2):
                for var in (w, b):
                    opt.apply(tf.ones_like(var), var)
            return w, b
        """, tf="raises", real=True),
    V("slot-variable-keyed-by-the-argument-one-trace", """
        import tensorflow as tf

        class Momentum:
            @tf.function
            def apply(self, grad, var):
                if not hasattr(var, "velocity"):
                    var.velocity = tf.Variable(tf.zeros_like(var))
                var.velocity.assign(0.9 * var.velocity + grad)
                var.assign_sub(0.01 * var.velocity)

        def main():
            opt = Momentum()
            w, b = tf.Variable(tf.ones([3])), tf.Variable(tf.ones([3]) * 5.0)
            for _ in range(3):
                for var in (w, b):
                    opt.apply(tf.ones_like(var), var)
            return w, b
        """, tf="differs", real=True,
      note="two variables of one shape share a trace: the second reads and updates the first's slot"),
    V("counter-hung-on-the-one-model-passed", """
        import tensorflow as tf

        @tf.function
        def train_step(model, x):
            if not hasattr(model, "steps"):
                model.steps = tf.Variable(0)
            model.steps.assign_add(1)
            return model(x)

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
            out = [train_step(model, tf.ones([n, 4])) for n in (3, 3, 5)]
            return int(model.steps), out[-1]
        """, tf="same",
      note="the control: a guard on the argument, one object passed; made on the first trace, the "
           "retrace for a new shape finds it (the rule asks for a slot made from the object)"),
    V("slot-helper-called-per-variable-inside-one-trace", """
        import tensorflow as tf

        slots = {}

        def get_slot(var):
            if var.ref() not in slots:
                slots[var.ref()] = tf.Variable(tf.zeros_like(var))
            return slots[var.ref()]

        @tf.function
        def step(variables, grads):
            for var, grad in zip(variables, grads):
                slot = get_slot(var)
                slot.assign(0.9 * slot + grad)
                var.assign_sub(0.01 * slot)

        def main():
            variables = [tf.Variable(tf.ones([3])), tf.Variable(tf.ones([2, 2]))]
            for _ in range(3):
                step(variables, [tf.ones_like(v) for v in variables])
            return variables
        """, tf="same", real=True,
      note="the control: every slot is made in the first trace (the per-variable helper is not the "
           "tf.function; the review of the thirtieth session)"),
    V("slot-guarded-by-the-argument-one-object-only", """
        import tensorflow as tf

        class EMA:
            @tf.function
            def update(self, var):
                if not hasattr(var, "shadow"):
                    var.shadow = tf.Variable(tf.identity(var), trainable=False)
                var.shadow.assign(0.99 * var.shadow + 0.01 * var)
                return tf.identity(var.shadow)

        def main():
            w, ema = tf.Variable(tf.ones([3])), EMA()
            out = []
            for _ in range(3):
                w.assign_add(tf.ones([3]))
                out.append(ema.update(w))
            return out
        """, tf="same",
      known="one object is ever passed, so its slot is made on the first trace: the rule reads the guard, "
            "not which objects callers pass (a slot per object is written for several)"),
]
