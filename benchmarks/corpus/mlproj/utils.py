"""Logging, checkpoint and config helpers."""

import json
import os
import time

import tensorflow as tf

LOG = []


def log_scalar(name, value, step):
    LOG.append({"name": name, "value": float(value), "step": int(step)})


def format_metrics(metrics):
    return " - ".join(f"{k}: {float(v):.4f}" for k, v in sorted(metrics.items()))


def save_weights(model, directory, step):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, f"ckpt-{step}.weights.h5")
    model.save_weights(path)
    return path


def load_config(path):
    with open(path) as f:
        cfg = json.load(f)
    cfg.setdefault("batch_size", 32)
    return cfg


class Timer:
    def __init__(self):
        self.elapsed = 0.0

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.elapsed += time.perf_counter() - self.start
        return False


@tf.function
def describe_config(cfg):
    parts = [f"{k}={v}" for k, v in sorted(cfg.items())]
    return ", ".join(parts)


def set_debug_mode(enabled):
    tf.config.run_functions_eagerly(enabled)
    return enabled


def summarize_tensor(name, t):
    return f"{name}: shape={t.shape.as_list()} dtype={t.dtype.name}"
