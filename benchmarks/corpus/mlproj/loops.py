"""The project's loops: where the steps and helpers are really called from."""

import tensorflow as tf

from mlproj import compute, hazards_state, hazards_tf4, losses, training


def warmup_phase(model, optimizer, batches):
    history = []
    for step, (x, y) in enumerate(batches):
        loss = training.train_step_warmup(model, optimizer, x, y, step)
        history.append(float(loss))
    return history


def anneal_scaling(scaler, x, epochs=4, per_epoch=15):
    outputs = []
    for _ in range(epochs):
        for _ in range(per_epoch):
            outputs.append(scaler.scale(x))
        scaler.factor *= 0.5
    return outputs


def predict_all(batches):
    return [hazards_tf4.Predictor().predict(x) for x in batches]


def sweep_factors(x, n=30):
    return [compute.scale_by(x, 0.5 + 0.01 * i) for i in range(n)]


def balanced_bce(batches):
    values = []
    for y, logits in batches:
        pos = float(tf.reduce_mean(y))
        values.append(losses.weighted_bce(y, logits, (1.0 - pos) / max(pos, 1e-3)))
    return values


def tune_threshold(scores, thresholds=(0.3, 0.5, 0.7, 0.9)):
    kept = []
    for t in thresholds:
        hazards_state.set_threshold(t)
        kept.append(hazards_state.apply_threshold(scores))
    return kept
