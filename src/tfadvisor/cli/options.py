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


INSTALL_TF = "pip install 'tfadvisor[tf]'"


def require_tensorflow(command: str) -> None:
    """``run`` and ``profile`` measure with TensorFlow: without it, say so and how to install it
    (exit 2) instead of ending in a ModuleNotFoundError traceback from deep inside the runtime.
    Looks the packages up without importing them (importing TensorFlow takes seconds)."""
    import importlib.util
    import sys

    missing = []
    for name in ("tensorflow", "numpy"):
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a finder that refuses it, or a broken half-install
            found = False
        if not found:
            missing.append(name)
    if missing:
        click.echo(f"tfadvisor {command}: needs TensorFlow, which is not installed for {sys.executable} "
                   f"(missing: {', '.join(missing)}).\n"
                   f"Install it with: {INSTALL_TF}   (TensorFlow for CPU; a TensorFlow you installed "
                   f"yourself, GPU builds included, works too)\n"
                   f"`tfadvisor check` and `tfadvisor fix` need no TensorFlow.", err=True)
        sys.exit(2)
