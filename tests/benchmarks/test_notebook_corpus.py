"""benchmarks/notebooks/evaluate.py, on this repository's own notebook fixtures: its independent
IPython check agrees with how check reads cells (the published corpus figures rest on it)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from notebooks import evaluate  # benchmarks/notebooks/evaluate.py

FIXTURES = Path(__file__).parents[1] / "notebooks" / "fixtures"


def test_ipython_rejects_what_it_cannot_run() -> None:
    assert evaluate.ipython_rejects("!pip install a \\\n    b\nx = 1\n") is None
    assert evaluate.ipython_rejects("batch_size = \n").startswith("SyntaxError")
    assert evaluate.ipython_rejects("%%time\nx = (\n").startswith("SyntaxError")  # the body IPython runs
    assert evaluate.ipython_rejects("%%bash\nx = (\n") is None  # not Python: nothing to reject


def test_figures_on_the_fixtures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for path in FIXTURES.glob("*.ipynb"):
        shutil.copy(path, tmp_path / path.name)
    monkeypatch.chdir(tmp_path)
    figures = evaluate.evaluate(sorted(os.listdir(".")), compare=True)
    assert figures.notebooks == 11 and figures.dropped == []
    assert [(s["path"], s["cell"]) for s in figures.skipped] == [("bad_cells.ipynb", 3), ("bad_cells.ipynb", 5)]
    assert all(s["ipython"] for s in figures.skipped)
    assert figures.compared > 20 and figures.same_as_ipython == figures.compared, figures.differ
    fixed = evaluate.fix_round_trip(str(tmp_path), sorted(os.listdir(".")), str(tmp_path / "fixed"))
    assert fixed["edits_applied"] > 0 and fixed["dropped_after"] == fixed["more_cells_skipped_after"] == []
