"""One self-contained HTML file: summary, sortable function table, plots, findings with source.

Works offline (no CDN, no web fonts, plots as inline SVG) and is safe to open: every piece of user
content (names, messages, source lines) is HTML-escaped, the only script is a constant whose hash
is pinned by the page's Content Security Policy, and the policy forbids any network load.
Source lines are read from the files at render time when they exist (``root``: the folder the
report's paths are relative to, by default the current one).
"""

from __future__ import annotations

from html import escape
from typing import Any

from tfadvisor import __version__
from tfadvisor.model import Finding, FunctionReport, Report, local_id
from tfadvisor.report._html_assets import CSS, SCRIPT, content_security_policy
from tfadvisor.report._rules import rule_info, shown_reasons
from tfadvisor.report._source import char_col, view
from tfadvisor.report._summary import VERDICT_ORDER, format_seconds, projected_saving_s, summarize
from tfadvisor.report.run_facts import run_facts

CONTEXT_LINES = 2
MAX_EXCERPT = 12

VERDICT_MEANING = {
    "decorate": "eager today; safe as a tf.function and expected or measured to pay off",
    "keep": "already a tf.function and right to be one",
    "reconfigure": "keep tf.function but change its options",
    "undecorate": "a tf.function that costs more than it gives",
    "fix-first": "would pay off, but behaves differently or fails under tf.function until fixed",
    "leave-eager": "should stay eager",
}


def _e(value: Any) -> str:
    return escape(str(value), quote=True)


def _verdict_badge(verdict: str) -> str:
    return f'<span class="verdict v-{_e(verdict)}" title="{_e(VERDICT_MEANING.get(verdict, ""))}">{_e(verdict)}</span>'


def _num_cell(value: float | None, text: str, css: str = "") -> str:
    sort = "" if value is None else repr(float(value))
    cls = f"num {css}".strip()
    return f'<td class="{cls}" data-sort="{sort}">{_e(text)}</td>'


def _summary(report: Report) -> str:
    s = summarize(report)
    cards = [f'<div class="card"><span class="n">{s.functions}</span><span class="k">functions</span></div>']
    for verdict in VERDICT_ORDER:
        n = s.per_verdict.get(verdict, 0)
        cards.append(
            f'<div class="card"><span class="n">{n}</span><span class="k">{_verdict_badge(verdict.value)}</span></div>'
        )
    out = ['<section id="summary"><h2>Summary</h2><div class="cards">', *cards, "</div>"]
    facts = [
        f"{s.findings} finding{'s' if s.findings != 1 else ''} "
        f"({', '.join(f'{n} {sev.value}' for sev, n in s.per_severity.items() if n) or 'none'})"
        + (f", {s.suppressed} suppressed" if s.suppressed else ""),
        f"{s.files} file{'s' if s.files != 1 else ''} analysed"
        + (f", {s.file_errors} could not be read" if s.file_errors else ""),
    ]
    if s.measured:
        facts.append(f"{s.measured} function{'s' if s.measured != 1 else ''} measured")
    if s.projected_saving_s is not None:
        css = "gain" if s.projected_saving_s >= 0 else "loss"
        facts.append(
            f'projected time saved by applying the verdicts: <strong class="{css}" id="projected-saving">'
            f"{_e(format_seconds(s.projected_saving_s, signed=True))}</strong> over the observed calls"
        )
    if s.measured_eager_s is not None and s.measured_graph_s is not None:
        facts.append(
            f"measured calls: {_e(format_seconds(s.measured_eager_s))} eager, "
            f"{_e(format_seconds(s.measured_graph_s))} as tf.function (trace included)"
        )
    out.append("<ul>" + "".join(f"<li>{f}</li>" for f in facts) + "</ul></section>")
    return "".join(out)


def _reasons(codes: list[str]) -> str:
    return " ".join(f'<code title="{_e(rule_info(c).title)}">{_e(c)}</code>' for c in codes)


