"""From measurements to a verdict with its findings: numbers override performance guesses.

Pure functions (no TensorFlow): the runtime measures, ``advice/policy.py`` decides (the one
written rule, shared with the accuracy benchmark's labels), and this module turns the policy's
decision into reasons, findings (TF601-TF605, TF506) and how sure it is. For N calls,

    saved(N) = N * (eager - graph) - traces(N) * trace + warm-up    (seconds; negative = graph loses)
    break-even calls = (first graph call - first eager call) / (eager - graph)  (calls after the first)

where ``trace`` is the first-call overhead of graph mode (first call minus a steady call) and
``warm-up`` the first-call overhead of eager mode (kernel creation), which decorating avoids. The
interval on ``saved`` comes from the quartiles of the steady-state rounds. Safety comes first: a
function that raises (TF604) or behaves differently (TF603) under tf.function is ``fix-first``
whatever it would save; static hazards of the same function keep counting
(docs/decisions/0012-measured-policy.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from tfadvisor.advice import policy
from tfadvisor.model import (
    Advice,
    AdviceEdit,
    Confidence,
    Finding,
    FunctionReport,
    Measurement,
    ModeMeasurement,
    Verdict,
    local_id,
)
from tfadvisor.rules import get_rule
from tfadvisor.rules.base import Rule
from tfadvisor.wording import plural

# A retrace storm (TF601): at least this many traces, and at least this share of the calls traced.
RETRACE_STORM_MIN_TRACES = policy.RETRACING_TRACES
RETRACE_STORM_MIN_FRACTION = 0.25


# TensorFlow error texts (lower case, old and new wordings) -> the static rule that explains them.
KNOWN_ERRORS: tuple[tuple[str, str], ...] = (
    ("tried to create variables on non-first call", "TF401"),
    ("singleton tf.variables", "TF401"),
    ("must also be returned from the else branch", "TF301"),
    ("else branch must also have a return", "TF301"),
    ("a value must also be returned", "TF301"),
    ("must also be initialized in the", "TF302"),
    ("is none at the end of the", "TF302"),
    ("has no attribute 'numpy'", "TF206"),
    ("cannot convert a symbolic", "TF206"),
    ("numpy() is only available", "TF206"),
    ("iterating over `tf.tensor`", "TF305"),
    ("iterating over tf.tensor", "TF305"),
    ("as a python `bool`", "TF304"),
    ("as a python bool", "TF304"),
    ("is out of scope and cannot be used here", "TF204"),
    ("inaccessibletensorerror", "TF203"),
    ("defined in another function or code block", "TF203"),
    ("must be defined before the loop", "TF303"),
    ("which depend on a tf condition are not supported", "TF306"),
    ("started as non-tensor, then changed to tensor", "TF308"),
    ("after one iteration", "TF308"),
    ("in the main branch, but", "TF309"),
    ("pred must not be a python bool", "TF310"),
    ("no gradients provided for any variable", "TF406"),
    ("'nonetype' object has no attribute", "TF407"),
    ("appears to be a generator function", "TF207"),
    ("illegal tensor capture", "TF208"),
)



@dataclass
class Location:
    """Where findings about the measured function point (its definition)."""

    path: str = "<unknown>"
    line: int = 1
    end_line: int = 1
    function: str | None = None


@dataclass
class MeasuredDecision:
    verdict: Verdict
    reasons: list[str] = field(default_factory=list)
    confidence: Confidence = "certain"
    assumptions: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    advice: Advice | None = None  # the typed answer every renderer, fix and profile read


# -- functions that were not measured ----------------------------------------------------------

def unmeasured(static: FunctionReport | None, *, decorated: bool, note: str, calls: int = 0,
               needs_graph: tuple[str, ...] = ()) -> MeasuredDecision:
    """No replay (``note`` says why): keep the static verdict, but never advise graph mode for what
    was not measured (``policy.unmeasured_verdict``), nor undecorating what needs its graph."""
    verdict = policy.unmeasured_verdict(static.verdict if static else None, decorated)
    reasons = list(static.reasons) if static else []
    assumptions = list(static.assumptions) if static else []
    if static is not None and verdict is not static.verdict:
        assumptions.append(f"not measured ({note}); the static verdict was {static.verdict.value}")
    else:
        assumptions.append(f"not measured: {note}")
    out = MeasuredDecision(verdict=verdict, reasons=reasons, confidence="speculative", assumptions=assumptions)
    evidence = policy.Evidence(decorated=decorated, calls=calls, needs_graph=needs_graph)
    _keep_needed_graph(out, evidence)
    out.advice = Advice(verdict=out.verdict, why=f"not measured: {note}", step="unmeasured", calls=calls,
                        edits=advice_edits(out.verdict, None, {}),
                        needs_graph=list(needs_graph) if decorated else [])
    return out


def covered(*, decorated: bool, callers: list[str], calls: int = 0) -> MeasuredDecision:
    """Every call runs inside another graph (TF505): its own decorator changes nothing there, so
    there is no change to advise (the code stays as it is unless a change clearly pays)."""
    verdict = Verdict.KEEP if decorated else Verdict.LEAVE_EAGER
    where = ", ".join(sorted(set(callers)))
    return MeasuredDecision(verdict=verdict, reasons=["TF505"], assumptions=[f"all calls come from {where}"],
                            advice=Advice(verdict=verdict, why=f"runs inside {where}", step="covered", calls=calls,
                                          saving_s=0.0))


# -- arithmetic ---------------------------------------------------------------------------------


def break_even_calls(first_call_s: float, eager_s: float, graph_s: float,
                     eager_first_s: float | None = None) -> float | None:
    """Calls after the first before graph mode has repaid its tracing; None if it never does.

    ``eager_first_s`` is the first eager call (its own warm-up); without it the steady eager time."""
    if eager_s <= graph_s:
        return None
    first_eager = eager_s if eager_first_s is None else eager_first_s
    return max(0.0, (first_call_s - first_eager) / (eager_s - graph_s))


def net_saved(calls: int, eager_s: float, graph_s: float, trace_s: float, traces: int,
              warmup_s: float = 0.0) -> float:
    """Seconds saved by graph mode over ``calls`` calls with ``traces`` traces (negative: lost);
    ``warmup_s`` is eager's own first-call overhead, avoided by decorating."""
    return calls * (eager_s - graph_s) - traces * trace_s + warmup_s


