"""Make ``benchmarks/`` importable (``ground_truth``, ``accuracy``, ``corpus.index``)."""

import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
for p in (BENCH, BENCH / "corpus"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
