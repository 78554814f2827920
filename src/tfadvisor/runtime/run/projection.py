"""Projecting replay measurements onto the observed run, and the verdict for each function.

Pure arithmetic over what ``observe`` saw and what ``replay`` measured (no TensorFlow):

- eager time is what the program really spent in the function (inclusive: a decorated function
  runs its callees in the graph too), over the calls not already covered by a caller that the
  report says to run as a graph (those calls would be inside that graph anyway);
- projected graph time = observed eager time x (replayed graph / replayed eager per call), so a
  machine busier during the run than during replay shifts both alike, plus one trace per
  distinct argument signature the program used (how tf.function keys its cache);
- for a function already decorated: observed time against the replayed eager time
  (undecorate) and against each option replayed (reconfigure).

The verdict comes from the one policy (``advice/policy.py``, through ``advice.measured.judge``,
as for ``profile``), fed an ``Evidence`` in the observed run's seconds (``evidence_for``). Every
row's ``saved_s`` is the saving of its own advice against the code as it is; the function's share
of the run orders the table, it never vetoes a verdict.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Any

from tfadvisor.advice import measured, policy
from tfadvisor.advice.measured import Location, MeasuredDecision, judge
from tfadvisor.model import Facts, Finding, FunctionReport, Measurement, ModeMeasurement, Severity, Verdict, local_id
from tfadvisor.runtime import signature as sigmod
from tfadvisor.runtime.run.observe import FunctionStats, graph_uses
from tfadvisor.runtime.run.replay import Replay
from tfadvisor.wording import plural


@dataclass
class Projection:
    """One function of the observed run: what happened, what replay measured, what we advise."""

    stats: FunctionStats
    id: str
    path: str
    static: FunctionReport | None = None
    replay: Replay | None = None
    calls: int = 0  # calls not covered by a graph caller
    eager_total_s: float = 0.0  # observed time of those calls (inclusive)
    covered_by: list[str] = field(default_factory=list)
    projected_total_s: float | None = None  # the same calls after the advised change
    saved_s: float | None = None
    traces: int | None = None
    why: str = ""
    decision: MeasuredDecision | None = None
    skipped: str | None = None  # why it was not replayed
    static_rules: set[str] = field(default_factory=set)  # rules ``check`` reported in this function
    measurement: Measurement | None = None  # what replay measured, in the run's seconds
    # (caller id, its calls): the run handed this eager function new objects that built variables
    # after its first call, all from one caller that calls it in a loop: one tf.function per call
    # of that caller is what graph mode can be (``one_per_call``)
    per_call_of: tuple[str, int] | None = None

    @property
    def verdict(self) -> Verdict:
        return self.decision.verdict if self.decision else Verdict.LEAVE_EAGER


# A caller makes one tf.function per call only when it calls the function at least this many times
# per call of its own (a loop): otherwise there is little to repay a trace per call.
PER_CALL_MIN_CALLS = 4


def one_per_call(p: Projection, by_key: dict[str, Projection]) -> tuple[str, int] | None:
    """(caller id, caller calls) when ``p`` as one tf.function would raise for creating variables
    after its first trace (``FunctionStats.late_variables``: a second model or optimizer) and
    every call came from one caller of the project that loops over it: one tf.function per call
    of that caller (one per model) traces each new object set first, which TensorFlow allows."""
    s = p.stats
    if s.decorated or not s.late_variables or len(s.callers) != 1:
        return None
    key = next(iter(s.callers))
    parent = by_key.get(key) if key else None
    if parent is None or parent.stats is s or parent.stats.calls < 1:
        return None
    if s.calls < PER_CALL_MIN_CALLS * parent.stats.calls:
        return None
    return parent.id, parent.stats.calls


def uncovered(p: Projection, by_key: dict[str, Projection]) -> float:
    """Fraction of ``p``'s calls not made from inside a function advised to run as a graph."""
    s = p.stats
    total = sum(s.callers.values()) or 1
    free = 0.0
    for caller, n in s.callers.items():
        parent = by_key.get(caller) if caller else None
        if parent is None or parent.stats is s:
            free += n
        elif parent.decision is not None and parent.verdict.runs_as_graph:
            p.covered_by.append(parent.id)
        else:
            free += n * uncovered(parent, by_key) if parent.decision is not None else n
    return free / total


