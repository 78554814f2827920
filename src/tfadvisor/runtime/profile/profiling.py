"""``profile()``: measure one function eagerly, as a tf.function and with XLA, and judge it.

Parent side only (never imports TensorFlow): it ships the function and its calls to a child
worker (``supervisor``), collects one ``ModeRun`` per mode, compares the modes, computes the
``Measurement`` of the schema and asks ``advice.measured.judge`` for the verdict and findings.

For many functions under one budget keep one ``Profiler`` open and call ``Profiler.profile`` per
function or ``profile_many``; ``Profiler(fresh_first_calls=False)`` imports TensorFlow once for all
of them, at the price of first calls measured in a process that has already run things.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tfadvisor.advice import measured
from tfadvisor.model import (
    Advice,
    Facts,
    FileStatus,
    Finding,
    FunctionReport,
    Measurement,
    ModeMeasurement,
    ProfileSummary,
    Report,
    Verdict,
)
from tfadvisor.runtime.equivalence import Noise, differences, noisy_paths
from tfadvisor.runtime.profile.results import MODES, ModeError, ModeRun, Where
from tfadvisor.runtime.profile.specs import JobSpec, NameRef, ResolveError, build_job
from tfadvisor.runtime.profile.supervisor import DEFAULT_MEMORY_LIMIT, Worker, WorkerDied, WorkerTimeout, describe_exit
from tfadvisor.runtime.timing import TimingConfig

DEFAULT_TIMEOUT_S = 60.0


@dataclass
class ProfileResult:
    """Everything measured about one function, and what it means."""

    target: str  # what was asked for ("pkg.mod:step", or the function's qualname)
    where: Where | None
    measurement: Measurement
    findings: list[Finding] = field(default_factory=list)
    verdict: Verdict = Verdict.LEAVE_EAGER
    reasons: list[str] = field(default_factory=list)
    confidence: str = "certain"
    assumptions: list[str] = field(default_factory=list)
    runs: dict[str, ModeRun] = field(default_factory=dict)  # per-mode details from the child
    error_kind: str | None = None  # set when the measurement itself failed (see results.ErrorKind)
    decorated: bool = False
    static: FunctionReport | None = None
    advice: Advice | None = None  # the typed answer (verdict, option, edits, saving) the report carries

    @property
    def ok(self) -> bool:
        """False when the function could not be measured (raised eagerly, hung, crashed...)."""
        return self.error_kind is None

    @property
    def function_id(self) -> str:
        if self.where is None:
            return self.target
        return f"{self.where.path}::{self.where.qualname}"

    def function_report(self) -> FunctionReport:
        w = self.where
        facts = self.static.facts if self.static is not None else Facts(tensor_computation=True, role="compute")
        return FunctionReport(
            id=self.function_id,
            path=w.path if w else "<unknown>",
            qualname=w.qualname if w else self.target,
            line=w.line if w else 1,
            end_line=w.end_line if w else 1,
            decorated=self.decorated,
            facts=facts,
            verdict=self.verdict,
            reasons=list(self.reasons),
            confidence=self.confidence,  # type: ignore[arg-type]
            assumptions=list(self.assumptions),
            measurement=self.measurement,
            advice=self.advice,
        )

    def report(self) -> Report:
        """A one-function ``Report`` (command ``profile``) for the shared renderers."""
        files = [FileStatus(self.where.path)] if self.where else []
        return Report(files=files, functions=[self.function_report()], findings=list(self.findings),
                      command="profile", run=ProfileSummary(self.target, self.error_kind))


class Profiler:
    """A reusable measuring session: a child worker, restarted after a timeout or a crash.

    First calls are what tracing costs, and a process remembers what it has run: AutoGraph's
    conversions, kernels and oneDNN primitives of the shapes seen. So with ``fresh_first_calls``
    (the default) every function starts in a worker that has not run it, and graph mode's first
    pass is taken again in a worker of its own: in one process it would follow eager's and find
    their shared one-time costs already paid, which a decorated program does pay. Costs one more
    TensorFlow start per function; ``fresh_first_calls=False`` keeps one worker for everything
    (faster, first calls flattered: for tests and quick looks).
    """

    def __init__(self, *, memory_limit: int | None = DEFAULT_MEMORY_LIMIT, timing: TimingConfig | None = None,
                 fresh_first_calls: bool = True) -> None:
        self.memory_limit = memory_limit
        self.timing = timing or TimingConfig()
        self.fresh_first_calls = fresh_first_calls
        self._worker: Worker | None = None  # started by a job: once there, it has run something

    def __enter__(self) -> Profiler:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None

    def profile(
        self,
        fn: Any,
        calls: Any,
        *,
        fresh: Any = None,
        observe: Any = None,
        modes: Sequence[str] = MODES,
        timeout: float = DEFAULT_TIMEOUT_S,
        expected_calls: int | None = None,
        timing: TimingConfig | None = None,
        static: FunctionReport | bool | None = True,
        progress: Callable[[str, str], None] | None = None,
    ) -> ProfileResult:
        """Measure ``fn`` over ``calls``; see ``tfadvisor.runtime.profile.profiling.profile``."""
        bad = [m for m in modes if m not in MODES]
        if bad or "eager" not in modes:
            raise ValueError(f"modes must include 'eager' and be among {MODES}, got {list(modes)}")
        target = str(fn) if isinstance(fn, (str, NameRef)) else getattr(fn, "__qualname__", repr(fn))
        try:
            spec = build_job(fn, calls, fresh, observe)
        except ResolveError as exc:
            return _failed(target, "resolve", str(exc))
        except Exception as exc:  # cloudpickle could not serialise something
            return _failed(target, "load", f"cannot send the function or its calls to a child process: {type(exc).__name__}: {exc}")
        ordered = [m for m in MODES if m in modes]
        if self.fresh_first_calls:
            self._drop_worker()  # a worker is only ever started by a job: this one has run another
        where, runs, kind = self._run(spec, ordered, timeout, timing or self.timing, progress)
        if self.fresh_first_calls and kind is None and "graph" in runs:
            if self._fresh_first_pass(spec, runs["graph"], timeout, progress):
                kind = "interrupted"
        return assemble(target, where, runs, ordered, expected_calls=expected_calls, static=static, error_kind=kind)

    def profile_many(
        self,
        targets: Iterable[Target],
        budget_s: float,
        *,
        progress: Callable[[int, int, Target, ProfileResult | None], None] | None = None,
        modes: Sequence[str] = MODES,
    ) -> list[ProfileResult]:
        """Profile each target within ``budget_s`` seconds in all; a target's time limit is its
        fair share of what is left (never more than its own ``timeout``). Targets that no longer
        fit are returned as failed with ``error_kind='timeout'`` and the message "budget exhausted".
        Ctrl-C ends the list early: its last result has ``error_kind='interrupted'``."""
        items = list(targets)
        end = time.monotonic() + budget_s
        results: list[ProfileResult] = []
        for i, t in enumerate(items):
            left = end - time.monotonic()
            if progress:
                progress(i, len(items), t, None)
            if left < 1.0:
                result = _failed(t.label(), "timeout", "not measured: the time budget was exhausted")
            else:
                share = min(t.timeout, left / (len(items) - i))
                result = self.profile(t.fn, t.calls, fresh=t.fresh, observe=t.observe, modes=modes,
                                      timeout=share, expected_calls=t.expected_calls, static=t.static)
            results.append(result)
            if progress:
                progress(i + 1, len(items), t, result)
            if result.error_kind == "interrupted":
                break  # Ctrl-C: the caller reports what was measured
        return results

    # -- the job, under time limits ---------------------------------------------------------------

    def _run(self, spec: JobSpec, modes: Sequence[str], timeout: float, timing: TimingConfig,
             progress: Callable[[str, str], None] | None) -> tuple[Where | None, dict[str, ModeRun], str | None]:
        """Run the job; on Ctrl-C stop the child and keep what was measured (kind "interrupted")."""
        job = _Job()
        try:
            kind = self._run_modes(spec, modes, timeout, timing, progress, job)
        except KeyboardInterrupt:
            self._drop_worker()
            error = ModeError("interrupted", "interrupted (Ctrl-C) before it was measured", phase=job.current)
            for mode in modes:
                run = job.runs.setdefault(mode, ModeRun(mode=mode))  # type: ignore[arg-type]
                if run.stats is None and run.error is None:
                    run.error = error
            return job.where, job.runs, "interrupted"
        return job.where, job.runs, kind or _failure_kind(job.runs)

    def _run_modes(self, spec: JobSpec, modes: Sequence[str], timeout: float, timing: TimingConfig,
                   progress: Callable[[str, str], None] | None, job: _Job) -> str | None:
        """Fill ``job``, restarting the worker after a timeout or a crash for the modes not yet
        timed (the failed mode excluded); every mode and the final timing phase get ``timeout``."""
        runs = job.runs
        failed: set[str] = set()
        remaining = list(modes)
        while remaining:
            try:
                worker = self._ensure_worker()
            except (WorkerDied, WorkerTimeout, OSError) as exc:
                tail = getattr(exc, "stderr_tail", "")
                message = f"the measuring process could not start TensorFlow: {exc}" + (f"\n{tail}" if tail else "")
                for mode in remaining:
                    runs[mode] = ModeRun(mode=mode, error=ModeError("load", message, phase="start"))  # type: ignore[arg-type]
                return "load"
            job.current = None
            deadline = time.monotonic() + timeout
            try:
                worker.send(("job", spec, remaining, timing, job.where is None, self._early_here()))
                for message in worker.messages(lambda: deadline):  # noqa: B023 (the deadline as extended below)
                    kind = message[0]
                    if kind == "mode-start":
                        job.current = message[1]
                        deadline = time.monotonic() + timeout
                        if progress:
                            progress(message[1], "start")
                    elif kind == "where":
                        job.where = message[1]
                    elif kind == "calls-values":
                        spec.calls_values = message[1]  # every later worker gets the same calls
                    elif kind == "generator-states":
                        spec.generator_states = message[1]
                    elif kind == "progress" and progress:
                        progress(message[1], message[2])
                    elif kind == "mode-result":
                        runs[message[1]] = message[2]
                    elif kind == "timed":
                        runs.update(message[1])
                remaining = []  # done (the child stops early on its own when eager fails)
            except (WorkerTimeout, WorkerDied) as exc:
                self._drop_worker()
                current = job.current
                if isinstance(exc, WorkerTimeout):
                    error = ModeError("timeout", f"no result within the time limit of {timeout:g} s", phase=current)
                else:
                    memory = exc.returncode is not None and exc.returncode < 0 and "alloc" in exc.stderr_tail.lower()
                    error = ModeError("memory" if memory else "crashed", describe_exit(exc.returncode),
                                      detail=exc.stderr_tail, phase=current)
                if current == "timing" or current is None:
                    if current == "timing":
                        error.message += " (while timing the steady state)"
                    for mode in remaining:
                        run = runs.setdefault(mode, ModeRun(mode=mode))  # type: ignore[arg-type]
                        if run.stats is None and run.error is None:
                            run.error = error
                    break
                run = ModeRun(mode=current)  # type: ignore[arg-type]
                run.error = error
                runs[current] = run
                failed.add(current)
                if current == "eager":
                    break
                # the other modes' timings died with the worker: prepare and time them again
                remaining = [m for m in modes if m not in failed and (m not in runs or runs[m].stats is None)
                             and (m not in runs or runs[m].error is None)]
        return None

    def _fresh_first_pass(self, spec: JobSpec, run: ModeRun, timeout: float,
                          progress: Callable[[str, str], None] | None) -> bool:
        """Take ``run``'s first-pass call times again in a new worker that runs only that mode;
        keeps the shared-process times if that fails (they are then flattered, not wrong).
        Returns True when Ctrl-C stopped it."""
        interrupted = False
        if run.error is not None or not run.call_times:
            return interrupted
        self._drop_worker()
        if progress:
            progress(run.mode, "first calls in a fresh process")
        try:
            worker = self._ensure_worker()
            worker.send(("job", spec, [run.mode], None, False, (run.mode,)))
            deadline = time.monotonic() + timeout
            for message in worker.messages(lambda: deadline):
                if message[0] == "mode-result" and message[2].error is None and message[2].call_times:
                    run.call_times = message[2].call_times
                    run.early_times = message[2].early_times
                    run.first_pass_pid = message[2].first_pass_pid
        except (WorkerTimeout, WorkerDied, OSError):
            pass
        except KeyboardInterrupt:
            interrupted = True
        finally:
            self._drop_worker()
        return interrupted

    def _early_here(self) -> tuple[str, ...]:
        """The modes whose early calls the shared worker times: those ``assemble`` uses (eager and
        graph, not XLA), less graph's when its first pass is taken again in a worker of its own."""
        return ("eager",) if self.fresh_first_calls else ("eager", "graph")

    def _ensure_worker(self) -> Worker:
        if self._worker is None or not self._worker.alive():
            self._drop_worker()
            self._worker = Worker(memory_limit=self.memory_limit)
        return self._worker

    def _drop_worker(self) -> None:
        if self._worker is not None:
            self._worker.kill()
            self._worker.close()
            self._worker = None


