"""From per-mode runs to the schema's Measurement and a verdict (pure: hand-built runs, no TF)."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import numpy as np
import pytest

from tfadvisor.report import render
from tfadvisor.runtime.profile.profiling import _failed, assemble
from tfadvisor.runtime.profile.results import ModeError, ModeRun, Where
from tfadvisor.runtime.signature import Change, Retrace
from tfadvisor.runtime.timing import summarize

SCHEMA = json.loads((Path(__file__).parents[2] / "src/tfadvisor/schema/report.schema.json").read_text())
WHERE = Where("pkg/a.py", "step", 3, 9, decorated=False)


def run(mode, per_call, first, calls=4, traces=None, outputs=None, state=None, retraces=()):
    return ModeRun(mode=mode, call_times=[first] + [per_call] * (calls - 1), traces=traces,
                   traced_calls=[0] + [r.call for r in retraces], retraces=list(retraces),
                   stats=summarize([per_call * 0.9, per_call, per_call * 1.1]), calls=calls,
                   outputs=outputs if outputs is not None else [np.ones(2)] * calls, state=state or {}, phase="done")


def test_numbers_follow_the_documented_formulas():
    runs = {"eager": run("eager", 1e-3, 3e-3), "graph": run("graph", 1e-4, 0.05, traces=1)}
    r = assemble("f", WHERE, runs, ["eager", "graph"], expected_calls=1000, static=None)
    m = r.measurement
    assert m.calls == 1000 and m.traces == 1
    assert m.trace_s == pytest.approx(0.05 - 1e-4)
    assert m.break_even_calls == pytest.approx((0.05 - 3e-3) / (1e-3 - 1e-4))
    # N (e - g) - trace + eager's own first-call overhead (avoided by decorating)
    assert m.saved_s == pytest.approx(1000 * 9e-4 - (0.05 - 1e-4) + (3e-3 - 1e-3))
    assert m.saved_interval_s[0] < m.saved_s < m.saved_interval_s[1]
    assert m.equivalent is True and r.verdict.value == "decorate"
    assert r.findings == [] and r.ok
    jsonschema.validate(json.loads(render(r.report(), "json")), SCHEMA)


def test_each_trace_costs_what_its_own_call_cost():
    """A retrace is cheaper than the first trace (the function is converted already): the saving
    counts each traced call's own overhead, not the first one's times the number of traces."""
    retraces = [Retrace(i, (Change("step", "value", str(i), "0"),)) for i in (1, 2)]
    graph = run("graph", 1e-4, 0.05, calls=3, traces=3, retraces=retraces)
    graph.call_times = [0.05, 0.01, 0.01]
    runs = {"eager": run("eager", 1e-3, 1e-3, calls=3), "graph": graph}
    m = assemble("f", WHERE, runs, ["eager", "graph"], expected_calls=300, static=None).measurement
    assert m.traces == 3 and m.trace_s == pytest.approx(0.05 - 1e-4)  # the first call's overhead
    assert m.saved_s == pytest.approx(300 * 9e-4 - (0.05 + 0.01 + 0.01 - 3e-4))


def test_the_calls_timed_one_by_one_count_as_they_were_then_the_steady_state():
    """A fresh process is slower than its steady state for a few hundred calls (graph mode's
    caches warming): the calls after the first pass are timed one by one and counted as measured,
    so a short workload is not credited with the steady speed."""
    eager = run("eager", 1e-3, 1e-3)
    graph = run("graph", 1e-4, 0.05, traces=1)
    graph.early_times = [3e-4] * 100  # calls 4..103 ran at 3x the steady time
    runs = {"eager": eager, "graph": graph}
    short = assemble("f", WHERE, runs, ["eager", "graph"], expected_calls=54, static=None).measurement
    assert short.saved_s == pytest.approx(54e-3 - (0.05 + 3e-4 + 50 * 3e-4))
    long = assemble("f", WHERE, runs, ["eager", "graph"], expected_calls=1000, static=None).measurement
    assert long.saved_s == pytest.approx(1000e-3 - (0.05 + 3e-4 + 100 * 3e-4 + 896 * 1e-4))
    assert long.saved_interval_s[0] < long.saved_s < long.saved_interval_s[1]


def test_differences_and_retraces_are_carried_into_the_measurement():
    retrace = Retrace(1, (Change("step", "value", "1", "0"),))
    runs = {"eager": run("eager", 1e-3, 2e-3, calls=2, state={"global `log`": [1, 2]}),
            "graph": run("graph", 1e-4, 0.05, calls=2, traces=2, retraces=[retrace], state={"global `log`": [1]})}
    r = assemble("f", WHERE, runs, ["eager", "graph"], static=None)
    assert r.measurement.retraces == [retrace.describe()]
    assert r.measurement.differences == ["global `log`: 2 items eagerly, 1 under tf.function"]
    assert r.measurement.equivalent is False and r.reasons == ["TF603"]
    # two calls are not worth fixing (policy.MIN_CALLS_FIX_FIRST); the same difference over the
    # workload's expected calls is
    assert r.verdict.value == "leave-eager"
    assert assemble("f", WHERE, runs, ["eager", "graph"], static=None, expected_calls=100).verdict.value == "fix-first"
    assert r.findings[0].path == "pkg/a.py" and r.findings[0].function == "pkg/a.py::step"


def test_a_timeout_is_an_error_with_what_was_measured():
    graph = ModeRun(mode="graph", call_times=[0.05], traces=1, calls=1,
                    error=ModeError("timeout", "no result within the time limit of 2 s", phase="timing"))
    runs = {"eager": run("eager", 1e-3, 2e-3), "graph": graph}
    r = assemble("f", WHERE, runs, ["eager", "graph"], static=None)
    assert not r.ok and r.error_kind == "timeout"
    assert r.measurement.error.startswith("graph: timeout")
    assert r.measurement.modes[1].first_call_s == 0.05  # measured before the hang
    jsonschema.validate(json.loads(render(r.report(), "json")), SCHEMA)


def test_a_failed_target_still_renders_valid_json():
    r = _failed("nomod:f", "resolve", "cannot import module 'nomod'")
    data = json.loads(render(r.report(), "json"))
    jsonschema.validate(data, SCHEMA)
    assert data["functions"][0]["measurement"]["calls"] == 0