def likely_rule(message: str) -> str | None:
    """The static rule that most likely explains a TensorFlow error message, if we know it."""
    text = message.lower()
    for needle, rule in KNOWN_ERRORS:
        if needle in text:
            return rule
    return None


def is_retrace_storm(traces: int | None, calls: int) -> bool:
    return bool(traces and calls and traces >= RETRACE_STORM_MIN_TRACES and traces / calls >= RETRACE_STORM_MIN_FRACTION)


# -- the verdict --------------------------------------------------------------------------------


def judge(
    m: Measurement,
    *,
    decorated: bool,
    static: FunctionReport | None = None,
    measured_calls: int | None = None,
    retrace_args: Mapping[str, str] | None = None,
    error_details: Mapping[str, str] | None = None,
    xla_equivalent: bool | None = None,
    location: Location | None = None,
    evidence: policy.Evidence | None = None,
    as_tensors: Mapping[str, str] | None = None,
    needs_graph: tuple[str, ...] = (),
    per_call_of: str | None = None,
) -> MeasuredDecision:
    """The verdict for one measured function: the policy's (``advice/policy.py``), with its
    findings, reasons and how sure it is.

    ``measured_calls`` is the length of the measured call sequence (``m.calls`` may project to
    more); ``retrace_args`` maps each argument that caused a retrace to what changed ("value",
    "shape", "dtype", "type"...); ``error_details`` holds the full error text per mode;
    ``evidence`` is the policy's input when the caller built it (``run`` does, from the observed
    run); otherwise it is derived from ``m`` (``evidence_from``). ``as_tensors`` names the Python
    numbers that, passed as tensors, traced once with the same results (``run``'s replay): the
    advice carries that call-site change when its option is ``input_signature``.
    """
    loc = location or Location()
    measured_calls = measured_calls or m.calls
    out = MeasuredDecision(verdict=Verdict.KEEP if decorated else Verdict.LEAVE_EAGER)
    find = _finder(out, loc)
    broken_reasons, broken = _what_failed(m, dict(error_details or {}), find)
    evidence = evidence or evidence_from(m, decorated=decorated, measured_calls=measured_calls,
                                         retrace_args=retrace_args, xla_equivalent=xla_equivalent, broken=broken,
                                         needs_graph=needs_graph)
    decision = _decide(m, evidence)
    out.verdict = decision.verdict
    tensors = dict(as_tensors or {}) if decision.option == "input_signature" or _retraces_statically(static) else {}
    if decision.step == "unmeasured":
        out.confidence = "speculative"
        out.assumptions.append(f"not measured: {m.error or 'eager and graph times are missing'}")
        if static is not None and not broken_reasons:
            out.verdict = policy.unmeasured_verdict(static.verdict, decorated)
            out.reasons = list(static.reasons)
            out.assumptions = list(static.assumptions) + out.assumptions
            return _with_advice(_keep_needed_graph(out, evidence), decision, m, evidence, tensors)
    if decision.step == "no_tensor_work":
        out.reasons = ["TF502"] if out.verdict is not Verdict.KEEP else []
    elif decision.step == "safety":
        out.reasons = broken_reasons
        merged = _merge_static(out, static, calls=m.calls, decorated=decorated)
        return _with_advice(_keep_needed_graph(merged, evidence), decision, m, evidence, tensors)
    _speed(out, m, decision, decorated, measured_calls, dict(retrace_args or {}), find)
    _how_sure(out, m, evidence, decision, measured_calls)
    if evidence.needs_graph and decorated:
        out.assumptions.append("needs its graph: " + "; ".join(evidence.needs_graph))
    if decision.pays_back_after is not None:
        out.assumptions.append(f"graph mode pays back after {decision.pays_back_after:.0f} calls; this run made "
                               f"{evidence.calls}: the verdict is for a workload that makes more")
    if per_call_of is not None:
        out.assumptions.append(f"one tf.function per call of {local_id(per_call_of)}: the run handed it new objects that "
                               "built their variables after its first call, which a single tf.function cannot trace "
                               "(TF401); graph mode was priced with one trace per call of "
                               f"{local_id(per_call_of)}")
    merged = _merge_static(out, static, calls=m.calls, decorated=decorated, cured=_cured_by(tensors))
    return _with_advice(_keep_needed_graph(merged, evidence), decision, m, evidence, tensors, per_call_of)


