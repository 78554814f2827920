"""Text rendering of a `profile` report: a row per mode, the numbers that decide, the verdict and why.

Reads only the report's one function entry (its ``Measurement``) and findings, so a saved JSON
report re-renders identically with ``tfadvisor report FILE``.
"""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tfadvisor.model import AdviceEdit, Measurement, Report
from tfadvisor.wording import plural

MODE_LABELS = {"eager": "eager", "graph": "tf.function", "xla": "jit_compile"}


def render(report: Report, *, color: bool = False, width: int = 100, **_: Any) -> str:
    buffer = io.StringIO()
    out = Console(file=buffer, force_terminal=color, color_system="standard" if color else None, width=width,
                  highlight=False, soft_wrap=False)
    for fn in report.functions:
        out.print(f"[bold]{escape(fn.id)}[/bold]" + (" (tf.function)" if fn.decorated else ""))
        m = fn.measurement or Measurement(calls=0)
        out.print(_modes_table(m))
        out.print()
        for line in _numbers(m):
            out.print(line)
        out.print()
        reasons = ", ".join(fn.reasons) or "-"
        out.print(f"verdict: [bold]{fn.verdict}[/bold]  (reasons: {reasons}; {fn.confidence})")
        advice = fn.advice
        if advice is not None:  # the typed answer: why, and what fix --from would change
            if advice.why:
                out.print(f"  why: {escape(advice.why)}")
            if advice.edits:
                out.print("  fix --from applies: " + escape("; ".join(_edit_text(e) for e in advice.edits)))
        for assumption in fn.assumptions:
            out.print(f"  assumes: {escape(assumption)}")
    for f in report.findings:
        out.print(f"  {f.rule} {f.severity}: {escape(f.message)}")
    return buffer.getvalue()


def _edit_text(edit: AdviceEdit) -> str:
    if edit.kind == "pass-as-tensors":
        return "pass " + ", ".join(f"`{k}` as a {v} tensor" for k, v in (edit.arguments or {}).items()) + " where it is called"
    return edit.kind + (f" ({edit.option})" if edit.option else "")


def _modes_table(m: Measurement) -> Table:
    table = Table(show_edge=False, pad_edge=False, box=None, header_style="bold")
    for col in ("mode", "first call", "per call", "IQR", "rounds", "outliers", "traces", "status"):
        table.add_column(col, justify="left" if col in ("mode", "status") else "right")
    for mm in m.modes:
        table.add_row(MODE_LABELS.get(mm.mode, mm.mode), _ms(mm.first_call_s), _ms(mm.per_call_s), _ms(mm.iqr_s),
                      str(mm.rounds or "-"), str(mm.outliers) if mm.rounds else "-",
                      "-" if mm.traces is None else str(mm.traces),
                      "ok" if not mm.error else f"[red]{escape(mm.error[:70])}[/red]")
    return table


def _numbers(m: Measurement) -> list[str]:
    """Speed-up, tracing, break-even, saving, equivalence, retraces: one line each that applies."""
    lines = []
    if m.eager_s and m.graph_s:
        lines.append(f"graph speed-up per call: [bold]{m.eager_s / m.graph_s:.2f}x[/bold]"
                     + (f"   XLA: {m.eager_s / m.xla_s:.2f}x" if m.xla_s else ""))
    if m.trace_s is not None:
        lines.append(f"trace + compile (first call overhead): {_ms(m.trace_s)}")
    if m.break_even_calls is not None:
        lines.append(f"break-even after {m.break_even_calls:.0f} calls")
    elif m.eager_s and m.graph_s:
        lines.append("break-even: never (graph mode is not faster per call)")
    if m.saved_s is not None:
        word = "saved" if m.saved_s >= 0 else "lost"
        low, high = m.saved_interval_s or [m.saved_s, m.saved_s]
        lines.append(f"time {word} over {plural(m.calls, 'call')}: {abs(m.saved_s) * 1e3:.1f} ms "
                     f"(interval {low * 1e3:.1f} .. {high * 1e3:.1f} ms)")
    if m.equivalent is not None:
        lines.append("results match eager: " + ("yes" if m.equivalent else "[red]no[/red]"))
    lines.extend(f"  retrace: {escape(line)}" for line in m.retraces[:5])
    if m.error:
        lines.append(f"[red]not measured completely: {escape(m.error)}[/red]")
    return lines


def _ms(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1e3:.3g} ms"