@dataclass
class _Job:
    """What one job has produced so far (kept when it is interrupted)."""

    runs: dict[str, ModeRun] = field(default_factory=dict)
    where: Where | None = None
    current: str | None = None  # the mode (or "timing") the child is on


@dataclass
class Target:
    """One function for ``profile_many``: what ``profile`` takes, bundled."""

    fn: Any  # a callable, or "module:qualname" / "path.py:qualname"
    calls: Any  # [(args, kwargs), ...], "module:factory", or a .pkl file of such a list
    fresh: Any = None
    observe: Any = None
    expected_calls: int | None = None
    timeout: float = DEFAULT_TIMEOUT_S
    static: FunctionReport | bool | None = True

    def label(self) -> str:
        return self.fn if isinstance(self.fn, str) else getattr(self.fn, "__qualname__", repr(self.fn))


def profile(
    fn: Any,
    calls: Any,
    *,
    fresh: Any = None,
    observe: Any = None,
    modes: Sequence[str] = MODES,
    timeout: float = DEFAULT_TIMEOUT_S,
    expected_calls: int | None = None,
    timing: TimingConfig | None = None,
    memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
    static: FunctionReport | bool | None = True,
    progress: Callable[[str, str], None] | None = None,
    profiler: Profiler | None = None,
) -> ProfileResult:
    """Measure ``fn`` eagerly, as a tf.function and with XLA over ``calls``, in a child process.

    ``fn``: a function, method, tf.function, or ``"module:qualname"`` / ``"file.py:qualname"``.
    ``calls``: ``[(args, kwargs), ...]``, ``"module:factory"`` returning such a list, or a .pkl file.
    ``fresh``: a factory called in every mode to build the state the function needs (a Keras model,
    an object whose method ``fn`` is); it returns the callable, or an object with ``fn``'s method.
    ``observe``: returns ``{name: value}`` of Python state to compare between modes (called with
    the fresh object if it takes one argument). ``timeout``: seconds per mode. ``expected_calls``:
    how many calls the real workload makes (default: ``len(calls)``), for time saved and verdict.
    ``static``: a FunctionReport from ``check``, True to run ``check`` on the function's file, or
    None/False. Never raises for the user's errors: see ``ProfileResult.ok`` and ``error_kind``.
    """
    if profiler is not None:
        return profiler.profile(fn, calls, fresh=fresh, observe=observe, modes=modes, timeout=timeout,
                                expected_calls=expected_calls, timing=timing, static=static, progress=progress)
    with Profiler(memory_limit=memory_limit, timing=timing) as session:
        return session.profile(fn, calls, fresh=fresh, observe=observe, modes=modes, timeout=timeout,
                                expected_calls=expected_calls, static=static, progress=progress)