def _keep_needed_graph(out: MeasuredDecision, evidence: policy.Evidence) -> MeasuredDecision:
    """Needs-a-graph wins over every other reason to undecorate (a static veto included): the
    program exports the graph, uses its concrete functions, distributes it or set its options."""
    if evidence.decorated and evidence.needs_graph and out.verdict is Verdict.UNDECORATE:
        out.verdict = Verdict.KEEP
        out.assumptions.append("needs its graph, so the decorator stays: " + "; ".join(evidence.needs_graph))
    return out


def _retraces_statically(static: FunctionReport | None) -> bool:
    """``check`` says the function's Python numbers change from call to call (TF101/TF503) and
    that is all that stops it: a short run may show one value, a longer one retraces per value."""
    if static is None or static.verdict not in (Verdict.FIX_FIRST, Verdict.RECONFIGURE):
        return False
    hazards = {r for r in static.reasons if not r.startswith("TF5")} | {r for r in static.reasons if r == "TF503"}
    return bool(hazards) and hazards <= {"TF101", "TF503"}


def _cured_by(tensors: Mapping[str, str]) -> frozenset[str]:
    """Static hazards that passing the retracing Python numbers as tensors takes away."""
    return frozenset({"TF101", "TF503"}) if tensors else frozenset()


def _with_advice(out: MeasuredDecision, decision: policy.Decision, m: Measurement, evidence: policy.Evidence,
                 tensors: dict[str, str], per_call_of: str | None = None) -> MeasuredDecision:
    """Attach the typed advice: the verdict after the static merge, the policy's option and saving
    where the verdict is still the policy's, and the edits ``fix`` applies, nothing recomputed."""
    own = out.verdict is decision.verdict
    option = decision.option if own and out.verdict in (Verdict.DECORATE, Verdict.RECONFIGURE) else None
    why = decision.why if own else (out.assumptions[-1] if out.assumptions else decision.why)
    if own and per_call_of is not None and out.verdict is Verdict.DECORATE:
        why = f"{why}; one tf.function per call of {local_id(per_call_of)}"
    out.advice = Advice(
        verdict=out.verdict, why=why, option=option, saving_s=decision.saving_s if own else None,
        edits=advice_edits(out.verdict, option, tensors, per_call_of), step=decision.step, calls=evidence.calls,
        pays_back_after=decision.pays_back_after if own else None,
        needs_graph=list(evidence.needs_graph) if evidence.decorated else [])
    return out


