"""Drivers for mlproj/training.py: custom training loops with realistic step counts."""

from corpus.drivers._data import batches, weights
from corpus.index import driver

M = "mlproj/training.py::"


def _setup(h, hidden=32, opt="sgd"):
    models = h.project("models")
    return models.build_mlp(20, hidden), models.make_optimizer(opt, 0.05)


@driver(M + "train_step", "decorate", ("TF501",))
def _train_step(mod, h):
    model, opt = _setup(h)
    for x, y in batches(60):
        h.call(mod.train_step, model, opt, x, y)
    return {"weights": weights(model)}


@driver(M + "eval_step", "decorate", ("TF501",))
def _eval_step(mod, h):
    model, _ = _setup(h)
    for x, y in batches(100, seed=3):
        h.call(mod.eval_step, model, x, y)
    return {}


@driver(M + "train_step_l2", "decorate", ("TF501",))
def _train_step_l2(mod, h):
    model, opt = _setup(h)
    for x, y in batches(60, seed=4):
        h.call(mod.train_step_l2, model, opt, x, y, 1e-4)
    return {"weights": weights(model)}


@driver(M + "distill_step", "decorate", ("TF501",))
def _distill(mod, h):
    models = h.project("models")
    teacher, student = models.build_mlp(20, 64), models.build_mlp(20, 16)
    opt = models.make_optimizer("sgd", 0.05)
    for x, _ in batches(60, seed=5):
        h.call(mod.distill_step, teacher, student, opt, x, 2.0)
    return {"weights": weights(student)}


@driver(M + "train_step_compiled", "keep", ("TF501",))
def _train_step_compiled(mod, h):
    model, opt = _setup(h)
    for x, y in batches(60, seed=6):
        h.call(mod.train_step_compiled, model, opt, x, y)
    return {"weights": weights(model)}


@driver(M + "train_step_warmup", "undecorate", ("TF101", "TF503"), note="step is a Python int: one trace per step")
def _train_step_warmup(mod, h):
    model, opt = _setup(h)
    for step, (x, y) in enumerate(batches(20, seed=7)):
        h.call(mod.train_step_warmup, model, opt, x, y, step)
    return {"weights": weights(model)}


@driver(M + "Trainer.__init__", "leave-eager", ("TF504",))
def _trainer_init(mod, h):
    model, opt = _setup(h)
    t = mod.Trainer.__new__(mod.Trainer)
    h.call(t.__init__, model, opt)
    return {"steps": t.steps}


@driver(M + "Trainer.train_step", "fix-first", ("TF202",))
def _trainer_step(mod, h):
    model, opt = _setup(h)
    trainer = mod.Trainer(model, opt)
    for x, y in batches(40, seed=8):
        h.call(trainer.train_step, x, y)
    return {"steps": trainer.steps, "weights": weights(model)}


@driver(M + "Trainer.record", "fix-first", ("TF206",), note="a logging helper that takes the loss tensor")
def _trainer_record(mod, h):
    import tensorflow as tf

    model, opt = _setup(h)
    trainer = mod.Trainer(model, opt)
    for i in range(40):
        h.call(trainer.record, tf.constant(1.0 / (i + 1)))
    return {"history": trainer.history}


@driver(M + "Trainer.fit", "leave-eager", ("TF201", "TF202"))
def _trainer_fit(mod, h):
    import tensorflow as tf

    model, opt = _setup(h)
    trainer = mod.Trainer(model, opt)
    xs = tf.concat([x for x, _ in batches(10, seed=9)], 0)
    ys = tf.concat([y for _, y in batches(10, seed=9)], 0)
    ds = tf.data.Dataset.from_tensor_slices((xs, ys)).batch(32)
    h.call(trainer.fit, ds, 2)
    return {"steps": trainer.steps, "history": trainer.history, "weights": weights(model)}
