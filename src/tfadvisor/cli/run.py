"""`tfadvisor run` (work in progress)."""

from __future__ import annotations

import click


@click.command(name="run")
def run() -> None:
    """Not built yet."""
    raise click.ClickException("`tfadvisor run` is not built yet")
