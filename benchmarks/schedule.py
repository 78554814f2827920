"""How evenly does `check` spread the per-file pass over its workers?

    .venv/bin/python benchmarks/schedule.py [PATH] [--jobs N] [--orders K]

Measures each file's pass in one process (CPU time, so the machine's load moves it little), then
replays the workers' schedule: runs of equal file counts in path order (before decision 0048)
against `check._chunk`'s runs of equal bytes, heaviest first. Prints each schedule's makespan (the
per-file pass's wall time with that many workers and no other overhead) next to the ideal (total
CPU / workers), for the path order and the worst of K shuffled orders. PATH defaults to the
installed TensorFlow package.
"""

from __future__ import annotations

import argparse
import gc
import heapq
import importlib.util
import random
import time
from collections.abc import Iterable, Sequence

from tfadvisor import check
from tfadvisor.config import Config
from tfadvisor.rules import selected
from tfadvisor.sources import discover


def makespan(chunks: Sequence[Sequence[str]], order: Iterable[int], cost: dict[str, float], jobs: int) -> float:
    """When the last worker finishes, each taking the next chunk of ``order`` as it comes free."""
    free = [0.0] * jobs
    for index in order:
        heapq.heappush(free, heapq.heappop(free) + sum(cost[p] for p in chunks[index]))
    return max(free)


def by_count(paths: Sequence[str], jobs: int) -> list[list[str]]:
    """The runs `check` made before: as many files each, in path order."""
    size = max(4, min(64, len(paths) // (jobs * 8) or 1))
    return [list(paths[i:i + size]) for i in range(0, len(paths), size)]


def both(paths: Sequence[str], cost: dict[str, float], jobs: int) -> tuple[float, float]:
    old = by_count(paths, jobs)
    new, weights = check._chunk(paths, jobs)
    return (makespan(old, range(len(old)), cost, jobs),
            makespan(new, sorted(range(len(new)), key=lambda i: -weights[i]), cost, jobs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--orders", type=int, default=20)
    args = parser.parse_args()
    spec = importlib.util.find_spec("tensorflow")
    path = args.path or list(spec.submodule_search_locations)[0]  # type: ignore[union-attr]
    config = Config()
    files = list(discover([path], exclude=config.excludes()))
    codes = tuple(r.code for r in selected(config.select, config.ignore))
    names = check.module_names(files)
    cost: dict[str, float] = {}
    gc.disable()
    for file in files:
        start = time.process_time()
        check.analyze_file(file, codes, names.get(file))
        cost[file] = time.process_time() - start
    gc.enable()
    ideal = sum(cost.values()) / args.jobs
    old, new = both(files, cost, args.jobs)
    print(f"files: {len(files)}; per-file CPU {sum(cost.values()):.2f} s; ideal with {args.jobs} workers {ideal:.2f} s")
    print(f"path order:   by count {old:.2f} s, by bytes heaviest first {new:.2f} s")
    rng, worst = random.Random(20261207), [0.0, 0.0]
    for _ in range(args.orders):
        rng.shuffle(files)
        worst = [max(w, m) for w, m in zip(worst, both(files, cost, args.jobs), strict=True)]
    print(f"worst of {args.orders} shuffled orders: by count {worst[0]:.2f} s, by bytes heaviest first {worst[1]:.2f} s")


if __name__ == "__main__":
    main()
