"""The notebook side of tfadvisor: ``%load_ext tfadvisor`` registers two line magics.

``%tfadvisor_check``
    checks the cells run so far (the ``In[]`` history) with the same static analysis as
    ``tfadvisor check``, and names findings by cell (``In [3], line 2``).
``%tfadvisor_profile f --calls EXPR``
    measures a function defined in the notebook eagerly, as a tf.function and with XLA, in a child
    process (``tfadvisor.profile``); ``EXPR`` is evaluated in the notebook and gives the calls.
``%%tfadvisor_run [--budget S]``
    runs the cell with the functions defined in earlier cells observed, then replays them in the
    kernel (``tfadvisor run`` for a cell, on the notebook's live objects, which it leaves exactly
    as it found them: same objects, same values).

Both return a result object that shows itself as text in a terminal and as a small HTML table in
Jupyter, and keeps the full ``Report`` in ``.report`` (``.save_html(path)`` writes the HTML report).
Importing this module never imports TensorFlow; only profiling does, in the child process.
"""

from __future__ import annotations

import argparse
import shlex
from dataclasses import dataclass, field
from html import escape
from typing import Any

from tfadvisor.model import Finding, FunctionReport, Report, RunSummary, Verdict
from tfadvisor.report._rules import shown_reasons
from tfadvisor.report._summary import format_seconds, summarize
from tfadvisor.wording import plural

NOTEBOOK_PATH = "<notebook>.py"


# -- the In[] history as one checkable text ----------------------------------------------------------


@dataclass
class History:
    """The notebook's cells joined into one Python text, and each line's (cell number, line in cell)."""

    text: str
    cell_map: list[tuple[int, int]] = field(default_factory=list)
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (cell number, why)

    def locate(self, line: int) -> tuple[int, int] | None:
        if 1 <= line <= len(self.cell_map):
            return self.cell_map[line - 1]
        return None


def join_cells(cells: list[tuple[int, str]]) -> History:
    """Join ``(cell number, source)`` pairs the way ``tfadvisor check`` joins a notebook's cells (as
    IPython reads them, line for line); cells that do not parse are left out and listed."""
    from tfadvisor.sources.notebook import join_cells as join

    source = join(NOTEBOOK_PATH, [(number - 1, text) for number, text in cells])
    return History(text=source.text, cell_map=[(cell + 1, line + 1) for cell, line in source.cell_map],
                   skipped=[(c.cell, c.reason + (f" (line {c.line})" if c.line else "")) for c in source.skipped_cells])


def notebook_cells(ipython: Any) -> list[tuple[int, str]]:
    """``(execution count, raw source)`` of every cell run so far in this session."""
    raw = list(getattr(ipython.history_manager, "input_hist_raw", []) or [])
    return [(n, src) for n, src in enumerate(raw) if n > 0 and src and src.strip()]


def check_history(cells: list[tuple[int, str]]) -> tuple[Report, History]:
    """Static check of the joined cells; findings carry their cell and line in cell."""
    from tfadvisor.check import check_source

    history = join_cells(cells)
    report = check_source(history.text, NOTEBOOK_PATH, notebook=True)
    for finding in report.findings:
        where = history.locate(finding.line)
        if where is not None:
            finding.cell, finding.cell_line = where
    return report, history


# -- results shown in the notebook -------------------------------------------------------------------


def _where(f: Finding) -> str:
    if f.cell is not None:
        return f"In [{f.cell}], line {f.cell_line}"
    return f"line {f.line}"