def retrace_explanations(stats: FunctionStats, limit: int = 3) -> tuple[list[str], dict[str, str]]:
    """Why each new signature would trace again (JAX-style), and what changed per argument."""
    lines: list[str] = []
    changed: dict[str, str] = {}
    earlier: list[dict] = []
    for seen in stats.signatures:
        if seen.named is None:
            continue
        named = {k: v for k, v in seen.named.items() if not (stats.is_method and k == "self")}
        if earlier:
            retrace = sigmod.explain(seen.first_call, named, earlier)
            for change in retrace.changes:
                changed.setdefault(change.argument, change.what)
            if len(lines) < limit:
                lines.append(retrace.describe())
        earlier.append(named)
    return lines, changed


def tensorized_traces(stats: FunctionStats) -> int:
    """Traces if Python numbers were tensors and shapes relaxed (an input_signature with None dims)."""
    return len({_relax(s.key, numbers=True) for s in stats.signatures}) or 1


def retrace_options(stats: FunctionStats) -> dict[str, int]:
    """How many traces the observed signatures cost as they are, with reduce_retracing, and with
    Python numbers as tensors (input_signature). reduce_retracing traces a shape exactly once, then
    once more with the varying dimensions relaxed to None; Python values still trace per value."""
    groups: dict[Any, int] = {}
    for seen in stats.signatures:
        relaxed = _relax(seen.key, numbers=False)
        groups[relaxed] = groups.get(relaxed, 0) + 1
    distinct = len(stats.signatures) + (1 if stats.signatures_overflow else 0)
    return {
        "distinct_signatures": distinct,
        "with_reduce_retracing": sum(min(n, 2) for n in groups.values()),
        "with_numbers_as_tensors": tensorized_traces(stats),
    }


def _relax(key: Any, numbers: bool) -> Any:
    """A signature key with tensor shapes reduced to their rank (and numbers to their type)."""
    if isinstance(key, tuple):
        if len(key) == 3 and isinstance(key[0], type) and isinstance(key[2], tuple) and all(
            d is None or isinstance(d, int) for d in key[2]
        ):
            return (key[0], key[1], len(key[2]))
        if numbers and len(key) == 2 and key[0] in (int, float) and not isinstance(key[1], tuple):
            return (key[0], "tensor")
        return tuple(_relax(k, numbers) for k in key)
    return key


def decide(p: Projection) -> None:
    """Fill ``p``'s measurement projection and verdict from its observation and replay."""
    s, r = p.stats, p.replay
    location = Location(p.path, s.line, p.static.end_line if p.static else s.line, p.id)
    if r is None or r.eager_s is None:
        p.decision = _unmeasured(p)
        return
    _count_prints(p, r)
    _late_variables(p, r)
    lines, changed = retrace_explanations(s)
    evidence, scale = evidence_for(p)
    m = Measurement(calls=p.calls, error=r.error, differences=list(r.differences), retraces=lines)
    m.equivalent = r.equivalent
    m.xla_equivalent = r.xla_equivalent
    m.random_values = list(r.random_values)
    # What fix needs for an input_signature: the distinct argument signatures observed.
    m.signatures = [seen.named for seen in s.signatures if seen.named] or None
    m.traces = evidence.traces
    # warm per-call times in the run's seconds, and one trace over a warm call: what the policy read
    m.trace_s = evidence.trace_s
    m.eager_s = evidence.eager_call_s
    m.graph_s = evidence.graph_call_s
    m.xla_s = _times(r.xla_s, scale)
    eager_mode = ModeMeasurement("eager", per_call_s=m.eager_s, rounds=1)
    graph_mode = ModeMeasurement("graph", error=r.graph_error, per_call_s=m.graph_s, traces=m.traces,
                                 first_call_s=(m.graph_s + (m.trace_s or 0.0)) if m.graph_s is not None else None)
    m.modes = [eager_mode, graph_mode]
    if r.xla_s is not None or r.xla_error:
        compile_s = max(0.0, r.xla_first_s - r.xla_s) if r.xla_first_s is not None and r.xla_s is not None else 0.0
        m.modes.append(ModeMeasurement("xla", per_call_s=m.xla_s, error=r.xla_error,
                                       first_call_s=m.xla_s + compile_s * scale if m.xla_s is not None else None))
    m.break_even_calls = policy.graph_pays_after(evidence)
    tensors = as_tensors(p) if r.tensorized is not None and r.tensorized.equivalent is not False else None
    p.decision = judge(m, decorated=s.decorated, static=p.static, measured_calls=s.calls,
                       retrace_args=changed, location=location, evidence=evidence, as_tensors=tensors,
                       per_call_of=p.per_call_of[0] if p.per_call_of else None)
    p.saved_s = m.saved_s
    if p.verdict is Verdict.KEEP or p.verdict is Verdict.LEAVE_EAGER or m.saved_s is None:
        p.projected_total_s = p.eager_total_s if p.verdict is Verdict.KEEP else None
    else:
        p.projected_total_s = p.eager_total_s - m.saved_s
    p.traces = m.traces
    advice = p.decision.advice
    if advice is not None and any(e.kind == "pass-as-tensors" for e in advice.edits):
        m.as_tensors = next(e.arguments for e in advice.edits if e.kind == "pass-as-tensors")
    p.why = _why(p, m)
    p.measurement = m