def advice_edits(verdict: Verdict, option: str | None, tensors: Mapping[str, str],
                 per_call_of: str | None = None) -> list[AdviceEdit]:
    """What following the advice changes in the code. ``input_signature`` with Python numbers that
    retrace is carried out where the function is called (the numbers passed as tensors, one
    trace, as replay measured), not on the decorator (an int32 signature can break the body).
    With ``per_call_of``, decorating means one tf.function per call of that function."""
    edits: list[AdviceEdit] = []
    call_site = bool(tensors) and option in (None, "input_signature")
    if verdict is Verdict.DECORATE and per_call_of is not None:
        edits.append(AdviceEdit("decorate-per-call", option=None if call_site else option, caller=per_call_of))
    elif verdict is Verdict.DECORATE:
        edits.append(AdviceEdit("decorate", option=None if call_site else option))
    elif verdict is Verdict.UNDECORATE:
        edits.append(AdviceEdit("undecorate"))
    elif verdict is Verdict.RECONFIGURE and option is not None and not call_site:
        edits.append(AdviceEdit("set-option", option=option))
    if call_site and verdict in (Verdict.DECORATE, Verdict.RECONFIGURE):
        edits.append(AdviceEdit("pass-as-tensors", arguments=dict(tensors)))
    return edits


Find = Callable[[str, str], None]


def _finder(out: MeasuredDecision, loc: Location) -> Find:
    """``find(rule, message)``: a finding of ``out`` at the measured function's definition."""
    def find(rule: str, message: str) -> None:
        out.findings.append(Finding(rule=rule, severity=_rule(rule).severity, path=loc.path, line=loc.line, col=0,
                                    end_line=loc.end_line, end_col=0, function=loc.function, message=message))
    return find


def _what_failed(m: Measurement, details: dict[str, str], find: Find) -> tuple[list[str], str | None]:
    """TF605 (XLA), TF604 (graph raised), TF603 (results differ): the reasons that say the graph
    is broken, and the text the policy gets for it (None when nothing broke)."""
    modes = {mm.mode: mm for mm in m.modes}
    graph, xla = modes.get("graph"), modes.get("xla")
    graph_error = graph.error if graph is not None and graph.error is not None and not _infra_error(graph.error) else None
    if xla is not None and xla.error and not _infra_error(xla.error) and graph_error is None:
        find("TF605", f"fails with jit_compile=True (XLA): {xla.error}; keep jit_compile off")
    if graph_error is not None:
        rule = likely_rule(details.get("graph", "") + "\n" + graph_error)
        hint = f"; likely {rule} ({_rule(rule).name}): `tfadvisor explain {rule}`" if rule else ""
        find("TF604", f"raises under tf.function: {graph_error}{hint}")
        return ["TF604"] + ([rule] if rule else []), graph_error
    if m.equivalent is False:
        shown = "; ".join(m.differences[:3]) + (f" (+{len(m.differences) - 3} more)" if len(m.differences) > 3 else "")
        find("TF603", f"behaves differently under tf.function: {shown}")
        return ["TF603"], "results differ"
    return [], None


