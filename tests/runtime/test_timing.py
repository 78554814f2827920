"""Timing statistics with a fake clock: calibration, warm-up, median, IQR, outliers (no real time)."""

from __future__ import annotations

import pytest

from tfadvisor.runtime.timing import TimingConfig, calibrate, measure, measure_interleaved, summarize


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


def test_interleaved_rounds_share_the_noise_and_keep_the_ratio():
    """A burst of load in the middle slows whichever mode runs then; interleaving spreads it."""
    now = [0.0]
    order: list[str] = []

    def clock():
        return now[0]

    def runner(name, cost):
        def run():
            order.append(name)
            burst = 10.0 if 10 <= len(order) < 14 else 1.0
            now[0] += cost * burst

        return run

    config = TimingConfig(min_round_s=0.0, budget_s=1.0, min_rounds=10, max_rounds=10, warmup_rounds=1)
    stats, errors = measure_interleaved({"eager": runner("eager", 0.004), "graph": runner("graph", 0.001)},
                                        clock=clock, config=config)
    assert errors == {}
    assert stats["eager"].rounds == stats["graph"].rounds == 10
    assert stats["eager"].median / stats["graph"].median == pytest.approx(4.0)
    assert {"eager", "graph"} <= set(order[9:13])  # the burst hit both modes


def test_interleaved_drops_a_mode_that_raises():
    calls = {"n": 0}

    def flaky():
        calls["n"] += 1
        if calls["n"] > 3:
            raise RuntimeError("boom")

    clock = FakeClock([0.001])
    stats, errors = measure_interleaved({"ok": clock.run, "flaky": flaky}, clock=clock,
                                        config=TimingConfig(min_rounds=5, max_rounds=5, budget_s=0.01))
    assert set(stats) == {"ok"} and isinstance(errors["flaky"], RuntimeError)
