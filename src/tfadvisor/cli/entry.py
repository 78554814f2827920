"""The console entry point: click reads the command line, and the observed program then starts
from a shallow Python stack.

Why: TensorFlow records the Python stack of every op it creates, and finding the line of each
frame on it means scanning that frame's line table up to where the frame stopped. Every frame
below the program's own is paid for on every op. Under `tfadvisor run` those were click's five
frames and the command's own: on examples/char_rnn.py (12 s alone) perf put 0.8 s of the 1.3 s
that observation cost in ``_PyCode_CheckLineNumber`` (issue 21: observation alone within 1.10x).
So click parses and checks the command line and returns; the command's work, handed over with
``hand_over``, runs afterwards from ``main``.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable

import click

from tfadvisor.cli.main import main as cli

Job = Callable[[], int]  # a command's work after parsing; returns the exit status

_waiting: list[Job] | None = None  # a list while ``main`` runs click: jobs handed over to run after it


def main() -> None:
    """``tfadvisor ...``: click parses; a job handed over runs once click's frames are gone."""
    sys.exit(_run(_parse()))


def _parse() -> Job:
    """Click, standalone: it ends in SystemExit, which goes on unless a command handed a job over."""
    global _waiting
    _waiting = []
    try:
        cli()
    except SystemExit as exc:
        if not _waiting or exc.code not in (0, None):
            raise
    finally:
        jobs, _waiting = _waiting, None
    return jobs[0]


def hand_over(job: Job) -> None:
    """Run ``job`` after click returns when under ``main``; run it now otherwise (click's test
    runner, or the group called directly). Either way the process exits with its status."""
    if _waiting is not None:
        _waiting.append(job)
        return
    sys.exit(job())


def _run(job: Job) -> int:
    """``job`` with the endings click gives its commands: Ctrl-C is "Aborted!" (exit 1), and a
    closed pipe on stdout (``| head``) ends quietly (exit 1)."""
    try:
        return job()
    except (EOFError, KeyboardInterrupt):
        click.echo(file=sys.stderr)
        click.echo("Aborted!", err=True)
        return 1
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        # Python's own recipe for a closed pipe: what is left to flush at exit goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
