"""The rule catalog: one module per rule (``tf201_print_in_graph.py``), found automatically."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable

from tfadvisor.rules.base import Rule, register, registry

_loaded = False


def load_all() -> None:
    """Import every ``tfNNN_*`` module of this package once, which registers its rule."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("tf") and info.name[2:5].isdigit():
            importlib.import_module(f"{__name__}.{info.name}")


def all_rules() -> list[type[Rule]]:
    return list(registry().values())


def get_rule(code: str) -> type[Rule] | None:
    return registry().get(code.upper())


def matches(code: str, patterns: Iterable[str]) -> bool:
    """Whether ``code`` is selected by any of ``patterns`` (full codes or prefixes: ``TF2``, ``ALL``)."""
    return any(p.upper() == "ALL" or code.startswith(p.upper()) for p in patterns)


def selected(select: Iterable[str] | None = None, ignore: Iterable[str] = ()) -> list[type[Rule]]:
    select = list(select) if select else ["ALL"]
    ignore = list(ignore)
    return [r for r in all_rules() if matches(r.code, select) and not matches(r.code, ignore)]


__all__ = ["Rule", "register", "registry", "all_rules", "get_rule", "selected", "matches", "load_all"]
