"""`tfadvisor profile` (work in progress)."""

from __future__ import annotations

import click


@click.command(name="profile")
def profile() -> None:
    """Not built yet."""
    raise click.ClickException("`tfadvisor profile` is not built yet")
