"""Numerical kernels: where graph mode pays off, where it does not, and how it is configured."""

import tensorflow as tf


@tf.function
def scale_by(x, factor):
    y = x * factor
    y = tf.nn.softplus(y) - tf.nn.softplus(-y)
    y = y / (1.0 + tf.abs(y))
    y = tf.tanh(y) * factor + tf.sigmoid(y)
    return tf.reduce_sum(y, axis=-1) + tf.reduce_mean(y)


@tf.function
def embed_lookup(table, ids):
    vectors = tf.nn.embedding_lookup(table, ids)
    mask = tf.cast(ids > 0, tf.float32)[..., None]
    summed = tf.reduce_sum(vectors * mask, axis=1)
    count = tf.reduce_sum(mask, axis=1) + 1e-6
    return tf.nn.l2_normalize(summed / count, axis=-1)


def apply_each(xs):
    outs = []
    for x in xs:
        f = tf.function(lambda t: tf.nn.relu(t * 2.0 + 1.0) - 0.5)
        outs.append(f(x))
    return tf.stack(outs)


@tf.function
def summarize(values):
    t = tf.constant(values)
    return tf.reduce_mean(t), tf.math.reduce_std(t), tf.reduce_max(t)


@tf.function
def big_matmul(a, b):
    return tf.matmul(a, b)


def project_features(x, w):
    return tf.matmul(x, w)


@tf.function
def gelu_stack(x):
    for _ in range(30):
        x = 0.5 * x * (1.0 + tf.tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
        x = x * 1.01 + 0.01
    return x


@tf.function
def dense_block(x, w, b):
    return tf.nn.relu(tf.matmul(x, w) + b)


@tf.function
def encoder(x, params):
    for w, b in params:
        x = dense_block(x, w, b)
    return x


@tf.function
def add_one(x):
    return x + 1.0


def many_small_ops(x):
    for _ in range(25):
        x = tf.sin(x) * 0.9 + tf.cos(x) * 0.1
        x = x - tf.reduce_mean(x)
    return x


@tf.function
def rnn_unrolled(inputs, w_x, w_h):
    batch = tf.shape(inputs)[0]
    h = tf.zeros([batch, w_h.shape[0]])
    for t in range(inputs.shape[1]):
        h = tf.tanh(tf.matmul(inputs[:, t], w_x) + tf.matmul(h, w_h))
    return h


def rnn_while(inputs, w_x, w_h):
    batch = tf.shape(inputs)[0]
    h = tf.zeros([batch, w_h.shape[0]])
    for t in tf.range(tf.shape(inputs)[1]):
        h = tf.tanh(tf.matmul(inputs[:, t], w_x) + tf.matmul(h, w_h))
    return h


@tf.function
def cosine_schedule(step, total_steps, base_lr):
    progress = tf.cast(step, tf.float32) / tf.cast(total_steps, tf.float32)
    return base_lr * 0.5 * (1.0 + tf.cos(3.14159265 * tf.minimum(progress, 1.0)))


@tf.function(reduce_retracing=True)
def pairwise_distances(a, b):
    sq_a = tf.reduce_sum(tf.square(a), axis=-1, keepdims=True)
    sq_b = tf.reduce_sum(tf.square(b), axis=-1, keepdims=True)
    d = sq_a - 2.0 * tf.matmul(a, b, transpose_b=True) + tf.transpose(sq_b)
    return tf.sqrt(tf.maximum(d, 0.0))


@tf.function(input_signature=[tf.TensorSpec([None, 16], tf.float32)])
def softmax_entropy(logits):
    p = tf.nn.softmax(logits)
    logp = tf.nn.log_softmax(logits)
    return -tf.reduce_sum(p * logp, axis=-1)


def predict_batches(model, batches):
    predict = tf.function(model)
    return [predict(x) for x in batches]


@tf.function
def momentum_update(var, velocity, grad, lr=0.01, beta=0.9):
    velocity.assign(beta * velocity + grad)
    var.assign_sub(lr * velocity)
    return tf.norm(velocity)
