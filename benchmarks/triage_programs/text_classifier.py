"""A small Transformer text classifier: custom layers, masking, a tf.function train loop over a dataset."""

import tensorflow as tf

VOCAB = 2000
MAXLEN = 64
D_MODEL = 64


class PositionalEmbedding(tf.keras.layers.Layer):
    def __init__(self, vocab, length, dim):
        super().__init__()
        self.tokens = tf.keras.layers.Embedding(vocab, dim, mask_zero=True)
        self.positions = tf.keras.layers.Embedding(length, dim)

    def call(self, x):
        positions = tf.range(start=0, limit=tf.shape(x)[-1], delta=1)
        return self.tokens(x) + self.positions(positions)

    def compute_mask(self, x, mask=None):
        return self.tokens.compute_mask(x)


class TransformerBlock(tf.keras.layers.Layer):
    def __init__(self, dim, heads, ff_dim, rate=0.1):
        super().__init__()
        self.att = tf.keras.layers.MultiHeadAttention(num_heads=heads, key_dim=dim)
        self.ffn = tf.keras.Sequential([tf.keras.layers.Dense(ff_dim, activation="relu"),
                                        tf.keras.layers.Dense(dim)])
        self.norm1 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.norm2 = tf.keras.layers.LayerNormalization(epsilon=1e-6)
        self.drop1 = tf.keras.layers.Dropout(rate)
        self.drop2 = tf.keras.layers.Dropout(rate)

    def call(self, inputs, training=False):
        attn = self.att(inputs, inputs)
        out1 = self.norm1(inputs + self.drop1(attn, training=training))
        ffn = self.ffn(out1)
        return self.norm2(out1 + self.drop2(ffn, training=training))


def build_model(num_blocks=2):
    inputs = tf.keras.Input(shape=(MAXLEN,), dtype="int32")
    x = PositionalEmbedding(VOCAB, MAXLEN, D_MODEL)(inputs)
    for _ in range(num_blocks):
        x = TransformerBlock(D_MODEL, 2, 128)(x)
    x = tf.keras.layers.GlobalAveragePooling1D()(x)
    outputs = tf.keras.layers.Dense(2)(x)
    return tf.keras.Model(inputs, outputs)


model = build_model()
optimizer = tf.keras.optimizers.Adam(3e-4)
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
global_step = tf.Variable(0, dtype=tf.int64)


def warmup_lr(step, warmup=100.0):
    step = tf.cast(step, tf.float32)
    return 3e-4 * tf.minimum(1.0, step / warmup)


@tf.function
def train_step(tokens, labels):
    optimizer.learning_rate.assign(warmup_lr(global_step))
    with tf.GradientTape() as tape:
        logits = model(tokens, training=True)
        loss = loss_fn(labels, logits)
    grads = tape.gradient(loss, model.trainable_variables)
    grads, _ = tf.clip_by_global_norm(grads, 1.0)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    accuracy.update_state(labels, logits)
    global_step.assign_add(1)
    return loss


@tf.function
def train_epoch(dataset):
    total = tf.constant(0.0)
    count = tf.constant(0.0)
    for tokens, labels in dataset:
        total += train_step(tokens, labels)
        count += 1.0
    return total / count


@tf.function
def pad_batch(tokens):
    length = tf.shape(tokens)[1]
    if length < MAXLEN:
        tokens = tf.pad(tokens, [[0, 0], [0, MAXLEN - length]])
    else:
        tokens = tokens[:, :MAXLEN]
    return tokens


def make_dataset(n=256):
    tokens = tf.random.uniform([n, MAXLEN], 1, VOCAB, dtype=tf.int32)
    labels = tf.random.uniform([n], 0, 2, dtype=tf.int32)
    return tf.data.Dataset.from_tensor_slices((tokens, labels)).batch(32)


def main(epochs=2):
    ds = make_dataset()
    for epoch in range(epochs):
        loss = train_epoch(ds)
        tf.print("epoch", epoch, "loss", loss, "acc", accuracy.result())
        accuracy.reset_state()


if __name__ == "__main__":
    main()
