"""`tfadvisor run` then `tfadvisor fix` on Keras programs, as a user would (subprocesses, real
TensorFlow). Behaviour only, no timing asserts: the advice appears where the program compiled its
model, fix edits that compile() call, and the fixed program still runs with the same results."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

FIXTURES = Path(__file__).parent / "fixtures"
SCHEMA = Path(__file__).parents[2] / "src" / "tfadvisor" / "schema" / "report.schema.json"

pytestmark = pytest.mark.slow


def _tfadvisor(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tfadvisor", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=600)


def _result(cwd: Path, name: str) -> float:
    proc = subprocess.run([sys.executable, name], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return float(re.search(r"result: loss=([\d.]+)", proc.stdout).group(1))  # type: ignore[union-attr]


def test_run_eagerly_left_on_is_measured_advised_and_fixed(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "eager_mlp.py", tmp_path / "eager_mlp.py")
    run = _tfadvisor("run", "eager_mlp.py", "--format", "json", "--output", "report.json", "--quiet",
                     "--budget", "60", cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads((tmp_path / "report.json").read_text())
    jsonschema.validate(report, json.loads(SCHEMA.read_text()))
    (training,) = report["run"]["keras"]
    compile_line = next(i for i, line in enumerate((tmp_path / "eager_mlp.py").read_text().splitlines(), 1)
                        if "model.compile(" in line)
    assert training["compile_site"]["line"] == compile_line
    assert training["compiled"]["run_eagerly"] is True
    names = [t["name"] for t in training["trials"]]
    assert names[:2] == ["as compiled", "run_eagerly=False"]
    # eager against graph for a small model is a wide margin: advised on any machine load
    assert training["verdict"] == "reconfigure" and training["options"]["run_eagerly"] is False
    assert training["equivalent"] is True
    finding = next(f for f in report["findings"] if f["rule"] == "TF606")
    assert finding["line"] == compile_line and "run_eagerly=False" in finding["message"]
    row = next(r for r in report["run"]["table"] if r["id"] == training["id"])
    assert row["advised"] and row["saved_s"] > 0

    text = _tfadvisor("report", "report.json", cwd=tmp_path).stdout
    assert "keras: sequential" in text and "run_eagerly=False" in text

    before = _result(tmp_path, "eager_mlp.py")
    fix = _tfadvisor("fix", "--from", "report.json", "eager_mlp.py", cwd=tmp_path)
    assert fix.returncode == 0, fix.stderr
    source = (tmp_path / "eager_mlp.py").read_text()
    assert re.search(r"run_eagerly=False[,)]", source) and not re.search(r"run_eagerly=True[,)]", source)
    assert '    model.compile(optimizer="adam", loss="mse",\n' in source  # the call's layout is kept
    after = _result(tmp_path, "eager_mlp.py")
    assert abs(after - before) <= 0.1 * before + 1e-3
    again = _tfadvisor("fix", "--from", "report.json", "eager_mlp.py", cwd=tmp_path)
    assert (tmp_path / "eager_mlp.py").read_text() == source, again.stdout  # idempotent


def test_pipeline_program_reports_its_pipeline_and_fix_keeps_it_running(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "pipeline.py", tmp_path / "pipeline.py")
    run = _tfadvisor("run", "pipeline.py", "--format", "json", "--output", "report.json", "--quiet",
                     "--budget", "60", cwd=tmp_path)
    assert run.returncode == 0, run.stderr[-2000:]
    report = json.loads((tmp_path / "report.json").read_text())
    (training,) = report["run"]["keras"]
    assert [s["method"] for s in training["pipeline"]] == ["map", "shuffle", "map", "batch"]
    assert training["trials"] and training["skipped"] is None
    for edit in training["pipeline_edits"]:  # whatever was advised points at the pipeline's own calls
        assert edit["site"]["path"] == "pipeline.py" and edit["site"]["method"] in ("map", "batch")
    fix = _tfadvisor("fix", "--from", "report.json", "pipeline.py", cwd=tmp_path)
    assert fix.returncode == 0, fix.stderr
    proc = subprocess.run([sys.executable, "pipeline.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "result: done" in proc.stdout, proc.stderr[-2000:]
    if any(e["kind"] == "cache" for e in training["pipeline_edits"]):
        source = (tmp_path / "pipeline.py").read_text()
        assert source.index(".cache()") < source.index(".shuffle(")  # never after the shuffle
