"""From an observed run to a ``Report``: rank, replay within the budget, project, merge static facts.

Order matters: functions are taken by observed (inclusive) time, callers before their callees, so
that a callee whose every call would run inside an advised graph is not replayed at all (TF505),
and the replay budget goes to the functions that matter. A partial report (observation and
static facts, no measurements) can be built at any point: ``build`` is called once before replay
so that a crash during replay still leaves a report on disk.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import Any

from tfadvisor.model import FileStatus, Finding, Report, RunRow, RunSummary, Verdict
from tfadvisor.paths import display_path
from tfadvisor.runtime.run import budget
from tfadvisor.runtime.run.observe import FunctionStats, HostTensor, Observer
from tfadvisor.runtime.run.projection import (
    Projection,
    covered_finding,
    decide,
    findings_of,
    one_per_call,
    retrace_options,
    to_function_report,
    uncovered,
)
from tfadvisor.runtime.run.session import ProgramResult

MAX_REPLAYED = 12  # the biggest functions (by share of the run) that take tensors

Progress = Callable[[int, int, str], None]


class RunAnalysis:
    """The state of one `run` after the program ended: projections, static report, replay progress."""

    def __init__(self, program: ProgramResult, observer: Observer, static: Report | None, budget_s: float | None):
        self.program = program
        self.observer = observer
        self.static = static
        chosen = budget.choose(budget_s, program.wall_s)
        self.budget_s = chosen.seconds
        self.budget_basis = chosen.basis
        self.replay_s = 0.0
        self.replayed = 0
        self.interrupted = False
        index = _static_index(static)
        self.projections: list[Projection] = []
        for stats in observer.observed():
            path = display_path(stats.filename)
            static_fn = _static_match(index, stats)
            p = Projection(stats=stats, id=static_fn.id if static_fn else f"{path}::{stats.qualname}", path=path)
            p.static = static_fn
            p.static_rules = {f.rule for f in self._static_findings_of(static_fn)}
            p.calls = stats.calls
            p.eager_total_s = stats.inclusive_s
            self.projections.append(p)
        self.by_key = {p.stats.key: p for p in self.projections}

    def analyse(self, progress: Progress | None = None, checkpoint: Callable[[], None] | None = None) -> None:
        """Replay and decide, biggest first, within the budget; ``checkpoint`` after each function."""
        from tfadvisor.runtime.run.replay import replay

        start = time.perf_counter()
        todo = [p for p in self.projections if _worth(p)]
        for p in self.projections:
            frac = uncovered(p, self.by_key)
            p.calls = round(p.stats.calls * frac)
            p.eager_total_s = p.stats.inclusive_s * frac
            if p.stats.calls == 0 and p.stats.traced_calls:
                p.covered_by.append("a tf.function (called only while tracing)")
                p.skipped = "called only while a tf.function traces: it already runs as part of a graph"
                decide(p)
                _mark_covered(p)
                continue
            if p.calls == 0 and p.covered_by:
                p.skipped = "every call runs inside " + ", ".join(sorted(set(p.covered_by)))
                decide(p)
                _mark_covered(p)
                continue
            p.per_call_of = one_per_call(p, self.by_key)
            reason = None if p in todo[:MAX_REPLAYED] else _skip_reason(p)
            if reason is None and self.budget_s <= 0:
                reason = "observation only (--budget 0)"
            if reason is None and not self.interrupted:
                remaining = self.budget_s - (time.perf_counter() - start)
                stakes_left = sum(q.eager_total_s for q in todo[:MAX_REPLAYED] if q.decision is None)
                limit = budget.limit_for(p.eager_total_s, stakes_left, remaining)
                if remaining < budget.MIN_LIMIT_S:
                    reason = f"replay budget ({self.budget_s:.1f} s) used up"
                else:
                    reason = budget.too_costly(p.eager_total_s / max(1, p.calls), limit)
                if reason is None:
                    if progress:
                        progress(self.replayed, len(todo), p.stats.qualname)
                    try:
                        retraces = p.static is not None and any(r in ("TF101", "TF503") for r in p.static.reasons)
                        p.replay = replay(p.stats, limit_s=limit, try_tensors=retraces)
                    except KeyboardInterrupt:
                        self.interrupted = True
                        reason = "replay interrupted (Ctrl-C)"
                    self.replayed += 1
            p.skipped = reason
            decide(p)
            if checkpoint and p.replay is not None:  # a replay is what a crash now would lose
                checkpoint()
        self.replay_s = time.perf_counter() - start


    def report(self) -> Report:
        """The report as it stands (before, during or after replay)."""
        functions, findings = [], []
        wall = self.program.wall_s or 1e-9
        rows = []
        ranked = sorted(self.projections, key=lambda p: -p.stats.inclusive_s)
        for rank, p in enumerate(ranked, 1):
            functions.append(to_function_report(p))
            findings.extend(findings_of(p))
            covered = covered_finding(p)
            if covered:
                findings.append(covered)
            if p.static is not None and p.verdict is not Verdict.LEAVE_EAGER:
                # hazards stand; TF5xx restate check's verdict, which the measured one replaces
                findings.extend(f for f in self._static_findings(p.id)
                                if f not in findings and (p.replay is None or not f.rule.startswith("TF5")))
            rows.append(_row(p, rank, wall))
        files = list(self.static.files) if self.static else []
        if not files and self.program.outcome != "not-found" and not self.program.is_module:
            files = [FileStatus(display_path(self.program.target))]
        run = RunSummary(
            **self.program.to_dict(),
            observed_functions=len(self.projections),
            replayed_functions=self.replayed,
            budget_s=round(self.budget_s, 3),
            budget_basis=self.budget_basis,
            replay_s=round(self.replay_s, 3),
            replay_interrupted=self.interrupted,
            memory_budget_bytes=self.observer.memory_budget,
            memory_used_bytes=self.observer.memory_used,
            projected_saved_s=round(sum(r.saved_s or 0.0 for r in rows if r.advised), 6),
            table=rows,
        )
        findings.sort(key=Finding.sort_key)
        return Report(files=files, functions=functions, findings=findings, command="run", run=run)

    def _static_findings_of(self, static_fn: Any) -> list[Finding]:
        if self.static is None or static_fn is None:
            return []
        return [f for f in self.static.findings if f.function == static_fn.id and not f.suppressed]

    def _static_findings(self, function_id: str) -> list[Finding]:
        if self.static is None:
            return []
        static_fn = next((p.static for p in self.projections if p.id == function_id), None)
        if static_fn is None:
            return []
        return [f for f in self.static.findings if f.function == static_fn.id and not f.suppressed]


def _row(p: Projection, rank: int, wall: float) -> RunRow:
    """One line of the ranked table (data only; report/run_text.py renders it): the verdict and
    saving are the advice's, so the table, the summary and fix say the same."""
    s = p.stats
    advice = p.decision.advice if p.decision is not None else None
    saved = advice.saving_s if advice is not None and p.replay is not None and p.replay.eager_s is not None else p.saved_s
    return RunRow(
        rank=rank,
        id=p.id,
        qualname=s.qualname,
        calls=s.calls,
        uncovered_calls=p.calls,
        eager_s=round(s.inclusive_s, 6),
        own_s=round(s.own_s, 6),
        share=round(s.inclusive_s / wall, 4),
        projected_s=None if p.projected_total_s is None else round(p.projected_total_s, 6),
        saved_s=None if saved is None else round(saved, 6),
        verdict=p.verdict,
        advised=p.verdict.edits_code,
        why=p.why,
        decorated=s.decorated,
        signatures=len(s.signatures),
        traces_observed=s.traces if s.decorated else None,
        traced_calls=s.traced_calls,
        errors=s.errors,
        covered_by=sorted(set(p.covered_by)),
        replayed=p.replay is not None,
        replay_error=p.replay.error if p.replay else None,
        samples=len(s.samples),
        as_tensors=next((e.arguments for e in advice.edits if e.kind == "pass-as-tensors"), None) if advice else None,
        retraces=retrace_options(s) if len(s.signatures) > 1 else None,
    )


