"""Projecting replay measurements onto the observed run, and the verdict for each function.

Pure arithmetic over what ``observe`` saw and what ``run_replay`` measured (no TensorFlow):

- eager time is what the program really spent in the function (inclusive: a decorated function
  runs its callees in the graph too), over the calls not already covered by a caller that the
  report says to run as a graph (those calls would be inside that graph anyway);
- projected graph time = observed eager time x (replayed graph / replayed eager per call), so a
  machine busier during the run than during replay shifts both alike, plus one trace per
  distinct argument signature the program used (how tf.function keys its cache);
- for a function already decorated: observed time against the replayed eager time
  (undecorate) and against Python numbers passed as tensors (reconfigure: one trace).

The verdict itself comes from ``advice.measured.judge`` (the same model ``profile`` uses), fed
a ``Measurement`` for the observed run.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from typing import Any

from tfadvisor.advice.measured import Location, MeasuredDecision, break_even_calls, judge
from tfadvisor.model import Facts, Finding, FunctionReport, Measurement, ModeMeasurement, Severity, Verdict
from tfadvisor.runtime import signature as sigmod
from tfadvisor.runtime.observe import FunctionStats
from tfadvisor.runtime.run_replay import Replay

GRAPH_VERDICTS = (Verdict.DECORATE, Verdict.KEEP, Verdict.RECONFIGURE)
MIN_RUN_SHARE = 0.01  # a decorate verdict must save at least 1% of the observed run


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

    @property
    def verdict(self) -> Verdict:
        return self.decision.verdict if self.decision else Verdict.LEAVE_EAGER


def uncovered(p: Projection, by_key: dict[str, Projection]) -> float:
    """Fraction of ``p``'s calls not made from inside a function advised to run as a graph."""
    s = p.stats
    total = sum(s.callers.values()) or 1
    free = 0.0
    for caller, n in s.callers.items():
        parent = by_key.get(caller) if caller else None
        if parent is None or parent.stats is s:
            free += n
        elif parent.decision is not None and parent.verdict in GRAPH_VERDICTS:
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


def decide(p: Projection, run_wall_s: float) -> None:
    """Fill ``p``'s measurement projection and verdict from its observation and replay."""
    s, r = p.stats, p.replay
    location = Location(p.path, s.line, p.static.end_line if p.static else s.line, p.id)
    if r is None or r.eager_s is None:
        p.decision = _unmeasured(p)
        return
    per_call = p.eager_total_s / p.calls if p.calls else (s.inclusive_s / s.calls if s.calls else 0.0)
    lines, changed = retrace_explanations(s)
    m = Measurement(calls=p.calls, error=r.error, differences=list(r.differences), retraces=lines)
    m.equivalent = r.equivalent
    m.xla_equivalent = r.xla_equivalent
    # What fix needs for an input_signature: the distinct argument signatures observed.
    m.signatures = [seen.named for seen in s.signatures if seen.named] or None
    m.xla_s = _scaled(r.xla_s, r, per_call) if not s.decorated else r.xla_s
    eager_mode = ModeMeasurement("eager", per_call_s=per_call if not s.decorated else r.eager_s, rounds=1)
    graph_mode = ModeMeasurement("graph", error=r.graph_error)
    if s.decorated:
        m.eager_s = r.eager_s
        m.graph_s = r.graph_s
        m.trace_s = r.trace_s
        m.traces = s.traces or len(s.signatures)
        graph_mode.per_call_s = r.graph_s
        graph_mode.first_call_s = (r.graph_s or 0.0) + (r.trace_s or 0.0) if r.graph_s is not None else None
        graph_mode.traces = m.traces
    else:
        m.eager_s = per_call
        m.graph_s = _scaled(r.graph_s, r, per_call)
        m.trace_s = r.trace_s
        m.traces = len(s.signatures) + (1 if s.signatures_overflow else 0)
        graph_mode.per_call_s = m.graph_s
        graph_mode.first_call_s = (m.graph_s + (r.trace_s or 0.0)) if m.graph_s is not None else None
        graph_mode.traces = m.traces
    modes = [eager_mode, graph_mode]
    if r.xla_s is not None or r.xla_error:
        compile_s = max(0.0, r.xla_first_s - r.xla_s) if r.xla_first_s is not None and r.xla_s is not None else 0.0
        modes.append(ModeMeasurement("xla", per_call_s=m.xla_s, error=r.xla_error,
                                     first_call_s=m.xla_s + compile_s if m.xla_s is not None else None))
    m.modes = modes
    if m.graph_s is not None and m.trace_s is not None:
        m.break_even_calls = break_even_calls(m.graph_s + m.trace_s, m.eager_s, m.graph_s)
        if not s.decorated:
            p.projected_total_s = p.calls * m.graph_s + m.traces * m.trace_s
            m.saved_s = p.eager_total_s - p.projected_total_s
    p.decision = judge(m, decorated=s.decorated, static=p.static, measured_calls=s.calls,
                       retrace_args=changed, location=location)
    _too_little(p, m, run_wall_s, location)
    if s.decorated:
        _project_decorated(p, m)
    p.saved_s = m.saved_s
    p.traces = m.traces
    if p.verdict is Verdict.RECONFIGURE and s.decorated and r.tensorized is not None and r.tensorized.equivalent is not False:
        m.as_tensors = as_tensors(p)  # the advice, which fix carries out at the call sites
    p.why = _why(p, m, run_wall_s)
    p.measurement = m  # type: ignore[attr-defined]


