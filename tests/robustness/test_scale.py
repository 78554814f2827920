"""Memory per file of what `check` keeps for the project pass, on a slice of the scale benchmark's tree.

The per-file pass hands one ``ModuleSummary`` per file to the main process, which keeps them all
for the project pass: at 20,000 files their size decides whether `check` stays under the 2 GB goal
of issue #9 (benchmarks/scale.py measures the whole run). 2 GB over 20,000 files is 100 KB a file
for everything; summaries get at most half of that here. Measured with tracemalloc on summaries
as the main process really holds them: unpickled, as they arrive from the workers.
"""

from __future__ import annotations

import importlib.util
import pickle
import tracemalloc
from pathlib import Path

from tfadvisor.check import analyze_files
from tfadvisor.rules import selected
from tfadvisor.sources import discover

BUDGET_KB_PER_FILE = 50
FILES = 60


def _scale_module():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "scale.py"
    spec = importlib.util.spec_from_file_location("tfa_scale_benchmark", path)
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_summaries_kept_for_the_project_pass_stay_small(tmp_path: Path) -> None:
    files, lines = _scale_module().generate(str(tmp_path), FILES, FILES * 100, seed=3)
    paths = list(discover([str(tmp_path)]))
    results = analyze_files(paths, tuple(r.code for r in selected()), jobs=1)
    assert all(status.status == "ok" for status, _ in results)
    payload = pickle.dumps([summary for _, summary in results])  # what the workers send back
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        held = pickle.loads(payload)
        size = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    per_file_kb = size / len(held) / 1024
    functions = sum(len(s.functions) for s in held)
    assert functions > FILES * 5, functions  # the files are realistic, not trivially small
    assert per_file_kb < BUDGET_KB_PER_FILE, f"{per_file_kb:.1f} KB a file ({lines / files:.0f} lines a file)"
