"""How fast is `check` against a bare `ast.parse` of the same files, measured in one run?

    .venv/bin/python benchmarks/check_speed.py [PATH] [--jobs N] [--rounds N]

PATH defaults to the installed TensorFlow package's Python sources (~1,800 files). Prints lines
per second, peak memory (this process and the worker processes) and the ratio of check's wall
time to a single-process `ast.parse` of every file. Goal from issue #2: ratio at most 4.

The machine is shared: each round times `ast.parse` and then `check`, and the ratio is taken from
the fastest of each over the rounds (the least disturbed, as ``timeit`` advises), with every
round's own ratio printed beside it.
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import sys
import time
import warnings

from tfadvisor.check import check_paths
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
        start = time.perf_counter()
        report = check_paths([root], jobs=args.jobs)
        parses.append(parse_s)
        checks.append(time.perf_counter() - start)
    parse_s, check_s = min(parses), min(checks)
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"tree:        {root}")
    print(f"files:       {len(files)} ({lines:,} lines); {len(report.functions):,} functions, {len(report.findings):,} findings")
    print(f"ast.parse:   {parse_s:.2f} s (one process; fastest round)")
    print(f"check:       {check_s:.2f} s (fastest round) with {args.jobs or os.cpu_count()} worker(s): {lines / check_s:,.0f} lines/s")
    print(f"peak memory: {own:.0f} MB main process, {children:.0f} MB largest worker")
    print(f"ratio check / ast.parse: {check_s / parse_s:.2f} (goal <= 4; fastest of {len(checks)} round(s) each)")
    if len(checks) > 1:
        print("per round:   " + ", ".join(f"{c / p:.2f}" for p, c in zip(parses, checks, strict=True)))


if __name__ == "__main__":
    main()
