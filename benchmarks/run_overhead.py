"""Observation overhead of `tfadvisor run`: observed-run time / plain-run time, per example.

Each run is a fresh interpreter. The plain run is `runpy.run_path` (as `python script.py`); the
observed run is `tfadvisor.runtime.session.run_program` (import hook, wrappers, sampling), stopped
before replay. Both time the program itself, TensorFlow import included, as a user would see it.
Runs alternate (plain, observed, plain, ...) and the fastest of each is kept, since the machine
is shared and noisy. Prints one line per example; the goal is a ratio of at most 1.10.

Usage: python benchmarks/run_overhead.py [--repeat N] [EXAMPLE.py ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLES = os.path.join(os.path.dirname(HERE), "examples")

_PLAIN = """
import json, runpy, sys, time
sys.argv = [sys.argv[1]]
sys.path.insert(0, __import__('os').path.dirname(sys.argv[0]))
start = time.perf_counter()
runpy.run_path(sys.argv[0], run_name="__main__")
print("@@" + json.dumps({"wall_s": time.perf_counter() - start}))
"""

_OBSERVED = """
import json, sys
from tfadvisor.runtime.session import run_program
result, observer = run_program(sys.argv[1], [])
print("@@" + json.dumps({"wall_s": result.wall_s, "functions": len(observer.observed())}))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("examples", nargs="*")
    opts = parser.parse_args()
    scripts = opts.examples or sorted(
        os.path.join(EXAMPLES, f) for f in os.listdir(EXAMPLES) if f.endswith(".py")
    )
    print(f"{'example':24} {'plain s':>8} {'observed s':>11} {'ratio':>6}")
    for script in scripts:
        plain, observed = [], []
        for _ in range(opts.repeat):
            plain.append(_time(_PLAIN, script)["wall_s"])
            observed.append(_time(_OBSERVED, script)["wall_s"])
        p, o = min(plain), min(observed)
        print(f"{os.path.basename(script):24} {p:8.2f} {o:11.2f} {o / p:6.3f}", flush=True)


if __name__ == "__main__":
    main()
