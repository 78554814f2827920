"""Findings in a real .ipynb: SARIF and annotations point at the notebook file's own lines, the HTML
shows the cell's lines labelled by cell."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import nbformat
import pytest

from tfadvisor.model import Report
from tfadvisor.report import _source, render

from .test_sarif import SCHEMA

CELLS = [
    nbformat.v4.new_markdown_cell("# Training\nA notebook with a print in a tf.function."),
    nbformat.v4.new_code_cell("%matplotlib inline\nimport tensorflow as tf"),
    nbformat.v4.new_code_cell('@tf.function\ndef step(x):\n    print("value <b>", x)\n    return tf.reduce_sum(x * x)'),
]


@pytest.fixture
def notebook_report(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Report, Path]:
    from tfadvisor.check import check_paths

    monkeypatch.chdir(tmp_path)
    nb = nbformat.v4.new_notebook(cells=CELLS)
    nbformat.write(nb, "train.ipynb")
    _source.clear_cache()
    report = check_paths(["train.ipynb"], jobs=1)
    return report, tmp_path / "train.ipynb"


def _print_finding(report: Report):
    found = [f for f in report.findings if f.rule == "TF201"]
    assert found, [f.rule for f in report.findings]
    return found[0]


def test_sarif_points_at_the_notebook_json_line(notebook_report: tuple[Report, Path]) -> None:
    report, path = notebook_report
    finding = _print_finding(report)
    assert (finding.cell, finding.cell_line) == (3, 3)
    log = json.loads(render(report, "sarif"))
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "TF201")
    region = result["locations"][0]["physicalLocation"]["region"]
    raw_line = path.read_text(encoding="utf-8").splitlines()[region["startLine"] - 1]
    assert json.loads(raw_line.strip().rstrip(",")) == '    print("value <b>", x)\n'
    assert result["message"]["text"].endswith("(cell 3, line 3)")
    assert result["properties"]["cell"] == 3


def test_github_annotation_names_the_cell(notebook_report: tuple[Report, Path]) -> None:
    report, path = notebook_report
    lines = [x for x in render(report, "github").splitlines() if "TF201" in x]
    assert lines and "file=train.ipynb,line=" in lines[0] and lines[0].endswith("(cell 3, line 3)")
    line = int(lines[0].split("line=")[1].split(",")[0])
    assert "print(" in path.read_text(encoding="utf-8").splitlines()[line - 1]


def test_html_shows_cell_lines_escaped(notebook_report: tuple[Report, Path]) -> None:
    report, _ = notebook_report
    page = render(report, "html")
    assert '<span class="ln">[3]:3</span>    print(&quot;value &lt;b&gt;&quot;, x)' in page
    assert "%matplotlib" not in page  # the excerpt stays inside the finding's cell
