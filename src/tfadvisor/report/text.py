"""The terminal view: functions grouped by file with their verdicts, then findings, then a summary.

By default only functions whose verdict asks for a change are listed (``decorate``, ``fix-first``,
``reconfigure``, ``undecorate``); ``verbose`` lists every function. Colour only on a terminal.
"""

from __future__ import annotations

import importlib
import io
from collections import Counter, defaultdict
from typing import Any

from rich.console import Console
from rich.markup import escape

from tfadvisor.model import Finding, FunctionReport, Report, Verdict, local_id
from tfadvisor.report._rules import shown_reasons
from tfadvisor.wording import plural

VERDICT_STYLE = {
    Verdict.DECORATE: "bold green", Verdict.KEEP: "green", Verdict.RECONFIGURE: "yellow",
    Verdict.UNDECORATE: "magenta", Verdict.FIX_FIRST: "bold red", Verdict.LEAVE_EAGER: "dim",
}
SEVERITY_STYLE = {"error": "red", "warning": "yellow", "info": "cyan"}
OWN_VIEWS = {"run": "tfadvisor.report.run_text", "profile": "tfadvisor.report.profile_text"}


def render(report: Report, *, color: bool = False, verbose: bool = False, show_suppressed: bool = False,
           width: int = 100, **_: Any) -> str:
    if report.command in OWN_VIEWS:  # `run` ranks a table, `profile` shows one function's modes
        return importlib.import_module(OWN_VIEWS[report.command]).render(report, color=color, width=width)
    buffer = io.StringIO()
    out = Console(file=buffer, force_terminal=color, color_system="standard" if color else None,
                  width=width, highlight=False, soft_wrap=True)
    findings_by_function: dict[str | None, list[Finding]] = defaultdict(list)
    shown_findings = [f for f in report.findings if show_suppressed or not f.suppressed]
    for finding in shown_findings:
        findings_by_function[finding.function].append(finding)

    by_file: dict[str, list[FunctionReport]] = defaultdict(list)
    for fn in report.functions:
        if verbose or fn.verdict.asks_change or findings_by_function.get(fn.id):
            by_file[fn.path].append(fn)
    loose = defaultdict(list)  # findings outside any listed function (module level, other files)
    listed = {fn.id for fns in by_file.values() for fn in fns}
    for finding in shown_findings:
        if finding.function not in listed:
            loose[finding.path].append(finding)

    for path in sorted(set(by_file) | set(loose)):
        out.print(f"[bold]{escape(path)}[/]")
        for fn in sorted(by_file.get(path, []), key=lambda f: f.line):
            _function_line(out, fn)
            for finding in sorted(findings_by_function.get(fn.id, []), key=Finding.sort_key):
                _finding_line(out, finding)
        for finding in sorted(loose.get(path, []), key=Finding.sort_key):
            _finding_line(out, finding)
        out.print()

    for status in report.files:
        if status.status == "error":
            out.print(f"[red]error[/] {escape(status.path)}: {escape(status.error or '')}")
        elif status.skipped:  # analysed without some cells (notebook) or lines (module): say which
            out.print(f"[yellow]note[/] {escape(status.path)}: {status.summary}")
            for part in status.skipped:
                out.print(f"  {escape(str(part))}")
    _summary(out, report, shown_findings)
    return buffer.getvalue()


def _function_line(out: Console, fn: FunctionReport) -> None:
    style = VERDICT_STYLE[fn.verdict]
    reasons = " ".join(shown_reasons(fn))
    guess = {"speculative": " [dim](speculative)[/]",
             "unknown": " [dim](unknown: evidence missing; `tfadvisor run` decides)[/]"}.get(fn.confidence, "")
    where = f"{fn.line:>5}" if fn.cell is None else f"cell {fn.cell}, line {fn.cell_line}"
    name = local_id(fn.id)  # the qualname, with #2 for a second definition of it
    out.print(f"  {where}  {escape(name)}  [{style}]{fn.verdict}[/]  [dim]{reasons}[/]{guess}")
    m = fn.measurement
    if m and m.eager_s is not None and m.graph_s is not None:
        out.print(f"         measured: eager {m.eager_s * 1e3:.3f} ms, graph {m.graph_s * 1e3:.3f} ms per call"
                  + (f", saves {m.saved_s:.3f} s over {plural(m.calls, 'call')}" if m.saved_s is not None else ""))
    for assumption in fn.assumptions:
        out.print(f"         [dim]- {escape(assumption)}[/]")


def _finding_line(out: Console, finding: Finding) -> None:
    where = f"{finding.line}:{finding.col + 1}"
    if finding.cell is not None:
        where = f"cell {finding.cell}, line {finding.cell_line}"
    sup = " [dim](suppressed)[/]" if finding.suppressed else ""
    sev = finding.severity.value
    out.print(f"         {where:>8}  [{SEVERITY_STYLE[sev]}]{finding.rule}[/] {escape(finding.message)}{sup}")


def _summary(out: Console, report: Report, findings: list[Finding]) -> None:
    verdicts = Counter(fn.verdict for fn in report.functions)
    parts = [f"[{VERDICT_STYLE[v]}]{verdicts[v]} {v}[/]" for v in Verdict if verdicts[v]]
    severities = Counter(f.severity.value for f in findings if not f.suppressed)
    errors = sum(1 for f in report.files if f.status == "error")
    skipped = sum(len(f.skipped_cells) for f in report.files)
    partial = sum(1 for f in report.files if f.skipped_lines)
    unknown = sum(1 for fn in report.functions if fn.confidence == "unknown")
    out.print(f"{plural(len(report.functions), 'function')} in {plural(len(report.files), 'file')}: "
              + (", ".join(parts) or "none")
              + (f" ({unknown} of them unknown: evidence missing, `tfadvisor run` decides; -v lists them)"
                 if unknown else ""))
    finding_parts = [plural(severities[s], s) for s in ("error", "warning", "info") if severities[s]]
    out.print(plural(sum(severities.values()), "finding") + (f" ({', '.join(finding_parts)})" if finding_parts else "")
              + (f"; {plural(errors, 'file')} could not be analysed" if errors else "")
              + (f"; {plural(skipped, 'notebook cell')} skipped" if skipped else "")
              + (f"; {plural(partial, 'file')} analysed without lines that are not Python" if partial else ""))
