"""A GRU encoder-decoder with teacher forcing and greedy decoding (Keras subclasses, tf.range loops)."""

import tensorflow as tf

VOCAB = 500
UNITS = 64
MAX_LEN = 20
START, END = 1, 2


class Encoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(VOCAB, UNITS)
        self.gru = tf.keras.layers.GRU(UNITS, return_sequences=True, return_state=True)

    def call(self, tokens):
        x = self.embedding(tokens)
        output, state = self.gru(x)
        return output, state


class Decoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(VOCAB, UNITS)
        self.gru = tf.keras.layers.GRU(UNITS, return_sequences=True, return_state=True)
        self.attention = tf.keras.layers.Attention()
        self.out = tf.keras.layers.Dense(VOCAB)

    @tf.function
    def call(self, tokens, state, enc_output):
        x = self.embedding(tokens)
        output, state = self.gru(x, initial_state=state)
        context = self.attention([output, enc_output])
        logits = self.out(tf.concat([output, context], axis=-1))
        return logits, state


encoder = Encoder()
decoder = Decoder()
optimizer = tf.keras.optimizers.Adam()
loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def masked_loss(targets, logits):
    mask = tf.cast(targets != 0, tf.float32)
    loss = loss_fn(targets, logits) * mask
    return tf.reduce_sum(loss) / tf.reduce_sum(mask)


@tf.function
def train_step(source, target):
    with tf.GradientTape() as tape:
        enc_output, state = encoder(source)
        logits, _ = decoder(target[:, :-1], state, enc_output)
        loss = masked_loss(target[:, 1:], logits)
    variables = encoder.trainable_variables + decoder.trainable_variables
    grads = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(grads, variables))
    return loss


@tf.function
def greedy_decode(source):
    enc_output, state = encoder(source)
    batch = tf.shape(source)[0]
    token = tf.fill([batch, 1], START)
    result = []
    for t in tf.range(MAX_LEN):
        logits, state = decoder(token, state, enc_output)
        token = tf.argmax(logits, axis=-1, output_type=tf.int32)
        result.append(token)
        if tf.reduce_all(token == END):
            break
    return tf.concat(result, axis=1)


@tf.function
def beam_scores(logits, beam_width=4):
    scores, ids = tf.math.top_k(tf.nn.log_softmax(logits), k=beam_width)
    best = scores[:, 0]
    for i in range(beam_width):
        if tf.reduce_max(scores[:, i]) > tf.reduce_max(best):
            best = scores[:, i]
    return best, ids


def fit(pairs, epochs=1):
    for epoch in range(epochs):
        total = 0.0
        for step, (src, tgt) in enumerate(pairs):
            total += float(train_step(src, tgt))
        print("epoch", epoch, "loss", total / (step + 1))


if __name__ == "__main__":
    src = tf.random.uniform([8, 12], 3, VOCAB, dtype=tf.int32)
    tgt = tf.random.uniform([8, 14], 3, VOCAB, dtype=tf.int32)
    fit([(src, tgt)] * 4)
    print(greedy_decode(src))
