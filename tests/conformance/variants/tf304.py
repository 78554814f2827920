"""TF304 tensor-as-bool: Python needs the truth value of a symbolic tensor."""

from conformance.variant import V

VARIANTS = [
    V("comprehension-condition-on-tensor", """
        import tensorflow as tf

        @tf.function
        def positive_rows(rows):
            return [r for r in rows if tf.reduce_sum(r) > 0]

        def main():
            return positive_rows([tf.ones([2]), -tf.ones([2])])
        """, tf="raises", real=True),
    V("bool-of-reduce-any", """
        import tensorflow as tf

        @tf.function
        def any_nan(x):
            return bool(tf.reduce_any(tf.math.is_nan(x)))

        def main():
            return any_nan(tf.ones([2]))
        """, tf="raises", real=True),
    V("if-with-autograph-off", """
        import tensorflow as tf

        @tf.function(autograph=False)
        def clip(x):
            if tf.reduce_max(x) > 1.0:
                x = x / tf.reduce_max(x)
            return x

        def main():
            return clip(tf.constant([2.0, 1.0]))
        """, tf="raises", real=True),
    V("if-with-autograph", """
        import tensorflow as tf

        @tf.function
        def clip(x):
            if tf.reduce_max(x) > 1.0:
                x = x / tf.reduce_max(x)
            return x

        def main():
            return clip(tf.constant([2.0, 1.0]))
        """, tf="same", real=True),
    V("boolean-mask-instead", """
        import tensorflow as tf

        @tf.function
        def positive(x):
            return tf.boolean_mask(x, x > 0)

        def main():
            return positive(tf.constant([1.0, -1.0]))
        """, tf="same", real=True),
    V("and-of-two-tensor-conditions", """
        import tensorflow as tf

        @tf.function
        def both(x):
            if tf.reduce_min(x) > 0 and tf.reduce_max(x) < 10:
                return x
            return -x

        def main():
            return both(tf.constant([1.0, 2.0]))
        """, tf="same", real=True, note="AutoGraph converts `and` in an if test to tf.logical_and"),
    V("ternary-on-tensor", """
        import tensorflow as tf

        @tf.function
        def sign(x):
            return 1.0 if tf.reduce_sum(x) > 0 else -1.0

        def main():
            return sign(tf.ones([2]))
        """, tf="same", real=True, note="AutoGraph converts a conditional expression to tf.cond"),
    V("not-of-tensor-in-if", """
        import tensorflow as tf

        @tf.function
        def f(x):
            if not tf.reduce_any(x > 5.0):
                x = x + 1.0
            return x

        def main():
            return f(tf.ones([2]))
        """, tf="same", real=True),
    V("while-with-autograph-off", """
        import tensorflow as tf

        @tf.function(autograph=False)
        def halve(x):
            while tf.reduce_max(x) > 1.0:
                x = x / 2.0
            return x

        def main():
            return halve(tf.constant([8.0]))
        """, tf="raises"),
    V("assert-with-autograph-off", """
        import tensorflow as tf

        @tf.function(autograph=False)
        def checked(x):
            assert tf.reduce_all(x > 0)
            return x

        def main():
            return checked(tf.ones([2]))
        """, tf="raises"),
    V("python-condition-in-comprehension", """
        import tensorflow as tf

        @tf.function
        def pick(xs, keep):
            return [x for i, x in enumerate(xs) if i in keep]

        def main():
            return pick([tf.ones([2]), tf.zeros([2])], [0])
        """, tf="empty", real=True),
    V("bool-of-python-flag", """
        import tensorflow as tf

        @tf.function
        def f(x, training=0):
            return x * 2.0 if bool(training) else x

        def main():
            return f(tf.ones([2]), 1)
        """, tf="same", real=True),
    V("keras-call-if-on-tensor-under-tf-function", """
        import tensorflow as tf

        class Gate(tf.keras.layers.Layer):
            def call(self, x):
                if tf.reduce_sum(x) > 0:
                    return x * 2.0
                return x

        gate = Gate()

        @tf.function
        def step(x):
            return gate(x)

        def main():
            return step(tf.ones([2]))
        """, tf="raises", real=True, note="Keras 3 does not convert a layer's call with AutoGraph"),
    V("keras-call-and-with-tensor-under-fit", """
        import tensorflow as tf

        class Bias(tf.keras.layers.Layer):
            def build(self, shape):
                self.bias = self.add_weight(shape=(shape[-1],), initializer="zeros")

            def call(self, x):
                if self.bias is not None and tf.reduce_sum(self.bias) != 0:
                    x = x + self.bias
                return x

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.bias = Bias()
                self.out = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.out(self.bias(x))

        def main():
            model = Net()
            model.compile("sgd", "mse")
            model.fit(tf.ones([4, 2]), tf.ones([4, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises", real=True, note="a Sequential would raise eagerly too: Keras builds it symbolically"),
    V("keras-call-break-on-tensor-through-sublayers", """
        import tensorflow as tf

        class Halting(tf.keras.layers.Layer):
            def call(self, x):
                for _ in range(3):
                    if tf.reduce_max(x) > 10.0:
                        break
                    x = x * 2.0
                return x

        class Encoder(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.act = Halting()

            def call(self, x):
                return self.act(x)

        encoder = Encoder()

        @tf.function
        def step(x):
            return encoder(x)

        def main():
            return step(tf.ones([2]))
        """, tf="raises", real=True),
    V("keras-call-decorated-is-converted", """
        import tensorflow as tf

        class Gate(tf.keras.layers.Layer):
            @tf.function
            def call(self, x):
                if tf.reduce_sum(x) > 0:
                    return x * 2.0
                return x

        gate = Gate()

        @tf.function
        def step(x):
            return gate(x)

        def main():
            return step(tf.ones([2]))
        """, tf="empty", note="a call decorated with tf.function is converted (the outer graph only calls it)"),
    V("keras-call-python-flags", """
        import tensorflow as tf

        class Gate(tf.keras.layers.Layer):
            def call(self, x, training=False, mask=None):
                if training and mask is not None:
                    x = x * tf.cast(mask, x.dtype)
                return tf.where(tf.reduce_sum(x) > 0, x * 2.0, x)

        gate = Gate()

        @tf.function
        def step(x):
            return gate(x, training=True)

        def main():
            return step(tf.ones([2]))
        """, tf="same", real=True),
    V("keras-call-shape-condition", """
        import tensorflow as tf

        class Flatten2(tf.keras.layers.Layer):
            def call(self, x):
                if x.shape.rank > 2:
                    x = tf.reshape(x, [tf.shape(x)[0], -1])
                return x

        layer = Flatten2()

        @tf.function
        def step(x):
            return layer(x)

        def main():
            return step(tf.ones([2, 3, 4]))
        """, tf="same", real=True, note="a static shape is a Python value while tracing"),
    V("keras-call-condition-only-when-eager", """
        import tensorflow as tf

        class Checked(tf.keras.layers.Layer):
            def call(self, x):
                if tf.executing_eagerly():
                    if tf.reduce_any(x < 0):
                        raise ValueError("negative input")
                return x * 2.0

        layer = Checked()

        @tf.function
        def step(x):
            return layer(x)

        def main():
            return step(tf.ones([2]))
        """, tf="same", real=True, note="under tf.executing_eagerly() it never runs in a graph"),
    V("python-if-in-a-loss-handed-to-compile", """
        import tensorflow as tf

        def clipped_loss(y_true, y_pred):
            extra = tf.reduce_mean(tf.abs(y_true - y_pred))
            if extra > 0:
                return extra
            return extra * 0.0

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss=clipped_loss)
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises", real=True, note="Keras 3 traces a compiled loss without AutoGraph"),
    V("python-if-in-a-loss-made-by-a-factory-handed-to-compile", """
        import tensorflow as tf

        def joint_loss(weight):
            def loss(y_true, y_pred):
                base = tf.reduce_mean(tf.square(y_true - y_pred))
                extra = tf.reduce_mean(tf.abs(y_true - y_pred))
                if extra > 0:
                    return base + weight * extra
                return base
            return loss

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss=joint_loss(0.3))
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises", real=True),
    V("python-if-in-a-metric-handed-to-compile", """
        import tensorflow as tf

        def hit_rate(y_true, y_pred):
            error = tf.reduce_mean(tf.abs(y_true - y_pred))
            if error < 0.5:
                return tf.ones([])
            return tf.zeros([])

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse", metrics=[hit_rate])
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises", real=True),
    V("python-if-on-a-python-weight-in-a-compiled-loss", """
        import tensorflow as tf

        def joint_loss(weight):
            def loss(y_true, y_pred):
                base = tf.reduce_mean(tf.square(y_true - y_pred))
                if weight > 0:
                    return base + weight * tf.reduce_mean(tf.abs(y_true - y_pred))
                return base
            return loss

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss=joint_loss(0.3))
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="same", real=True, note="a Python number decided while tracing"),
    V("python-if-in-a-loss-compiled-to-run-eagerly", """
        import tensorflow as tf

        def clipped_loss(y_true, y_pred):
            extra = tf.reduce_mean(tf.abs(y_true - y_pred))
            if extra > 0:
                return extra
            return extra * 0.0

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss=clipped_loss, run_eagerly=True)
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="same", real=True, note="run_eagerly=True: Keras calls the loss eagerly"),
    V("python-if-in-a-keras-train-step-run-by-fit", """
        import tensorflow as tf

        class Trainer(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.dense(x)

            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
                    if loss > 1.0:
                        loss = tf.sqrt(loss)
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}

        def main():
            model = Trainer()
            model.compile(optimizer="sgd")
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises", real=True,
      note="Keras 3 traces an overridden train_step in fit's tf.function without AutoGraph, as it does "
           "a layer's call (TensorFlow 2.21: OperatorNotAllowedInGraphError)"),
    V("python-if-in-a-train-step-whose-compile-override-runs-eagerly", """
        import tensorflow as tf

        class Critic(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(1)

            def compile(self, critic_opt, **kwargs):
                super().compile(**kwargs, run_eagerly=True)
                self.critic_opt = critic_opt

            def call(self, x):
                return self.dense(x)

            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
                    if loss > 1.0:
                        loss = tf.sqrt(loss)
                grads = tape.gradient(loss, self.trainable_variables)
                self.critic_opt.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}

        def main():
            model = Critic()
            model.compile(tf.keras.optimizers.SGD())
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="same", real=True,
      note="the model's own compile passes run_eagerly=True to Keras's: fit calls the step eagerly, "
           "whatever its callers' compile says (heldout44's WGAN-GP shape)"),
    V("python-if-in-a-train-step-whose-compile-override-runs-eagerly-only-when-asked", """
        import tensorflow as tf

        class Critic(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(1)

            def compile(self, critic_opt, debug=False, **kwargs):
                if debug:
                    super().compile(run_eagerly=True, **kwargs)
                else:
                    super().compile(**kwargs)
                self.critic_opt = critic_opt

            def call(self, x):
                return self.dense(x)

            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
                    if loss > 1.0:
                        loss = tf.sqrt(loss)
                grads = tape.gradient(loss, self.trainable_variables)
                self.critic_opt.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}

        def main():
            model = Critic()
            model.compile(tf.keras.optimizers.SGD())
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises",
      note="run_eagerly=True only in a branch the callers do not take: fit traces the step (the review "
           "of the thirtieth session)"),
    V("python-if-in-a-train-step-of-a-model-inheriting-an-eager-compile", """
        import tensorflow as tf

        class Base(tf.keras.Model):
            def compile(self, critic_opt, **kwargs):
                super().compile(run_eagerly=True, **kwargs)
                self.critic_opt = critic_opt

        class Critic(Base):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.dense(x)

            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
                    if loss > 1.0:
                        loss = tf.sqrt(loss)
                grads = tape.gradient(loss, self.trainable_variables)
                self.critic_opt.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}

        def main():
            model = Critic()
            model.compile(tf.keras.optimizers.SGD())
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="same",
      note="the compile override that forces run_eagerly is inherited: fit calls the step eagerly"),
    V("python-if-in-a-decorated-keras-train-step", """
        import tensorflow as tf

        class Trainer(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.dense(x)

            @tf.function
            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
                    if loss > 1.0:
                        loss = tf.sqrt(loss)
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                return {"loss": loss}

        def main():
            model = Trainer()
            model.compile(optimizer="sgd")
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="same", real=True,
      note="the control: its own @tf.function converts the step with AutoGraph, inside fit too"),
    V("python-if-on-another-factorys-loss-in-a-compiled-loss", """
        import tensorflow as tf

        def shape_loss(scale):
            def loss(y_true, y_pred):
                return tf.reduce_mean(tf.abs(y_true - y_pred) * scale)
            return loss

        def joint_loss(weight):
            def loss(y_true, y_pred):
                base = tf.reduce_mean(tf.square(y_true - y_pred))
                extra = shape_loss(2.0)(y_true, y_pred)
                if extra > 0:
                    return base + weight * extra
                return base
            return loss

        def main():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss=joint_loss(0.3))
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises", real=True,
      note="the condition is what another loss factory's loss returns: a tensor (heldout32: a segmentation loss, judged fix-first, run)"),
    V("python-if-in-a-metric-result-called-through-the-metric", """
        import tensorflow as tf

        class Perplexity(tf.keras.metrics.Metric):
            def __init__(self):
                super().__init__(name="perplexity")
                self.total = self.add_weight(name="total", initializer="zeros")
                self.count = self.add_weight(name="count", initializer="zeros")

            def update_state(self, y_true, y_pred, sample_weight=None):
                self.total.assign_add(tf.reduce_sum(y_pred))
                self.count.assign_add(1.0)

            def result(self):
                if self.count == 0:
                    return tf.constant(0.0)
                return self.total / self.count

        perplexity = Perplexity()

        @tf.function
        def eval_step(y_true, y_pred):
            return perplexity(y_true, y_pred)

        def main():
            return [eval_step(tf.ones([2]), tf.ones([2]) * k) for k in range(2)]
        """, tf="raises", real=True,
      note="Keras 3's Metric.__call__ runs update_state and result without AutoGraph, even inside a "
           "tf.function (heldout31: a transformer's perplexity metric)"),
    V("python-if-in-a-metric-result-called-by-its-methods", """
        import tensorflow as tf

        class Perplexity(tf.keras.metrics.Metric):
            def __init__(self):
                super().__init__(name="perplexity")
                self.total = self.add_weight(name="total", initializer="zeros")
                self.count = self.add_weight(name="count", initializer="zeros")

            def update_state(self, y_true, y_pred, sample_weight=None):
                self.total.assign_add(tf.reduce_sum(y_pred))
                self.count.assign_add(1.0)

            def result(self):
                if self.count == 0:
                    return tf.constant(0.0)
                return self.total / self.count

        perplexity = Perplexity()

        @tf.function
        def eval_step(y_true, y_pred):
            perplexity.update_state(y_true, y_pred)
            return perplexity.result()

        def main():
            return [eval_step(tf.ones([2]), tf.ones([2]) * k) for k in range(2)]
        """, tf="same", real=True,
      note="called as methods from a tf.function, update_state and result are converted with it"),
    V("python-if-in-a-metric-update-state-handed-to-compile", """
        import tensorflow as tf

        class PositiveRate(tf.keras.metrics.Metric):
            def __init__(self):
                super().__init__(name="positive_rate")
                self.hits = self.add_weight(name="hits", initializer="zeros")
                self.seen = self.add_weight(name="seen", initializer="zeros")

            def update_state(self, y_true, y_pred, sample_weight=None):
                if tf.reduce_mean(y_pred) > 0:
                    self.hits.assign_add(1.0)
                self.seen.assign_add(1.0)

            def result(self):
                return self.hits / tf.maximum(self.seen, 1.0)

        def main():
            model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
            model.compile(optimizer="sgd", loss="mse", metrics=[PositiveRate()])
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises", real=True, note="fit's compiled step runs the metric's update_state without AutoGraph"),
    V("python-if-in-a-metric-updated-by-a-keras-train-step", """
        import tensorflow as tf

        class RunningMax(tf.keras.metrics.Metric):
            def __init__(self):
                super().__init__(name="running_max")
                self.best = self.add_weight(name="best", initializer="zeros")

            def update_state(self, value):
                self.best.assign(tf.maximum(self.best, value))

            def result(self):
                if self.best > 10.0:
                    return tf.constant(10.0)
                return tf.identity(self.best)

        class Regressor(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(1)
                self.peak = RunningMax()

            def call(self, x):
                return self.dense(x)

            def train_step(self, data):
                x, y = data
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean((self(x) - y) ** 2)
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
                self.peak.update_state(loss)
                return {"loss": loss, "peak": self.peak.result()}

        def main():
            model = Regressor()
            model.compile(optimizer="sgd")
            model.fit(tf.ones([8, 2]), tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises", real=True, note="what an unconverted train_step calls runs unconverted too"),
    V("python-if-in-a-helper-method-of-a-layer-call", """
        import tensorflow as tf

        class Gate(tf.keras.layers.Layer):
            def call(self, x):
                return self.squash(x)

            def squash(self, x):
                if tf.reduce_max(x) > 1.0:
                    return x / tf.reduce_max(x)
                return x

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.gate = Gate()
                self.out = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.out(self.gate(x))

        def main():
            model = Net()
            model.compile(optimizer="sgd", loss="mse")
            model.fit(tf.ones([8, 2]) * 2, tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="raises", real=True, note="a Keras 2 layer (its call converted, with what it calls) run under Keras 3"),
    V("python-if-in-a-module-helper-of-a-layer-call", """
        import tensorflow as tf

        def normalize(x):
            if tf.reduce_max(x) > 1.0:
                return x / tf.reduce_max(x)
            return x

        class Normalized(tf.keras.layers.Layer):
            def call(self, x):
                return normalize(x)

        layer = Normalized()

        @tf.function
        def forward(x):
            return layer(x)

        def main():
            return forward(tf.ones([2, 2]) * 2)
        """, tf="raises", real=True),
    V("python-if-in-a-decorated-helper-of-a-layer-call", """
        import tensorflow as tf

        @tf.function
        def normalize(x):
            if tf.reduce_max(x) > 1.0:
                return x / tf.reduce_max(x)
            return x

        class Normalized(tf.keras.layers.Layer):
            def call(self, x):
                return normalize(x)

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.norm = Normalized()
                self.out = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.out(self.norm(x))

        def main():
            model = Net()
            model.compile(optimizer="sgd", loss="mse")
            model.fit(tf.ones([8, 2]) * 2, tf.ones([8, 1]), verbose=0, epochs=1)
            return model(tf.ones([1, 2]))
        """, tf="same", real=True, note="a tf.function converts its own body wherever it is called from"),
    V("python-if-in-a-helper-of-a-tf-function-called-directly", """
        import tensorflow as tf

        def normalize(x):
            if tf.reduce_max(x) > 1.0:
                return x / tf.reduce_max(x)
            return x

        class Normalized(tf.keras.layers.Layer):
            def call(self, x):
                return x * 2.0

        @tf.function
        def forward(x):
            return normalize(x)

        def main():
            layer = Normalized()
            return forward(layer(tf.ones([2, 2])))
        """, tf="same", real=True, note="called straight from a tf.function, a helper is converted"),
    V("truth-of-a-list-checked-first-in-a-layer-helper", """
        import tensorflow as tf

        def first_tensor(x):
            if isinstance(x, (list, tuple)) and x:
                return first_tensor(x[0])
            return x

        class Head(tf.keras.layers.Layer):
            def call(self, inputs):
                return first_tensor(inputs) * 2.0

        head = Head()

        @tf.function
        def forward(x):
            return head(x)

        def main():
            return forward(tf.ones([2, 2])), forward([tf.ones([2, 2])])
        """, tf="same", real=True,
      note="Python asks for x's truth value only once isinstance says it is a list (heldout36: a CRF layer's helper)"),
    V("python-if-in-a-helper-of-an-autograph-off-function", """
        import tensorflow as tf

        def clip(x):
            if tf.reduce_max(x) > 1.0:
                return x / tf.reduce_max(x)
            return x

        @tf.function(autograph=False)
        def step(x):
            return clip(x) * 2.0

        def main():
            return step(tf.constant([2.0, 1.0]))
        """, tf="raises", real=False),
]
