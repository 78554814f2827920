"""`tfadvisor report` (work in progress)."""

from __future__ import annotations

import click


@click.command(name="report")
def report() -> None:
    """Not built yet."""
    raise click.ClickException("`tfadvisor report` is not built yet")
