"""The issue's done-when cases, measured on real TensorFlow in a child process.

Behaviour only: ratios within one run, verdicts, names. Never absolute times. One worker serves
the whole module (TensorFlow is imported once); XLA is measured only where a test needs it.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tfadvisor.model import Verdict
from tfadvisor.report import render

from .conftest import ref

pytestmark = pytest.mark.tf

SCHEMA = json.loads((Path(__file__).parents[2] / "src/tfadvisor/schema/report.schema.json").read_text())
EAGER_GRAPH = ("eager", "graph")


@pytest.fixture(scope="module")
def small_ops(profiler):
    return profiler.profile(ref("many_small_ops"), ref("many_small_ops_calls"), expected_calls=2000)


def test_many_small_ops_speed_up_several_times_and_decorate(small_ops):
    m = small_ops.measurement
    assert small_ops.ok, m.error
    assert m.eager_s / m.graph_s > 2.5
    assert small_ops.verdict is Verdict.DECORATE
    assert "TF501" in small_ops.reasons
    assert m.traces == 1 and m.equivalent is True
    assert m.break_even_calls is not None and m.break_even_calls < 2000
    if m.option is None:  # plain graph mode advised (not XLA): the interval is the saving's
        assert m.saved_interval_s[0] <= m.saved_s <= m.saved_interval_s[1]
    assert [mm.mode for mm in m.modes] == ["eager", "graph", "xla"]
    assert all(mm.rounds >= 5 and mm.per_call_s for mm in m.modes)


def test_json_report_validates_against_the_schema(small_ops):
    data = json.loads(render(small_ops.report(), "json"))
    jsonschema.validate(data, SCHEMA)
    fn = data["functions"][0]
    assert fn["qualname"] == "many_small_ops" and fn["verdict"] == "decorate"
    assert fn["measurement"]["modes"][1]["mode"] == "graph"


def test_one_big_matmul_gains_nothing_and_stays_eager(profiler):
    """The op dominates, so the eager/graph ratio sits near 1 and the verdict rests on noise.

    On a shared 2-core machine (two test workers, a multi-threaded matmul) one measurement in many
    reads 1.2x and advises decorate. The claim is about most measurements, so it is judged as a
    majority of up to three: stop at two that stay eager, fail at two that do not.
    """
    eager, other = 0, []
    while eager < 2 and len(other) < 2:
        r = profiler.profile(ref("big_matmul"), ref("big_matmul_calls"), modes=EAGER_GRAPH, expected_calls=300)
        m = r.measurement
        assert r.ok, m.error
        assert 0.6 < m.eager_s / m.graph_s < 1.6
        if r.verdict is Verdict.LEAVE_EAGER:
            assert "TF602" in r.reasons and any(f.rule == "TF602" for f in r.findings)
            eager += 1
        else:
            other.append(f"{r.verdict.value} at {m.eager_s / m.graph_s:.2f}x")
    assert eager == 2, f"advised a change on one big matmul in {len(other)} of {eager + len(other)} runs: {other}"


def test_python_int_retraces_once_per_value_and_tf601_names_it(profiler):
    r = profiler.profile(ref("scaled"), ref("scaled_calls"), modes=EAGER_GRAPH)
    m = r.measurement
    assert m.traces == 6  # six distinct values of `step`, six traces
    assert len(m.retraces) == 5 and all("`step`" in line for line in m.retraces)
    tf601 = [f for f in r.findings if f.rule == "TF601"]
    assert len(tf601) == 1 and "`step`" in tf601[0].message and "`x`" not in tf601[0].message


def test_list_append_is_a_semantic_mismatch_naming_the_list(profiler):
    r = profiler.profile(ref("appends"), ref("appends_calls"), modes=EAGER_GRAPH, expected_calls=100)
    assert r.measurement.equivalent is False
    # never graph advice for it; fix-first only if the graph (that ran) would pay once fixed
    assert r.verdict in (Verdict.FIX_FIRST, Verdict.LEAVE_EAGER)
    tf603 = [f for f in r.findings if f.rule == "TF603"]
    assert tf603 and "`log`" in tf603[0].message and "5 items eagerly, 1 under tf.function" in tf603[0].message


def test_variable_per_call_is_a_graph_error_explained_by_tf401(profiler):
    r = profiler.profile(ref("makes_variable"), ref("one_call"), modes=EAGER_GRAPH, expected_calls=100)
    assert r.ok  # eager works: the function is measurable, graph mode is what fails
    # eager today and the graph raised: nothing measured says a fixed graph would pay
    assert r.verdict is Verdict.LEAVE_EAGER
    tf604 = next(f for f in r.findings if f.rule == "TF604")
    assert "TF401" in tf604.message
    assert "tf.Variable" in tf604.message


def test_closure_from_a_notebook_travels_by_value(profiler):
    """Not importable by name (a closure): shipped with cloudpickle, its state compared per mode."""
    import tensorflow as tf

    seen = []

    def step(x):
        seen.append(1)
        return x + 1.0

    calls = [((tf.constant(float(i)),), {}) for i in range(3)]
    r = profiler.profile(step, calls, modes=EAGER_GRAPH, observe=lambda: {"seen": len(seen)})
    assert r.measurement.equivalent is False
    text = " ".join(r.measurement.differences)
    assert "closure `seen`" in text and "observe()['seen']" in text


@pytest.mark.slow
def test_keras_train_step_creates_variables_once_per_mode(profiler):
    from runtime.tfa_fixtures import Trainer

    r = profiler.profile(Trainer.train_step, ref("train_calls"), fresh=Trainer, modes=EAGER_GRAPH)
    m = r.measurement
    assert r.ok, m.error
    assert m.equivalent is True, m.differences  # same starting weights, same updates
    assert m.traces == 1
    assert r.where is not None and r.where.qualname == "Trainer.train_step"
    for mode in EAGER_GRAPH:
        variables = r.runs[mode].variables
        iterations = [v for k, v in variables.items() if k.startswith("`self.optimizer`")]
        assert int(iterations[0]) == 5  # 5 calls, one optimizer step each, fresh optimizer per mode
        assert sum(k.startswith("`self.model`") for k in variables) == 4  # 2 Dense layers, built once
    assert m.eager_s / m.graph_s > 1.5


def test_text_report_shows_a_row_per_mode_and_the_verdict(small_ops):
    from tfadvisor.model import Report
    from tfadvisor.report import render

    text = render(small_ops.report(), "text")
    for label in ("eager", "tf.function", "jit_compile", "break-even after", "verdict: decorate"):
        assert label in text
    assert "\x1b[" not in text  # no colour codes in a file
    # a saved profile report renders the same again (tfadvisor report FILE)
    assert render(Report.from_dict(small_ops.report().to_dict()), "text") == text


def test_profile_many_shares_one_worker_and_reports_progress(profiler):
    from tfadvisor.runtime.profile.profiling import Target

    seen = []
    targets = [Target(ref("scaled"), ref("scaled_calls")), Target(ref("appends"), ref("appends_calls"))]
    results = profiler.profile_many(targets, budget_s=300, modes=EAGER_GRAPH,
                                    progress=lambda done, total, target, result: seen.append((done, total, result is None)))
    assert [r.where.qualname for r in results] == ["scaled", "appends"]
    assert results[0].measurement.traces == 6 and results[1].measurement.equivalent is False
    assert seen == [(0, 2, True), (1, 2, False), (1, 2, True), (2, 2, False)]


def test_first_calls_are_taken_where_the_function_never_ran():
    """By default each function starts in a new worker and graph's first pass gets one of its own:
    a process that has already run a function (eagerly, or in an earlier profile) has paid part of
    its first-call costs, which would flatter tracing."""
    from tfadvisor.runtime.profile.modes import EARLY_MAX_CALLS
    from tfadvisor.runtime.profile.profiling import Profiler

    from .conftest import FAST

    with Profiler(timing=FAST) as session:
        first = session.profile(ref("many_small_ops"), ref("many_small_ops_calls"), modes=EAGER_GRAPH, static=None)
        again = session.profile(ref("many_small_ops"), ref("many_small_ops_calls"), modes=EAGER_GRAPH, static=None)
    pids = [r.runs[mode].first_pass_pid for r in (first, again) for mode in EAGER_GRAPH]
    assert first.ok and again.ok
    assert None not in pids and len(set(pids)) == 4, pids
    graph = first.runs["graph"]  # its early calls come from its own process, with its first pass
    assert graph.early_times and len(graph.early_times) <= EARLY_MAX_CALLS
    assert first.runs["eager"].early_times
