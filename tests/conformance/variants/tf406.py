"""TF406 decorated-keras-call: @tf.function on a Keras call whose sublayers build on first call."""

from conformance.variant import V

_LOOP = """
        model = {model}
        opt = tf.keras.optimizers.SGD(0.01)

        def main():
            x, y = tf.ones([4, 3]), tf.zeros([4, 1])
            for _ in range(2):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                grads = tape.gradient(loss, model.trainable_variables)
                opt.apply_gradients(zip(grads, model.trainable_variables))
            return float(loss) >= 0.0
"""

# a model whose decorated call makes its weights on its first call; the variants differ in that call
_CRITIC = """
        import tensorflow as tf

        class Critic(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.hidden = tf.keras.layers.Dense(8)
                self.out = tf.keras.layers.Dense(1)

            @tf.function
            def call(self, x):
                return self.out(self.hidden(x))

        critic = Critic()"""

VARIANTS = [
    V("own-layers-make-their-variables-in-init", """
        import tensorflow as tf

        class Dense(tf.keras.layers.Layer):
            def __init__(self, input_dim, units):
                super().__init__()
                self.w = self.add_weight(shape=(input_dim, units), initializer="random_normal")
                self.b = self.add_weight(shape=(1, units), initializer="zeros")

            def call(self, x):
                return tf.matmul(x, self.w) + self.b

        class Generator(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.dense1 = Dense(3, 8)
                self.dense2 = Dense(8, 1)

            @tf.function
            def call(self, x):
                return self.dense2(tf.nn.relu(self.dense1(x)))
        """ + _LOOP.format(model="Generator()"), tf="same", real=True),
    V("wraps-a-built-model", """
        import tensorflow as tf

        class Accumulating(tf.keras.Model):
            def __init__(self, base_model):
                super().__init__()
                self.base_model = base_model

            @tf.function
            def call(self, x, training=False):
                return self.base_model(x, training=training)

        inputs = tf.keras.Input((3,))
        base = tf.keras.Model(inputs, tf.keras.layers.Dense(1)(tf.keras.layers.Dense(8)(inputs)))
        """ + _LOOP.format(model="Accumulating(base)"), tf="same", real=True),
    V("mlp-call-decorated-custom-loop", """
        import tensorflow as tf

        class MLP(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.hidden = tf.keras.layers.Dense(8, activation="relu")
                self.out = tf.keras.layers.Dense(1)

            @tf.function
            def call(self, x):
                return self.out(self.hidden(x))
        """ + _LOOP.format(model="MLP()"), tf="raises", real=True),
    V("layer-call-decorated-with-options", """
        import tensorflow as tf

        class Block(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.dense = tf.keras.layers.Dense(1)

            @tf.function(reduce_retracing=True)
            def call(self, inputs):
                return tf.nn.relu(self.dense(inputs))
        """ + _LOOP.format(model="tf.keras.Sequential([Block()])"), tf="raises", real=True),
    V("undecorated-call-decorated-step", """
        import tensorflow as tf

        class MLP(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.out = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.out(x)
        """ + _LOOP.format(model="MLP()"), tf="same", real=True),
    V("module-call-with-own-variable", """
        import tensorflow as tf

        class Scaler(tf.Module):
            def __init__(self):
                self.w = tf.Variable(2.0)

            @tf.function
            def call(self, x):
                return x * self.w

        def main():
            s = Scaler()
            return s.call(tf.ones([2]))
        """, tf="same", real=True),
    V("weights-in-build", """
        import tensorflow as tf

        class Linear(tf.keras.layers.Layer):
            def build(self, input_shape):
                self.w = self.add_weight(shape=(input_shape[-1], 1), initializer="ones")

            @tf.function
            def call(self, x):
                return tf.matmul(x, self.w)
        """ + _LOOP.format(model="tf.keras.Sequential([Linear()])"), tf="same", real=True),
    V("sublayers-built-before-loop", """
        import tensorflow as tf

        class MLP(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.out = tf.keras.layers.Dense(1)

            @tf.function
            def call(self, x):
                return self.out(x)

        model = MLP()
        model.build((None, 3))
        opt = tf.keras.optimizers.SGD(0.01)

        def main():
            x, y = tf.ones([4, 3]), tf.zeros([4, 1])
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            return float(loss) >= 0.0
        """, tf="same", note="built before the training loop: the weights exist before the first traced call"),
    V("decorated-call-used-only-for-inference", """
        import tensorflow as tf

        class MLP(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.out = tf.keras.layers.Dense(1, kernel_initializer="ones")

            @tf.function
            def call(self, x):
                return self.out(x)

        def main():
            model = MLP()
            return [model(tf.ones([2, 3])) for _ in range(2)]
        """, tf="same", real=True, note="no gradients asked for: inference works"),
    V("weights-in-init-add-weight", """
        import tensorflow as tf

        class Scale(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.w = self.add_weight(shape=(1,), initializer="ones")

            @tf.function
            def call(self, x):
                return x * self.w
        """ + _LOOP.format(model="tf.keras.Sequential([tf.keras.Input((3,)), Scale()])"), tf="same", real=True),
    V("conv-model-call-decorated", """
        import tensorflow as tf

        class ConvNet(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.flat = tf.keras.layers.Flatten()
                self.fc = tf.keras.layers.Dense(1)

            @tf.function
            def call(self, x):
                return self.fc(self.flat(x))
        """ + _LOOP.format(model="ConvNet()"), tf="raises", real=True),
    V("decorated-train-step-method-not-call", """
        import tensorflow as tf

        class Trainer(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.out = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.out(x)

            @tf.function
            def step(self, x, y, opt):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(self(x) - y))
                grads = tape.gradient(loss, self.trainable_variables)
                opt.apply_gradients(zip(grads, self.trainable_variables))
                return loss

        def main():
            t = Trainer()
            t(tf.ones([1, 3]))
            opt = tf.keras.optimizers.SGD(0.01)
            return [float(t.step(tf.ones([4, 3]), tf.zeros([4, 1]), opt)) >= 0.0 for _ in range(2)]
        """, tf="same", real=True),
    V("built-by-an-eager-call-at-the-top-of-the-file", _CRITIC + """
        critic(tf.ones([4, 3]))
        """ + _LOOP.format(model="critic"), tf="raises", real=True,
      note="an eager first call does not save it when the training batches have its shape: the call's "
           "first trace made the weights, and the tape reuses that trace"),
    V("model-makes-its-sublayers-in-its-own-build-trained-with-fit", """
        import numpy as np
        import tensorflow as tf

        class TextNet(tf.keras.Model):
            def build(self, input_shape):
                self.hidden = tf.keras.layers.Dense(8, activation="relu")
                self.out = tf.keras.layers.Dense(1)
                super().build(input_shape)

            @tf.function
            def call(self, x):
                return self.out(self.hidden(x))

        def main():
            model = TextNet()
            model.compile("sgd", "mse")
            x, y = np.ones((8, 3), "float32"), np.zeros((8, 1), "float32")
            history = model.fit(x, y, epochs=2, verbose=0)
            return len(history.history["loss"]) == 2
        """, tf="same", real=True,
      note="a Model with its own build(): Keras calls it and does not trace call symbolically first, so "
           "the sublayers' weights are made inside the decorated call's first trace and still get gradients "
           "(heldout26: a TextCNN trained with fit, judged and run)"),
    V("model-with-its-own-build-custom-loop", """
        import tensorflow as tf

        class Critic(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.hidden = tf.keras.layers.Dense(8)
                self.out = tf.keras.layers.Dense(1)

            def build(self, input_shape):
                super().build(input_shape)

            @tf.function
            def call(self, x):
                return self.out(self.hidden(x))
        """ + _LOOP.format(model="Critic()"), tf="same", real=True,
      note="the same with the sublayers made in __init__: defining build() is what keeps Keras from a symbolic first call"),
    V("add-loss-on-weights-made-in-build", """
        import tensorflow as tf

        class Scale(tf.keras.layers.Layer):
            def build(self, input_shape):
                self.gamma = self.add_weight(name="gamma", shape=(input_shape[-1],), initializer="ones")
                self.beta = self.add_weight(name="beta", shape=(input_shape[-1],), initializer="zeros")

            @tf.function
            def call(self, x):
                self.add_loss(1e-3 * tf.reduce_sum(tf.square(self.gamma)))
                return x * self.gamma + self.beta
        """ + _LOOP.format(model="tf.keras.Sequential([Scale(), tf.keras.layers.Dense(1)])"), tf="same", real=True,
      note="a layer's own weights made in build(), and a call that also calls an inherited Keras method "
           "(self.add_loss): that is no sublayer, nothing is built in the trace, every weight gets its "
           "gradient (heldout44: a hand-written batch normalisation's self.add_update taken for a sublayer)"),
    V("layer-with-its-own-build-inside-a-model-trained-with-fit", """
        import numpy as np
        import tensorflow as tf

        class Block(tf.keras.layers.Layer):
            def build(self, input_shape):
                self.dense = tf.keras.layers.Dense(1)
                super().build(input_shape)

            @tf.function
            def call(self, x):
                return self.dense(x)

        def main():
            model = tf.keras.Sequential([Block()])
            model.compile("sgd", "mse")
            model.fit(np.ones((8, 3), "float32"), np.zeros((8, 1), "float32"), epochs=1, verbose=0)
            return True
        """, tf="raises", real=True,
      note="a Layer's own build() does not save it under fit: the model around it is traced symbolically "
           "first, and TensorFlow 2.21 gives no gradients"),
    V("built-by-an-eager-call-on-one-observation-then-trained-on-batches", _CRITIC + """
        critic(tf.ones([1, 3]))
        """ + _LOOP.format(model="critic"), tf="unrolled", real=True,
      note="the first call traced a (1, 3) input; training's (4, 3) batches trace again, and the tape sees "
           "the weights that trace reads (heldout29: an SAC actor-critic called per environment step); "
           "'unrolled' only because the first trace, which makes the weights, has more ops than the second"),
    V("weightless-sublayers-only", """
        import tensorflow as tf

        class Pool(tf.keras.layers.Layer):
            def __init__(self):
                super().__init__()
                self.pool = tf.keras.layers.MaxPool2D((2, 2), padding="same")
                self.drop = tf.keras.layers.Dropout(0.1)

            @tf.function(reduce_retracing=True)
            def call(self, x):
                return self.drop(self.pool(x))

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.conv = tf.keras.layers.Conv2D(2, 3)
                self.pool = Pool()
                self.out = tf.keras.layers.Dense(1)

            def call(self, x):
                return self.out(tf.reduce_mean(self.pool(self.conv(x)), axis=[1, 2]))

        model = Net()
        opt = tf.keras.optimizers.SGD(0.01)

        def main():
            x, y = tf.ones([4, 8, 8, 3]), tf.zeros([4, 1])
            for _ in range(2):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(model(x) - y))
                grads = tape.gradient(loss, model.trainable_variables)
                opt.apply_gradients(zip(grads, model.trainable_variables))
            return float(loss) >= 0.0
        """, tf="same", real=True,
      note="pooling and dropout make no weights, so nothing is built inside the trace (heldout31: a Faster "
           "R-CNN's ROI pooling layer)"),
    V("sublayer-a-keras-applications-model", """
        import tensorflow as tf

        class Features(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.resize = tf.keras.layers.Resizing(32, 32)
                self.backbone = tf.keras.applications.MobileNetV2(
                    include_top=False, weights=None, pooling="avg", alpha=0.35)

            @tf.function
            def call(self, x):
                return self.backbone(self.resize(x), training=False)

        features = Features()
        head = tf.keras.layers.Dense(1)
        opt = tf.keras.optimizers.SGD(0.01)

        def main():
            x, y = tf.ones([2, 24, 24, 3]), tf.zeros([2, 1])
            for _ in range(2):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(head(features(x)) - y))
                variables = features.trainable_variables + head.trainable_variables
                grads = tape.gradient(loss, variables)
                opt.apply_gradients(zip(grads, variables))
            return all(g is not None for g in grads)
        """, tf="unrolled", real=True,
      note="a keras.applications model is a functional model, built when made: its weights exist before "
           "the trace and get their gradients (heldout33: an FID feature extractor around InceptionV3); "
           "'unrolled' only because MobileNetV2's graph holds many ops"),
    V("sublayer-a-sequential-with-an-input-made-by-a-helper", """
        import tensorflow as tf

        def mlp(odim, hdims):
            net = tf.keras.Sequential()
            net.add(tf.keras.layers.InputLayer(shape=(odim,)))
            for h in hdims:
                net.add(tf.keras.layers.Dense(h))
            return net

        class Policy(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.mu = mlp(3, [8, 1])

            @tf.function
            def call(self, x):
                return self.mu(x)
        """ + _LOOP.format(model="Policy()"), tf="same", real=True,
      note="a Sequential that starts with an input is built when made: its weights exist before the trace "
           "(heldout31: two PPO policies)"),
    V("sublayer-a-sequential-without-an-input", """
        import tensorflow as tf

        class Policy(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.mu = tf.keras.Sequential([tf.keras.layers.Dense(8), tf.keras.layers.Dense(1)])

            @tf.function
            def call(self, x):
                return self.mu(x)
        """ + _LOOP.format(model="Policy()"), tf="raises", real=True,
      note="without an input the Sequential builds on its first call, inside the trace: no gradients"),
    V("init-calls-its-own-decorated-call-directly", """
        import numpy as np
        import tensorflow as tf

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.hidden = tf.keras.layers.Dense(8)
                self.out = tf.keras.layers.Dense(1)
                self.call(np.random.random((4, 3)).astype(np.float32))

            @tf.function
            def call(self, x):
                return self.out(self.hidden(x))
        """ + _LOOP.format(model="Net()"), tf="same", real=True,
      note="the direct self.call(sample) in __init__ makes the weights past Keras's __call__; training's "
           "model(x) then gets their gradients (heldout31: an A2C/PPO model)"),
    V("sublayer-built-in-its-holders-init", _CRITIC + """

        class Detector(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.head = Critic()
                self.head.build(input_shape=(None, 3))

            def call(self, x):
                return self.head(x)
        """ + _LOOP.format(model="Detector()"), tf="same", real=True,
      note="the model holding the head builds it before any call: its weights exist before the trace "
           "(heldout31: a Faster R-CNN's tail and backbone, judged keep)"),
    V("agent-acting-on-one-observation-reshaped", _CRITIC + """
        critic(tf.constant([0.1, 0.2, 0.3]).numpy().reshape(1, -1))
        """ + _LOOP.format(model="critic"), tf="unrolled", real=True,
      note="``o.reshape(1, -1)``: a first call on one observation; training's batches trace again and "
           "get their gradients (heldout31: a PPO actor-critic acting per environment step)"),
]
