"""Steady-state timing with warm-up, calibrated rounds, median, IQR and outliers.

Modelled on pytest-benchmark: one-time costs (tracing) are measured apart by the caller; here a
callable is warmed up, the number of iterations per round is calibrated so that a round is long
enough for the clock, and rounds are summarised robustly (median and IQR, Tukey outliers).
The clock is injectable so the statistics are tested with a fake clock, not real time.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

Clock = Callable[[], float]


@dataclass(frozen=True)
class TimingConfig:
    """How long to measure. ``budget_s`` bounds the timed rounds of one mode (not the warm-up)."""

    min_round_s: float = 0.005  # a round this long makes clock resolution and overhead negligible
    budget_s: float = 1.0
    min_rounds: int = 5
    max_rounds: int = 40
    warmup_rounds: int = 1
    max_inner: int = 100_000


@dataclass
class Stats:
    """Summary of per-iteration times (seconds) over the timed rounds."""

    median: float
    q1: float
    q3: float
    mean: float
    rounds: int
    inner: int  # iterations per round
    outliers: int  # rounds outside the Tukey fences (1.5 IQR)
    samples: list[float] = field(default_factory=list, repr=False)

    @property
    def iqr(self) -> float:
        return self.q3 - self.q1


def summarize(samples: list[float], inner: int = 1) -> Stats:
    """Median, quartiles and Tukey outliers of per-iteration ``samples`` (one per round)."""
    if not samples:
        raise ValueError("no samples to summarise")
    ordered = sorted(samples)
    if len(ordered) == 1:
        q1 = q3 = ordered[0]
    else:
        q1, _, q3 = statistics.quantiles(ordered, n=4, method="inclusive")
    iqr = q3 - q1
    slack = 1e-6 * abs(statistics.median(ordered))  # float noise on equal rounds is not an outlier
    low, high = q1 - 1.5 * iqr - slack, q3 + 1.5 * iqr + slack
    outliers = sum(1 for s in ordered if s < low or s > high)
    return Stats(
        median=statistics.median(ordered),
        q1=q1,
        q3=q3,
        mean=statistics.fmean(ordered),
        rounds=len(ordered),
        inner=inner,
        outliers=outliers,
        samples=list(samples),
    )


def calibrate(single_s: float, config: TimingConfig) -> tuple[int, int]:
    """Iterations per round and number of rounds, from the time of one iteration."""
    single_s = max(single_s, 1e-9)
    inner = max(1, min(config.max_inner, math.ceil(config.min_round_s / single_s)))
    rounds = int(config.budget_s / (inner * single_s))
    return inner, max(config.min_rounds, min(config.max_rounds, rounds))


def measure(run: Callable[[], object], *, clock: Clock = time.perf_counter, config: TimingConfig | None = None) -> Stats:
    """Time ``run`` in steady state: calibrate, warm up, then timed rounds; returns per-call stats."""
    config = config or TimingConfig()
    start = clock()
    run()
    single = clock() - start
    inner, rounds = calibrate(single, config)
    for _ in range(config.warmup_rounds):
        for _ in range(inner):
            run()
    samples: list[float] = []
    for _ in range(rounds):
        start = clock()
        for _ in range(inner):
            run()
        samples.append((clock() - start) / inner)
    return summarize(samples, inner)


def measure_interleaved(
    runs: dict[str, Callable[[], object]],
    *,
    clock: Clock = time.perf_counter,
    config: TimingConfig | None = None,
) -> tuple[dict[str, Stats], dict[str, BaseException]]:
    """Time several callables in steady state, their rounds interleaved (a, b, c, b, c, a, ...).

    On a shared, noisy machine a burst of load then hits every mode alike, so their ratio stays
    meaningful. Each callable gets its own calibration (iterations per round) and the same number
    of rounds; ``config.budget_s`` bounds the total. A callable that raises is dropped and its
    exception returned in the second dict.
    """
    config = config or TimingConfig()
    errors: dict[str, BaseException] = {}
    inner: dict[str, int] = {}
    single: dict[str, float] = {}
    for name, run in runs.items():
        try:
            start = clock()
            run()
            single[name] = max(clock() - start, 1e-9)
        except Exception as exc:
            errors[name] = exc
            continue
        inner[name], _ = calibrate(single[name], config)
    live = [name for name in runs if name not in errors]
    per_round = sum(inner[n] * single[n] for n in live) or 1e-9
    rounds = max(config.min_rounds, min(config.max_rounds, int(config.budget_s / per_round)))
    samples: dict[str, list[float]] = {name: [] for name in live}
    schedule = [live[i:] + live[:i] for i in range(len(live))] or [[]]
    for r in range(config.warmup_rounds + rounds):
        for name in schedule[r % len(schedule)]:
            if name in errors:
                continue
            run = runs[name]
            try:
                start = clock()
                for _ in range(inner[name]):
                    run()
                elapsed = clock() - start
            except Exception as exc:
                errors[name] = exc
                continue
            if r >= config.warmup_rounds:
                samples[name].append(elapsed / inner[name])
    stats = {name: summarize(s, inner[name]) for name, s in samples.items() if name not in errors and s}
    return stats, errors
