"""Last words on a fatal signal: write the report for what ran, then die of the same signal.

A segfault in the observed program (a C extension, ``ctypes``) ends the process that holds the
observations, and Python cannot catch SIGSEGV. A C-level handler, installed through ``ctypes``,
can call back into Python: when the fault happens in C code called from Python, the faulting
thread holds the GIL and the interpreter is between two bytecodes, so writing a report is safe
enough for a process about to die. The handler then restores the default action and returns:
the faulting instruction runs again and the process dies of the same signal, so the exit status
is what it would have been. An alarm bounds the last words (a fault in a thread that does not
hold the GIL would wait for it forever): SIGALRM then ends the process.
"""

from __future__ import annotations

import ctypes
import signal
import threading
from collections.abc import Callable
from types import TracebackType

FATAL_SIGNALS = (signal.SIGSEGV, signal.SIGBUS, signal.SIGFPE, signal.SIGILL, signal.SIGABRT)
DEADLINE_S = 20  # for the last words; then SIGALRM's default action ends the process

_HANDLER = ctypes.CFUNCTYPE(None, ctypes.c_int)


class LastWords:
    """``with LastWords(say):`` calls ``say(signum)`` once on a fatal signal, then lets it kill.

    Does nothing off the main thread or where libc's ``signal`` cannot be reached."""

    def __init__(self, say: Callable[[int], None]) -> None:
        self._say = say
        self._said = False
        self._callback = _HANDLER(self._on_signal)  # kept alive as long as it is installed
        self._previous: dict[int, int | None] = {}
        self._libc: ctypes.CDLL | None = None

    def __enter__(self) -> LastWords:
        self.install()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.remove()

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.signal.restype = ctypes.c_void_p
            libc.signal.argtypes = [ctypes.c_int, ctypes.c_void_p]
            libc.alarm.argtypes = [ctypes.c_uint]
        except (OSError, AttributeError):
            return
        self._libc = libc
        address = ctypes.cast(self._callback, ctypes.c_void_p).value
        for signum in FATAL_SIGNALS:
            self._previous[signum] = libc.signal(int(signum), address)

    def remove(self) -> None:
        """Put back the handlers that were there before (Python's faulthandler, say)."""
        if self._libc is not None:
            for signum, previous in self._previous.items():
                self._libc.signal(int(signum), previous)
        self._previous.clear()

    def _on_signal(self, signum: int) -> None:
        libc = self._libc
        if libc is None:
            return
        libc.signal(signum, signal.SIG_DFL.value)  # the next delivery (the instruction again) kills
        if self._said:
            return
        self._said = True
        libc.alarm(DEADLINE_S)
        try:
            self._say(signum)
        except BaseException:  # nothing may escape into C
            pass
