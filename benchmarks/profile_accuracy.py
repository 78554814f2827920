"""How good are profile's predictions? Predicted time saved over N calls against the time saved
when the same N calls actually run, eagerly and decorated, each in a fresh process.

    .venv/bin/python benchmarks/profile_accuracy.py [--only NAME] [--repeat K]

For each function: ``tfadvisor.profile`` predicts ``saved_s`` for N calls (eager and graph modes);
then two fresh processes run the N calls (the given calls, cycled) eagerly and as a tf.function,
first call and tracing included, and the difference of their wall times is the actual saving.
Prints each prediction error relative to the actual saving (ill-conditioned when the saving is
near zero), relative to the eager run time of the N calls, whether the sign (decorate or not) was
right, and the medians (goal: under 20% of the actual saving). The "eager" and "graph" columns
are each mode's predicted total time for the N calls over its actual total (1.00: exact), which
shows which side a prediction error comes from. The "spread" column is the actual
saving's own range over the repeats, relative to its median: the noise floor of the ground truth
(with ``--repeat 1`` it is not known). Since the second session each function is profiled in
fresh workers (``Profiler(fresh_first_calls=True)``, the default): repeats no longer see the
first calls of a process that has already traced the function. Since the third session the calls
right after the first pass are timed one by one in those fresh workers (up to 500 calls or 0.5 s)
and count as measured; the ``_long`` cases have N beyond them, so the steady state carries most of
their prediction. Each repeat runs the prediction and then the two actual runs (their order
swapped every repeat), so the host's slow drifts hit prediction and ground truth alike.
The machine is shared and noisy: read the figures as one run's, not as constants.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import tensorflow as tf

HERE = Path(__file__).resolve()

# -- the functions ----------------------------------------------------------------------------


def small_ops(x):
    for _ in range(25):
        x = tf.sin(x) * 0.5 + tf.cos(x) * 0.5 + 0.01
    return x


def small_ops_calls():
    return [((tf.fill([16], float(i)),), {}) for i in range(4)]


W1 = tf.random.stateless_normal([64, 128], seed=[1, 1])
W2 = tf.random.stateless_normal([128, 64], seed=[1, 2])
W3 = tf.random.stateless_normal([64, 10], seed=[1, 3])


def mlp(x):
    h = tf.nn.relu(tf.matmul(x, W1))
    h = tf.nn.relu(tf.matmul(h, W2))
    return tf.nn.softmax(tf.matmul(h, W3))


def mlp_calls():
    return [((tf.random.stateless_normal([32, 64], seed=[2, i]),), {}) for i in range(4)]


def normalise(x):
    mean = tf.reduce_mean(x, axis=0)
    std = tf.math.reduce_std(x, axis=0) + 1e-6
    y = (x - mean) / std
    return tf.clip_by_value(y, -3.0, 3.0) * 2.0 + tf.reduce_max(y) - tf.reduce_min(y)


def normalise_calls():
    return [((tf.random.stateless_normal([256, 32], seed=[3, i]),), {}) for i in range(4)]


def python_loop(x):
    for i in range(10):
        x = tf.tanh(tf.matmul(x, W2[:64, :64]) + float(i))
    return x


def python_loop_calls():
    return [((tf.random.stateless_normal([8, 64], seed=[4, i]),), {}) for i in range(4)]


def loss(logits, labels):
    ce = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    return tf.reduce_mean(ce) + 1e-3 * tf.reduce_sum(tf.square(logits))


def loss_calls():
    return [((tf.random.stateless_normal([64, 10], seed=[5, i]), tf.range(64) % 10), {}) for i in range(4)]


K = tf.random.stateless_normal([3, 3, 3, 8], seed=[6, 1])


def conv(x):
    y = tf.nn.relu(tf.nn.conv2d(x, K, strides=1, padding="SAME"))
    return tf.reduce_mean(tf.nn.max_pool2d(y, 2, 2, "VALID"), axis=[1, 2])


def conv_calls():
    return [((tf.random.stateless_normal([4, 32, 32, 3], seed=[7, i]),), {}) for i in range(4)]


def big_matmul(a):
    return tf.matmul(a, a)


def big_matmul_calls():
    return [((tf.random.stateless_normal([512, 512], seed=[8, i]),), {}) for i in range(2)]


V = tf.Variable(tf.random.stateless_normal([64, 1], seed=[9, 1]))


def sgd_step(x, y):
    with tf.GradientTape() as tape:
        err = tf.reduce_mean(tf.square(tf.matmul(x, V) - y))
    V.assign_sub(0.01 * tape.gradient(err, V))
    return err


def sgd_step_calls():
    x = tf.random.stateless_normal([32, 64], seed=[10, 1])
    return [((x, tf.reduce_sum(x, axis=1, keepdims=True)), {}) for _ in range(4)]


def scaled(x, step):
    return x * tf.cast(step, tf.float32) + tf.sqrt(tf.abs(x))


def scaled_calls():
    x = tf.ones([16])
    return [((x, s), {}) for s in range(3)]  # three values cycled: three traces, then cached


# name, function, calls factory, N
CASES = [
    ("small_ops", "small_ops", "small_ops_calls", 400),
    ("mlp", "mlp", "mlp_calls", 400),
    ("normalise", "normalise", "normalise_calls", 400),
    ("python_loop", "python_loop", "python_loop_calls", 400),
    ("loss", "loss", "loss_calls", 400),
    ("conv", "conv", "conv_calls", 200),
    ("big_matmul", "big_matmul", "big_matmul_calls", 40),
    ("sgd_step", "sgd_step", "sgd_step_calls", 400),
    ("scaled_3_values", "scaled", "scaled_calls", 400),
    # beyond the calls profile times one by one (first pass + up to 500 early calls): the steady
    # state carries the rest of the prediction
    ("mlp_long", "mlp", "mlp_calls", 3000),
    ("normalise_long", "normalise", "normalise_calls", 3000),
    ("sgd_step_long", "sgd_step", "sgd_step_calls", 3000),
]


# -- ground truth: N calls in a fresh process ----------------------------------------------------


def actual_run(fn_name: str, calls_name: str, n: int, mode: str) -> float:
    fn = globals()[fn_name]
    calls = globals()[calls_name]()
    # the once-per-process costs of TensorFlow are paid by any real program before this function
    # runs (and paid by profile's worker before it measures): keep them out of both modes
    tf.function(lambda v: tf.reduce_sum(v * 2.0))(tf.constant([1.0, 2.0]))
    f = fn if mode == "eager" else tf.function(fn)
    start = time.perf_counter()
    for i in range(n):
        args, kwargs = calls[i % len(calls)]
        f(*args, **kwargs)
    return time.perf_counter() - start


def actual_seconds(fn_name: str, calls_name: str, n: int, mode: str) -> float:
    out = subprocess.run([sys.executable, str(HERE), "--actual", fn_name, calls_name, str(n), mode],
                         capture_output=True, text=True, check=True,
                         env={**__import__("os").environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    return float(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", help="run only these cases")
    parser.add_argument("--repeat", type=int, default=1,
                        help="predictions and fresh-process runs per function (medians)")
    parser.add_argument("--budget", type=float, default=2.0,
                        help="seconds of steady-state timing per function (all modes together)")
    parser.add_argument("--actual", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.actual:
        fn_name, calls_name, n, mode = args.actual
        print(actual_run(fn_name, calls_name, int(n), mode))
        return 0

    from tfadvisor.runtime.profile.profiling import Profiler, projected_s
    from tfadvisor.runtime.timing import TimingConfig

    cases = [c for c in CASES if not args.only or c[0] in args.only]
    errors: list[float] = []
    workload_errors: list[float] = []
    signs: list[bool] = []
    spreads: list[float] = []
    print(f"{'function':<16} {'N':>5} {'speed-up':>8} {'predicted':>11} {'actual':>11} {'spread':>7} {'error':>7} "
          f"{'of eager':>9} {'sign':>5} {'eager':>7} {'graph':>7}", flush=True)
    with Profiler(timing=TimingConfig(budget_s=args.budget, max_rounds=80)) as profiler:
        for name, fn_name, calls_name, n in cases:
            # Prediction and ground truth alternate, repeat by repeat, so that the machine's slow
            # drifts (shared host) hit both alike; the two actual runs swap order every repeat.
            predictions, speedups, totals = [], [], []
            savings, eager_totals, graph_totals = [], [], []
            for repeat in range(args.repeat):
                result = profiler.profile(f"{HERE}:{fn_name}", f"{HERE}:{calls_name}", modes=("eager", "graph"),
                                          expected_calls=n, static=None)
                m = result.measurement
                if not (result.ok and m.saved_s is not None and m.eager_s and m.graph_s):
                    break
                predictions.append(m.saved_s)
                speedups.append(m.eager_s / m.graph_s)
                totals.append((projected_s(result.runs["eager"], m.eager_s, n),
                               projected_s(result.runs["graph"], m.graph_s, n)))
                order = ("eager", "graph") if repeat % 2 == 0 else ("graph", "eager")
                actual_s = {mode: actual_seconds(fn_name, calls_name, n, mode) for mode in order}
                savings.append(actual_s["eager"] - actual_s["graph"])
                eager_totals.append(actual_s["eager"])
                graph_totals.append(actual_s["graph"])
            if len(predictions) < args.repeat:
                print(f"{name:<16} {n:>5}  not measured: {m.error}")
                continue
            predicted, actual = statistics.median(predictions), statistics.median(savings)
            error = abs(predicted - actual) / abs(actual) if actual else float("inf")
            of_eager = abs(predicted - actual) / statistics.median(eager_totals)
            errors.append(error)
            workload_errors.append(of_eager)
            signs.append((predicted > 0) == (actual > 0))
            spread = (max(savings) - min(savings)) / abs(actual) if actual else float("inf")
            spreads.append(spread)
            eager_ratio = statistics.median(t[0] for t in totals) / statistics.median(eager_totals)
            graph_ratio = statistics.median(t[1] for t in totals) / statistics.median(graph_totals)
            print(f"{name:<16} {n:>5} {statistics.median(speedups):>7.2f}x {predicted * 1e3:>9.1f}ms "
                  f"{actual * 1e3:>9.1f}ms {spread:>6.0%} {error:>6.0%} {of_eager:>9.0%} "
                  f"{'yes' if signs[-1] else 'NO':>5} {eager_ratio:>7.2f} {graph_ratio:>7.2f}", flush=True)
    if errors:
        print(f"median prediction error over {len(errors)} functions: {statistics.median(errors):.0%} of the "
              f"actual saving (goal < 20%); {statistics.median(workload_errors):.0%} of the eager run time; "
              f"sign (decorate or not) right for {sum(signs)} of {len(signs)}")
        if args.repeat > 1:
            print(f"the actual saving itself ranged over {statistics.median(spreads):.0%} of its median "
                  f"(median over functions, {args.repeat} fresh-process runs each): the ground truth's noise")
    return 0


if __name__ == "__main__":
    sys.exit(main())
