"""The one measured policy (advice/policy.py), step by step, on hand-made evidence (pure)."""

from __future__ import annotations

import pytest

from tfadvisor.advice.policy import (
    DECORATE_SPEEDUP,
    OPTION_GAIN,
    UNDECORATE_SLOWDOWN,
    Evidence,
    Option,
    decide,
    unmeasured_verdict,
)
from tfadvisor.model import Verdict


def ev(decorated=False, eager=1.0, graph=0.5, calls=100, traces=1, options=(), **kw) -> Evidence:
    return Evidence(decorated=decorated, calls=calls, eager_total_s=eager, graph_total_s=graph, traces=traces,
                    options=tuple(options), **kw)


def test_safety_first_whatever_the_speed() -> None:
    d = decide(ev(graph=0.01, broken="ValueError: x"))
    assert d.verdict is Verdict.FIX_FIRST and d.step == "safety"
    assert decide(ev(graph=0.01, broken="d", calls=3)).verdict is Verdict.LEAVE_EAGER  # not worth fixing
    rare = decide(ev(decorated=True, broken="d", calls=3))
    # the program's results are the graph's: the decorator stays, however rarely it runs (issue 21)
    assert rare.verdict is Verdict.FIX_FIRST and rare.saving_s is None


def test_no_tensor_work_is_never_a_graph() -> None:
    assert decide(ev(tensor_work=False, graph=0.01)).verdict is Verdict.LEAVE_EAGER
    assert decide(ev(decorated=True, tensor_work=False)).verdict is Verdict.UNDECORATE


def test_decorate_needs_the_speedup_net_of_tracing_and_share_never_vetoes() -> None:
    fast = decide(ev(eager=1.0, graph=1.0 / (DECORATE_SPEEDUP + 0.01)))
    assert fast.verdict is Verdict.DECORATE and fast.saving_s > 0
    slow = decide(ev(eager=1.0, graph=1.0 / (DECORATE_SPEEDUP - 0.01)))
    assert slow.verdict is Verdict.LEAVE_EAGER
    tiny = decide(ev(eager=0.002, graph=0.0004))  # 5x faster, a few ms of a long run: still decorate
    assert tiny.verdict is Verdict.DECORATE


def test_decorated_stays_unless_eager_clearly_wins() -> None:
    assert decide(ev(decorated=True, eager=1.0, graph=1.05)).verdict is Verdict.KEEP  # within the margin
    d = decide(ev(decorated=True, eager=1.0, graph=UNDECORATE_SLOWDOWN + 0.01))
    assert d.verdict is Verdict.UNDECORATE and d.saving_s > 0


def test_retrace_storm_gets_the_option_that_fixes_it_before_undecorate() -> None:
    storm = ev(decorated=True, eager=1.0, graph=3.0, traces=20,
               options=[Option("reduce_retracing", 2.9, True, 18), Option("input_signature", 0.6, True, 1)])
    d = decide(storm)
    assert d.verdict is Verdict.RECONFIGURE and d.option == "input_signature"
    assert d.saving_s == pytest.approx(3.0 - 0.6)  # decorated today vs reconfigured: positive
    # an option that changes results is never advised
    changed = ev(decorated=True, eager=1.0, graph=3.0, traces=20, options=[Option("input_signature", 0.6, False, 1)])
    assert decide(changed).verdict is Verdict.UNDECORATE
    # an option that still loses clearly to eager: undecorate
    still_slow = ev(decorated=True, eager=1.0, graph=3.0, traces=20, options=[Option("input_signature", 1.5, True, 1)])
    assert decide(still_slow).verdict is Verdict.UNDECORATE


def test_options_against_retracing_only_where_it_retraced() -> None:
    calm = ev(decorated=True, eager=1.0, graph=0.9, traces=1, options=[Option("reduce_retracing", 0.1, True, 1)])
    assert decide(calm).verdict is Verdict.KEEP


def test_xla_reconfigures_a_decorated_function_when_clearly_faster() -> None:
    d = decide(ev(decorated=True, eager=1.0, graph=0.5, options=[Option("jit_compile", 0.5 / OPTION_GAIN - 0.01, True)]))
    assert d.verdict is Verdict.RECONFIGURE and d.option == "jit_compile"
    d = decide(ev(decorated=True, eager=1.0, graph=0.5, options=[Option("jit_compile", 0.45, True)]))
    assert d.verdict is Verdict.KEEP
    d = decide(ev(eager=1.0, graph=0.9, options=[Option("jit_compile", 0.1, True)]))
    assert d.verdict is Verdict.LEAVE_EAGER  # XLA is not a reason to decorate an eager function