def profile_many(targets: Iterable[Target], budget_s: float, *, progress: Any = None,
                 memory_limit: int | None = DEFAULT_MEMORY_LIMIT, timing: TimingConfig | None = None) -> list[ProfileResult]:
    """Profile many functions under one time budget (each in fresh workers: see ``Profiler``)."""
    with Profiler(memory_limit=memory_limit, timing=timing) as session:
        return session.profile_many(targets, budget_s, progress=progress)


# -- from mode runs to a Measurement and a verdict ---------------------------------------------------


def assemble(target: str, where: Where | None, runs: dict[str, ModeRun], modes: Sequence[str], *,
             expected_calls: int | None = None, static: FunctionReport | bool | None = None,
             error_kind: str | None = None) -> ProfileResult:
    """Combine the per-mode runs into the schema's ``Measurement``, then judge it."""
    eager, graph, xla = runs.get("eager"), runs.get("graph"), runs.get("xla")
    measured_calls = max((r.calls for r in runs.values()), default=0)
    n = expected_calls or measured_calls
    m = Measurement(calls=n, modes=[_mode_measurement(runs[k]) for k in modes if k in runs])
    _timings(m, eager, graph, xla, n, measured_calls)
    xla_equivalent = _equivalence(m, eager, graph, xla)
    m.error = _failure(runs)
    decorated = where.decorated if where else False
    static_report = _static_for(where, static)
    loc = measured.Location(path=where.path, line=where.line, end_line=where.end_line,
                            function=f"{where.path}::{where.qualname}") if where else None
    needs_graph = tuple(static_report.facts.needs_graph) if static_report is not None and decorated else ()
    evidence = None
    e, g = m.eager_s, m.graph_s
    if e is not None and g is not None and eager is not None and graph is not None:
        graph_error = graph.error.message if graph.error is not None and graph.error.kind == "raised" else None
        evidence = measured.evidence_from(
            m, decorated=decorated, measured_calls=measured_calls, retrace_args=_retrace_args(graph),
            xla_equivalent=xla_equivalent, broken=graph_error or ("results differ" if m.equivalent is False else None),
            eager_total_s=projected_s(eager, e, n), graph_total_s=projected_s(graph, g, n), needs_graph=needs_graph)
    decision = measured.judge(
        m, decorated=decorated, static=static_report, measured_calls=measured_calls,
        retrace_args=_retrace_args(graph), error_details={k: r.error.detail for k, r in runs.items() if r.error},
        xla_equivalent=xla_equivalent, location=loc, evidence=evidence, needs_graph=needs_graph,
    )
    kind = error_kind or _failure_kind(runs)
    return ProfileResult(target=target, where=where, measurement=m, findings=decision.findings,
                         verdict=decision.verdict, reasons=decision.reasons, confidence=decision.confidence,
                         assumptions=decision.assumptions, runs=runs, error_kind=kind, decorated=decorated,
                         static=static_report, advice=decision.advice)