@dataclass
class NotebookResult:
    """What a magic returns: text in a terminal, an HTML table in Jupyter, the report inside."""

    report: Report
    title: str
    history: History | None = None
    notes: list[str] = field(default_factory=list)

    def _functions(self) -> list[Any]:
        return [fn for fn in self.report.functions if fn.verdict is not Verdict.LEAVE_EAGER or fn.measurement]

    def _fn_where(self, fn: Any) -> str:
        if fn.cell is not None:
            return f"In [{fn.cell}], line {fn.cell_line}"
        if self.history is not None and fn.path == NOTEBOOK_PATH:
            where = self.history.locate(fn.line)
            if where is not None:
                return f"In [{where[0]}]"
        return f"{fn.path}:{fn.line}"

    def text(self) -> str:
        s = summarize(self.report)
        counts = ", ".join(f"{n} {v.value}" for v, n in s.per_verdict.items() if n) or "none"
        lines = [f"{self.title}: {plural(s.functions, 'function')} ({counts}), {plural(s.findings, 'finding')}"]
        for fn in self._functions():
            line = f"  {fn.qualname} ({self._fn_where(fn)}): {fn.verdict.value}"
            if shown_reasons(fn):
                line += " [" + ", ".join(shown_reasons(fn)) + "]"
            m = fn.measurement
            if m is not None and m.error is None and m.eager_s is not None:
                line += (f"; eager {format_seconds(m.eager_s)}/call, graph {format_seconds(m.graph_s)}/call, "
                         f"trace {format_seconds(m.trace_s)}, saves {format_seconds(m.saved_s, signed=True)} "
                         f"over {plural(m.calls, 'call')}")
                if m.break_even_calls is not None:
                    line += f", break-even {m.break_even_calls:.0f} calls"
            elif m is not None and m.error:
                line += f"; not measured: {m.error}"
            lines.append(line)
        for f in sorted(self.report.findings, key=lambda f: (f.line, f.col)):
            if not f.suppressed:
                lines.append(f"  {_where(f)}: {f.rule} {f.message}")
        lines.extend(f"  note: {n}" for n in self.notes)
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(self.text())

    def _repr_html_(self) -> str:
        e = lambda v: escape(str(v), quote=True)  # noqa: E731
        rows = []
        for fn in self._functions():
            m = fn.measurement
            timing = "" if m is None or m.error or m.eager_s is None else (
                f"{e(format_seconds(m.eager_s))} → {e(format_seconds(m.graph_s))} per call; "
                f"saves {e(format_seconds(m.saved_s, signed=True))} over {plural(m.calls, 'call')}")
            rows.append(f"<tr><td><code>{e(fn.qualname)}</code></td><td>{e(self._fn_where(fn))}</td>"
                        f"<td><b>{e(fn.verdict.value)}</b></td><td>{e(', '.join(shown_reasons(fn)))}</td><td>{timing}</td></tr>")
        findings = "".join(
            f"<li>{e(_where(f))}: <code>{e(f.rule)}</code> {e(f.message)}</li>"
            for f in sorted(self.report.findings, key=lambda f: (f.line, f.col)) if not f.suppressed
        )
        notes = "".join(f"<li>{e(n)}</li>" for n in self.notes)
        table = ("<table><thead><tr><th>function</th><th>where</th><th>verdict</th><th>reasons</th>"
                 f"<th>measured</th></tr></thead><tbody>{''.join(rows)}</tbody></table>") if rows else ""
        return (f"<div class='tfadvisor'><p><b>{e(self.title)}</b></p>{table}"
                + (f"<ul>{findings}</ul>" if findings else "")
                + (f"<p>notes:</p><ul>{notes}</ul>" if notes else "") + "</div>")

    def save_html(self, path: str) -> str:
        """Write the full HTML report (with plots when measured) to ``path``; returns ``path``."""
        from tfadvisor.report import render
        from tfadvisor.report.output import write_atomic

        write_atomic(path, render(self.report, "html"))
        return path


# -- the magics --------------------------------------------------------------------------------------


class MagicUsageError(Exception):
    """Bad magic arguments: shown as one line, never a traceback."""


def _profile_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="%tfadvisor_profile", add_help=False, exit_on_error=False)
    parser.add_argument("function")
    parser.add_argument("--expected-calls", type=int, default=None)
    parser.add_argument("--modes", default="eager,graph,xla")
    parser.add_argument("--timeout", type=float, default=None)
    parser.add_argument("--html", default=None)
    parser.add_argument("--quiet", "-q", action="store_true")
    return parser


PROFILE_USAGE = ("usage: %tfadvisor_profile FUNCTION [--expected-calls N] [--modes eager,graph,xla] "
                 "[--timeout S] [--html FILE] [--quiet] --calls EXPR   (EXPR: a list of calls, each "
                 "(args, kwargs), a tuple of arguments, or one argument)")


def parse_profile_line(line: str) -> tuple[argparse.Namespace, str]:
    """Split ``f [options] --calls EXPR``: EXPR is the rest of the line, taken verbatim."""
    head, sep, expr = line.partition("--calls")
    if not sep or not expr.strip():
        raise MagicUsageError("--calls EXPR is required\n" + PROFILE_USAGE)
    try:
        args, unknown = _profile_parser().parse_known_args(shlex.split(head))
    except (argparse.ArgumentError, SystemExit, ValueError) as exc:
        raise MagicUsageError(f"{exc}\n{PROFILE_USAGE}") from None
    if unknown:
        raise MagicUsageError(f"unknown arguments: {' '.join(unknown)}\n{PROFILE_USAGE}")
    return args, expr.strip()


def as_calls(value: Any) -> list[tuple[tuple, dict]]:
    """Calls in the runtime's form: each item ``(args, kwargs)``, a tuple of arguments, or one argument."""
    try:
        items = list(value)
    except TypeError:
        raise MagicUsageError(f"--calls must give a list of calls, got {type(value).__name__}") from None
    out = []
    for item in items:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], (tuple, list)) and isinstance(item[1], dict):
            out.append((tuple(item[0]), dict(item[1])))
        elif isinstance(item, tuple):
            out.append((item, {}))
        else:
            out.append(((item,), {}))
    if not out:
        raise MagicUsageError("--calls gave no calls")
    return out


