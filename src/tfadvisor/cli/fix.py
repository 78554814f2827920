"""`tfadvisor fix` (work in progress)."""

from __future__ import annotations

import click


@click.command(name="fix")
def fix() -> None:
    """Not built yet."""
    raise click.ClickException("`tfadvisor fix` is not built yet")