def test_eager_function_decorated_with_the_option_that_makes_it_pay() -> None:
    d = decide(ev(eager=1.0, graph=2.0, traces=30, options=[Option("input_signature", 0.5, True, 1)]))
    assert d.verdict is Verdict.DECORATE and d.option == "input_signature" and d.saving_s == pytest.approx(0.5)


@pytest.mark.parametrize("verdict", [Verdict.DECORATE, Verdict.RECONFIGURE, Verdict.UNDECORATE])
def test_advised_verdicts_never_show_a_negative_saving(verdict) -> None:
    cases = [ev(decorated=d, eager=e, graph=g, traces=t, options=o)
             for d in (False, True) for e in (0.1, 1.0, 3.0) for g in (0.2, 1.0, 2.5) for t in (1, 30)
             for o in ((), (Option("input_signature", 0.3, True, 1),), (Option("jit_compile", 0.05, True),))]
    for case in cases:
        d = decide(case)
        if d.verdict is verdict:
            assert d.saving_s is not None and d.saving_s > 0, (case, d)


def test_unmeasured_keeps_static_but_never_advises_graph_mode() -> None:
    assert unmeasured_verdict(Verdict.DECORATE, decorated=False) is Verdict.LEAVE_EAGER
    assert unmeasured_verdict(Verdict.FIX_FIRST, decorated=False) is Verdict.FIX_FIRST  # hazards are facts
    assert unmeasured_verdict(Verdict.UNDECORATE, decorated=True) is Verdict.UNDECORATE
    assert unmeasured_verdict(None, decorated=True) is Verdict.KEEP
    assert decide(ev(graph=None)).verdict is Verdict.LEAVE_EAGER


# -- issue 21: needs-a-graph wins, decisions for the workload ------------------------------------

def test_a_function_that_needs_its_graph_is_never_undecorated():
    slow = dict(decorated=True, eager=0.1, graph=1.0)  # eager 10x faster: undecorate, unless...
    assert decide(ev(**slow)).verdict is Verdict.UNDECORATE
    kept = decide(ev(**slow, needs_graph=("its graph is exported (signatures=)",)))
    assert kept.verdict is Verdict.KEEP and "exported" in kept.why
    no_tensors = decide(ev(decorated=True, tensor_work=False, needs_graph=("its decorator sets input_signature",)))
    assert no_tensors.verdict is Verdict.KEEP


def test_a_decorated_function_that_differs_keeps_its_decorator():
    for calls in (3, 500):
        d = decide(ev(decorated=True, broken="results differ: variables", calls=calls))
        assert d.verdict is Verdict.FIX_FIRST and "decorator stays" in d.why


def test_a_decorated_function_faster_per_call_is_kept_when_the_run_is_too_short():
    # 10 calls, one 0.5 s trace: eager wins over this run, but a warm call is 5x faster as a graph
    short = dict(decorated=True, calls=10, eager=0.05, graph=0.51, eager_call_s=0.005, graph_call_s=0.001,
                 trace_s=0.5)
    d = decide(ev(**short))
    assert d.verdict is Verdict.KEEP and d.pays_back_after == pytest.approx(125)
    slower = decide(ev(**{**short, "graph_call_s": 0.006}))  # a graph call is slower too: it never pays
    assert slower.verdict is Verdict.UNDECORATE


def test_an_eager_function_in_a_short_run_says_after_how_many_calls_to_decorate():
    short = dict(calls=20, eager=0.1, graph=0.12, eager_call_s=0.005, graph_call_s=0.001, trace_s=0.1)
    d = decide(ev(**short))
    assert d.verdict is Verdict.LEAVE_EAGER and d.pays_back_after == pytest.approx(0.12 / (0.005 - 0.0012))
    assert "decorate if it runs more than 32 calls" in d.why
    # the same function over a longer run of the same program: decorate
    long = decide(ev(**{**short, "calls": 200, "eager": 1.0, "graph": 0.3}))
    assert long.verdict is Verdict.DECORATE


def test_retracing_that_grows_with_the_calls_never_pays_back():
    storm = dict(decorated=True, calls=10, traces=10, eager=0.05, graph=1.0, eager_call_s=0.005,
                 graph_call_s=0.001, trace_s=0.1)
    assert decide(ev(**storm)).verdict is Verdict.UNDECORATE