def _timings(m: Measurement, eager: ModeRun | None, graph: ModeRun | None, xla: ModeRun | None,
             n: int, measured_calls: int) -> None:
    """Per-call medians, traces, tracing cost, break-even and the projected saving with its interval."""
    e = eager.stats.median if eager and eager.stats else None
    g = graph.stats.median if graph and graph.stats else None
    m.eager_s, m.graph_s = e, g
    m.xla_s = xla.stats.median if xla and xla.stats else None
    if graph is not None and graph.traces is not None:
        m.traces = _traces_for(graph, n, measured_calls)
        m.retraces = [r.describe() for r in graph.retraces]
    if graph is not None and graph.first_call_s is not None and g is not None:
        m.trace_s = max(0.0, graph.first_call_s - g)
    if e is not None and g is not None and graph is not None and graph.first_call_s is not None:
        assert eager is not None and eager.stats is not None and graph.stats is not None
        eager_first = eager.first_call_s if eager.first_call_s is not None else e
        m.break_even_calls = measured.break_even_calls(graph.first_call_s, e, g, eager_first)
        m.saved_s = projected_s(eager, e, n) - projected_s(graph, g, n)
        low = projected_s(eager, eager.stats.q1, n) - projected_s(graph, graph.stats.q3, n)
        high = projected_s(eager, eager.stats.q3, n) - projected_s(graph, graph.stats.q1, n)
        m.saved_interval_s = [min(low, high), max(low, high)]


