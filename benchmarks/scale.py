"""`check` at scale: a synthetic TensorFlow project of 20,000 files / 2 million lines.

    .venv/bin/python benchmarks/scale.py [--files 20000] [--lines 2000000] [--jobs N] [--seed 0] [--keep DIR]

Generates (seeded) a tree of packages of realistic TF-like modules (Keras models and layers,
tf.function train steps, data pipelines, losses, utilities with NumPy and I/O, hazards such as
print and Python side effects in graph code, and imports between modules so that the project
pass has a real call graph), then runs ``tfadvisor check TREE -f json -o REPORT`` as a user would,
in a child process, and prints:

- wall time and lines per second,
- peak memory of the main process and of the largest worker (``getrusage`` in the child: RUSAGE_SELF
  and RUSAGE_CHILDREN) and an upper bound on the total (main + jobs x largest worker),
- the same split for the per-file pass (``analyze_files``) and the project and decision passes
  (``build_report``) from a second, library-level run, with the size of the JSON report.

Goal from issue #9: memory under 2 GB. The machine is shared: figures are for one run, not limits.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

GOAL_MB = 2048

HEADER = '''"""{doc}"""

from __future__ import annotations

import os
import numpy as np
import tensorflow as tf
from tensorflow import keras
{imports}
'''

LAYER = '''

class {name}(keras.layers.Layer):
    """A dense block with a residual connection."""

    def __init__(self, units={units}, rate={rate}, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.rate = rate
        self.dense = keras.layers.Dense(units, activation="relu")
        self.norm = keras.layers.LayerNormalization()
        self.dropout = keras.layers.Dropout(rate)

    def build(self, input_shape):
        self.scale = self.add_weight(name="scale", shape=(input_shape[-1],), initializer="ones")
        super().build(input_shape)

    def call(self, x, training=False):
        y = self.dense(x)
        y = self.dropout(y, training=training)
        if y.shape[-1] == x.shape[-1]:
            y = y + x * self.scale
        return self.norm(y)
'''

MODEL = '''

class {name}(keras.Model):
    """A small classifier."""

    def __init__(self, classes={classes}):
        super().__init__()
        self.blocks = [keras.layers.Dense({units}, activation="relu") for _ in range({depth})]
        self.head = keras.layers.Dense(classes)

    def call(self, x, training=False):
        for block in self.blocks:
            x = block(x)
        return self.head(x)
'''

TRAIN_STEP = '''

@tf.function{options}
def {name}(model, optimizer, x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    {hazard}
    return loss
'''

COMPUTE = '''

def {name}(x, w, b):
    """{ops} small ops: a candidate for @tf.function."""
    y = tf.matmul(x, w) + b
    for _ in range({ops}):
        y = tf.nn.relu(y) * 0.5 + tf.tanh(y)
    z = tf.reduce_sum(y, axis=-1, keepdims=True)
    return y / (z + 1e-6)
'''

LOSS = '''

def {name}(y_true, y_pred, weight={weight}):
    diff = tf.cast(y_true, tf.float32) - y_pred
    loss = tf.reduce_mean(tf.square(diff)) * weight
    if {callee} is not None:
        loss += 0.01 * {callee}(y_pred)
    return loss
'''

PIPELINE = '''

def {name}(paths, batch_size={batch}):
    """Builds a tf.data pipeline (a builder: stays eager)."""
    ds = tf.data.Dataset.from_tensor_slices(paths)
    ds = ds.map(lambda p: tf.io.decode_png(tf.io.read_file(p)), num_parallel_calls=tf.data.AUTOTUNE)
    ds = ds.shuffle({shuffle}).batch(batch_size)
    return ds.prefetch(tf.data.AUTOTUNE)
'''

UTIL = '''

def {name}(values, path="{path}"):
    """Python-side bookkeeping with I/O."""
    arr = np.asarray(values)
    total = float(arr.sum())
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "a") as handle:
        handle.write(f"{{total}}\\n")
    return total
'''

LOOP = '''

def {name}(model, optimizer, dataset, epochs={epochs}):
    history = []
    for epoch in range(epochs):
        for x, y in dataset:
            loss = {step}(model, optimizer, x, y)
            history.append(float(loss))
        print("epoch", epoch, np.mean(history))
    return history
'''

HAZARDS = ("pass", "print('loss', loss)", "tf.print('loss', loss)", "STEPS.append(1)")


def module_text(rng: random.Random, index: int, siblings: list[str], target_lines: int) -> str:
    """One module of about ``target_lines`` lines."""
    imports = []
    callee = "None"
    if siblings and rng.random() < 0.7:
        other = rng.choice(siblings)
        imports.append(f"from .{other} import loss_{other}_0 as helper_loss")
        callee = "helper_loss"
    parts = [HEADER.format(doc=f"Synthetic module {index}.", imports="\n".join(imports)), "\nSTEPS = []\n"]
    me = f"m{index}"
    step_names: list[str] = []
    counter = 0
    while sum(p.count("\n") for p in parts) < target_lines:
        kind = rng.choice(("layer", "model", "train", "compute", "compute", "loss", "pipeline", "util", "loop"))
        counter += 1
        if kind == "layer":
            parts.append(LAYER.format(name=f"Block{index}_{counter}", units=rng.choice((32, 64, 128)), rate=rng.choice((0.0, 0.1))))
        elif kind == "model":
            parts.append(MODEL.format(name=f"Net{index}_{counter}", classes=rng.randint(2, 100), units=rng.choice((64, 256)), depth=rng.randint(1, 4)))
        elif kind == "train":
            name = f"train_step_{counter}"
            step_names.append(name)
            options = rng.choice(("", "", "(jit_compile=True)", "(reduce_retracing=True)"))
            parts.append(TRAIN_STEP.format(name=name, options=options, hazard=rng.choice(HAZARDS)))
        elif kind == "compute":
            parts.append(COMPUTE.format(name=f"compute_{counter}", ops=rng.randint(2, 40)))
        elif kind == "loss":
            parts.append(LOSS.format(name=f"loss_{me}_{0 if 'loss_' + me + '_0' not in ''.join(parts) else counter}",
                                     weight=rng.choice((0.5, 1.0, 2.0)), callee=callee))
        elif kind == "pipeline":
            parts.append(PIPELINE.format(name=f"make_dataset_{counter}", batch=rng.choice((16, 32, 64)), shuffle=rng.choice((100, 1000))))
        elif kind == "util":
            parts.append(UTIL.format(name=f"log_{counter}", path=f"logs/run_{index}.txt"))
        elif kind == "loop" and step_names:
            parts.append(LOOP.format(name=f"fit_{counter}", epochs=rng.randint(1, 10), step=rng.choice(step_names)))
    if f"def loss_{me}_0(" not in "".join(parts):  # what siblings import must exist
        parts.append(LOSS.format(name=f"loss_{me}_0", weight=1.0, callee="None"))
    return "".join(parts)


def generate(root: str, files: int, lines: int, seed: int) -> tuple[int, int]:
    """Write the tree; returns (files written, lines written)."""
    rng = random.Random(seed)
    per_package = 50
    per_file = max(20, lines // files)
    written = total = 0
    for pkg in range((files + per_package - 1) // per_package):
        folder = os.path.join(root, f"group{pkg // 20}", f"pkg{pkg}")
        os.makedirs(folder, exist_ok=True)
        for parent in (os.path.dirname(folder), folder):
            init = os.path.join(parent, "__init__.py")
            if not os.path.exists(init):
                with open(init, "w") as handle:
                    handle.write('"""Package."""\n')
        names = [f"m{pkg * per_package + i}" for i in range(min(per_package, files - written))]
        for i, name in enumerate(names):
            text = module_text(rng, pkg * per_package + i, names[:i], rng.randint(per_file // 2, per_file * 3 // 2))
            with open(os.path.join(folder, name + ".py"), "w") as handle:
                handle.write(text)
            written += 1
            total += text.count("\n")
    return written, total


CLI_CHILD = r"""
import json, resource, subprocess, sys, time
start = time.monotonic()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.monotonic() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"rc": proc.returncode, "wall_s": wall, "max_rss_mb": usage.ru_maxrss / 1024,
                  "cpu_s": usage.ru_utime + usage.ru_stime, "stderr": proc.stderr.decode()[-2000:]}))
