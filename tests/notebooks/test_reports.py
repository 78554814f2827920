"""Every report format keeps notebook lines exact with the new syntax, and says which cells were
skipped (the notebook itself stays analysed)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from tfadvisor.check import check_paths
from tfadvisor.model import Report
from tfadvisor.report import _source, render

FIXTURES = Path(__file__).parent / "fixtures"
SARIF_SCHEMA = json.loads((Path(__file__).parents[1] / "report" / "data" / "sarif-schema-2.1.0.json").read_text())


@pytest.fixture
def reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Report]:
    monkeypatch.chdir(tmp_path)
    _source.clear_cache()
    out = {}
    for name in ("shell_continuation", "bad_cells"):
        shutil.copy(FIXTURES / f"{name}.ipynb", tmp_path / f"{name}.ipynb")
        out[name] = check_paths([f"{name}.ipynb"], jobs=1)
    return out


def _json_line(path: str, line: int) -> str:
    """The string a line of the .ipynb file holds (one line of a cell's source)."""
    return json.loads(Path(path).read_text().splitlines()[line - 1].strip().rstrip(","))


def test_sarif_lines_after_a_continued_shell_command(reports: dict[str, Report]) -> None:
    log = json.loads(render(reports["shell_continuation"], "sarif"))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    [result] = [r for r in log["runs"][0]["results"] if r["ruleId"] == "TF201"]
    assert (result["properties"]["cell"], result["properties"]["cellLine"]) == (3, 5)
    line = result["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert _json_line("shell_continuation.ipynb", line) == "    print('x is', x)\n"


def test_skipped_cells_in_every_format(reports: dict[str, Report]) -> None:
    report = reports["bad_cells"]
    [status] = report.files
    assert status.status == "ok" and status.summary == "analysed, 2 cells skipped"

    log = json.loads(render(report, "sarif"))
    jsonschema.Draft4Validator(SARIF_SCHEMA).validate(log)
    notes = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert [(n["level"], n["properties"]["cell"], n["properties"]["cellLine"]) for n in notes] == [
        ("warning", 3, 2), ("warning", 5, 1)]
    region = notes[0]["locations"][0]["physicalLocation"]["region"]["startLine"]
    assert _json_line("bad_cells.ipynb", region) == "learning_rate = "
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is True

    github = [x for x in render(report, "github").splitlines() if "skipped" in x]
    assert len(github) == 2 and github[0].startswith("::notice file=bad_cells.ipynb,line=")
    assert "cell 3, line 2: not Python: invalid syntax" in github[0]

    text = render(report, "text")
    assert "note bad_cells.ipynb: analysed, 2 cells skipped" in text
    assert "cell 5, line 1: not Python: invalid syntax" in text and "2 notebook cells skipped" in text

    page = render(report, "html")
    assert "Notebook cells that were skipped" in page and "cell 3, line 2: not Python: invalid syntax" in page
    assert "bad_cells.ipynb cell 4, line 2</span>" in page  # where train_step is defined

    data = json.loads(render(report, "json"))
    assert Report.from_dict(data).files[0].skipped_cells == status.skipped_cells
