"""A character-level RNN trained on synthetic text, stepping its cell in a Python loop.

The text is generated from a tiny vocabulary of words, so the model can learn to spell them.
The cell is applied one character at a time from Python, and the whole forward and backward
pass runs eagerly: hundreds of tiny ops per step, the case graph mode was made for.

Run: python examples/char_rnn.py
"""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np
import tensorflow as tf

WORDS = ["tensor", "graph", "eager", "trace", "python", "function", "gradient", "loop"]
ALPHABET = sorted(set(" ".join(WORDS)))
SEQ_LEN = 20
BATCH = 16
HIDDEN = 64
STEPS = 300
LEARNING_RATE = 0.5


def make_text(n_words: int, seed: int) -> str:
    rng = np.random.default_rng(seed)
    return " ".join(WORDS[i] for i in rng.integers(0, len(WORDS), size=n_words))


def encode(text: str) -> np.ndarray:
    index = {c: i for i, c in enumerate(ALPHABET)}
    return np.array([index[c] for c in text], dtype="int32")


class CharRNN(tf.Module):
    """A vanilla (Elman) RNN: one-hot input, tanh cell, linear read-out."""

    def __init__(self, vocab: int, hidden: int, seed: int = 0):
        super().__init__()
        init = tf.random.stateless_normal
        self.w_xh = tf.Variable(init((vocab, hidden), seed=[seed, 1]) * 0.1)
        self.w_hh = tf.Variable(init((hidden, hidden), seed=[seed, 2]) * 0.1)
        self.b_h = tf.Variable(tf.zeros([hidden]))
        self.w_out = tf.Variable(init((hidden, vocab), seed=[seed, 3]) * 0.1)
        self.b_out = tf.Variable(tf.zeros([vocab]))
        self.vocab = vocab
        self.hidden = hidden

    def cell(self, char_ids, h):
        """One time step: new hidden state from the current characters and the previous state."""
        x = tf.one_hot(char_ids, self.vocab)
        return tf.tanh(tf.matmul(x, self.w_xh) + tf.matmul(h, self.w_hh) + self.b_h)

    def __call__(self, char_ids):
        """Logits for the next character at every position, shape [batch, time, vocab]."""
        h = tf.zeros([tf.shape(char_ids)[0], self.hidden])
        outputs = []
        for t in range(char_ids.shape[1]):
            h = self.cell(char_ids[:, t], h)
            outputs.append(tf.matmul(h, self.w_out) + self.b_out)
        return tf.stack(outputs, axis=1)


def train_step(model, inputs, targets):
    with tf.GradientTape() as tape:
        logits = model(inputs)
        loss = tf.reduce_mean(
            tf.nn.sparse_softmax_cross_entropy_with_logits(labels=targets, logits=logits)
        )
    grads = tape.gradient(loss, model.trainable_variables)
    for var, grad in zip(model.trainable_variables, grads):
        var.assign_sub(LEARNING_RATE * grad)
    return loss


def batches(data: np.ndarray, seed: int):
    rng = np.random.default_rng(seed)
    while True:
        starts = rng.integers(0, len(data) - SEQ_LEN - 1, size=BATCH)
        chunk = np.stack([data[s : s + SEQ_LEN + 1] for s in starts])
        yield tf.constant(chunk[:, :-1]), tf.constant(chunk[:, 1:])


def generate(model, prefix: str, length: int) -> str:
    """Greedy decoding, one character at a time."""
    ids = encode(prefix)
    h = tf.zeros([1, model.hidden])
    for c in ids[:-1]:
        h = model.cell(tf.constant([c]), h)
    current = int(ids[-1])
    out = prefix
    for _ in range(length):
        h = model.cell(tf.constant([current]), h)
        current = int(tf.argmax(tf.matmul(h, model.w_out) + model.b_out, axis=1)[0])
        out += ALPHABET[current]
    return out


def main() -> None:
    data = encode(make_text(5_000, seed=0))
    model = CharRNN(len(ALPHABET), HIDDEN)
    stream = batches(data, seed=1)
    for step in range(1, STEPS + 1):
        inputs, targets = next(stream)
        loss = train_step(model, inputs, targets)
        if step % 100 == 0:
            print(f"step {step}: loss {float(loss):.4f}")
    print(f"result: final loss {float(loss):.4f}, sample {generate(model, 'tensor ', 30)!r}")


if __name__ == "__main__":
    main()
