"""Terminal output shared by all commands: one place that decides colour, quietness and progress.

Why one module: every command (check over a big tree, run's replay, profile, report) must behave the
same way on a terminal (colour, a progress bar for long work) and when piped or in CI (plain text,
no bars, no escape codes). ``NO_COLOR`` (https://no-color.org) and ``--quiet`` are honoured here so
each command only has to pass its ``quiet`` flag along.

Reports themselves go to stdout (``report.output.emit``); progress and status go to stderr so that
``tfadvisor check --format json > out.json`` stays clean.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO, Any, TypeVar

from rich.console import Console

T = TypeVar("T")

__all__ = ["console", "err_console", "no_color", "is_interactive", "wants_color", "progress", "Progress", "status"]


def no_color() -> bool:
    """True when the user asked for no colour: ``NO_COLOR`` set to anything non-empty."""
    return bool(os.environ.get("NO_COLOR"))


def _is_tty(stream: IO[str] | None) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError):  # closed or replaced streams (pytest capture, IPython)
        return False


def is_interactive(stream: IO[str] | None = None) -> bool:
    """A human is watching ``stream`` (stderr by default): a tty, and not a dumb terminal."""
    stream = sys.stderr if stream is None else stream
    return _is_tty(stream) and os.environ.get("TERM", "") != "dumb"


def wants_color(file: IO[str] | None = None) -> bool:
    """Whether a renderer should colour what goes to ``file`` (stdout by default): a terminal, no NO_COLOR."""
    return is_interactive(sys.stdout if file is None else file) and not no_color()


def console(file: IO[str] | None = None, *, quiet: bool = False, width: int | None = None) -> Console:
    """A rich Console for ``file`` (stdout by default) that honours NO_COLOR, --quiet and pipes.

    Colour and terminal control codes are only used on an interactive terminal; piped output is
    plain text. ``quiet`` silences everything printed through this console.
    """
    file = sys.stdout if file is None else file
    tty = is_interactive(file)
    return Console(
        file=file,
        quiet=quiet,
        no_color=no_color(),
        color_system="auto" if (tty and not no_color()) else None,
        force_terminal=tty,
        force_interactive=tty,
        highlight=False,
        soft_wrap=not tty,
        width=width if width is not None else (None if tty else 100),
    )


def err_console(*, quiet: bool = False) -> Console:
    """The console for progress, status and warnings: stderr, so reports on stdout stay clean."""
    return console(sys.stderr, quiet=quiet)


class Progress:
    """What ``progress()`` yields: ``advance()`` after each item, ``update(description=...)`` to relabel.

    On a non-interactive stream (or with ``quiet``) every method is a no-op, so callers never branch.
    """

    def __init__(self, bar: Any = None, task: Any = None) -> None:
        self._bar = bar
        self._task = task
        self.completed = 0

    @property
    def active(self) -> bool:
        """True when a bar is actually drawn (interactive terminal, not quiet)."""
        return self._bar is not None

    def advance(self, amount: int = 1) -> None:
        self.completed += amount
        if self._bar is not None:
            self._bar.advance(self._task, amount)

    def update(self, *, description: str | None = None, total: int | None = None) -> None:
        if self._bar is not None:
            kwargs: dict[str, Any] = {}
            if description is not None:
                kwargs["description"] = description
            if total is not None:
                kwargs["total"] = total
            self._bar.update(self._task, **kwargs)

    def track(self, items: Iterable[T]) -> Iterator[T]:
        """Yield ``items``, advancing by one after each."""
        for item in items:
            yield item
            self.advance()


@contextmanager
def progress(
    description: str,
    total: int | None = None,
    *,
    quiet: bool = False,
    file: IO[str] | None = None,
    transient: bool = True,
) -> Iterator[Progress]:
    """A progress bar for long work, drawn only on an interactive terminal (stderr by default).

    ``with progress("checking", total=len(files), quiet=quiet) as bar: ... bar.advance()``.
    Piped, in CI, or with ``quiet`` nothing is drawn and nothing is written.
    """
    stream = sys.stderr if file is None else file
    if quiet or not is_interactive(stream):
        yield Progress()
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    from rich.progress import Progress as RichProgress

    bar = RichProgress(
        SpinnerColumn(),
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console(stream),
        transient=transient,
    )
    with bar:
        task = bar.add_task(description, total=total)
        yield Progress(bar, task)


@contextmanager
def status(message: str, *, quiet: bool = False, file: IO[str] | None = None) -> Iterator[None]:
    """A spinner with ``message`` for work of unknown length (e.g. running the user's program).

    Only on an interactive terminal; otherwise silent.
    """
    stream = sys.stderr if file is None else file
    if quiet or not is_interactive(stream):
        yield
        return
    with console(stream).status(message):
        yield