def _decide(m: Measurement, evidence: policy.Evidence) -> policy.Decision:
    """The policy's decision, recorded on the measurement (its verdict, option and saving)."""
    decision = policy.decide(evidence)
    m.policy_verdict = decision.verdict.value
    m.saved_s = decision.saving_s if decision.saving_s is not None else m.saved_s
    m.option = decision.option
    if decision.option is not None:
        m.saved_interval_s = None  # the interval was measured for plain graph mode, not this option
    return decision


def _speed(out: MeasuredDecision, m: Measurement, decision: policy.Decision, decorated: bool,
           measured_calls: int, changed: dict[str, str], find: Find) -> None:
    """Reasons and findings of the speed step: TF601 (retrace storm), TF501/TF602, TF506 (XLA)."""
    storm = is_retrace_storm(m.traces, measured_calls)
    shape_only = bool(changed) and all(w in ("shape", "length") for w in changed.values())
    if storm:
        names = ", ".join(f"`{a}` ({w})" for a, w in changed.items()) or "no single argument (captured values changed)"
        find("TF601", f"traced {m.traces} times in {measured_calls} calls; retraces caused by {names}"
                      + (f": {m.retraces[0]}" if m.retraces else ""))
    option_reasons = _option_reasons(decision.option, decorated, shape_only)
    if decision.step == "speed":
        if decision.verdict is Verdict.DECORATE:
            out.reasons = ["TF501"] + option_reasons
        elif decision.verdict in (Verdict.RECONFIGURE, Verdict.KEEP):
            out.reasons = option_reasons
        else:
            out.reasons = (["TF601"] if storm else []) + ["TF602"]
            _not_worth_it(find, m, decision)
    if decision.option == policy.XLA_OPTION and m.xla_s and m.graph_s:
        find("TF506", f"jit_compile=True runs {m.graph_s / m.xla_s:.1f}x faster than plain tf.function "
                      f"({_ms(m.xla_s)} against {_ms(m.graph_s)} per call) and repays its compile over {m.calls} calls")


def _how_sure(out: MeasuredDecision, m: Measurement, evidence: policy.Evidence, decision: policy.Decision,
              measured_calls: int) -> None:
    """What the verdict rests on: a projected option, a saving within the noise, random draws,
    calls projected beyond those measured."""
    chosen = next((o for o in evidence.options if o.name == decision.option), None)
    if chosen is not None and chosen.equivalent is None:
        out.confidence = "speculative"
        out.assumptions.append(f"{chosen.name}'s time is projected, and its results were not checked against eager")
    if m.saved_interval_s and m.saved_interval_s[0] < 0 < m.saved_interval_s[1]:
        out.confidence = "speculative"
        out.assumptions.append("the time saved is within the measurement noise (its interval spans zero)")
    if m.random_values:
        out.assumptions.append("values drawn at random (eager itself gives others from the same state) were compared "
                               "by shape, dtype and statistics: " + ", ".join(f"`{p}`" for p in m.random_values[:3]))
    if m.calls > measured_calls:
        out.assumptions.append(f"projected to {m.calls} calls, assuming they repeat the argument signatures of the "
                               f"{measured_calls} measured calls")


