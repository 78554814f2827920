"""`tfadvisor explain CODE` and `tfadvisor rules` (work in progress)."""

from __future__ import annotations

import click


@click.command()
@click.argument("code")
def explain(code: str) -> None:
    """What a rule means."""
    raise click.ClickException("not built yet")


@click.command()
def rules() -> None:
    """List every rule."""
    raise click.ClickException("not built yet")
