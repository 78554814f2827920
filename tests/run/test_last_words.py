"""`LastWords`: a fatal signal gets its last words said once, then kills with the same signal."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent('''
    import ctypes, faulthandler, sys
    from tfadvisor.runtime.run.last_words import LastWords

    def say(signum):
        with open(sys.argv[1], "a") as out:
            out.write(f"{signum}\\n")

    if sys.argv[2] == "restore":
        faulthandler.enable()
        with LastWords(say):
            pass
        ctypes.string_at(0)  # faulthandler's handler is back: it prints "Fatal Python error"
    else:
        with LastWords(say):
            ctypes.string_at(0)
''')


def _child(tmp_path, mode: str) -> tuple[subprocess.CompletedProcess, str]:
    said = tmp_path / "said.txt"
    proc = subprocess.run([sys.executable, "-c", CHILD, str(said), mode], capture_output=True, text=True, timeout=60)
    return proc, said.read_text() if said.exists() else ""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_segfault_is_reported_once_then_kills_as_before(tmp_path) -> None:
    proc, said = _child(tmp_path, "crash")
    assert proc.returncode == -signal.SIGSEGV, proc.stderr
    assert said == f"{int(signal.SIGSEGV)}\n"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_leaving_puts_back_the_handler_that_was_there(tmp_path) -> None:
    proc, said = _child(tmp_path, "restore")
    assert proc.returncode == -signal.SIGSEGV
    assert said == "" and "Fatal Python error" in proc.stderr