def _static_for(ipython: Any, fn: Any) -> tuple[Any, History | None]:
    """The notebook check's FunctionReport for ``fn`` (its facts inform the verdict), and the history."""
    try:
        report, history = check_history(notebook_cells(ipython))
    except Exception:  # noqa: BLE001 - static facts are a bonus; profiling goes on without them
        return None, None
    qualname = getattr(fn, "__qualname__", None)
    defined = [f for f in report.functions if f.qualname == qualname]  # the last run is the one live
    return (defined[-1] if defined else None), history


def profile_magic(ipython: Any, line: str) -> NotebookResult | None:
    try:
        args, expr = parse_profile_line(line)
        try:
            fn = ipython.ev(args.function)
        except Exception as exc:  # noqa: BLE001 - the user's name or expression
            raise MagicUsageError(f"cannot evaluate {args.function!r}: {type(exc).__name__}: {exc}") from None
        if not callable(fn):
            raise MagicUsageError(f"{args.function!r} is not callable")
        try:
            calls = as_calls(ipython.ev(expr))
        except MagicUsageError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise MagicUsageError(f"cannot evaluate --calls {expr!r}: {type(exc).__name__}: {exc}") from None
        modes = tuple(m.strip() for m in args.modes.split(",") if m.strip())
    except MagicUsageError as exc:
        print(f"tfadvisor: {exc}")
        return None

    from tfadvisor.runtime.profile.profiling import DEFAULT_TIMEOUT_S, profile

    name = getattr(fn, "__qualname__", args.function)
    if not args.quiet:
        print(f"tfadvisor: measuring {name} over {len(calls)} calls ({', '.join(modes)}) in a child process…")
    static, history = _static_for(ipython, fn)
    try:
        result = profile(fn, calls, modes=modes, expected_calls=args.expected_calls,
                         timeout=args.timeout or DEFAULT_TIMEOUT_S, static=static if static is not None else None)
    except ValueError as exc:  # bad modes and the like
        print(f"tfadvisor: {exc}")
        return None
    report = result.report()
    if static is not None:  # report the function where the notebook defined it
        for f in report.functions:
            f.path, f.line, f.end_line = static.path, static.line, static.end_line
    out = NotebookResult(report, f"tfadvisor profile {name}", history if static is not None else None)
    if not result.ok:
        out.notes.append(f"not measured ({result.error_kind}): {result.measurement.error}")
    if args.html:
        out.save_html(args.html)
        out.notes.append(f"HTML report written to {args.html}")
    return out


RUN_USAGE = "usage: %%tfadvisor_run [--budget SECONDS] [--html FILE] [--quiet]  (then the cell to run, observed)"


def _run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="%%tfadvisor_run", add_help=False, exit_on_error=False)
    parser.add_argument("--budget", type=float, default=60.0)
    parser.add_argument("--html", default=None)
    parser.add_argument("--quiet", "-q", action="store_true")
    return parser


def run_magic(ipython: Any, line: str, cell: str) -> NotebookResult | None:
    """Run ``cell`` observed, replay what it called, advise: ``tfadvisor run`` in the kernel."""
    try:
        args, unknown = _run_parser().parse_known_args(shlex.split(line))
        if unknown:
            raise MagicUsageError(f"unknown arguments: {' '.join(unknown)}")
    except (argparse.ArgumentError, SystemExit, ValueError, MagicUsageError) as exc:
        print(f"tfadvisor: {exc}\n{RUN_USAGE}")
        return None
    from tfadvisor.runtime import quiet
    from tfadvisor.runtime.run.notebook import run_cell

    transformed = ipython.transform_cell(cell)
    # Named and cached as IPython names its cells, so a traceback says "Cell In[7], line 3".
    code = compile(transformed, _cell_name(ipython, cell, transformed), "exec")

    def execute() -> None:
        exec(code, ipython.user_ns)

    def show(exc: BaseException) -> None:  # the user's frames only: not the magic's, not the observer's
        quiet.without_own_frames(exc)
        ipython.showtraceback(exc_tuple=(type(exc), exc, exc.__traceback__))

    if not args.quiet:
        print(f"tfadvisor: running the cell observed, then replaying what it called (up to {args.budget:g} s)…")
    with quiet.frames_hidden():
        report = run_cell(ipython.user_ns, execute, budget_s=args.budget, on_error=show)
    name_cells(report, cell_names(ipython))
    out = NotebookResult(report, "tfadvisor run (this cell)")
    rows = report.run.table if isinstance(report.run, RunSummary) else []
    out.notes.extend(f"{r.qualname}: {r.verdict.value}, {r.why}" for r in rows if r.why)
    if args.html:
        out.save_html(args.html)
        out.notes.append(f"HTML report written to {args.html}")
    return out


