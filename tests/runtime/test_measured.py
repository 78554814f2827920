"""The measured decision model (advice.measured): pure, no TensorFlow, hand-built measurements."""

from __future__ import annotations

import pytest

from tfadvisor.advice import measured, policy
from tfadvisor.advice.measured import break_even_calls, judge, likely_rule, net_saved
from tfadvisor.model import Facts, FunctionReport, Measurement, ModeMeasurement, Verdict


def measurement(e=1e-3, g=1e-4, first=0.05, calls=1000, traces=1, x=None, x_first=None, equivalent=True,
                graph_error=None, xla_error=None, differences=()):
    modes = [ModeMeasurement("eager", first_call_s=e, per_call_s=e, iqr_s=e / 10, rounds=10)]
    modes.append(ModeMeasurement("graph", first_call_s=first, per_call_s=None if graph_error else g,
                                 iqr_s=g / 10, rounds=10, traces=traces, error=graph_error))
    if x is not None or xla_error:
        modes.append(ModeMeasurement("xla", first_call_s=x_first, per_call_s=x, rounds=10, error=xla_error))
    trace = first - g
    m = Measurement(calls=calls, eager_s=e, graph_s=None if graph_error else g, trace_s=trace, traces=traces,
                    xla_s=x, equivalent=None if graph_error else equivalent, modes=modes,
                    differences=list(differences))
    if not graph_error:
        m.break_even_calls = break_even_calls(first, e, g)
        m.saved_s = net_saved(calls, e, g, trace, traces)
        m.saved_interval_s = [net_saved(calls, e * 0.95, g * 1.05, trace, traces),
                              net_saved(calls, e * 1.05, g * 0.95, trace, traces)]
    return m


def test_break_even_and_net_saved_arithmetic():
    # first call 50 ms, eager 1 ms, graph 0.1 ms: (50 - 1) / 0.9 calls after the first
    assert break_even_calls(0.05, 1e-3, 1e-4) == pytest.approx(49 / 0.9)
    assert break_even_calls(0.05, 1e-4, 1e-3) is None  # graph slower per call: never
    assert net_saved(1000, 1e-3, 1e-4, 0.05, 1) == pytest.approx(0.9 - 0.05)
    assert net_saved(1000, 1e-3, 1e-4, 0.05, 1, warmup_s=0.01) == pytest.approx(0.9 - 0.05 + 0.01)


def test_fast_graph_over_many_calls_is_decorate_or_keep():
    d = judge(measurement(), decorated=False)
    assert d.verdict is Verdict.DECORATE and d.reasons == ["TF501"] and d.confidence == "certain"
    assert judge(measurement(), decorated=True).verdict is Verdict.KEEP


def test_few_calls_do_not_repay_tracing():
    d = judge(measurement(calls=10), decorated=False)
    assert d.verdict is Verdict.LEAVE_EAGER and d.reasons == ["TF602"]
    assert [f.rule for f in d.findings] == ["TF602"]
    assert "repays its tracing only after 54 calls" in d.findings[0].message
    # decorated, a warm call 10x faster: a longer run repays the trace, so the decorator stays (issue 21)
    kept = judge(measurement(calls=10), decorated=True)
    assert kept.verdict is Verdict.KEEP and kept.advice is not None
    assert kept.advice.pays_back_after == pytest.approx(55.4, abs=0.5) and kept.advice.calls == 10
    slower = judge(measurement(calls=10, g=2e-3, first=0.05), decorated=True)  # graph slower per call too
    assert slower.verdict is Verdict.UNDECORATE


def test_no_speedup_is_not_worth_it_whatever_the_calls():
    d = judge(measurement(e=1e-2, g=0.99e-2, first=0.02, calls=100_000), decorated=False)
    assert d.verdict is Verdict.LEAVE_EAGER  # 1% faster is below the policy's DECORATE_SPEEDUP
    assert policy.DECORATE_SPEEDUP > 1.01


def test_graph_error_names_the_likely_rule_and_is_fix_first_when_decorated():
    msg = "ValueError: tf.function only supports singleton tf.Variables created on the first call."
    d = judge(measurement(graph_error=msg), decorated=True)
    assert d.verdict is Verdict.FIX_FIRST and d.reasons == ["TF604", "TF401"]
    assert d.findings[0].rule == "TF604" and "singleton" in d.findings[0].message and "TF401" in d.findings[0].message


def test_graph_error_of_an_eager_function_stays_eager_but_is_reported():
    """Payoff before hazards: a graph that raised was never timed, so nothing says fixing it pays."""
    msg = "ValueError: tf.function only supports singleton tf.Variables created on the first call."
    d = judge(measurement(graph_error=msg), decorated=False)
    assert d.verdict is Verdict.LEAVE_EAGER
    assert d.findings and d.findings[0].rule == "TF604" and "TF401" in d.findings[0].message


@pytest.mark.parametrize(
    ("message", "rule"),
    [
        ("tf.function-decorated function tried to create variables on non-first call.", "TF401"),
        ("A value must also be returned from the else branch.", "TF301"),
        ("the else branch must also have a return statement.", "TF301"),
        ("AttributeError: 'SymbolicTensor' object has no attribute 'numpy'", "TF206"),
        ("OperatorNotAllowedInGraphError: Iterating over a symbolic `tf.Tensor` is not allowed", None),
        ("OperatorNotAllowedInGraphError: iterating over `tf.Tensor` is not allowed", "TF305"),
        ("using a `tf.Tensor` as a Python `bool` is not allowed", "TF304"),
        ("<tf.Tensor 'x:0'> is out of scope and cannot be used here.", "TF204"),
        ("InaccessibleTensorError: The tensor 'y' cannot be accessed here", "TF203"),
        ("ValueError: 'x' must be defined before the loop.", "TF303"),
        ("something entirely different", None),
    ],
)
def test_known_tensorflow_messages_map_to_static_rules(message, rule):
    assert likely_rule(message) == rule