def evidence_from(m: Measurement, *, decorated: bool, measured_calls: int | None = None,
                  retrace_args: Mapping[str, str] | None = None, xla_equivalent: bool | None = None,
                  broken: str | None = None, eager_total_s: float | None = None,
                  graph_total_s: float | None = None, needs_graph: tuple[str, ...] = ()) -> policy.Evidence:
    """The policy's input from a ``profile`` measurement: totals over ``m.calls`` calls (given, or
    per call x calls + first-call overheads), and the options it can price without measuring them
    (one trace instead of a storm; XLA from its own mode)."""
    modes = {mm.mode: mm for mm in m.modes}
    eager, xla = modes.get("eager"), modes.get("xla")
    n, e, g = m.calls, m.eager_s, m.graph_s
    if e is None or g is None:
        return policy.Evidence(decorated=decorated, calls=n, broken=broken, eager_total_s=eager_total_s,
                               needs_graph=needs_graph)
    warmup = max(0.0, eager.first_call_s - e) if eager is not None and eager.first_call_s is not None else 0.0
    trace_s = m.trace_s or 0.0
    traces = m.traces or 1
    if eager_total_s is None:
        eager_total_s = n * e + warmup
    if graph_total_s is None:
        graph_total_s = n * g + traces * trace_s
    options: list[policy.Option] = []
    if traces >= policy.RETRACING_TRACES:
        changed = dict(retrace_args or {})
        shape_only = bool(changed) and all(w in ("shape", "length") for w in changed.values())
        name = "reduce_retracing" if shape_only else "input_signature"
        options.append(policy.Option(name, graph_total_s - (traces - 1) * trace_s, None, traces=1))
    if xla is not None and not xla.error and m.xla_s is not None and xla.first_call_s is not None:
        compile_s = max(0.0, xla.first_call_s - m.xla_s)
        xla_total = n * m.xla_s + traces * compile_s
        options.append(policy.Option(policy.XLA_OPTION, xla_total, xla_equivalent))
    return policy.Evidence(decorated=decorated, calls=n, broken=broken, eager_total_s=eager_total_s,
                           graph_total_s=graph_total_s, traces=traces, options=tuple(options),
                           needs_graph=needs_graph, eager_call_s=e, graph_call_s=g, trace_s=trace_s)


def _option_reasons(option: str | None, decorated: bool, shape_only: bool) -> list[str]:
    """The rule codes that name an option (``fix`` sets options from them)."""
    if option == policy.XLA_OPTION:
        return ["TF506"]
    if option == "reduce_retracing" or option == "input_signature" and shape_only:
        return ["TF601", "TF104"]
    if option == "input_signature":
        return ["TF601", "TF503" if decorated else "TF101"]
    return []


def _not_worth_it(find: Find, m: Measurement, decision: policy.Decision) -> None:
    e, g, n = m.eager_s, m.graph_s, m.calls
    if e is None or g is None:
        return
    if e <= g:
        why = f"graph mode is not faster per call ({_ms(g)} against {_ms(e)} eagerly)"
    elif m.break_even_calls is not None and m.break_even_calls > n:
        why = (f"graph mode is {e / g:.2f}x faster per call ({_ms(g)} against {_ms(e)}) but repays its "
               f"tracing only after {m.break_even_calls:.0f} calls")
    else:
        why = f"graph mode is only {decision.speedup or e / g:.2f}x faster over the calls, tracing included"
    saved = (decision.saving_s or 0.0) * (-1 if decision.verdict is Verdict.UNDECORATE else 1)
    find("TF602", f"{why}; over {plural(n, 'call')} it would {'save' if saved > 0 else 'lose'} {abs(saved) * 1e3:.1f} ms")


def _infra_error(message: str) -> bool:
    """Timeouts and crashes are failures of the measurement, not behaviour of the code."""
    return message.startswith(("timeout:", "crashed:", "memory:", "load:", "resolve:"))


# Static reasons that keep a function eager whatever its speed: a decorated Keras Layer/Model call
# (TF406: can break the training loop's gradients, which a replay in isolation cannot see), a
# builder (TF504), a generator (TF207), recursion (TF404). Measured on the corpus, TF406 is right
# about one Keras call of five (the others run fine decorated), so it only stops a `decorate`; it
# is not treated as a break (that cost three right verdicts for one).
STATIC_VETOES = ("TF406", "TF504", "TF207", "TF404")


