"""How fast is `check` against a bare `ast.parse` of the same files, measured in one run?

    .venv/bin/python benchmarks/check_speed.py [PATH] [--jobs N] [--rounds N]

PATH defaults to the installed TensorFlow package's Python sources (~1,800 files). Prints lines
per second, peak memory (check's process and its workers) and the ratio of check's wall
time to a single-process `ast.parse` of every file. Goal from issue #2: ratio at most 4.

The machine is shared: each round times `ast.parse` here and then `check` in a fresh process (as a
user's run starts, nothing warmed by an earlier round), and the ratio is taken from the fastest of
each over the rounds (the least disturbed, as ``timeit`` advises), with every round's own ratio
printed beside it.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import resource
import subprocess
import sys
import time
import warnings

from tfadvisor.sources import discover


def tensorflow_sources() -> str:
    import importlib.util

    spec = importlib.util.find_spec("tensorflow")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("TensorFlow is not installed: pass a PATH")
    return list(spec.submodule_search_locations)[0]


def bare_parse(files: list[str]) -> tuple[float, int]:
    lines = 0
    start = time.perf_counter()
    for path in files:
        try:
            with open(path, "rb") as handle:
                data = handle.read()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ast.parse(data)
            lines += data.count(b"\n")
        except (SyntaxError, ValueError):
            pass
    return time.perf_counter() - start, lines


_CHECK = """
import json, resource, sys, time
from tfadvisor.check import check_paths
start = time.perf_counter()
report = check_paths([sys.argv[1]], jobs=int(sys.argv[2]) or None)
took = time.perf_counter() - start
print(json.dumps([took, len(report.functions), len(report.findings),
                  resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]))
"""


def timed_check(root: str, jobs: int | None) -> tuple[float, tuple[int, int], float]:
    """``check_paths`` timed in a fresh process, as a user's run starts: nothing warmed by an earlier
    round (caches, forked workers inheriting them), no earlier report slowing the collector.
    Returns (seconds, (functions, findings), largest worker's peak MB)."""
    out = subprocess.run([sys.executable, "-c", _CHECK, root, str(jobs or 0)], check=True,
                         capture_output=True, text=True).stdout
    took, functions, findings, children = json.loads(out.strip().splitlines()[-1])
    return took, (functions, findings), children


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=3, help="parse-then-check rounds (default 3)")
    args = parser.parse_args()
    root = args.path or tensorflow_sources()
    files = [f for f in discover([root]) if f.endswith(".py")]
    parses, checks = [], []
    for _ in range(max(1, args.rounds)):
        parse_s, lines = bare_parse(files)
        check_s, counts, worker_mb = timed_check(root, args.jobs)
        parses.append(parse_s)
        checks.append(check_s)
    parse_s, check_s = min(parses), min(checks)
    check_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the check processes
    print(f"tree:        {root}")
    print(f"files:       {len(files)} ({lines:,} lines); {counts[0]:,} functions, {counts[1]:,} findings")
    print(f"ast.parse:   {parse_s:.2f} s (one process; fastest round)")
    print(f"check:       {check_s:.2f} s (fastest round) with {args.jobs or os.cpu_count()} worker(s): {lines / check_s:,.0f} lines/s")
    print(f"peak memory: {check_mb:.0f} MB check's main process, {worker_mb:.0f} MB largest worker")
    print(f"ratio check / ast.parse: {check_s / parse_s:.2f} (goal <= 4; fastest of {len(checks)} round(s) each)")
    if len(checks) > 1:
        print("per round:   " + ", ".join(f"{c / p:.2f}" for p, c in zip(parses, checks, strict=True)))


if __name__ == "__main__":
    main()