def _cell_name(ipython: Any, raw: str, transformed: str) -> str:
    # The running cell is the last one in the history (stored before it runs); IPython 9 has
    # already counted it in execution_count, IPython 8 has not.
    stored = len(getattr(ipython.history_manager, "input_hist_raw", []) or []) - 1
    try:
        return str(ipython.compile.cache(transformed, stored if stored > 0 else ipython.execution_count, raw_code=raw))
    except Exception:  # noqa: BLE001 - an IPython without the caching compiler: a plain name
        return "<tfadvisor_run cell>"


def cell_names(ipython: Any) -> dict[str, int]:
    """The file name Python gives each cell run so far (``<ipython-input-3-...>`` in a terminal,
    ``/tmp/ipykernel_.../123.py`` in Jupyter) -> its execution count, as IPython's compiler names
    them."""
    names: dict[str, int] = {}
    compiler = getattr(ipython, "compile", None)
    for number, raw in notebook_cells(ipython):
        try:
            names[str(compiler.get_code_name(raw, ipython.transform_cell(raw), number))] = number  # type: ignore[union-attr]
        except Exception:  # noqa: BLE001 - an older IPython: the compiler's own map below
            pass
    names.update({str(k): int(v) for k, v in (getattr(compiler, "_filename_map", None) or {}).items()})
    return names


def name_cells(report: Report, names: dict[str, int]) -> None:
    """Functions, findings and table rows of a cell's run, named by cell (``In [3], line 2``)
    instead of the kernel's file for the cell. The path becomes the notebook's, as in
    ``%tfadvisor_check``; ``line`` stays the line in the cell."""
    def new_id(value: str | None) -> str | None:
        if value is None:
            return None
        path, sep, rest = value.rpartition("::")
        return f"{NOTEBOOK_PATH}::{rest}" if sep and path in names else value

    items: list[FunctionReport | Finding] = [*report.functions, *report.findings]
    for item in items:
        if item.path in names:
            item.cell, item.cell_line = names[item.path], item.line
            item.path = NOTEBOOK_PATH
    for fn in report.functions:
        fn.id = new_id(fn.id) or fn.id
    for finding in report.findings:
        finding.function = new_id(finding.function)
    if isinstance(report.run, RunSummary):
        for row in report.run.table:
            row.id = new_id(row.id) or row.id


def check_magic(ipython: Any, line: str) -> NotebookResult | None:
    try:
        report, history = check_history(notebook_cells(ipython))
    except Exception as exc:  # noqa: BLE001 - one line in the notebook, never a traceback
        print(f"tfadvisor: the check failed: {type(exc).__name__}: {exc}")
        return None
    out = NotebookResult(report, "tfadvisor check (cells so far)", history)
    out.notes.extend(f"In [{n}] skipped: {why}" for n, why in history.skipped)
    path = line.strip()
    if path.startswith("--html"):
        target = path[len("--html"):].strip() or "tfadvisor-notebook.html"
        out.save_html(target)
        out.notes.append(f"HTML report written to {target}")
    return out


def load_ipython_extension(ipython: Any) -> None:
    """Register ``%tfadvisor_check``, ``%tfadvisor_profile`` and ``%%tfadvisor_run`` (``%load_ext tfadvisor``)."""

    def tfadvisor_check(line: str) -> NotebookResult | None:
        """%tfadvisor_check [--html FILE]: static verdicts and findings for the cells run so far."""
        return check_magic(ipython, line)

    def tfadvisor_profile(line: str) -> NotebookResult | None:
        return profile_magic(ipython, line)

    def tfadvisor_run(line: str, cell: str) -> NotebookResult | None:
        return run_magic(ipython, line, cell)

    tfadvisor_profile.__doc__ = "%tfadvisor_profile: measure eager against graph.\n\n" + PROFILE_USAGE
    tfadvisor_run.__doc__ = "%%tfadvisor_run: run the cell observed, replay in the kernel.\n\n" + RUN_USAGE
    ipython.register_magic_function(tfadvisor_check, "line", "tfadvisor_check")
    ipython.register_magic_function(tfadvisor_profile, "line", "tfadvisor_profile")
    ipython.register_magic_function(tfadvisor_run, "cell", "tfadvisor_run")


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext tfadvisor``: remove the magics again."""
    magics = ipython.magics_manager.magics.get("line", {})
    for name in ("tfadvisor_check", "tfadvisor_profile"):
        magics.pop(name, None)
    ipython.magics_manager.magics.get("cell", {}).pop("tfadvisor_run", None)