def _late_variables(p: Projection, r: Replay) -> None:
    """An eager function that the run called again with new objects which built their variables
    in that call (a second model, a fresh optimizer) would raise as a tf.function: that call traces
    again, and only the first trace may create variables. Replay cannot see it (the program has
    built everything by then), the observation did."""
    s = p.stats
    if s.decorated or not s.late_variables or r.graph_error is not None or p.per_call_of is not None:
        return
    try:
        names = list(inspect.signature(s.function).parameters)
    except (TypeError, ValueError):
        names = []
    shown = [re.sub(r"^arg\[(\d+)\]$", lambda m: names[int(m.group(1))] if int(m.group(1)) < len(names)
                    else m.group(0), n) for n in s.late_variables[:3]]
    r.graph_error = ("ValueError: tf.function only supports singleton tf.Variables created on the first call "
                     f"(the run called it again with new objects that built their variables: "
                     f"{', '.join(f'`{n}`' for n in shown)}); make one tf.function per model instead")


def _count_prints(p: Projection, r: Replay) -> None:
    """Printed output that differs between modes is a difference, except in a tf.function whose
    prints ``check`` read and left alone (no TF201: they print trace-time values on purpose, such
    as shapes): one answer for the same print in ``check`` and ``run``."""
    if r.printed_difference is None or r.printed_difference in r.differences:
        return
    on_purpose = p.stats.decorated and p.static is not None and "TF201" not in p.static_rules
    if not on_purpose:
        r.differences.append(r.printed_difference)
        r.equivalent = False if r.equivalent is not None else r.equivalent