def _too_little(p: Projection, m: Measurement, run_wall_s: float, loc: Location) -> None:
    """A saving under MIN_RUN_SHARE of the run is within a shared machine's noise, and not worth
    AutoGraph's risks: leave the function eager (DESIGN: "gains too little")."""
    d = p.decision
    if d is None or d.verdict is not Verdict.DECORATE or m.saved_s is None or run_wall_s <= 0:
        return
    if m.saved_s >= MIN_RUN_SHARE * run_wall_s:
        return
    d.verdict = Verdict.LEAVE_EAGER
    d.reasons = ["TF602"]
    d.findings.append(Finding(
        rule="TF602", severity=Severity.INFO, path=loc.path, line=loc.line, col=0, end_line=loc.end_line, end_col=0,
        function=loc.function,
        message=(f"as a tf.function it would save {m.saved_s * 1e3:.0f} ms, {100 * m.saved_s / run_wall_s:.1f}% of "
                 f"this run (under {100 * MIN_RUN_SHARE:.0f}%): too little to be worth it"),
    ))


def _scaled(value: float | None, r: Replay, per_call: float) -> float | None:
    """A replayed per-call time, scaled by the observed/replayed eager ratio."""
    if value is None or not r.eager_s:
        return value
    return value * (per_call / r.eager_s)


def _project_decorated(p: Projection, m: Measurement) -> None:
    """For a tf.function already in the code: saving of the advised change over the observed run."""
    s, r = p.stats, p.replay
    assert r is not None
    observed = s.inclusive_s
    verdict = p.decision.verdict if p.decision else Verdict.KEEP
    t = r.tensorized
    if verdict is Verdict.RECONFIGURE and t is not None and t.graph_s is not None and t.error is None:
        traces = tensorized_traces(s)
        p.projected_total_s = s.calls * t.graph_s + traces * (r.trace_s or 0.0)
        if t.equivalent is False:
            p.decision.verdict = Verdict.FIX_FIRST  # type: ignore[union-attr]
            p.decision.reasons.append("TF603")  # type: ignore[union-attr]
    elif verdict is Verdict.UNDECORATE and m.eager_s is not None:
        p.projected_total_s = s.calls * m.eager_s
    else:  # keep: what the decorator saves today, against running eagerly
        p.projected_total_s = observed
        m.saved_s = (s.calls * m.eager_s - observed) if m.eager_s is not None else None
        return
    m.saved_s = observed - p.projected_total_s


def _unmeasured(p: Projection) -> MeasuredDecision:
    """No replay: keep the static verdict, but never advise decorating what was not measured."""
    static = p.static
    verdict = static.verdict if static else (Verdict.KEEP if p.stats.decorated else Verdict.LEAVE_EAGER)
    reasons = list(static.reasons) if static else []
    assumptions = list(static.assumptions) if static else []
    note = p.skipped or (p.replay.error if p.replay and p.replay.error else "not replayed")
    if verdict in (Verdict.DECORATE, Verdict.FIX_FIRST) and not p.stats.decorated:
        assumptions.append(f"not measured ({note}); the static verdict was {verdict.value}")
        verdict = Verdict.LEAVE_EAGER
    else:
        assumptions.append(f"not measured: {note}")
    p.why = note
    return MeasuredDecision(verdict=verdict, reasons=reasons, confidence="speculative", assumptions=assumptions)


def _why(p: Projection, m: Measurement, run_wall_s: float) -> str:
    """One short phrase for the table; the findings carry the details."""
    s, r, v = p.stats, p.replay, p.verdict
    assert r is not None
    if r.graph_error:
        return _cut(f"fails under tf.function: {r.graph_error}")
    if m.equivalent is False and m.differences:
        return _cut(f"differs under tf.function: {m.differences[0]}")
    if m.as_tensors:
        names = ", ".join(f"`{k}` as a {dtype} tensor" for k, dtype in m.as_tensors.items())
        return f"retraced {s.traces} times in {s.calls} calls; pass {names}: one trace"
    if v is Verdict.LEAVE_EAGER and p.decision and p.decision.reasons == ["TF602"] and m.saved_s and m.saved_s > 0:
        return f"saves only {100 * m.saved_s / max(run_wall_s, 1e-9):.1f}% of the run"
    if v is Verdict.FIX_FIRST:
        return "static hazards: " + ", ".join(x for x in p.decision.reasons if x.startswith("TF")) if p.decision else "fix first"
    if m.eager_s and m.graph_s:
        speed = m.eager_s / m.graph_s if m.graph_s else float("inf")
        text = f"{speed:.1f}x faster per call as a graph"
        if m.break_even_calls is not None:
            text += f"; pays back after {m.break_even_calls:.0f} calls"
        elif speed <= 1:
            text = f"graph not faster ({speed:.2f}x)"
        return text
    return ""


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
        measurement=getattr(p, "measurement", None) or Measurement(
            calls=s.calls, eager_s=(s.inclusive_s / s.calls) if s.calls else None,
            error=p.replay.error if p.replay is not None else None),
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
                 f"called only while tracing ({p.stats.traced_calls} times): it already runs inside a graph"),
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
