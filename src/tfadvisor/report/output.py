"""Writing a rendered report: to stdout, or atomically to a file (never half a file)."""

from __future__ import annotations

import click

from tfadvisor.atomic import write_atomic

__all__ = ["emit", "write_atomic"]


def emit(text: str, output: str | None) -> None:
    """Send a rendered report where the user asked: ``--output FILE`` or stdout."""
    if output and output != "-":
        write_atomic(output, text)
    else:
        click.echo(text, nl=False)
