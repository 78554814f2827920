"""Replay and projection on a real TensorFlow program (one observed run shared by the module)."""

from __future__ import annotations

import os
import sys

import pytest

pytest.importorskip("tensorflow")

from tfadvisor.model import Verdict  # noqa: E402
from tfadvisor.runtime.run.replay import replay  # noqa: E402
from tfadvisor.runtime.run.analysis import RunAnalysis  # noqa: E402
from tfadvisor.runtime.run.session import run_program  # noqa: E402

PROJ = os.path.join(os.path.dirname(__file__), "fixtures", "proj")


@pytest.fixture(scope="module")
def analysis():
    try:
        result, observer = run_program(os.path.join(PROJ, "tf_program.py"), [])
        analysis = RunAnalysis(result, observer, None, budget_s=60)
        analysis.analyse()
        yield analysis
    finally:
        for name in [m for m in sys.modules if m == "runpkg" or m.startswith("runpkg.")]:
            del sys.modules[name]


def _by_name(analysis):
    return {p.stats.qualname: p for p in analysis.projections}


def test_decorated_functions_are_observed_from_outside(analysis):
    p = _by_name(analysis)
    assert p["power"].stats.decorated and p["power"].stats.traces == 4  # one trace per Python int
    assert p["Counter.add"].stats.decorated and p["Counter.add"].stats.traces == 1
    assert p["Dense2.call"].stats.calls == 1  # a Keras layer's call, wrapped at the class


def test_retracing_function_gets_a_retrace_finding_naming_the_argument(analysis):
    power = _by_name(analysis)["power"]
    assert power.replay is not None and power.replay.error is None
    assert power.verdict in (Verdict.RECONFIGURE, Verdict.UNDECORATE)
    assert "TF601" in power.decision.reasons
    message = next(f.message for f in power.decision.findings if f.rule == "TF601")
    assert "`step`" in message
    # Python numbers as tensors: 0.5**step needs a float step; int32 fails, float32 traces once
    assert power.replay.tensorized.dtypes == {"arg[1]": "float32"}
    assert power.replay.tensorized.traces == 1


def test_method_and_layer_replay_without_error(analysis):
    p = _by_name(analysis)
    for name in ("Counter.add", "Dense2.call"):
        r = p[name].replay
        assert r is not None and r.error is None and r.graph_error is None, (name, r)
        assert r.eager_s > 0 and r.graph_s > 0
        assert r.equivalent is True, (name, r.differences)


def test_replay_restores_variables(analysis):
    counter = _by_name(analysis)["Counter.add"]
    module = counter.stats.samples[0].args[0]
    assert float(module.total) == 72.0  # what the program left, whatever replay did in between


def test_run_report_is_schema_valid(analysis, schema_valid):
    data = analysis.report().to_dict()
    schema_valid(data)
    assert data["command"] == "run"
    assert data["run"]["exit_status"] == 0 and data["run"]["observed_functions"] == len(data["functions"])


def test_replay_without_samples_is_reported_not_raised(analysis):
    stats = _by_name(analysis)["main"].stats
    saved, stats.samples = stats.samples, []
    try:
        out = replay(stats, limit_s=5)
    finally:
        stats.samples = saved
    assert out.error and "sampled" in out.error


def test_xla_first_call_carries_its_compile_time(analysis):
    """XLA's price is its compile time: without it run advised jit_compile=True on a per-call gain."""
    measured = [p for p in _by_name(analysis).values() if p.replay is not None and p.replay.xla_s]
    assert measured
    for p in measured:
        assert p.replay.xla_first_s > p.replay.xla_s, p.stats.qualname
        xla = next(mm for mm in p.measurement.modes if mm.mode == "xla")
        assert xla.first_call_s > xla.per_call_s