def _equivalence(m: Measurement, eager: ModeRun | None, graph: ModeRun | None, xla: ModeRun | None) -> bool | None:
    """Graph results against eager's (beyond eager's own random noise) on ``m``; XLA's, returned."""
    noise = random_values(eager) if eager is not None else {}
    m.random_values = sorted(noise)[:5]
    if eager is not None and graph is not None and eager.error is None and graph.error is None:
        m.differences = _compare(eager, graph, noise)
        m.equivalent = not m.differences
    if eager is not None and xla is not None and eager.error is None and xla.error is None:
        return not _compare(eager, xla, noise)
    return None


def _failure(runs: dict[str, ModeRun]) -> str | None:
    """What stopped the measurement: eager failing, or any mode failing other than by raising
    (a graph or XLA that raises is behaviour of the code, judged elsewhere)."""
    failed = [r for r in runs.values() if r.error is not None and (r.mode == "eager" or r.error.kind not in ("raised",))]
    failed = [r for r in failed if not (r.mode == "xla" and r.error and r.error.kind == "raised")]
    if not failed:
        return None
    r = failed[0]
    assert r.error is not None
    return f"{r.mode}: {_error_text(r.error)}"


def projected_s(run: ModeRun, steady_s: float, n: int) -> float:
    """Seconds for ``n`` calls (the measured sequence cycled) in a fresh process: the calls timed
    one by one there (first pass, then the early calls: tracing, retraces and warm-up as they
    happened), then ``steady_s`` a call for the rest. Retraces beyond the measured calls are
    assumed not to happen (the signatures repeat and are cached; stated in the assumptions)."""
    timed = (run.call_times + run.early_times)[:n]
    return sum(timed) + max(0, n - len(timed)) * steady_s


