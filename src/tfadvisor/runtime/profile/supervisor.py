"""Parent side of the child worker: start it, send jobs, read results under a time limit, kill it.

The worker is a fresh interpreter (``subprocess`` + ``-m tfadvisor.runtime.profile.child``), in its own
session so that a hung child and anything it started can be killed as one process group. Its
stderr goes to a temporary file (a pipe could fill and block the child); its tail explains a
crash. One worker serves many jobs (TensorFlow is imported once); after a timeout or a crash the
worker is discarded and the next job starts a new one.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

from tfadvisor.runtime.profile.protocol import FrameReader, write_message

STARTUP_TIMEOUT_S = 180.0  # importing TensorFlow on a busy 2-core machine can take a while
DEFAULT_MEMORY_LIMIT = 8 << 30  # address space of the child, bytes; TF alone reserves ~1.5 GB


class WorkerTimeout(Exception):
    """The child did not answer before the deadline (it has been killed)."""


class WorkerDied(Exception):
    """The child process ended unexpectedly."""

    def __init__(self, returncode: int | None, stderr_tail: str) -> None:
        self.returncode = returncode
        self.stderr_tail = stderr_tail
        super().__init__(describe_exit(returncode))


def describe_exit(returncode: int | None) -> str:
    if returncode is None:
        return "the measuring process stopped answering"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        return f"the measuring process was killed by {name}"
    return f"the measuring process exited with status {returncode}"


class Worker:
    """One child process serving jobs, with a deadline on every read."""

    def __init__(self, memory_limit: int | None = DEFAULT_MEMORY_LIMIT, startup_timeout: float = STARTUP_TIMEOUT_S) -> None:
        env = dict(os.environ)
        env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
        env["PYTHONUNBUFFERED"] = "1"
        if memory_limit:
            env["TFADVISOR_MEMORY_LIMIT"] = str(int(memory_limit))
        self._stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tfadvisor.runtime.profile.child"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
        self._reader = FrameReader()
        self._pending: list[Any] = []
        self.tf_version: str | None = None
        message = self.receive(time.monotonic() + startup_timeout)
        if message[0] != "ready":
            self.kill()
            raise WorkerDied(self.proc.returncode, self.stderr_tail())
        self.tf_version = message[1]

    def send(self, message: Any) -> None:
        assert self.proc.stdin is not None
        try:
            write_message(self.proc.stdin, message)
        except (BrokenPipeError, OSError):
            self.proc.wait(timeout=5)
            raise WorkerDied(self.proc.returncode, self.stderr_tail()) from None

    def receive(self, deadline: float) -> Any:
        """The next message; WorkerTimeout after ``deadline`` (monotonic), WorkerDied on EOF."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while not self._pending:
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill()
                raise WorkerTimeout()
            ready, _, _ = select.select([fd], [], [], min(left, 1.0))
            if not ready:
                continue
            data = os.read(fd, 1 << 20)
            if not data:
                try:
                    self.proc.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self.kill()
                raise WorkerDied(self.proc.returncode, self.stderr_tail())
            self._pending.extend(self._reader.feed(data))
        return self._pending.pop(0)

    def messages(self, deadline: Any) -> Iterator[Any]:
        """Messages until ``("done",)``; ``deadline()`` is asked again before every read."""
        while True:
            message = self.receive(deadline())
            if message[0] == "done":
                return
            yield message

    def stderr_tail(self, limit: int = 2000) -> str:
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - limit))
            text = self._stderr.read().decode("utf-8", "replace")
        except (OSError, ValueError):
            return ""
        keep = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith(("I0000", "WARNING: All log"))]
        return "\n".join(keep[-15:])

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """Kill the child's whole process group (it is the leader of its own session)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send(None)
                self.proc.wait(timeout=5)
            except (WorkerDied, subprocess.TimeoutExpired, OSError):
                self.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        self._stderr.close()
