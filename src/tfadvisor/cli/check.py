"""`tfadvisor check` (work in progress)."""

from __future__ import annotations

import click


@click.command()
@click.argument("paths", nargs=-1)
def check(paths: tuple[str, ...]) -> None:
    """Static verdicts."""
    raise click.ClickException("not built yet")
