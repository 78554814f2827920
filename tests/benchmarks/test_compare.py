"""benchmarks/realworld/compare.py: what moved between two versions' reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "realworld"))

import compare  # noqa: E402


def _report(folder: Path, verdict: str, findings: list[dict]) -> None:
    folder.mkdir()
    functions = [{"id": "train.py::step", "verdict": verdict, "confidence": "certain", "reasons": [], "assumptions": []},
                 {"id": "train.py::loss", "verdict": "leave-eager", "confidence": "certain", "reasons": [], "assumptions": []}]
    (folder / "repo.json").write_text(json.dumps({"functions": functions, "findings": findings}))


def test_moves_and_findings_are_counted(tmp_path, capsys):
    finding = {"path": "train.py", "line": 3, "rule": "TF501", "message": "decorate it"}
    _report(tmp_path / "before", "decorate", [finding])
    _report(tmp_path / "after", "keep", [])
    assert compare.main([str(tmp_path / "before"), str(tmp_path / "after"), "--counts"]) == 0
    out = capsys.readouterr().out
    assert "decorate -> keep: 1" in out
    assert "2 differing, of 2 functions" in out  # the verdict and the finding only one side has


def test_equal_reports_differ_nowhere(tmp_path, capsys):
    _report(tmp_path / "before", "decorate", [])
    _report(tmp_path / "after", "decorate", [])
    assert compare.main([str(tmp_path / "before"), str(tmp_path / "after")]) == 0
    assert capsys.readouterr().out.strip() == "0 differing, of 2 functions"