"""

LIBRARY_CHILD = r"""
import json, os, resource, sys, time
from tfadvisor.check import analyze_files, build_report
from tfadvisor.config import Config
from tfadvisor.rules import selected
from tfadvisor.sources import discover
root, jobs = sys.argv[1], int(sys.argv[2])
config = Config()
rules = selected(config.select, config.ignore)
start = time.monotonic()
files = list(discover([root], exclude=config.excludes()))
results = analyze_files(files, tuple(r.code for r in rules), jobs=jobs)
per_file_s = time.monotonic() - start
after_per_file_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
start = time.monotonic()
report = build_report([s for _, s in results], [f for f, _ in results], rules, config)
project_s = time.monotonic() - start
del results
start = time.monotonic()
text = json.dumps(report.to_dict())
json_s = time.monotonic() - start
print(json.dumps({
    "files": len(report.files), "errors": sum(f.status == "error" for f in report.files),
    "functions": len(report.functions), "findings": len(report.findings),
    "per_file_s": per_file_s, "project_s": project_s, "json_s": json_s, "json_mb": len(text) / 1e6,
    "main_after_per_file_mb": after_per_file_mb,
    "main_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "worker_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--lines", type=int, default=2_000_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", help="generate into (and keep) this folder instead of a temporary one")
    parser.add_argument("--skip-library", action="store_true", help="only the CLI run")
    args = parser.parse_args()

    root = args.keep or tempfile.mkdtemp(prefix="tfa-scale-")
    try:
        start = time.monotonic()
        files, lines = generate(root, args.files, args.lines, args.seed)
        print(f"tree:    {files:,} modules, {lines:,} lines (+ __init__.py files) in {root}, "
              f"generated in {time.monotonic() - start:.0f} s (seed {args.seed})", flush=True)

        tfadvisor = os.path.join(os.path.dirname(sys.executable), "tfadvisor")
        out = os.path.join(root, "..", f"{os.path.basename(root)}-report.json")
        cli = json.loads(subprocess.run(
            [sys.executable, "-c", CLI_CHILD, tfadvisor, "check", root, "-f", "json", "-o", out, "-q",
             "--fail-on", "never", "-j", str(args.jobs)],
            capture_output=True, text=True, check=True).stdout)
        size = os.path.getsize(out) / 1e6 if os.path.exists(out) else float("nan")
        if os.path.exists(out):
            os.unlink(out)
        print(f"cli:     tfadvisor check -j {args.jobs}: exit {cli['rc']}, {cli['wall_s']:.1f} s wall, "
              f"{cli['cpu_s']:.1f} s CPU, {lines / cli['wall_s']:,.0f} lines/s; largest process "
              f"{cli['max_rss_mb']:.0f} MB; JSON report {size:.1f} MB", flush=True)
        if cli["rc"] not in (0, 1):
            print(cli["stderr"])

        if not args.skip_library:
            lib = json.loads(subprocess.run([sys.executable, "-c", LIBRARY_CHILD, root, str(args.jobs)],
                                            capture_output=True, text=True, check=True).stdout)
            bound = lib["main_peak_mb"] + args.jobs * lib["worker_peak_mb"]
            print(f"library: {lib['files']:,} files ({lib['errors']} errors), {lib['functions']:,} functions, "
                  f"{lib['findings']:,} findings")
            print(f"         per-file pass {lib['per_file_s']:.1f} s, project+decision passes {lib['project_s']:.1f} s, "
                  f"JSON {lib['json_s']:.1f} s ({lib['json_mb']:.1f} MB)")
            print(f"memory:  main {lib['main_after_per_file_mb']:.0f} MB after the per-file pass, "
                  f"{lib['main_peak_mb']:.0f} MB peak; largest worker {lib['worker_peak_mb']:.0f} MB; "
                  f"total at most {bound:.0f} MB (main + {args.jobs} x worker): "
                  f"{'under' if bound < GOAL_MB else 'OVER'} the {GOAL_MB} MB goal")
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
