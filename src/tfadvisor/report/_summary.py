"""Numbers derived from a Report for display: counts per verdict and the projected time saved.

Kept apart from rendering so that every renderer (text, HTML) states the same figures.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from tfadvisor.model import FunctionReport, Report, Severity, Verdict

VERDICT_ORDER: tuple[Verdict, ...] = (
    Verdict.DECORATE,
    Verdict.FIX_FIRST,
    Verdict.RECONFIGURE,
    Verdict.UNDECORATE,
    Verdict.KEEP,
    Verdict.LEAVE_EAGER,
)


def projected_saving_s(fn: FunctionReport) -> float | None:
    """Seconds the verdict would save over the measured calls, or None without a measurement.

    The advice's own saving (``Advice.saving_s``: decorate, reconfigure and undecorate alike, the
    saving of the change against the code as it is, so positive for every advised change); other
    verdicts change nothing (``fix-first`` needs a person first). The same figure the text
    report sums, so the HTML summary, its table and the text agree (issue 21: an undecorate
    saving was shown with the opposite sign).
    """
    if fn.advice is not None:
        return (fn.advice.saving_s if fn.advice.verdict.edits_code else 0.0)
    m = fn.measurement
    if m is None or m.saved_s is None:
        return None
    return m.saved_s if fn.verdict.edits_code else 0.0


@dataclass
class Summary:
    functions: int = 0
    per_verdict: dict[Verdict, int] = field(default_factory=dict)
    findings: int = 0
    per_severity: dict[Severity, int] = field(default_factory=dict)
    suppressed: int = 0
    files: int = 0
    file_errors: int = 0
    measured: int = 0
    projected_saving_s: float | None = None  # None when nothing was measured
    measured_eager_s: float | None = None  # total time of the measured calls, eager
    measured_graph_s: float | None = None  # same calls as tf.function, trace included


def summarize(report: Report) -> Summary:
    verdicts = Counter(fn.verdict for fn in report.functions)
    active = [f for f in report.findings if not f.suppressed]
    severities = Counter(f.severity for f in active)
    out = Summary(
        functions=len(report.functions),
        per_verdict={v: verdicts.get(v, 0) for v in VERDICT_ORDER},
        findings=len(active),
        per_severity={s: severities.get(s, 0) for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)},
        suppressed=len(report.findings) - len(active),
        files=len(report.files),
        file_errors=sum(1 for f in report.files if f.status == "error"),
    )
    savings = [s for s in (projected_saving_s(fn) for fn in report.functions) if s is not None]
    measured = [fn.measurement for fn in report.functions if fn.measurement is not None]
    out.measured = len(measured)
    if savings:
        out.projected_saving_s = sum(savings)
    eager = [m.calls * m.eager_s for m in measured if m.eager_s is not None]
    graph = [m.calls * m.graph_s + (m.trace_s or 0.0) for m in measured if m.graph_s is not None]
    out.measured_eager_s = sum(eager) if eager else None
    out.measured_graph_s = sum(graph) if graph else None
    return out


def format_seconds(value: float | None, signed: bool = False) -> str:
    """Human units: ``1.23 s``, ``45.6 ms``, ``789 µs``; ``-`` for None."""
    if value is None:
        return "-"
    sign = ("+" if value > 0 else "-" if value < 0 else "") if signed else ("-" if value < 0 else "")
    v = abs(value)
    if v >= 1:
        text = f"{v:.2f} s"
    elif v >= 1e-3:
        text = f"{v * 1e3:.3g} ms"
    elif v >= 1e-6:
        text = f"{v * 1e6:.3g} µs"
    elif v == 0:
        text = "0 s"
    else:
        text = f"{v * 1e9:.3g} ns"
    return sign + text
