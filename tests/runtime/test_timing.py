"""Timing statistics with a fake clock: calibration, warm-up, median, IQR, outliers (no real time)."""

from __future__ import annotations

import pytest

from tfadvisor.runtime.timing import TimingConfig, calibrate, measure, summarize


class FakeClock:
    """A clock that only moves when the measured function 'runs' for a scripted duration."""

    def __init__(self, durations):
        self.now = 0.0
        self.durations = list(durations)
        self.calls = 0

    def __call__(self) -> float:
        return self.now

    def run(self) -> None:
        self.now += self.durations[min(self.calls, len(self.durations) - 1)]
        self.calls += 1


def test_summarize_median_quartiles_and_outliers():
    stats = summarize([1.0, 2.0, 3.0, 4.0, 100.0])
    assert stats.median == 3.0
    assert (stats.q1, stats.q3) == (2.0, 4.0)
    assert stats.iqr == 2.0
    assert stats.outliers == 1  # 100 is beyond q3 + 1.5 * IQR
    assert stats.rounds == 5


def test_summarize_single_sample_has_zero_spread():
    stats = summarize([0.5])
    assert stats.median == stats.q1 == stats.q3 == 0.5
    assert stats.outliers == 0


def test_summarize_rejects_empty():
    with pytest.raises(ValueError):
        summarize([])


def test_calibrate_makes_rounds_long_enough_and_bounded():
    config = TimingConfig(min_round_s=0.01, budget_s=1.0, min_rounds=5, max_rounds=40)
    assert calibrate(0.001, config) == (10, 40)  # 10 iterations of 1 ms per round; 100 rounds capped at 40
    assert calibrate(0.5, config) == (1, 5)  # slow function: one iteration, the minimum of rounds
    assert calibrate(0.0, config)[0] == config.max_inner or calibrate(0.0, config)[0] >= 1


def test_measure_excludes_the_first_call_and_warmup_from_the_samples():
    # first call (tracing) takes 1 s, every later call 1 ms: the median must be 1 ms, not polluted
    clock = FakeClock([1.0] + [0.001] * 10_000)
    config = TimingConfig(min_round_s=0.005, budget_s=0.1, min_rounds=3, max_rounds=50, warmup_rounds=1)
    stats = measure(clock.run, clock=clock, config=config)
    assert stats.median == pytest.approx(0.001)
    assert stats.iqr == pytest.approx(0.0)
    assert stats.inner == 1  # calibrated on the 1 s first call: one iteration per round
    assert stats.rounds == 3


def test_measure_counts_outlier_rounds():
    durations = [0.001] * 3 + [0.001] * 20
    durations[10] = 0.05  # one slow round (a GC pause, another process)
    clock = FakeClock(durations)
    config = TimingConfig(min_round_s=0.0005, budget_s=0.02, min_rounds=5, max_rounds=20, warmup_rounds=1)
    stats = measure(clock.run, clock=clock, config=config)
    assert stats.outliers == 1
    assert stats.median == pytest.approx(0.001)
    assert max(stats.samples) == pytest.approx(0.05)
