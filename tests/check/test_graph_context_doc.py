"""The graph-context sets are data in one place (analysis/graph_context.py) and documented in one
note (docs/decisions/0010-precision-on-real-code.md): every entry of the sets is named there."""

from __future__ import annotations

from pathlib import Path

import pytest

from tfadvisor.analysis import graph_context as gc

NOTE = Path(__file__).resolve().parents[2] / "docs" / "decisions" / "0010-precision-on-real-code.md"
SETS = ["TRACING_FUNCTIONS", "CONTROL_FLOW_FUNCTIONS", "TRACING_DATASET_METHODS", "TRACING_STRATEGY_METHODS",
        "TRACING_CRITICAL_SECTION_METHODS", "EAGER_FUNCTIONS", "NEEDS_GRAPH_METHODS", "DISTRIBUTED_METHODS",
        "NEEDS_GRAPH_OPTIONS", "EXPORTING_FUNCTIONS", "EXPORTING_METHODS", "KERAS_GRAPH_METHODS",
        "KERAS_TRACED_METHODS"]


@pytest.mark.parametrize("name", SETS)
def test_every_entry_is_documented(name: str) -> None:
    text = NOTE.read_text(encoding="utf-8")
    assert f"`{name}`" in text, f"{name} is not named in {NOTE.name}"
    missing = sorted(e for e in getattr(gc, name) if f"`{e}`" not in text)
    assert not missing, f"{NOTE.name} does not list {missing} of {name}"
