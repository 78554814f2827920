"""``tfadvisor run`` for one notebook cell: observe it as it runs, then replay in this process.

Why in-process: a notebook's functions work on live objects (its model, optimizer, a dict of
variables) that exist only in the kernel. The functions defined in earlier cells are swapped for
observing stand-ins in the namespace for the duration of the cell, and the originals put back
afterwards (same objects: a notebook that compares ``train_step is ...`` or holds it in a list is
not surprised). Replay then runs those originals on the sampled calls, and leaves every object
as it found it (``replay_state``). Functions a cell defines and calls in the same cell are not
observed: define them in an earlier cell.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Callable
from typing import Any

from tfadvisor.model import Report
from tfadvisor.runtime import quiet
from tfadvisor.runtime.run.analysis import RunAnalysis
from tfadvisor.runtime.run.observe import DEFAULT_MEMORY_BUDGET, Observer
from tfadvisor.runtime.run.session import ProgramResult

CELL_TARGET = "<notebook cell>"


class Swapped:
    """Observing stand-ins put into a namespace, and what they replaced (put back by ``restore``)."""

    def __init__(self, namespace: dict[str, Any], observer: Observer, module: str = "__main__"):
        self.namespace = namespace
        self.names: dict[str, Any] = {}  # name -> original object
        self.class_attrs: list[tuple[type, dict[str, Any]]] = []
        for name, value in list(namespace.items()):
            if name.startswith("_") or not _defined_in(value, module):
                continue
            if inspect.isclass(value):
                self.class_attrs.append((value, dict(vars(value))))
                observer.wrap_class(value)
                continue
            wrapped = observer.wrap(value)
            if wrapped is not value:
                self.names[name] = value
                namespace[name] = wrapped

    def restore(self) -> None:
        for name, original in self.names.items():
            self.namespace[name] = original
        for cls, attrs in self.class_attrs:
            for name, value in attrs.items():
                if vars(cls).get(name) is not value:
                    try:
                        setattr(cls, name, value)
                    except (AttributeError, TypeError):
                        pass


def _defined_in(value: Any, module: str) -> bool:
    """A function, tf.function or class the notebook itself defined (not an import)."""
    inner = getattr(value, "python_function", value)
    return getattr(inner, "__module__", None) == module and (inspect.isfunction(inner) or inspect.isclass(inner))


def run_cell(namespace: dict[str, Any], execute: Callable[[], None], *, budget_s: float = 60.0,
             memory_budget: int = DEFAULT_MEMORY_BUDGET, module: str = "__main__",
             on_error: Callable[[BaseException], None] | None = None) -> Report:
    """Run ``execute`` (the cell) with the namespace's own functions observed, then replay them
    within ``budget_s``; the report of a ``run``. An exception in the cell is the cell's outcome
    (``on_error`` shows it), never raised; Ctrl-C ends the cell, reported as interrupted, with
    nothing replayed. The namespace's own functions are back in place in every case."""
    observer = Observer(memory_budget=memory_budget)
    program = ProgramResult(target=CELL_TARGET, is_module=False, argv=[])
    swapped = Swapped(namespace, observer, module)
    start = time.perf_counter()
    try:
        execute()
    except KeyboardInterrupt:
        program.exit_status, program.outcome, program.error = 130, "interrupted", "KeyboardInterrupt"
    except Exception as exc:  # the cell's own error
        program.exit_status, program.outcome = 1, "exception"
        program.error = quiet.error_line(exc)
        if on_error is not None:
            on_error(exc)
    finally:
        program.wall_s = time.perf_counter() - start
        observer.stop()
        swapped.restore()
    analysis = RunAnalysis(program, observer, None, budget_s)
    if program.outcome != "interrupted" and observer.observed():
        analysis.analyse()
    return analysis.report()
