"""`run` as a library call: run a program once, observed, replay what matters, return the report.

``tfadvisor run`` (``cli/run.py``) adds only what a terminal needs on top of this (a progress bar,
messages, where the report goes); a script or a notebook can call ``measure_program`` (or
``tfadvisor.run``) and get the same ``Report``. Importing this module imports no TensorFlow: the
observed program does, when it runs.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tfadvisor.model import Report
from tfadvisor.runtime.run.observe import DEFAULT_MEMORY_BUDGET  # bytes of sampled calls kept for replay

if TYPE_CHECKING:
    from tfadvisor.runtime.run.analysis import RunAnalysis

DEFAULT_BUDGET_S: float | None = None  # a share of the program's own run (runtime/run/budget.py)


@dataclass
class RunHooks:
    """Where a caller follows a long run. Every hook is optional and must not raise."""

    # A report as it stands: before replay, after each replayed function, and from a program that
    # ends the process itself (os._exit, fatal signal): write it somewhere so nothing is lost.
    saved: Callable[[Report], None] | None = None
    ended: Callable[[str, int, str | None], None] | None = None  # outcome, exit status, error; before replay
    progress: Callable[[int, int, str], None] | None = None  # replayed so far, to replay, function name


@dataclass
class RunResult:
    report: Report
    exit_status: int  # the program's own (0 when it ran to the end; 143 after SIGTERM)


def measure_program(target: str, args: Sequence[str] = (), *, is_module: bool = False, project: str | None = None,
                    budget_s: float | None = DEFAULT_BUDGET_S, memory_budget: int = DEFAULT_MEMORY_BUDGET,
                    hooks: RunHooks | None = None) -> RunResult:
    """Run ``target`` (a script path, or a module with ``is_module``) with ``args`` as Python would,
    observing the project's functions (``project``: their folder; default the script's), then
    replay and measure within ``budget_s`` seconds (None: a share of the program's own run time,
    ``runtime/run/budget.py``; 0: observation only). Never raises for what the program does."""
    run = _MeasuredRun(target, list(args), is_module, project, budget_s, memory_budget, hooks or RunHooks())
    run.observe()  # early in a short function: this frame is under the program (runtime/run/session.py)
    return run.measure()


class _MeasuredRun:
    """``measure_program``'s steps: the program observed once (``check`` beside it, Keras's
    compile and fit observed apart), then the replays within the budget."""

    def __init__(self, target: str, args: list[str], is_module: bool, project: str | None, budget_s: float | None,
                 memory_budget: int, hooks: RunHooks) -> None:
        from tfadvisor.runtime.keras.session import KerasSession
        from tfadvisor.runtime.run.session import project_root

        self.target, self.args, self.is_module, self.project = target, args, is_module, project
        self.budget_s, self.memory_budget, self.hooks = budget_s, memory_budget, hooks
        root = project_root(target, is_module, project)
        self.pending = StaticInBackground(root)  # check runs beside the program, on another core
        self.keras = KerasSession(root)  # Keras's compile/fit, observed and measured apart (runtime/keras/)

    def observe(self) -> None:
        from tfadvisor.runtime.run.session import run_program

        with self._observing():
            self.program, self.observer = run_program(self.target, self.args, is_module=self.is_module,
                                                      project=self.project, memory_budget=self.memory_budget,
                                                      on_hard_exit=self._hard_exit)

    @contextlib.contextmanager
    def _observing(self) -> Iterator[None]:
        from tfadvisor.runtime import quiet

        self.keras.install()
        try:
            with quiet.frames_hidden():  # the program's error traces show its frames, not tfadvisor's
                yield
        finally:
            self.keras.remove()

    def measure(self) -> RunResult:
        from tfadvisor.runtime.keras.session import keras_budget
        from tfadvisor.runtime.run.session import Terminated, _handle_sigterm, _restore_sigterm

        program, observer, keras, hooks, budget_s = self.program, self.observer, self.keras, self.hooks, self.budget_s
        if hooks.ended:
            hooks.ended(program.outcome, program.exit_status, program.error)
        # imported only now: the program has imported NumPy and TensorFlow itself, and the analysis's
        # imports do not add to the observed run's wall time (issue 21: --budget 0 within 1.10x)
        from tfadvisor.runtime.run.analysis import RunAnalysis

        analysis = RunAnalysis(program, observer, self.pending.result(), budget_s)
        self._save(analysis)  # a report exists even if replay crashes the process
        if program.outcome not in ("not-found", "terminated") and (observer.observed() or keras.observed()):
            previous = _handle_sigterm()
            try:
                if keras.observed():
                    progress = hooks.progress
                    trial = (lambda name: progress(0, 1, name)) if progress is not None else None
                    spent = keras.measure(keras_budget(budget_s, keras.fit_s()), progress=trial,
                                          checkpoint=lambda: self._save(analysis))
                    if budget_s is not None:  # a given budget is shared; an automatic one is the functions' own
                        analysis.budget_s = max(0.0, analysis.budget_s - spent)
                if observer.observed():
                    analysis.analyse(progress=hooks.progress, checkpoint=lambda: self._save(analysis))
            except Terminated:
                analysis.interrupted = True
                program.exit_status = program.exit_status or 143
            finally:
                _restore_sigterm(previous)
        return RunResult(self._report(analysis), program.exit_status)

    def _report(self, analysis: RunAnalysis) -> Report:
        return self.keras.extend(analysis.report())

    def _save(self, analysis: RunAnalysis) -> None:
        if self.hooks.saved:
            self.hooks.saved(self._report(analysis))

    def _hard_exit(self, program: Any, observer: Any) -> None:  # os._exit or a fatal signal: report what ran
        from tfadvisor.runtime.run.analysis import RunAnalysis

        self._save(RunAnalysis(program, observer, self.pending.result(), self.budget_s))


class StaticInBackground:
    """``check`` over the project in a forked child while the program runs: its 0.1-0.2 s (mostly
    importing the rules) no longer adds to the observed program's wall time, which is what
    ``--budget 0`` is judged by (issue 21: at most 1.10x). Forked only where that is safe: a fork
    exists, TensorFlow is not imported yet, and this is the only thread; otherwise inline."""

    def __init__(self, root: str) -> None:
        self._result: Report | None = None
        self._pipe: int | None = None
        self._pid = 0
        if not (hasattr(os, "fork") and threading.active_count() == 1 and "tensorflow" not in sys.modules):
            self._result = _static_report(root)
            return
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: analyse, hand the report over, leave without running exit hooks
            status = 0
            try:
                os.close(read)
                with os.fdopen(write, "wb") as out:
                    pickle.dump(_static_report(root), out)
            except BaseException:
                status = 1
            finally:
                os._exit(status)
        os.close(write)
        self._pipe, self._pid = read, pid

    def result(self) -> Report | None:
        """The static report (waits for the child the first time); None if the analysis failed."""
        if self._pipe is not None:
            pipe, self._pipe = self._pipe, None
            try:
                with os.fdopen(pipe, "rb") as source:
                    data = source.read()
                self._result = pickle.loads(data) if data else None
            except Exception:  # a child that died leaves no report: the measurements stand alone
                self._result = None
            finally:
                os.waitpid(self._pid, 0)
        return self._result


def _static_report(root: str) -> Report | None:
    """``check`` over the project (never imports it); None if the analysis cannot run."""
    try:
        from tfadvisor.check import check_paths
        from tfadvisor.config import find_config, load_config

        return check_paths([root], config=load_config(find_config(root)), jobs=1)
    except Exception:  # static facts are a bonus for `run`; the measurements stand alone
        return None
