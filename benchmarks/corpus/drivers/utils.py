"""Drivers for mlproj/utils.py."""

import tempfile

import tensorflow as tf

from corpus.index import driver

M = "mlproj/utils.py::"


@driver(M + "log_scalar", "leave-eager", ("TF202",))
def _log_scalar(mod, h):
    for step in range(50):
        h.call(mod.log_scalar, "loss", 1.0 / (step + 1), step)
    return {"log": mod.LOG}


@driver(M + "format_metrics", "leave-eager", ("TF502",))
def _format(mod, h):
    for i in range(20):
        h.call(mod.format_metrics, {"loss": 0.5 / (i + 1), "acc": 0.9})
    return {}


@driver(M + "save_weights", "leave-eager", ("TF504",))
def _save(mod, h):
    model = h.project("models").build_mlp(4, 8)
    with tempfile.TemporaryDirectory() as d:
        for step in (1, 2):
            h.call(mod.save_weights, model, d, step)
    return {}


@driver(M + "load_config", "leave-eager", ("TF502",))
def _load_config(mod, h):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write('{"lr": 0.01}')
    for _ in range(3):
        h.call(mod.load_config, f.name)
    return {}


@driver(M + "Timer.__init__", "leave-eager", ())
def _timer_init(mod, h):
    t = mod.Timer.__new__(mod.Timer)
    h.call(t.__init__)
    return {"elapsed": t.elapsed}


@driver(M + "Timer.__enter__", "leave-eager", ())
def _timer_enter(mod, h):
    t = mod.Timer()
    for _ in range(5):
        h.call(t.__enter__)
        t.__exit__(None, None, None)
    return {"positive": t.elapsed >= 0}


@driver(M + "Timer.__exit__", "leave-eager", ())
def _timer_exit(mod, h):
    t = mod.Timer()
    for _ in range(5):
        t.__enter__()
        h.call(t.__exit__, None, None, None)
    return {"positive": t.elapsed > 0}


@driver(M + "describe_config", "undecorate", ("TF502",))
def _describe(mod, h):
    for i in range(10):
        h.call(mod.describe_config, {"lr": 0.01 * i, "batch": 32})
    return {}


@driver(M + "set_debug_mode", "leave-eager", ("TF405",))
def _debug(mod, h):
    h.call(mod.set_debug_mode, True)
    h.call(mod.set_debug_mode, False)
    return {"eager": tf.config.functions_run_eagerly()}


@driver(M + "summarize_tensor", "leave-eager", ("TF502",))
def _summarize(mod, h):
    for i in range(1, 6):  # one line per layer of the model summary
        h.call(mod.summarize_tensor, f"layer{i}", tf.zeros([i, 3]))
    return {}
