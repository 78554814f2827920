"""What of tfadvisor's own measuring reaches the user: nothing but the report.

A user runs ``tfadvisor run train.py`` and must see what ``python train.py`` shows, then the report.
Three kinds of noise are the tool's own, not the program's, and are kept out here:

- the replays' logs: TensorFlow's retracing warnings (Python ``logging``), the C++ logs of XLA and of
  failed ops (written straight to file descriptor 2), Python warnings and what the replayed code
  writes to stderr (``measuring``);
- tfadvisor's frames in the user's error traces: the observing wrapper between two user functions
  shows as ``observe.py, line 8, in observed`` in TensorFlow's "in user code:" list and as
  AutoGraph's ``tf__observed`` frames in the traceback (``frames_hidden``, ``without_own_frames``);
- TensorFlow's framing of an error, whose first line is only "in user code:" (``error_line``
  gives the line that says what went wrong).

Importing this module imports no TensorFlow.
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.machinery
import logging
import os
import re
import sys
import types
import warnings
from collections.abc import Iterator
from typing import Any

_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../tfadvisor
_TRACEBACK_UTILS = "tensorflow.python.util.traceback_utils"


@contextlib.contextmanager
def measuring() -> Iterator[None]:
    """Silence the replays: TensorFlow's Python logger, Python warnings, and file descriptor 2
    (the C++ logs: "XLA service ... initialized", "Compiled cluster using XLA!", rendezvous
    warnings). The tool's own progress bar keeps its place: it is redrawn after each replay."""
    tf_logger = logging.getLogger("tensorflow")
    level = tf_logger.level
    tf_logger.setLevel(logging.CRITICAL + 1)  # setLevel, not .level: it clears logging's cached checks
    with warnings.catch_warnings(), _fd2_silenced():
        warnings.simplefilter("ignore")
        try:
            yield
        finally:
            tf_logger.setLevel(level)


@contextlib.contextmanager
def _fd2_silenced() -> Iterator[None]:
    """Point file descriptor 2 at /dev/null, and back (Python's ``sys.stderr`` flushed both ways)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError, AttributeError):  # no fd 2 (a closed stderr, an embedded interpreter)
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 2)
        yield
    finally:
        with contextlib.suppress(Exception):
            sys.stderr.flush()  # what was written meanwhile goes where it was meant to: nowhere
        os.dup2(saved, 2)
        os.close(saved)
        os.close(devnull)


# -- tfadvisor's frames out of the user's error traces ---------------------------------------------


def is_own_frame(frame: types.FrameType) -> bool:
    """A frame of tfadvisor (its files, or AutoGraph's conversion of them: those run with the
    converted function's module globals) or of ``runpy`` (how a script is started)."""
    filename = os.path.abspath(frame.f_code.co_filename)
    if filename.startswith(_PACKAGE + os.sep) or filename.endswith(os.sep + "runpy.py"):
        return True
    return str(frame.f_globals.get("__name__", "")).split(".")[0] == "tfadvisor"


def without_own_frames(exc: BaseException) -> BaseException:
    """``exc`` (and the exceptions it was raised from or during) with tfadvisor's frames taken out
    of their tracebacks, so that printing it shows the user's frames only. Returns ``exc``."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        current.__traceback__ = _filtered(current.__traceback__)
        current = current.__cause__ or current.__context__
    return exc


def _filtered(tb: types.TracebackType | None) -> types.TracebackType | None:
    frames = []
    while tb is not None:
        frames.append(tb)
        tb = tb.tb_next
    kept: types.TracebackType | None = None
    for item in reversed(frames):
        if not is_own_frame(item.tb_frame):
            kept = types.TracebackType(kept, item.tb_frame, item.tb_lasti, item.tb_lineno)
    return kept


@contextlib.contextmanager
def frames_hidden() -> Iterator[None]:
    """While the user's program runs: TensorFlow's own traceback filter (the one that keeps its
    internals out of "in user code:" lists and of tracebacks) leaves tfadvisor's files out too.
    TensorFlow may not be imported yet (the program imports it): then this happens the moment it is."""
    state: dict[str, Any] = {}
    watcher = _OnImport(_TRACEBACK_UTILS, lambda module: _exclude(module, state))
    if _TRACEBACK_UTILS in sys.modules:
        _exclude(sys.modules[_TRACEBACK_UTILS], state)
    else:
        sys.meta_path.insert(0, watcher)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(watcher)
        module = state.get("module")
        if module is not None and getattr(module, "_EXCLUDED_PATHS", None) == state["patched"]:
            module._EXCLUDED_PATHS = state["original"]


def _exclude(module: types.ModuleType, state: dict[str, Any]) -> None:
    original = getattr(module, "_EXCLUDED_PATHS", None)
    if not isinstance(original, tuple) or _PACKAGE in original:  # another TensorFlow, or done already
        return
    state.update(module=module, original=original, patched=(*original, _PACKAGE))
    module._EXCLUDED_PATHS = state["patched"]  # type: ignore[attr-defined]


class _OnImport(importlib.abc.MetaPathFinder):
    """Calls ``then(module)`` once, right after the module ``name`` is first executed."""

    def __init__(self, name: str, then: Any) -> None:
        self.name, self.then = name, then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return None
        loader, then = spec.loader, self.then

        class _Loader(importlib.abc.Loader):
            def create_module(self, spec: Any) -> Any:
                return loader.create_module(spec)

            def exec_module(self, module: types.ModuleType) -> None:
                loader.exec_module(module)
                with contextlib.suppress(Exception):
                    then(module)

        spec.loader = _Loader()
        return spec


# -- TensorFlow's errors in one line ----------------------------------------------------------------

_FUNCTION_NODE = re.compile(r"^\{\{function_node [^}]*\}\}\s*")


def error_line(exc: BaseException, limit: int = 300) -> str:
    """``ValueError: Cannot reshape a tensor with 4 elements to shape [3,3]`` rather than
    ``ValueError: in user code:``: AutoGraph's errors put what went wrong last, after the frames;
    TensorFlow's op errors start with a ``{{function_node ...}}`` tag, dropped here."""
    return f"{type(exc).__name__}: {headline(str(exc), limit)}".rstrip(": ")


def headline(text: str, limit: int = 300) -> str:
    """The line of an error message that says what went wrong: the last ``XxxError: ...`` line
    (TensorFlow frames it with "in user code:" and the frames first), else the first line."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    chosen = lines[0] if lines else ""
    for line in reversed(lines):
        head, _, rest = line.partition(":")
        if rest.strip() and head.endswith(("Error", "Exception")) and " " not in head:
            chosen = rest.strip()
            break
    chosen = _FUNCTION_NODE.sub("", chosen).rstrip(".")  # a clause: the caller's sentence goes on
    return chosen if len(chosen) <= limit else chosen[:limit - 3] + "..."