def evidence_for(p: Projection) -> tuple[policy.Evidence, float]:
    """The policy's input for one replayed function, in the observed run's seconds, and the factor
    that turns replayed per-call times into them (the run and the replay saw different loads).

    Priced like with like. An eager function: its warm calls in the run (the first call's warm-up
    taken out: it builds layers and kernels, which a decorated program pays too, on its first
    trace) against warm graph calls plus one warm trace per distinct signature. A decorated
    function: what the program spent (its own traces included) against warm eager calls, and
    the options; plus the warm per-call times and the trace cost, with which the policy decides
    for the workload rather than for the sample run (``pays_back_after``)."""
    s, r = p.stats, p.replay
    assert r is not None and r.eager_s is not None
    calls, observed = p.calls, p.eager_total_s
    if s.decorated:
        traces = s.traces or len(s.signatures) or 1
        share = observed / s.inclusive_s if s.inclusive_s else 1.0
        # A decorated function's own traces in the run price first calls better than replay's
        # (replay traces in a process where AutoGraph has converted the function already): an
        # option's first call costs the run's trace x (its first-call overhead / replay's trace).
        run_trace = s.traced_s * share / traces if s.traced_s > 0 and r.trace_s else None
        trace_unit = run_trace / r.trace_s if run_trace and r.trace_s else None
        # the program's own calls that did not trace say what a call costs in the run; when every
        # call traced, its traces are all there is, and eager, options and traces are then priced
        # in that one unit (else a run busier than its replay would count an option's trace at the
        # run's load and eager's calls at the replay's, and tip reconfigure into undecorate)
        steady_calls = calls - min(traces, calls)
        steady = (observed - s.traced_s * share) / steady_calls if steady_calls > 0 else None
        scale = steady / r.graph_s if steady and steady > 0 and r.graph_s else trace_unit or 1.0
        first_call_unit = trace_unit or scale
        graph_call = steady if steady and steady > 0 else (r.graph_s * scale if r.graph_s is not None else None)
        trace_cost = run_trace if run_trace is not None else (r.trace_s or 0.0) * scale
        eager_total: float = calls * r.eager_s * scale
        graph_total: float | None = observed
    else:
        traces = len(s.signatures) + (1 if s.signatures_overflow else 0) or 1
        if p.per_call_of is not None:  # a new tf.function, so a new trace, each time its caller runs
            traces = max(traces, p.per_call_of[1])
        warm = warm_per_call(s)
        scale = warm / r.eager_s if warm and r.eager_s else 1.0
        first_call_unit = scale
        graph_call = r.graph_s * scale if r.graph_s is not None else None
        trace_cost = (r.trace_s or 0.0) * scale
        eager_total = calls * warm if warm else observed
        graph_total = calls * graph_call + traces * trace_cost if graph_call is not None else None
    counts = retrace_options(s)
    projected_traces = {"reduce_retracing": counts["with_reduce_retracing"],
                        "input_signature": counts["with_numbers_as_tensors"]}
    options: list[policy.Option] = []
    for name, o in r.options.items():
        if o.graph_s is not None and o.error is None:
            t = projected_traces[name]
            option_trace = o.trace_s * first_call_unit if o.trace_s is not None else trace_cost
            options.append(policy.Option(name, calls * o.graph_s * scale + t * option_trace, o.equivalent, t))
    if r.xla_s is not None and not r.xla_error and r.xla_first_s is not None:
        compile_s = max(0.0, r.xla_first_s - r.xla_s)
        options.append(policy.Option(policy.XLA_OPTION, calls * r.xla_s * scale + traces * compile_s * first_call_unit,
                                     r.xla_equivalent))
    broken = r.graph_error or ("results differ: " + r.differences[0] if r.equivalent is False and r.differences else None)
    evidence = policy.Evidence(decorated=s.decorated, calls=calls, tensor_work=r.has_tensors, broken=broken,
                               eager_total_s=eager_total, graph_total_s=graph_total, traces=traces,
                               options=tuple(options), needs_graph=tuple(needs_graph(p)),
                               eager_call_s=r.eager_s * scale, graph_call_s=graph_call, trace_s=trace_cost,
                               trace_rate=traces / max(1, s.calls))
    return evidence, scale


def warm_per_call(s: FunctionStats) -> float | None:
    """An eager function's warm call in the run: its calls after the first (the first builds
    layers and creates kernels); the only call when there was one."""
    if not s.calls:
        return None
    if s.calls > 1 and s.first_s is not None and s.inclusive_s > s.first_s:
        return (s.inclusive_s - s.first_s) / (s.calls - 1)
    return s.inclusive_s / s.calls


def needs_graph(p: Projection) -> list[str]:
    """Why a decorated function must stay one: what ``check`` knows from the code (exported,
    concrete functions, a distributed step, decorator options) and what the run saw it used for."""
    if not p.stats.decorated:
        return []
    static = list(p.static.facts.needs_graph) if p.static is not None else []
    if p.static is not None and p.static.facts.python_side_effects:
        # ``print("tracing ...")``, a list appended to: once per trace as written, on every call
        # undecorated, which would change what the program prints or keeps (trace_print.py)
        static.append("its Python side effects run once per trace; undecorated they would run on every call")
    return list(dict.fromkeys(static + graph_uses(p.stats)))


def _times(value: float | None, scale: float) -> float | None:
    return None if value is None else value * scale


def _unmeasured(p: Projection) -> MeasuredDecision:
    note = p.skipped or (p.replay.error if p.replay and p.replay.error else "not replayed")
    p.why = note
    return measured.unmeasured(p.static, decorated=p.stats.decorated, note=note, calls=p.calls,
                               needs_graph=tuple(needs_graph(p)))