def _worth(p: Projection) -> bool:
    """Replayed whatever its share of the run (the share orders, it does not veto: a 5x faster
    function is worth decorating at 0.5% of one run), as long as it takes tensors."""
    return _has_tensor_argument(p.stats)


def _skip_reason(p: Projection) -> str:
    return f"not among the {MAX_REPLAYED} biggest functions" if _worth(p) else "no tensor among its arguments"


def _mark_covered(p: Projection) -> None:
    from tfadvisor.advice.measured import covered

    p.decision = covered(decorated=p.stats.decorated, callers=p.covered_by, calls=p.stats.calls)
    p.why = "covered: runs inside " + ", ".join(sorted({c.split('::')[-1] for c in p.covered_by}))
    p.saved_s = 0.0


def _has_tensor_argument(stats: FunctionStats) -> bool:
    """Replay only what takes tensors, arrays or variables (a driver like main() is never re-run)."""
    return any(_tensor_leaf((s.args, s.kwargs)) for s in stats.samples)


def _tensor_leaf(value: Any, depth: int = 0) -> bool:
    if isinstance(value, HostTensor):
        return True
    if depth > 6:
        return False
    if isinstance(value, (list, tuple)):
        return any(_tensor_leaf(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return any(_tensor_leaf(v, depth + 1) for v in value.values())
    name = type(value).__name__
    return name == "ndarray" or ("Variable" in name and hasattr(value, "assign"))


def _static_index(static: Report | None) -> dict[tuple[str, str], list[Any]]:
    """(real path, qualname) -> its static entries: more than one for a name defined again."""
    out: dict[tuple[str, str], list[Any]] = {}
    for f in static.functions if static is not None else ():
        out.setdefault((os.path.realpath(f.path), f.qualname), []).append(f)
    return out


def _static_match(index: dict[tuple[str, str], list[Any]], stats: FunctionStats) -> Any:
    """The static entry of the definition that ran: the first ``def`` at or below the code's first
    line (its decorators come first), else the first definition."""
    found = index.get((os.path.realpath(stats.filename), stats.qualname), [])
    at_or_below = [f for f in found if f.line >= stats.line]
    return min(at_or_below, key=lambda f: f.line) if at_or_below else (found[0] if found else None)