def _function_row(fn: FunctionReport) -> str:
    m = fn.measurement
    saving = projected_saving_s(fn)
    saved = m.saved_s if m is not None else None
    where = f":{fn.line}" if fn.cell is None else f" cell {fn.cell}, line {fn.cell_line}"
    cells = [
        f'<td data-sort="{_e(fn.id)}"><code>{_e(local_id(fn.id))}</code><br>'
        f'<span class="muted">{_e(fn.path)}{_e(where)}</span></td>',
        f'<td data-sort="{VERDICT_ORDER.index(fn.verdict)}">{_verdict_badge(fn.verdict.value)}</td>',
        f"<td>{_reasons(shown_reasons(fn))}</td>",
        f'<td title="{_e("; ".join(fn.assumptions))}">{_e(fn.confidence)}</td>',
        _num_cell(m.calls if m else None, str(m.calls) if m else "-"),
        _num_cell(m.eager_s if m else None, format_seconds(m.eager_s) if m else "-"),
        _num_cell(m.graph_s if m else None, format_seconds(m.graph_s) if m else "-"),
        _num_cell(m.xla_s if m else None, format_seconds(m.xla_s) if m else "-"),
        _num_cell(m.trace_s if m else None, format_seconds(m.trace_s) if m else "-"),
        _num_cell(m.break_even_calls if m else None,
                  f"{m.break_even_calls:.0f}" if m and m.break_even_calls is not None else "-"),
        _num_cell(saved, format_seconds(saved, signed=True),
                  "" if saved is None else ("gain" if saved >= 0 else "loss")),
        _num_cell(saving, format_seconds(saving, signed=True),
                  "" if not saving else ("gain" if saving > 0 else "loss")),
    ]
    return f'<tr id="fn-{_e(fn.id)}">' + "".join(cells) + "</tr>"


COLUMNS = (
    ("function", "text", "path::qualname"),
    ("verdict", "number", "what to do with it"),
    ("reasons", "text", "rule codes the verdict rests on"),
    ("confidence", "text", "certain, or speculative where types were guessed"),
    ("calls", "number", "calls observed"),
    ("eager / call", "number", "steady-state median per call, eager"),
    ("graph / call", "number", "steady-state median per call, as tf.function"),
    ("xla / call", "number", "steady-state median per call, tf.function(jit_compile=True)"),
    ("trace", "number", "first-call overhead of graph mode"),
    ("break-even", "number", "calls needed to repay the trace"),
    ("graph saves", "number", "measured: calls x (eager - graph) - trace"),
    ("verdict saves", "number", "what applying this verdict saves over the observed calls"),
)


def _table(report: Report) -> str:
    if not report.functions:
        return '<section id="functions"><h2>Functions</h2><p class="muted">No functions found.</p></section>'
    head = "".join(
        f'<th scope="col" data-type="{kind}"{" class=num" if kind == "number" and name not in ("verdict",) else ""}'
        f' title="{_e(tip)}"><button type="button">{_e(name)}</button></th>'
        for name, kind, tip in COLUMNS
    )
    rows = "".join(_function_row(fn) for fn in report.functions)
    return (
        '<section id="functions"><h2>Functions</h2>'
        '<p class="muted">Click a column header to sort.</p>'
        f'<table class="sortable" id="function-table"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'
        f"{_measurement_notes(report)}</section>"
    )


def _measurement_notes(report: Report) -> str:
    """What the numbers alone do not say: failures, retraces and eager/graph differences."""
    items = []
    for fn in report.functions:
        m = fn.measurement
        if m is None:
            continue
        notes = []
        if m.error:
            notes.append(f"not measured: {m.error}")
        if m.equivalent is False:
            notes.append("results differ between eager and graph")
        notes.extend(f"difference: {d}" for d in m.differences)
        if m.traces and m.traces > 1:
            notes.append(f"{m.traces} traces")
        notes.extend(f"retrace: {r}" for r in m.retraces)
        notes.extend(f"{mm.mode} failed: {mm.error}" for mm in m.modes if mm.error and not m.error)
        if notes:
            items.append(f"<li><code>{_e(fn.qualname)}</code>: " + "; ".join(_e(n) for n in notes) + "</li>")
    if not items:
        return ""
    return '<h3>Measurement notes</h3><ul id="measurement-notes">' + "".join(items) + "</ul>"


def _run_info(report: Report) -> str:
    """The run-level facts `run` records (exit status, wall time...), scalars only."""
    if not report.run:
        return ""
    rows = "".join(f"<tr><th scope=row>{_e(label)}</th><td>{_e(value)}</td></tr>"
                   for label, value in run_facts(report.run.facts()))
    return f'<section id="run"><h2>Run</h2><table class="kv">{rows}</table></section>' if rows else ""