def _why(p: Projection, m: Measurement) -> str:
    """One short phrase for the table, from the advice; the findings carry the details."""
    s, r, v = p.stats, p.replay, p.verdict
    assert r is not None
    advice = p.decision.advice if p.decision else None
    stays = "; the decorator stays" if s.decorated else ""
    if r.graph_error:
        return _cut(f"fails under tf.function: {r.graph_error}{stays}")
    if m.equivalent is False and m.differences:
        return _cut(f"differs under tf.function: {m.differences[0]}{stays}")
    if m.as_tensors:
        names = ", ".join(f"`{k}` as a {dtype} tensor" for k, dtype in m.as_tensors.items())
        if (m.traces or 0) > 1:
            return f"retraced {m.traces} times in {s.calls} calls; pass {names}: one trace"
        return f"its Python numbers change between calls (TF101); pass {names}: one trace for all values"
    if v is Verdict.FIX_FIRST:
        return "static hazards: " + ", ".join(x for x in p.decision.reasons if x.startswith("TF")) if p.decision else "fix first"
    if m.option and v in (Verdict.DECORATE, Verdict.RECONFIGURE):
        return f"with {m.option}: saves {m.saved_s or 0.0:.3g} s over {p.calls} calls"
    if not (m.eager_s and m.graph_s):
        return ""
    speed = m.eager_s / m.graph_s
    if advice is not None and advice.needs_graph and v is Verdict.KEEP and (speed <= 1 or advice.pays_back_after is None
                                                                             and (m.saved_s or 0.0) <= 0):
        return _cut(f"needs its graph: {advice.needs_graph[0]} ({speed:.2f}x per call)")
    if advice is not None and advice.pays_back_after is not None:
        if v is Verdict.LEAVE_EAGER:
            return (f"decorate if it runs more than {advice.pays_back_after:.0f} calls (this run: {advice.calls}); "
                    f"{speed:.1f}x faster per warm call")
        return f"{speed:.1f}x faster per call; pays back after {advice.pays_back_after:.0f} calls (this run: {advice.calls})"
    text = f"{speed:.1f}x faster per call as a graph"
    if m.break_even_calls is not None:
        text += f"; pays back after {m.break_even_calls:.0f} calls"
    elif speed <= 1:
        text = f"graph not faster ({speed:.2f}x)"
    if p.per_call_of is not None and v is Verdict.DECORATE:
        text += f"; one tf.function per call of {local_id(p.per_call_of[0])} (new models)"
    return text


def to_function_report(p: Projection) -> FunctionReport:
    """The schema's function entry: static facts (when check knows the function) and measurement."""
    s = p.stats
    static = p.static
    d = p.decision
    return FunctionReport(
        id=p.id,
        path=p.path,
        qualname=s.qualname,
        line=static.line if static else max(1, s.line),
        end_line=static.end_line if static else max(1, s.line),
        decorated=s.decorated,
        facts=static.facts if static else Facts(),
        verdict=d.verdict if d else Verdict.LEAVE_EAGER,
        reasons=list(d.reasons) if d else [],
        confidence=d.confidence if d else "speculative",
        assumptions=list(d.assumptions) if d else [],
        measurement=p.measurement or Measurement(
            calls=s.calls, eager_s=(s.inclusive_s / s.calls) if s.calls else None,
            error=p.replay.error if p.replay is not None else None),
        advice=d.advice if d else None,
    )


def findings_of(p: Projection) -> list[Finding]:
    return list(p.decision.findings) if p.decision else []


def covered_finding(p: Projection) -> Finding | None:
    """TF505 (info) for a function whose every call runs inside a graph the report advises."""
    if not p.covered_by or p.calls:
        return None
    callers = ", ".join(sorted(set(p.covered_by)))
    return Finding(
        rule="TF505", severity=Severity.INFO, path=p.path, line=max(1, p.stats.line), col=0,
        end_line=max(1, p.stats.line), end_col=0, function=p.id,
        message=(f"all {p.stats.calls} calls come from {callers}, which runs as a graph: decorating it adds nothing"
                 if p.stats.calls else
                 f"called only while tracing ({plural(p.stats.traced_calls, 'time')}): it already runs inside a graph"),
    )


def _cut(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def as_tensors(p: Projection) -> dict[str, str] | None:
    """Parameter -> dtype for Python numbers that replay passed as tensors (reconfigure advice)."""
    t = p.replay.tensorized if p.replay else None
    if t is None or t.error or not t.dtypes:
        return None
    try:
        names = list(inspect.signature(p.stats.function).parameters)
    except (TypeError, ValueError):
        names = []
    out: dict[str, str] = {}
    for path, dtype in t.dtypes.items():
        match = re.match(r"arg\[(\d+)\](.*)", path)
        if match and int(match.group(1)) < len(names):
            out[names[int(match.group(1))] + match.group(2)] = dtype
        else:
            out[re.sub(r"^kw\['?([^'\]]+)'?\]", r"\1", path)] = dtype
    return out
