"""Observation leaves a program's tf.functions as they are (issue 21): a SavedModel export of a
tf.Module's ``input_signature`` ``__call__``, ``get_concrete_function``, concrete signatures,
``isinstance`` and checkpoints behave under ``run`` as alone; what the program used a graph for
keeps its decorator."""

from __future__ import annotations

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "graph_programs", "saved_module.py")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def runs(tmp_path_factory, run_quiet):
    tmp = tmp_path_factory.mktemp("graph_uses")
    alone = run_quiet([sys.executable, PROGRAM], tmp)
    report = tmp / "run.json"
    observed = run_quiet([sys.executable, "-m", "tfadvisor", "run", "-q", "--budget", "20", "--format", "json",
                     "--output", str(report), PROGRAM], tmp)
    return alone, observed, json.loads(report.read_text())


def test_the_program_prints_and_exits_as_alone(runs):
    alone, observed, _ = runs
    assert alone.returncode == 0, alone.stderr
    assert observed.returncode == 0, observed.stderr
    assert observed.stdout == alone.stdout
    assert "served [0.5, 2.5]" in alone.stdout and "is a tf.function True" in alone.stdout


def test_what_needs_its_graph_keeps_its_decorator(runs, schema_valid):
    *_, report = runs
    schema_valid(report)
    functions = {f["qualname"]: f for f in report["functions"]}
    call = functions["Scale.__call__"]
    assert call["verdict"] in ("keep", "reconfigure")
    assert call["advice"]["verdict"] == call["verdict"]
    assert any("input_signature" in reason for reason in call["advice"]["needs_graph"])
    assert not any(f["verdict"] == "undecorate" for f in report["functions"])
