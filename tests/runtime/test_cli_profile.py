"""`tfadvisor profile` end to end: exit statuses, JSON against the schema, text report."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from tfadvisor.cli.main import main

HERE = Path(__file__).parent
FIXTURES = str(HERE / "tfa_fixtures.py")
SCHEMA = json.loads((HERE.parents[1] / "src/tfadvisor/schema/report.schema.json").read_text())


def invoke(*args: str):
    return CliRunner().invoke(main, ["profile", *args])


def test_malformed_target_exits_2_without_starting_anything():
    result = invoke("not-a-target", "--calls", f"{FIXTURES}:one_call")
    assert result.exit_code == 2
    assert "expected MODULE:NAME" in result.output
    assert "Traceback" not in result.output


def test_missing_file_exits_2():
    result = invoke("nowhere/missing.py:f", "--calls", "nowhere/missing.py:calls")
    assert result.exit_code == 2 and "no such file" in result.output


def test_bad_modes_are_a_usage_error():
    result = invoke(f"{FIXTURES}:scaled", "--calls", f"{FIXTURES}:scaled_calls", "--modes", "graph,warp")
    assert result.exit_code == 2


@pytest.mark.slow
@pytest.mark.tf
def test_json_output_to_a_file_validates(tmp_path):
    out = tmp_path / "profile.json"
    result = invoke(f"{FIXTURES}:scaled", "--calls", f"{FIXTURES}:scaled_calls", "--modes", "eager,graph",
                    "--format", "json", "--output", str(out), "-q")
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    jsonschema.validate(data, SCHEMA)
    assert data["command"] == "profile"
    assert data["functions"][0]["measurement"]["traces"] == 6
    assert any(f["rule"] == "TF601" and "`step`" in f["message"] for f in data["findings"])


@pytest.mark.slow
@pytest.mark.tf
def test_unknown_function_exits_2_and_hang_exits_1_in_text():
    result = invoke(f"{FIXTURES}:nope", "--calls", f"{FIXTURES}:one_call")
    assert result.exit_code == 2 and "nope" in result.output and "Traceback" not in result.output
    result = invoke(f"{FIXTURES}:hangs", "--calls", f"{FIXTURES}:one_call", "--timeout", "1")
    assert result.exit_code == 1
    assert "time limit" in result.output and "Traceback" not in result.output
