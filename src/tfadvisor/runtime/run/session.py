"""Running the user's program as Python would, observed; the first half of ``tfadvisor run``.

``run_program`` executes a script (like ``python script.py``) or a module (like ``python -m``)
as ``__main__`` with its own ``sys.argv`` and the script's folder first on ``sys.path``; the
project's functions are observed through ``hook``. Whatever the program does (returns,
raises, calls ``sys.exit``, gets Ctrl-C) the result says so and the observations are kept: the
report is written for what ran. The program's own traceback goes to stderr, as Python prints it.
"""

from __future__ import annotations

import builtins
import gc
import os
import runpy
import signal
import sys
import time
import traceback
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tfadvisor.runtime import quiet
from tfadvisor.runtime.run.hook import Installation, ProjectScope, instrument
from tfadvisor.runtime.run.last_words import LastWords
from tfadvisor.runtime.run.observe import DEFAULT_MEMORY_BUDGET, Observer


@dataclass
class ProgramResult:
    """How the observed program ended."""

    target: str
    is_module: bool
    argv: list[str]
    exit_status: int = 0
    outcome: str = "ok"  # "ok" | "exit" | "exception" | "interrupted" | "terminated" | "crashed" | "not-found" | "syntax-error"
    error: str | None = None  # one line: "ZeroDivisionError: division by zero"
    wall_s: float = 0.0
    namespace: dict[str, Any] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "module": self.is_module,
            "argv": self.argv,
            "exit_status": self.exit_status,
            "outcome": self.outcome,
            "error": self.error,
            "wall_s": round(self.wall_s, 6),
        }


def project_root(target: str, is_module: bool, project: str | None) -> str:
    """The folder whose code is observed: ``--project``, else the script's folder, else the cwd."""
    if project:
        return os.path.abspath(project)
    if is_module:
        return os.getcwd()
    return os.path.dirname(os.path.abspath(target))


def run_program(
    target: str,
    args: list[str],
    *,
    is_module: bool = False,
    project: str | None = None,
    observer: Observer | None = None,
    memory_budget: int = DEFAULT_MEMORY_BUDGET,
    on_hard_exit: Callable[[ProgramResult, Observer], None] | None = None,
) -> tuple[ProgramResult, Observer]:
    """Run ``target`` observed; never raises for anything the program does.

    ``on_hard_exit`` is called when the program ends the process itself with ``os._exit`` or
    dies of a fatal signal (a segfault in a C extension: see ``last_words``; no cleanup, no return
    here): the last chance to write the report for what was observed. SIGTERM is handled like
    Ctrl-C (outcome "terminated", exit status 143).
    """
    run = ProgramRun(target, args, is_module, project, observer or Observer(memory_budget=memory_budget), on_hard_exit)
    with run:
        run.execute()
    return run.result, run.observer


