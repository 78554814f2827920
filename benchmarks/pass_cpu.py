"""How much CPU does `check`'s per-file pass take, in one process, without the noise of workers?

    .venv/bin/python benchmarks/pass_cpu.py [PATH] [--rounds N]

PATH defaults to the installed TensorFlow's `python` package. Prints the per-file pass's CPU time
(parse, summaries, per-file rules), the best of the rounds. On a shared machine, CPU time of one
process moves less than `check_speed.py`'s wall-clock ratio: compare two versions interleaved
(`PYTHONPATH=<git archive COMMIT src>`), as decision 0046 did.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import time

from tfadvisor.check import analyze_files
from tfadvisor.config import Config
from tfadvisor.rules import selected
from tfadvisor.sources import discover


def default_path() -> str:
    spec = importlib.util.find_spec("tensorflow")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("TensorFlow is not installed: pass a PATH")
    return os.path.join(list(spec.submodule_search_locations)[0], "python")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default=None)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    config = Config()
    files = list(discover([args.path or default_path()], exclude=config.excludes()))
    codes = tuple(r.code for r in selected(config.select, config.ignore))
    best = float("inf")
    for _ in range(args.rounds):
        start = time.process_time()
        analyze_files(files, codes, jobs=1)
        best = min(best, time.process_time() - start)
    print(f"{len(files)} files: per-file pass {best:.2f} s of CPU (one process, best of {args.rounds})")


if __name__ == "__main__":
    main()
