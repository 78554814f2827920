"""How far each rule agrees with TensorFlow: the conformance suite's figures, as data.

``tests/conformance/`` runs every rule's variants under TensorFlow and the rule on the same
source; ``python benchmarks/conformance.py --write`` stores the per-rule figures in
``conformance.json`` next to this module (a test fails when they are not the measured ones), and
``docs.py`` shows them in docs/rules.md. Reading them needs no TensorFlow.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def load_figures() -> dict[str, Any]:
    """``{"tensorflow": version, "rules": {code: {variants, agree, bad, good, real}}}``."""
    try:
        text = resources.files("tfadvisor").joinpath("rules/conformance.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {"tensorflow": None, "rules": {}}
    data: dict[str, Any] = json.loads(text)
    return data


def figure_text(code: str) -> str | None:
    """``agrees with TensorFlow 2.21 on 12 of 12 variants (5 it confirms, 7 it accepts)``, or None."""
    data = load_figures()
    fig = data["rules"].get(code)
    if not fig:
        return None
    return (f"agrees with TensorFlow {data['tensorflow']} on {fig['agree']} of {fig['variants']} variants "
            f"({fig['bad']} where TensorFlow fails or differs, {fig['good']} where it does not)")
