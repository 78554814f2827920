"""Options shared by the commands, so that every command spells them the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


def output_options(formats: tuple[str, ...]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--format``, ``--output`` and ``--quiet``."""
    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn = click.option("-q", "--quiet", is_flag=True, help="No progress and no text report; the exit status still tells.")(fn)
        fn = click.option("-o", "--output", type=click.Path(dir_okay=False, writable=True), help="Write the report to FILE (atomically) instead of stdout.")(fn)
        fn = click.option("-f", "--format", "fmt", type=click.Choice(formats), default=formats[0], show_default=True, help="Report format.")(fn)
        return fn
    return decorate


def split_codes(value: str | None) -> tuple[str, ...] | None:
    """``"TF2, TF301"`` -> ``("TF2", "TF301")``; None when the option was not given."""
    if not value:
        return None
    return tuple(v.strip().upper() for v in value.split(",") if v.strip())