class ProgramRun:
    """One observed run of the program. ``with`` sets the process up as Python would for it
    (``sys.argv``, ``sys.path``, ``__main__``) with the observation hooks and handlers for
    ``os._exit``, SIGTERM and fatal signals, and puts everything back; whatever the program does
    (returns, raises, exits, Ctrl-C) ends up in ``result`` and goes no further.

    Why ``execute`` is a short method inside a ``with``: while the program runs, this frame and
    the ones under it sit on every Python stack TensorFlow records (one per op it creates), and
    each costs TensorFlow a scan of its line table up to where it stopped (``cli/entry.py``). So
    the program starts near the top of short functions, and the set-up happens before.
    """

    def __init__(self, target: str, args: list[str], is_module: bool, project: str | None, observer: Observer,
                 on_hard_exit: Callable[[ProgramResult, Observer], None] | None) -> None:
        self.target, self.is_module, self.observer, self.on_hard_exit = target, is_module, observer, on_hard_exit
        self.result = ProgramResult(target=target, is_module=is_module, argv=[target, *args])
        self.found = is_module or os.path.isfile(target)
        if not self.found:
            self.result.exit_status, self.result.outcome = 2, "not-found"
            self.result.error = f"can't open file {target!r}: no such file"
        self._hooks = Installation(observer, ProjectScope([project_root(target, is_module, project)]))
        self._real_exit = os._exit
        self._start = 0.0

    def execute(self) -> None:
        """The program itself, as ``python script.py`` or ``python -m module`` runs it."""
        if not self.found:
            return
        if self.is_module:
            self.result.namespace = runpy.run_module(self.target, run_name="__main__", alter_sys=True)
            return
        code, namespace = _script(self.target)
        exec(code, namespace)
        self.result.namespace = namespace

    def __enter__(self) -> ProgramRun:
        if not self.found:
            return self
        self._saved = sys.argv[:], sys.path[:], sys.modules.get("__main__")
        sys.argv = self.result.argv[:]
        sys.path.insert(0, os.getcwd() if self.is_module else os.path.dirname(os.path.abspath(self.target)))
        self._hooks.install()
        os._exit = self._hard_exit  # type: ignore[assignment]
        self._previous_term = _handle_sigterm()
        self._last_words = LastWords(self._fatal_signal)
        self._last_words.install()
        _set_aside_what_exists()
        self._start = time.perf_counter()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> bool:
        if not self.found:
            return False
        result = self.result
        result.wall_s = time.perf_counter() - self._start
        if isinstance(exc, SystemExit):
            result.exit_status, result.outcome, result.error = _exit_status(exc)
        elif isinstance(exc, KeyboardInterrupt):
            result.exit_status, result.outcome, result.error = 130, "interrupted", "KeyboardInterrupt"
        elif isinstance(exc, Terminated):
            result.exit_status, result.outcome, result.error = 143, "terminated", "SIGTERM"
        elif exc is not None:  # the program's own error: shown as Python shows it
            result.exit_status, result.outcome = 1, "exception"
            result.error = _one_line(exc)
            _print_exception(exc)
        os._exit = self._real_exit
        gc.unfreeze()
        self._last_words.remove()
        _restore_sigterm(self._previous_term)
        self.observer.stop()
        self._hooks.remove()
        argv, path, main = self._saved
        sys.argv, sys.path[:] = argv, path
        if main is not None:
            sys.modules["__main__"] = main
        _flush()
        return True  # what the program raised is in ``result``, not the caller's problem

    def _last_report(self, status: int, outcome: str, error: str) -> None:
        """The process ends without coming back here: the report for what ran, now."""
        self.observer.stop()
        self.result.exit_status, self.result.outcome, self.result.error = status, outcome, error
        self.result.wall_s = time.perf_counter() - self._start
        _flush()
        if self.on_hard_exit is not None:
            self.on_hard_exit(self.result, self.observer)

    def _hard_exit(self, status: int) -> None:  # os._exit in the program: report, then exit as asked
        try:
            self._last_report(int(status), "exit", f"os._exit({status})")
        finally:
            self._real_exit(status)

    def _fatal_signal(self, signum: int) -> None:  # a segfault in the program: report, then die of it
        self._last_report(-signum, "crashed", f"killed by {signal.Signals(signum).name}")


def _set_aside_what_exists() -> None:
    """Keep the garbage collector off what exists before the program starts (this tool's parsed
    sources and facts, imported modules): each full collection walks every tracked object, and
    alone the program would not pay for ours. Only objects that are garbage now are collected
    first; the program's own objects are collected as they would be alone."""
    gc.collect()
    gc.freeze()


class Terminated(BaseException):
    """SIGTERM arrived (a CI time limit, `kill`): unwind like Ctrl-C so the report gets written."""


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


def _handle_sigterm() -> Any:
    import threading

    if threading.current_thread() is not threading.main_thread():
        return None
    return signal.signal(signal.SIGTERM, _raise_terminated)


def _restore_sigterm(previous: Any) -> None:
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def _script(path: str) -> tuple[types.CodeType, dict[str, Any]]:
    """A plain script compiled through the observing transform, and the ``__main__`` module it
    runs in (made ``sys.modules["__main__"]``), as ``runpy.run_path`` would."""
    with open(path, "rb") as handle:
        source = handle.read()
    code = instrument(source, path)
    module = types.ModuleType("__main__")
    module.__dict__.update(
        {"__file__": path, "__builtins__": builtins, "__spec__": None, "__loader__": None, "__package__": None}
    )
    sys.modules["__main__"] = module
    return code, module.__dict__


def _exit_status(exc: SystemExit) -> tuple[int, str, str | None]:
    """What ``sys.exit(code)`` means to the shell: None is 0, an int is itself, anything else is 1."""
    code = exc.code
    if code is None:
        return 0, "exit", None
    if isinstance(code, int):
        return code, "exit", None if code == 0 else f"sys.exit({code})"
    print(code, file=sys.stderr)
    return 1, "exit", str(code)


_one_line = quiet.error_line  # "ValueError: Cannot reshape ...", not "ValueError: in user code:"


def _print_exception(exc: BaseException) -> None:
    """The traceback Python would print, without tfadvisor's own frames (runner, wrappers, and
    AutoGraph's conversion of the wrappers: ``runtime/quiet.py``)."""
    sys.stderr.write("".join(traceback.format_exception(quiet.without_own_frames(exc))))


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
