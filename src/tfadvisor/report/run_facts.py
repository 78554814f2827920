"""The facts `run` and `profile` record about the whole run, worded for people.

``Report.run`` keeps machine names and raw numbers (``memory_budget_bytes: 536870912``, ``module:
false``) because the JSON is for programs; a page is for people, so each fact gets a label and a
unit here (``RunSummary`` and ``ProfileSummary`` in ``model.py`` say which facts there are).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from typing import Any

from tfadvisor.report._summary import format_seconds

OUTCOMES = {"ok": "ended normally", "exit": "called sys.exit", "exception": "raised an exception",
            "interrupted": "interrupted (Ctrl-C)", "terminated": "terminated (SIGTERM)",
            "crashed": "crashed", "not-found": "not found", "syntax-error": "has a syntax error"}


def format_bytes(value: float) -> str:
    """``512 MiB``, ``3.2 KiB``: binary units, as memory is counted."""
    for unit, size in (("GiB", 2 ** 30), ("MiB", 2 ** 20), ("KiB", 2 ** 10)):
        if abs(value) >= size:
            return f"{value / size:.3g} {unit}"
    return f"{value:.0f} bytes"


def _yes_no(value: Any) -> str:
    return "yes" if value else "no"


# key -> (label, how to show its value); keys not here are not shown (the table has its own view)
_KNOWN: dict[str, tuple[str, Callable[[Any], str]]] = {
    "target": ("program", str),
    "module": ("run as", lambda v: "a module (python -m)" if v else "a script"),
    "argv": ("arguments", lambda v: shlex.join(str(a) for a in v) if isinstance(v, list) else str(v)),
    "exit_status": ("exit status", str),
    "outcome": ("the program", lambda v: OUTCOMES.get(str(v), str(v))),
    "error": ("error", str),
    "error_kind": ("error", str),
    "wall_s": ("wall time", format_seconds),
    "observed_functions": ("functions observed", str),
    "replayed_functions": ("functions measured", str),
    "budget_s": ("measuring budget", format_seconds),
    "budget_basis": ("budget set as", lambda v: f"{v}, shared by each function's share of the run"),
    "replay_s": ("time spent measuring", format_seconds),
    "replay_interrupted": ("measuring interrupted", _yes_no),
    "memory_budget_bytes": ("memory allowed for recorded calls", format_bytes),
    "memory_used_bytes": ("memory used by recorded calls", format_bytes),
    "projected_saved_s": ("projected saving", lambda v: format_seconds(v, signed=True)),
}


def run_facts(run: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, value with its unit) for each fact worth showing, in the report's order."""
    out: list[tuple[str, str]] = []
    for key, value in run.items():
        known = _KNOWN.get(key)
        if known is None or value is None or value == "" or value == []:
            continue
        label, show = known
        out.append((label, show(value)))
    return out