def _traces_for(graph: ModeRun, n: int, measured_calls: int) -> int:
    """Traces over ``n`` calls: counted when n is within the measured calls; beyond them the calls
    are assumed to repeat the measured argument signatures, which are cached (stated in the
    verdict's assumptions)."""
    if n <= measured_calls and graph.traced_calls:
        return max(1, sum(1 for i in graph.traced_calls if i < n))
    return graph.traces or 0


def random_values(eager: ModeRun) -> dict[str, Noise]:
    """Where eager's second run (another TensorFlow seed) gave other values: random draws."""
    if eager.noise is None:
        return {}
    outputs, variables, state = eager.noise
    noise: dict[str, Noise] = {}
    for i, (a, b) in enumerate(zip(eager.outputs, outputs, strict=False)):
        noise.update(noisy_paths(a, b, f"result of call {i + 1}"))
    for label in eager.variables:
        if label in variables:
            noise.update(noisy_paths(eager.variables[label], variables[label], f"variable {label}"))
    for label in eager.state:
        if label in state:
            noise.update(noisy_paths(eager.state[label], state[label], label))
    return noise


def _compare(eager: ModeRun, other: ModeRun, noise: dict[str, Noise]) -> list[str]:
    out: list[str] = []
    for i, (a, b) in enumerate(zip(eager.outputs, other.outputs, strict=False)):
        out += differences(a, b, f"result of call {i + 1}", limit=3, noise=noise)
        if len(out) >= 6:
            break
    for label in eager.variables:
        if label in other.variables:
            out += differences(eager.variables[label], other.variables[label], f"variable {label}", limit=2, noise=noise)
        else:
            out.append(f"variable {label}: exists eagerly, not under tf.function")
    for label in eager.state:
        if label in other.state:
            out += differences(eager.state[label], other.state[label], label, limit=2, noise=noise)
    return out


def _retrace_args(graph: ModeRun | None) -> dict[str, str]:
    found: dict[str, str] = {}
    for retrace in graph.retraces if graph else ():
        for change in retrace.changes:
            found.setdefault(change.argument, change.what)
    return found


def _mode_measurement(run: ModeRun) -> ModeMeasurement:
    s = run.stats
    return ModeMeasurement(
        mode=run.mode, first_call_s=run.first_call_s, per_call_s=s.median if s else None,
        iqr_s=s.iqr if s else None, rounds=s.rounds if s else 0, outliers=s.outliers if s else 0,
        traces=run.traces, error=_error_text(run.error) if run.error else None,
    )


def _error_text(error: ModeError) -> str:
    where = f" (call {error.call + 1})" if error.call is not None else ""
    if error.kind == "raised":
        return f"{error.message}{where}"
    return f"{error.kind}: {error.message}{where}"


def _failure_kind(runs: dict[str, ModeRun]) -> str | None:
    """Why the measurement failed as a whole, or None: eager failing, or any mode not finishing."""
    for run in runs.values():
        if run.error is None:
            continue
        if run.mode == "eager" or run.error.kind in ("timeout", "crashed", "memory", "load", "resolve", "interrupted"):
            return run.error.kind
    return None


def _static_for(where: Where | None, static: FunctionReport | bool | None) -> FunctionReport | None:
    """The static report of the measured function: given, or from ``check`` on its file."""
    if isinstance(static, FunctionReport):
        return static
    if not static or where is None:
        return None
    try:
        from tfadvisor.check import check_paths  # the lead's static analysis (no TensorFlow)
    except ImportError:
        return None
    try:
        report = check_paths([where.path])
    except Exception:  # the static half must never break a measurement
        return None
    return next((f for f in report.functions if f.qualname == where.qualname), None)


def _failed(target: str, kind: str, message: str) -> ProfileResult:
    run = ModeRun(mode="eager", error=ModeError(kind, message, phase="load"))  # type: ignore[arg-type]
    m = Measurement(calls=0, error=message, modes=[_mode_measurement(run)])
    return ProfileResult(target=target, where=None, measurement=m, runs={"eager": run}, error_kind=kind,
                         confidence="speculative", assumptions=[f"not measured: {message}"])
