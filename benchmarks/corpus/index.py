"""The corpus index: every function of ``mlproj`` mapped to its driver and intended verdict.

An id is ``path::qualname`` exactly as ``tfadvisor check`` names functions when it runs in
``benchmarks/corpus`` on ``mlproj`` (nested functions: ``outer.<locals>.inner``). The *intended*
verdict is what the author meant when writing the function; the label that counts is the measured
one in ``benchmarks/labels.json`` (``ground_truth.py``).

A driver is ``drive(mod, h) -> state``: ``mod`` is the function's module, freshly loaded for one
mode; ``h.call(fn, *args)`` times and records one call; ``h.project("name")`` gives another
project module, also fresh; the returned state (variables, counters, lists) is compared across modes.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable

VERDICTS = ("decorate", "keep", "reconfigure", "undecorate", "fix-first", "leave-eager")


@dataclass(frozen=True)
class Entry:
    id: str
    driver: Callable[[Any, Any], Any]
    intended: str
    rules: tuple[str, ...] = ()
    note: str = ""


ENTRIES: dict[str, Entry] = {}


def driver(function_id: str, intended: str, rules: tuple[str, ...] = (), note: str = "") -> Callable:
    """Register ``drive(mod, h)`` as the driver of ``function_id``."""
    if intended not in VERDICTS:
        raise ValueError(f"{function_id}: unknown verdict {intended!r}")

    def register(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        if function_id in ENTRIES:
            raise ValueError(f"{function_id}: two drivers")
        ENTRIES[function_id] = Entry(function_id, fn, intended, tuple(rules), note)
        return fn

    return register


def _load_drivers() -> None:
    from corpus import drivers

    for info in pkgutil.iter_modules(drivers.__path__):
        importlib.import_module(f"corpus.drivers.{info.name}")


_load_drivers()