def _excerpt(f: Finding, root: str | None) -> str:
    src = view(f.path, root)
    if src is None or not 1 <= f.line <= len(src.lines):
        return ""
    end = min(max(f.line, f.end_line or f.line), len(src.lines))
    first = max(1, f.line - CONTEXT_LINES)
    last = min(len(src.lines), end + CONTEXT_LINES, first + MAX_EXCERPT - 1)
    if src.cells:  # a notebook: stay inside the finding's cell
        cell = src.cells[f.line - 1][0]
        while first < f.line and src.cells[first - 1][0] != cell:
            first += 1
        while last > end and src.cells[last - 1][0] != cell:
            last -= 1
    out = []
    for n in range(first, last + 1):
        hit = ' class="hit"' if f.line <= n <= end else ""
        out.append(f'<span{hit}><span class="ln">{_e(src.label(n))}</span>{_e(src.lines[n - 1])}</span>')
    return '<pre class="src">' + "".join(out) + "</pre>"


def _finding(f: Finding, root: str | None) -> str:
    info = rule_info(f.rule)
    fix = ""
    if f.fix is not None:
        fix = f'<p>Fix ({"safe" if f.fix.safe else "needs review"}): {_e(f.fix.description)}</p>'
    doc = ""
    if info.summary or info.why:
        doc = f"<details><summary>About {_e(info.code)}</summary><p>{_e(info.summary)}</p><p>{_e(info.why)}</p></details>"
    where = f"{f.path}:{f.line}:{char_col(f.path, f.line, f.col, root) + 1}"
    if f.cell is not None:
        where += f" (cell {f.cell}" + (f", line {f.cell_line})" if f.cell_line is not None else ")")
    return (
        f'<article class="finding" data-rule="{_e(f.rule)}">'
        f'<header><span class="sev sev-{_e(f.severity.value)}">{_e(f.severity.value)}</span>'
        f"<code>{_e(info.title)}</code><span class=muted>{_e(where)}</span>"
        + (f'<span class="muted">in <code>{_e(f.function.split("::", 1)[-1])}</code></span>' if f.function else "")
        + f"</header><p>{_e(f.message)}</p>{_excerpt(f, root)}{fix}{doc}</article>"
    )


def _findings(report: Report, root: str | None) -> str:
    active = sorted((f for f in report.findings if not f.suppressed), key=Finding.sort_key)
    suppressed = sorted((f for f in report.findings if f.suppressed), key=Finding.sort_key)
    out = ['<section id="findings"><h2>Findings</h2>']
    if not active:
        out.append('<p class="muted">No findings.</p>')
    current = None
    for f in active:
        if f.path != current:
            current = f.path
            out.append(f"<h3>{_e(f.path)}</h3>")
        out.append(_finding(f, root))
    if suppressed:
        out.append(f"<details><summary>{len(suppressed)} suppressed</summary>")
        out.extend(_finding(f, root) for f in suppressed)
        out.append("</details>")
    errors = [fs for fs in report.files if fs.status == "error"]
    if errors:
        out.append("<h3>Files that could not be analysed</h3><ul>")
        out.extend(f"<li><code>{_e(fs.path)}</code>: {_e(fs.error or 'unknown error')}</li>" for fs in errors)
        out.append("</ul>")
    for title, partial in (("Notebook cells that were skipped", [fs for fs in report.files if fs.skipped_cells]),
                           ("Lines that are not Python, skipped", [fs for fs in report.files if fs.skipped_lines])):
        if not partial:
            continue
        out.append(f"<h3>{title}</h3><ul>")
        out.extend(f"<li><code>{_e(fs.path)}</code>: {_e(fs.summary)}<ul>"
                   + "".join(f"<li>{_e(str(part))}</li>" for part in fs.skipped) + "</ul></li>"
                   for fs in partial)
        out.append("</ul>")
    out.append("</section>")
    return "".join(out)


def _plots(report: Report) -> str:
    if not any(fn.measurement is not None for fn in report.functions):
        return ""
    from tfadvisor.report.plots import plots

    figures = plots(report)
    if not figures:
        return ""
    body = "".join(
        f'<figure id="plot-{p.key}"><h3>{_e(p.title)}</h3>{p.svg}<figcaption>{_e(p.caption)}</figcaption></figure>'
        for p in figures
    )
    return f'<section id="plots"><h2>Measurements</h2>{body}</section>'


def render(report: Report, *, root: str | None = None, title: str | None = None, **_: Any) -> str:
    """The complete HTML document as text."""
    title = title or f"tfadvisor {report.command} report"
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{_e(content_security_policy())}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>"
        f"<header><h1>{_e(title)}</h1>"
        f'<p class="muted">tfadvisor {_e(__version__)}: should this be a @tf.function?</p></header>'
        f"<main>{_summary(report)}{_run_info(report)}{_table(report)}{_plots(report)}{_findings(report, root)}</main>"
        f"<script>{SCRIPT}</script></body></html>\n"
    )
