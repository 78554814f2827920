"""Text rendering of a `run` report: the program's outcome, a ranked table, then the findings.

Columns: ``time`` is what the program spent in the function as it ran (as written: graph time for a
tf.function, eager time otherwise), ``projected`` the same calls after the advised change, and
``saving`` the difference, with its share of the run only where a change is advised (a ``keep`` or
``leave-eager`` row saves nothing; its figure is what the other choice would save or lose).

Reads only ``report.run`` (the table rows built by ``runtime.run.analysis``) and the report's
findings, so a saved JSON report re-renders identically with ``tfadvisor report FILE``.
"""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console, JustifyMethod
from rich.table import Table

from tfadvisor.model import Report, RunRow, RunSummary
from tfadvisor.wording import plural

VERDICT_STYLE = {
    "decorate": "bold green", "keep": "green", "reconfigure": "yellow", "undecorate": "magenta",
    "fix-first": "bold red", "leave-eager": "dim",
}
SEVERITY_STYLE = {"error": "red", "warning": "yellow", "info": "cyan"}
MAX_ROWS = 25


def render(report: Report, *, color: bool = False, width: int = 100, **_: Any) -> str:
    buffer = io.StringIO()
    out = Console(file=buffer, force_terminal=color, color_system="standard" if color else None,
                  width=max(width, 130), highlight=False, soft_wrap=False)
    run = report.run if isinstance(report.run, RunSummary) else RunSummary()
    _header(out, run)
    rows = run.table
    if rows:
        table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
        columns: tuple[tuple[str, JustifyMethod], ...] = (
            ("#", "right"), ("function", "left"), ("calls", "right"), ("time", "right"), ("share", "right"),
            ("projected", "right"), ("saving", "right"), ("verdict", "left"), ("why", "left"))
        for name, justify in columns:
            table.add_column(name, justify=justify, overflow="fold" if name == "why" else "ellipsis",
                             no_wrap=name != "why", ratio=3 if name == "why" else None)
        for row in rows[:MAX_ROWS]:
            verdict = row.verdict.value
            table.add_row(
                str(row.rank), row.qualname, str(row.calls),
                _seconds(row.eager_s), f"{100 * row.share:.1f}%",
                _seconds(row.projected_s), _saving(row.saved_s, run.wall_s if row.advised else None),
                f"[{VERDICT_STYLE.get(verdict, '')}]{verdict}[/]" if color else verdict,
                row.why,
            )
        out.print(table)
        if len(rows) > MAX_ROWS:
            out.print(f"... and {len(rows) - MAX_ROWS} more functions (see --format json)")
    else:
        out.print("no function of the project was called")
    if run.keras:
        from tfadvisor.report import keras_text

        keras_text.render(out, run)
    findings = [f for f in report.findings if not f.suppressed]
    if findings:
        out.print()
        out.print("[bold]findings[/]" if color else "findings")
        for f in findings:
            sev = f.severity.value
            label = f"[{SEVERITY_STYLE[sev]}]{f.rule}[/]" if color else f.rule
            out.print(f"  {f.path}:{f.line}  {label} {_escape(f.message) if color else f.message}", markup=color, soft_wrap=True)
    out.print()
    _summary(out, run, rows)
    return buffer.getvalue()


def _header(out: Console, run: RunSummary) -> None:
    what = f"-m {run.target}" if run.module else run.target or "?"
    if run.outcome == "ok":
        ended = "ran to the end"
    elif run.outcome == "not-found":
        ended = f"did not start: {run.error}"
    elif run.outcome == "interrupted":
        ended = "was interrupted (Ctrl-C)"
    else:
        ended = f"ended with exit status {run.exit_status}" + (f": {run.error}" if run.error else "")
    budget = (f" (budget {run.budget_s:.1f} s: {run.budget_basis}, spent by share of the run)"
              if run.budget_basis and run.budget_s > 0 else "")
    replayed = ("observation only (--budget 0)" if run.budget_basis and run.budget_s <= 0 else
                f"{run.replayed_functions} replayed in {run.replay_s:.1f} s{budget}")
    out.print(f"tfadvisor run {what}: the program {ended} in {run.wall_s:.2f} s; "
              f"{plural(run.observed_functions, 'function')} observed, {replayed}", markup=False, soft_wrap=True)
    out.print()


def _summary(out: Console, run: RunSummary, rows: list[RunRow]) -> None:
    advised = [r for r in rows if r.advised]
    if not advised:
        out.print("no change advised for this run", markup=False)
        return
    saved = sum(r.saved_s or 0.0 for r in advised)
    share = f" ({100 * saved / run.wall_s:.0f}% of the run)" if run.wall_s else ""
    names = ", ".join(f"{r.verdict.value} {r.qualname}" for r in advised)
    out.print(f"advised: {names}; projected saving {saved:.2f} s{share}", markup=False, soft_wrap=True)


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    if abs(value) >= 1:
        return f"{value:.2f} s"
    return f"{value * 1e3:.1f} ms"


def _saving(value: float | None, wall: float | None) -> str:
    if value is None:
        return "-"
    text = ("+" if value >= 0 else "-") + _seconds(abs(value))
    if wall:
        text += f" ({100 * value / wall:+.0f}%)"
    return text


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)
