"""Drivers for mlproj/models.py."""

from corpus.drivers._data import batches, floats, weights
from corpus.index import driver

M = "mlproj/models.py::"


@driver(M + "build_mlp", "leave-eager", ("TF504",))
def _build_mlp(mod, h):
    shapes = []
    for hidden in (32, 64):
        model = h.call(mod.build_mlp, 20, hidden)
        shapes.append([tuple(w.shape) for w in model.weights])
    return {"shapes": shapes}


@driver(M + "build_cnn", "leave-eager", ("TF504",))
def _build_cnn(mod, h):
    model = h.call(mod.build_cnn, (16, 16, 3), 10)
    return {"n_weights": len(model.weights)}


@driver(M + "make_optimizer", "leave-eager", ("TF504",))
def _make_optimizer(mod, h):
    names = [type(h.call(mod.make_optimizer, name, 0.01)).__name__ for name in ("adam", "sgd")]
    return {"names": names}


@driver(M + "count_params", "leave-eager", ("TF502",))
def _count_params(mod, h):
    model = mod.build_mlp(20, 32)
    return {"n": h.call(mod.count_params, model)}


@driver(M + "Classifier.__init__", "leave-eager", ("TF504",))
def _classifier_init(mod, h):
    models = []
    for hidden in (16, 32):
        m = mod.Classifier.__new__(mod.Classifier)
        h.call(m.__init__, hidden)
        models.append(m)
    return {"hidden": [m.hidden.units for m in models]}


@driver(M + "Classifier.call", "leave-eager", ("TF406",), note="custom training loop over a subclassed model")
def _classifier_call(mod, h):
    import tensorflow as tf

    model = mod.Classifier(32)
    opt = h.project("models").make_optimizer("sgd", 0.05)
    for x, y in batches(30, seed=1):
        with tf.GradientTape() as tape:
            logits = h.call(model, x, training=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
    return {"weights": weights(model)}


@driver(M + "Classifier.predict_proba", "decorate", ("TF501",))
def _predict_proba(mod, h):
    model = mod.Classifier(32)
    x = floats((64, 20), seed=2)
    model(x)
    for i in range(150):
        h.call(model.predict_proba, x + 0.01 * i)
    return {}


@driver(M + "build_embedding_model", "leave-eager", ("TF504",))
def _build_embedding(mod, h):
    m = h.call(mod.build_embedding_model, 100, 8)
    return {"n": len(m.weights)}
