"""`tfadvisor report REPORT.json`: every format from a saved report; bad files refused with exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from tfadvisor.cli.main import main
from tfadvisor.model import Report

from .test_sarif import SCHEMA


@pytest.fixture
def saved(tmp_path: Path, report: Report) -> Path:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(report.to_dict()), encoding="utf-8")
    return path


def invoke(*args: str):
    return CliRunner().invoke(main, ["report", *args], catch_exceptions=False)


def test_json_round_trips(saved: Path, schema_valid) -> None:
    result = invoke(str(saved), "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.output) == json.loads(saved.read_text())
    schema_valid(json.loads(result.output))


def test_sarif_to_a_file_is_valid(in_project: Path, saved: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.sarif"
    result = invoke(str(saved), "-f", "sarif", "-o", str(out))
    assert result.exit_code == 0, result.output
    jsonschema.Draft4Validator(SCHEMA).validate(json.loads(out.read_text()))


def test_html_with_root_shows_source(saved: Path, tmp_path: Path) -> None:
    from .conftest import PROJECT

    out = tmp_path / "r.html"
    result = invoke(str(saved), "--format", "html", "--output", str(out), "--root", str(PROJECT), "-q")
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert 'class="src"' in page and "<svg" in page
    assert "wrote" not in result.output  # --quiet


def test_github_annotations(saved: Path) -> None:
    result = invoke(str(saved), "--format", "github")
    assert result.exit_code == 0
    assert result.output.startswith("::error file=pkg/trainer.py,line=20,")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"schema": 1, "tool": {"name": "tfadvisor"', "truncated JSON"),
        ("", "empty file"),
        ("{nope}", "invalid JSON"),
        ('{"version": "2.1.0", "runs": []}', "not a tfadvisor report"),
        ('[1, 2]', "not a tfadvisor report"),
        ('{"schema": 7, "tool": {"name": "tfadvisor"}}', "schema version 7"),
        ('{"schema": 1, "tool": {"name": "tfadvisor"}, "functions": [{"id": "x"}]}', "malformed"),
        ('{"schema": 1, "tool": {"name": "tfadvisor"}, "findings": [{"rule": "TF201", "severity": "loud"}]}', "malformed"),
    ],
)
def test_bad_reports_exit_2_with_one_line(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    result = CliRunner().invoke(main, ["report", str(bad), "-f", "html"])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1


def test_missing_and_binary_files(tmp_path: Path) -> None:
    missing = CliRunner().invoke(main, ["report", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    result = CliRunner().invoke(main, ["report", str(binary)])
    assert result.exit_code == 2 and "not UTF-8" in result.output
    folder = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert folder.exit_code == 2 and "folder" in folder.output


def test_a_failed_write_leaves_the_old_file(saved: Path, tmp_path: Path) -> None:
    out = tmp_path / "keep.html"
    out.write_text("old", encoding="utf-8")
    missing_dir = tmp_path / "no-such-dir" / "x.html"
    result = CliRunner().invoke(main, ["report", str(saved), "-f", "json", "-o", str(missing_dir)])
    assert result.exit_code != 0 and "cannot write" in result.output
    assert out.read_text() == "old"
