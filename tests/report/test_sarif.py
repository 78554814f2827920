"""SARIF output: valid against the official 2.1.0 schema, with stable fingerprints and 1-based regions."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from tfadvisor.model import Finding, Report, Severity
from tfadvisor.report import render
from tfadvisor.report.sarif import FINGERPRINT_KEY, artifact_uri

from .conftest import DATA, make_report

SCHEMA = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def validate(log: dict) -> None:
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    jsonschema.Draft4Validator(SCHEMA).validate(log)


def test_schema_file_is_the_official_one() -> None:
    assert SCHEMA["id"].endswith("/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json")
    assert "Static Analysis Results Format (SARIF) Version 2.1.0" in SCHEMA["title"]


def test_report_validates_and_names_what_fired(in_project: Path, report: Report) -> None:
    log = json.loads(render(report, "sarif"))
    validate(log)
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "tfadvisor" and driver["semanticVersion"]
    assert [r["id"] for r in driver["rules"]] == ["TF201", "TF202", "TF205", "TF301", "TF999"]
    for rule in driver["rules"]:
        assert rule["help"]["text"] and rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    levels = {r["id"]: r["defaultConfiguration"]["level"] for r in driver["rules"]}
    assert levels["TF999"] == "note"  # unknown to the registry: the finding's severity stands in

    first = run["results"][0]
    assert first["ruleId"] == "TF202" and first["level"] == "error"
    assert driver["rules"][first["ruleIndex"]]["id"] == "TF202"
    loc = first["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "pkg/trainer.py"
    assert loc["region"] == {"startLine": 20, "startColumn": 9, "endLine": 20, "endColumn": 24}
    assert first["locations"][0]["logicalLocations"][0]["fullyQualifiedName"] == "pkg/trainer.py::Trainer.step"
    suppressed = [r for r in run["results"] if r.get("suppressions")]
    assert len(suppressed) == 1 and suppressed[0]["message"]["text"] == "suppressed duplicate"
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert "pkg/broken.py" in notes[0]["message"]["text"]


def test_an_empty_report_validates() -> None:
    log = json.loads(render(Report(), "sarif"))
    validate(log)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []


def test_fingerprints_survive_moving_code_but_not_changing_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tfadvisor.report import _source

    monkeypatch.chdir(tmp_path)
    src = tmp_path / "m.py"

    def fp(text: str, line: int) -> str:
        src.write_text(text)
        _source.clear_cache()
        f = Finding("TF201", Severity.WARNING, "m.py", line, 4, line, 14, "m.py::f", f"print at line {line}")
        log = json.loads(render(Report(findings=[f]), "sarif"))
        validate(log)
        return log["runs"][0]["results"][0]["partialFingerprints"][FINGERPRINT_KEY]

    before = fp("def f(x):\n    print(x)\n", 2)
    moved = fp("import os\n\n\ndef f(x):\n        print(x)\n", 5)  # moved down, re-indented
    changed = fp("def f(x):\n    print(x, 1)\n", 2)
    assert before == moved
    assert before != changed


def test_identical_lines_get_distinct_fingerprints(in_project: Path, report: Report) -> None:
    report.findings.append(report.findings[0])
    log = json.loads(render(report, "sarif"))
    prints = [r["partialFingerprints"][FINGERPRINT_KEY] for r in log["runs"][0]["results"]]
    assert len(prints) == len(set(prints))


def test_regions_are_clamped_to_valid_values() -> None:
    f = Finding("TF201", Severity.ERROR, "a.py", 0, -1, 0, -5, None, "odd positions")
    log = json.loads(render(Report(findings=[f]), "sarif"))
    validate(log)
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 1, "startColumn": 1, "endLine": 1, "endColumn": 1}


@pytest.mark.parametrize(
    ("path", "uri"),
    [("pkg/a b.py", "pkg/a%20b.py"), ("./pkg/a.py", "pkg/a.py"), ("pkg\\win.py", "pkg/win.py"), ("/abs/x.py", "file:///abs/x.py")],
)
def test_uris_are_relative_and_encoded(path: str, uri: str) -> None:
    assert artifact_uri(path) == uri


def test_notebook_cells_and_fixes_are_kept_as_properties() -> None:
    f = Finding("TF201", Severity.WARNING, "nb.ipynb", 7, 0, 7, 5, None, "print", cell=3, cell_line=2)
    report = make_report()
    report.findings = [f]
    log = json.loads(render(report, "sarif"))
    validate(log)
    assert log["runs"][0]["results"][0]["properties"] == {"cell": 3, "cellLine": 2}


def test_rules_carry_the_registry_docs(in_project: Path, report: Report) -> None:
    from tfadvisor.rules import get_rule

    rule = get_rule("TF201")
    assert rule is not None  # the registry ships TF201
    log = json.loads(render(report, "sarif"))
    descriptor = next(r for r in log["runs"][0]["tool"]["driver"]["rules"] if r["id"] == "TF201")
    assert descriptor["name"] == rule.name
    assert descriptor["shortDescription"]["text"] == rule.summary.splitlines()[0]
    assert rule.why.split()[0] in descriptor["fullDescription"]["text"]
    assert "```python" in descriptor["help"]["markdown"] and rule.bad[0].strip() in descriptor["help"]["text"]
    assert descriptor["defaultConfiguration"]["level"] == {"error": "error", "warning": "warning", "info": "note"}[rule.severity.value]


def test_columns_count_characters_not_utf8_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ast columns are UTF-8 byte offsets; SARIF declares code points, so they are converted."""
    from tfadvisor.report import _source

    monkeypatch.chdir(tmp_path)
    line = '    s = "ééé"; print(s)'
    (tmp_path / "u.py").write_text(f"def f(x):\n{line}\n", encoding="utf-8")
    _source.clear_cache()
    start = len(line[: line.index("print")].encode("utf-8"))
    f = Finding("TF201", Severity.WARNING, "u.py", 2, start, 2, len(line.encode("utf-8")), "u.py::f", "print")
    log = json.loads(render(Report(findings=[f]), "sarif"))
    validate(log)
    assert log["runs"][0]["columnKind"] == "unicodeCodePoints"
    region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startColumn"], region["endColumn"]) == (line.index("print") + 1, len(line) + 1)
    annotation = render(Report(findings=[f]), "github")
    assert f"col={line.index('print') + 1},endColumn={len(line) + 1}," in annotation
