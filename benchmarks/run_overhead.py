"""Observation overhead of `tfadvisor run`: observed-run time / plain-run time, per example.

Each run is a fresh interpreter. The plain run is `runpy.run_path` (as `python script.py`); the
observed run is `tfadvisor.runtime.run.session.run_program` (import hook, wrappers, sampling), stopped
before replay. Both time the program itself, TensorFlow import included, as a user would see it.
Runs alternate (plain, observed, plain, ...) and the fastest of each is kept, since the machine
is shared and noisy; CPU time (all threads of the process) is printed too, as a busy machine
inflates wall time but not the CPU the program itself uses. Prints one line per example; the goal
is a ratio of at most 1.10.

Usage: python benchmarks/run_overhead.py [--repeat N] [EXAMPLE.py ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

from as_installed import compile_tfadvisor

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")

_PLAIN = """
import json, runpy, sys, time
sys.argv = [sys.argv[1]]
sys.path.insert(0, __import__('os').path.dirname(sys.argv[0]))
start, cpu = time.perf_counter(), time.process_time()
runpy.run_path(sys.argv[0], run_name="__main__")
print("@@" + json.dumps({"wall_s": time.perf_counter() - start, "cpu_s": time.process_time() - cpu}))
"""

_OBSERVED = """
import json, sys
import time
from tfadvisor.runtime.run.session import run_program
cpu = time.process_time()
result, observer = run_program(sys.argv[1], [])
print("@@" + json.dumps({"wall_s": result.wall_s, "cpu_s": time.process_time() - cpu,
                         "functions": len(observer.observed())}))
"""


def _time(code: str, script: str) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code, script],
        capture_output=True,
        text=True,
        env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
        check=True,
    ).stdout
    line = next(line for line in out.splitlines() if line.startswith("@@"))
    return json.loads(line[2:])


def per_call_overhead(n: int = 200_000) -> tuple[float, float]:
    """Microseconds a wrapper adds to one call: a plain function, and one taking 5 arguments."""
    import time

    from tfadvisor.runtime.run.observe import Observer

    def tiny(a, b, c, d, e):
        return a

    observer = Observer()
    wrapped = observer.wrap(tiny)
    arrays = [__import__("numpy").zeros((32, 4), "float32") for _ in range(3)]
    args = (object(), 3, *arrays)
    best = []
    for fn in (tiny, wrapped):
        times = []
        for _ in range(5):
            start = time.process_time()  # CPU time: a busy shared machine inflates wall time
            for _ in range(n):
                fn(*args)
            times.append((time.process_time() - start) / n)
        best.append(min(times))
    return best[0] * 1e6, (best[1] - best[0]) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("examples", nargs="*")
    opts = parser.parse_args()
    compile_tfadvisor()  # timed as installed (as_installed.py)
    scripts = opts.examples or sorted(
        os.path.join(EXAMPLES, f) for f in os.listdir(EXAMPLES) if f.endswith(".py")
    )
    plain_us, extra_us = per_call_overhead()
    print(f"observation adds {extra_us:.2f} us of CPU per call (a plain call of 5 arguments: {plain_us:.2f} us)")
    print(f"{'example':24} {'plain s':>8} {'observed s':>11} {'ratio':>6} {'plain cpu s':>12} {'observed cpu s':>15} {'cpu ratio':>9}")
    for script in scripts:
        plain, observed = [], []
        for _ in range(opts.repeat):
            plain.append(_time(_PLAIN, script))
            observed.append(_time(_OBSERVED, script))
        p, o = min(x["wall_s"] for x in plain), min(x["wall_s"] for x in observed)
        pc, oc = min(x["cpu_s"] for x in plain), min(x["cpu_s"] for x in observed)
        print(f"{os.path.basename(script):24} {p:8.2f} {o:11.2f} {o / p:6.3f} {pc:12.2f} {oc:15.2f} {oc / pc:9.3f}",
              flush=True)


if __name__ == "__main__":
    main()
