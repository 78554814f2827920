"""Writing a rendered report: to stdout, or atomically to a file (never half a file)."""

from __future__ import annotations

import os
import tempfile

import click


def write_atomic(path: str, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tfadvisor-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def emit(text: str, output: str | None) -> None:
    """Send a rendered report where the user asked: ``--output FILE`` or stdout."""
    if output and output != "-":
        write_atomic(output, text)
    else:
        click.echo(text, nl=False)