def _merge_static(out: MeasuredDecision, static: FunctionReport | None, *, calls: int = 0,
                  decorated: bool = False, cured: frozenset[str] = frozenset()) -> MeasuredDecision:
    """Static hazards still count for safety; measured numbers replace static performance guesses.

    A static ``fix-first`` is evidence that the function breaks under tf.function, which
    a replay of sampled calls may not exercise (state that changes between calls, an input that
    raises only sometimes): the policy's safety step then applies to it as to a measured break
    (``fix-first`` from ``policy.MIN_CALLS_FIX_FIRST`` calls, else out of graph mode; eager code
    only where graph mode was measured to pay), except for hazards the advice itself ``cured``
    (Python numbers that retrace, passed as tensors at the call sites). A decorated function is
    never taken out of graph mode here: the program's results are the graph's."""
    if static is None:
        out.reasons = list(dict.fromkeys(out.reasons))
        return out
    hazards = [r for r in static.reasons if not r.startswith("TF5")]
    vetoes = [r for r in static.reasons if r in STATIC_VETOES]
    breaks = static.verdict is Verdict.FIX_FIRST and not (cured and set(hazards) <= cured)
    if vetoes and out.verdict is Verdict.DECORATE:
        # A replay of one function in isolation cannot see these: a Keras call decorated breaks
        # the training loop's gradients (TF406), a builder creates variables per trace (TF504)...
        out.verdict = Verdict.LEAVE_EAGER
        out.reasons = vetoes + out.reasons
        out.assumptions.append("measured faster in isolation, but the static reasons say it must stay eager")
    elif (vetoes and decorated and out.verdict in (Verdict.KEEP, Verdict.RECONFIGURE)
          and static.verdict in (Verdict.UNDECORATE, Verdict.FIX_FIRST)):
        # The same hazards on a tf.function: the replay ran it alone, so a measured `keep` says
        # nothing about them (a decorated Keras call that breaks the training step's gradients).
        out.verdict = static.verdict
        out.reasons = vetoes + out.reasons
        out.assumptions.append("measured results match in isolation, but the static reasons are hazards "
                               "a replay of the function alone cannot exercise")
    elif (breaks and out.verdict is not Verdict.FIX_FIRST and "TF502" not in out.reasons
          and (decorated or out.verdict is Verdict.DECORATE)):
        # Eager code the measurement says not to decorate stays eager whatever would break
        # (payoff before hazards, as the policy's own safety step).
        if calls >= policy.MIN_CALLS_FIX_FIRST:
            out.verdict = Verdict.FIX_FIRST
            out.assumptions.append("measured results match on the replayed calls, but static hazards remain "
                                   "(see the reasons): fix them before it runs as a graph")
        elif out.verdict.runs_as_graph and decorated:
            out.verdict = Verdict.FIX_FIRST  # removing the decorator would change the program's results
            out.assumptions.append("measured results match on the replayed calls, but static hazards remain "
                                   "(see the reasons): fix them; the decorator stays")
        elif out.verdict.runs_as_graph:
            out.verdict = Verdict.LEAVE_EAGER
            out.assumptions.append(f"static hazards remain and it runs only {calls} times: not worth fixing")
    if out.verdict is Verdict.FIX_FIRST or breaks:
        out.reasons = out.reasons + hazards
    out.reasons = list(dict.fromkeys(out.reasons))
    return out


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3g} ms"


def mode(m: Measurement, name: str) -> ModeMeasurement | None:
    return next((x for x in m.modes if x.mode == name), None)


def _rule(code: str) -> type[Rule]:
    """The registered rule of ``code``: its severity and name are said there only."""
    rule = get_rule(code)
    if rule is None:
        raise KeyError(f"no rule {code} is registered")
    return rule