def test_semantic_mismatch_is_fix_first():
    d = judge(measurement(equivalent=False, differences=["global `log`: 5 items eagerly, 1 under tf.function"]),
              decorated=False)
    assert d.verdict is Verdict.FIX_FIRST and d.reasons == ["TF603"]
    assert "`log`" in d.findings[0].message


def test_retrace_storm_names_the_argument():
    m = measurement(calls=6, traces=6, e=1e-3, g=1e-4, first=0.05)
    d = judge(m, decorated=True, measured_calls=6, retrace_args={"step": "value"})
    tf601 = next(f for f in d.findings if f.rule == "TF601")
    assert "`step`" in tf601.message
    assert d.verdict is Verdict.UNDECORATE  # 6 calls never repay even one trace
    many = measurement(calls=2_000, traces=6)  # five retraces cost 0.25 s of 0.5 s: one trace halves it
    d = judge(many, decorated=True, measured_calls=6, retrace_args={"step": "value"})
    assert d.verdict is Verdict.RECONFIGURE and d.reasons == ["TF601", "TF503"]
    d = judge(many, decorated=True, measured_calls=6, retrace_args={"x": "shape"})
    assert d.reasons == ["TF601", "TF104"]
    # eager today: decorate, with the option that cures the retracing (Python values: an input_signature)
    d = judge(many, decorated=False, measured_calls=6, retrace_args={"step": "value"})
    assert d.verdict is Verdict.DECORATE and d.reasons == ["TF501", "TF601", "TF101"]
    assert many.option == "input_signature" and d.confidence == "speculative"  # projected, not replayed


def test_xla_clearly_faster_is_recommended_and_xla_errors_reported():
    d = judge(measurement(x=2e-5, x_first=0.2, calls=10_000), decorated=True)
    assert d.verdict is Verdict.RECONFIGURE and "TF506" in d.reasons
    assert any(f.rule == "TF506" for f in d.findings)
    d = judge(measurement(x=2e-5, x_first=0.2, calls=10_000), decorated=False)
    assert d.verdict is Verdict.DECORATE and d.reasons == ["TF501"]  # XLA: a second step, once decorated
    # over 1000 calls its longer compile (200 ms) makes XLA save less than plain graph mode
    assert "TF506" not in judge(measurement(x=2e-5, x_first=0.2), decorated=True).reasons
    d = judge(measurement(xla_error="InvalidArgumentError: unsupported op"), decorated=True)
    assert d.verdict is Verdict.KEEP and [f.rule for f in d.findings] == ["TF605"]


def test_static_hazards_still_count_but_numbers_replace_guesses():
    static = FunctionReport(id="a.py::f", path="a.py", qualname="f", line=1, end_line=3, decorated=False,
                            facts=Facts(), verdict=Verdict.FIX_FIRST, reasons=["TF202", "TF501"])
    d = judge(measurement(), decorated=False, static=static)
    assert d.verdict is Verdict.FIX_FIRST and d.reasons == ["TF501", "TF202"]
    guess = FunctionReport(id="a.py::f", path="a.py", qualname="f", line=1, end_line=3, decorated=False,
                           facts=Facts(), verdict=Verdict.DECORATE, reasons=["TF501"])
    assert judge(measurement(calls=10), decorated=False, static=guess).verdict is Verdict.LEAVE_EAGER


def test_failed_measurement_falls_back_to_static_and_says_so():
    m = Measurement(calls=3, error="eager: timeout: no result within 60 s",
                    modes=[ModeMeasurement("eager", error="timeout: no result within 60 s")])
    d = judge(m, decorated=False)
    assert d.confidence == "speculative" and "not measured" in d.assumptions[0]


def test_noisy_saving_is_speculative():
    m = measurement(calls=56)  # right at break-even
    m.saved_interval_s = [-0.01, 0.01]
    assert judge(m, decorated=False).confidence == "speculative"


def test_static_hazard_is_a_break_the_replay_could_not_see():
    """A static fix-first (state changed between calls, an input that raises only sometimes) makes
    a measured function fix-first by the policy's safety step where graph mode would pay; rarely
    called, or not faster as a graph, it stays out of graph mode (payoff before hazards)."""
    static = FunctionReport(id="a.py::f", path="a.py", qualname="f", line=1, end_line=3, decorated=False,
                            facts=Facts(), verdict=Verdict.FIX_FIRST, reasons=["TF105"])
    fast = judge(measurement(calls=200), decorated=False, static=static)
    assert fast.verdict is Verdict.FIX_FIRST and "TF105" in fast.reasons
    slow = measurement(e=1e-4, g=1e-3, calls=60)
    assert judge(slow, decorated=False, static=static).verdict is Verdict.LEAVE_EAGER
    assert judge(measurement(calls=5), decorated=False, static=static).verdict is Verdict.LEAVE_EAGER
    keras_call = FunctionReport(id="a.py::L.call", path="a.py", qualname="L.call", line=1, end_line=3,
                                decorated=False, facts=Facts(), verdict=Verdict.LEAVE_EAGER, reasons=["TF406"])
    assert judge(measurement(), decorated=False, static=keras_call).verdict is Verdict.LEAVE_EAGER  # a veto
    decorated_call = FunctionReport(id="a.py::L.call", path="a.py", qualname="L.call", line=1, end_line=3,
                                    decorated=True, facts=Facts(), verdict=Verdict.UNDECORATE, reasons=["TF406"])
    kept = judge(measurement(), decorated=True, static=decorated_call)  # equivalent and faster, alone
    assert kept.verdict is Verdict.UNDECORATE and "TF406" in kept.reasons
