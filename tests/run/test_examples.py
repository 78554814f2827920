"""End to end: `tfadvisor run` on each shipped example gives the answer the example is built for.

Only verdicts that follow from large effects (20x speed-ups, a side effect, a retrace per call)
are asserted; the numbers themselves depend on the machine.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("tensorflow")

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples")


def _run(tmp_path, name: str) -> tuple[dict, subprocess.CompletedProcess]:
    out = tmp_path / "report.json"
    proc = subprocess.run(
        [sys.executable, "-m", "tfadvisor", "run", "-q", "--budget", "40", "--format", "json", "--output", str(out),
         os.path.join(EXAMPLES, name)],
        capture_output=True, text=True, timeout=400, env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(out.read_text()), proc


def _fn(report: dict, qualname: str) -> dict:
    return next(f for f in report["functions"] if f["qualname"] == qualname)


@pytest.mark.slow
def test_mlp_train_step_should_be_decorated(tmp_path, schema_valid):
    report, proc = _run(tmp_path, "mlp_training.py")
    schema_valid(report)
    assert "result: test accuracy" in proc.stdout  # the program ran as usual
    step = _fn(report, "train_step")
    assert step["verdict"] == "decorate"
    assert step["measurement"]["calls"] == 1200 and step["measurement"]["equivalent"] is True
    assert step["measurement"]["saved_s"] > 0
    # What fix needs: the signatures seen (for input_signature) and whether XLA matched eager.
    signature = step["measurement"]["signatures"][0]
    assert signature["x"][0] == "tensor" and signature["x"][1] == "float32"
    if step["measurement"]["xla_s"] is not None:
        assert step["measurement"]["xla_equivalent"] in (True, False)
    assert _fn(report, "main")["verdict"] == "leave-eager"  # a driver is never replayed
    assert report["run"]["table"][0]["qualname"] in ("main", "train_step")


@pytest.mark.slow
def test_char_rnn_decorates_the_outer_step_and_covers_the_cell(tmp_path, schema_valid):
    report, _ = _run(tmp_path, "char_rnn.py")
    schema_valid(report)
    assert _fn(report, "train_step")["verdict"] == "decorate"
    forward = _fn(report, "CharRNN.__call__")
    assert forward["reasons"] == ["TF505"]  # every call already inside train_step's graph
    cell = _fn(report, "CharRNN.cell")
    assert cell["measurement"]["calls"] == 36  # only generate()'s calls are left outside the graph


@pytest.mark.slow
def test_preprocessing_side_effects_are_caught_by_replay(tmp_path, schema_valid):
    report, _ = _run(tmp_path, "preprocessing.py")
    schema_valid(report)
    pre = _fn(report, "preprocess")
    assert pre["verdict"] == "fix-first" and "TF603" in pre["reasons"]
    assert pre["measurement"]["equivalent"] is False
    assert any("counters" in d or "batch_sizes" in d for d in pre["measurement"]["differences"])
    assert _fn(report, "augment")["verdict"] == "decorate"


@pytest.mark.slow
def test_retracing_is_reconfigured_with_step_as_a_tensor(tmp_path, schema_valid):
    report, _ = _run(tmp_path, "retracing.py")
    schema_valid(report)
    step = _fn(report, "train_step")
    assert step["decorated"] and step["verdict"] == "reconfigure" and "TF601" in step["reasons"]
    row = next(r for r in report["run"]["table"] if r["qualname"] == "train_step")
    assert row["traces_observed"] == 120 and row["as_tensors"] == {"step": "float32"}
    assert step["measurement"]["as_tensors"] == {"step": "float32"}  # what fix wraps at the call site
    # the saved report renders again as text
    text = subprocess.run([sys.executable, "-m", "tfadvisor", "report", str(tmp_path / "report.json")],
                          capture_output=True, text=True, check=True).stdout
    words = " ".join(text.split())  # the why column wraps
    assert "reconfigure" in words and "`step` as a float32 tensor" in words
