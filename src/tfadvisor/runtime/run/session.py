"""Running the user's program as Python would, observed; the first half of ``tfadvisor run``.

``run_program`` executes a script (like ``python script.py``) or a module (like ``python -m``)
as ``__main__`` with its own ``sys.argv`` and the script's folder first on ``sys.path``; the
project's functions are observed through ``hook``. Whatever the program does (returns,
raises, calls ``sys.exit``, gets Ctrl-C) the result says so and the observations are kept: the
report is written for what ran. The program's own traceback goes to stderr, as Python prints it.
"""

from __future__ import annotations

import builtins
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
    observer = observer or Observer(memory_budget=memory_budget)
    scope = ProjectScope([project_root(target, is_module, project)])
    argv = [target, *args]
    result = ProgramResult(target=target, is_module=is_module, argv=argv)
    if not is_module and not os.path.isfile(target):
        result.exit_status, result.outcome = 2, "not-found"
        result.error = f"can't open file {target!r}: no such file"
        return result, observer

    hooks = Installation(observer, scope)
    saved_argv, saved_path, saved_main = sys.argv[:], sys.path[:], sys.modules.get("__main__")
    sys.argv = argv[:]
    sys.path.insert(0, os.getcwd() if is_module else os.path.dirname(os.path.abspath(target)))
    hooks.install()
    start = time.perf_counter()
    real_exit = os._exit

    def last_report(status: int, outcome: str, error: str) -> None:  # the process ends without returning here
        observer.stop()
        result.exit_status, result.outcome, result.error = status, outcome, error
        result.wall_s = time.perf_counter() - start
        _flush()
        if on_hard_exit is not None:
            on_hard_exit(result, observer)

    def hard_exit(status: int) -> None:  # os._exit in the program: report, then exit as asked
        try:
            last_report(int(status), "exit", f"os._exit({status})")
        finally:
            real_exit(status)

    def fatal_signal(signum: int) -> None:  # a segfault in the program: report, then die of it
        last_report(-signum, "crashed", f"killed by {signal.Signals(signum).name}")

    os._exit = hard_exit  # type: ignore[assignment]
    previous_term = _handle_sigterm()
    last_words = LastWords(fatal_signal)
    last_words.install()
    try:
        if is_module:
            result.namespace = runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            result.namespace = _run_script(target)
    except SystemExit as exc:
        result.exit_status, result.outcome, result.error = _exit_status(exc)
    except KeyboardInterrupt:
        result.exit_status, result.outcome, result.error = 130, "interrupted", "KeyboardInterrupt"
    except Terminated:
        result.exit_status, result.outcome, result.error = 143, "terminated", "SIGTERM"
    except BaseException as exc:  # the program's own error: shown as Python shows it
        result.exit_status, result.outcome = 1, "exception"
        result.error = _one_line(exc)
        _print_exception(exc)
    finally:
        result.wall_s = time.perf_counter() - start
        os._exit = real_exit
        last_words.remove()
        _restore_sigterm(previous_term)
        observer.stop()
        hooks.remove()
        sys.argv, sys.path[:] = saved_argv, saved_path
        if saved_main is not None:
            sys.modules["__main__"] = saved_main
        _flush()
    return result, observer


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


def _run_script(path: str) -> dict[str, Any]:
    """``runpy.run_path`` for a plain script, compiled through the observing transform."""
    with open(path, "rb") as handle:
        source = handle.read()
    code = instrument(source, path)
    module = types.ModuleType("__main__")
    module.__dict__.update(
        {"__file__": path, "__builtins__": builtins, "__spec__": None, "__loader__": None, "__package__": None}
    )
    sys.modules["__main__"] = module
    exec(code, module.__dict__)
    return module.__dict__


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
