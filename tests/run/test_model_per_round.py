"""A step handed a new model and optimizer each round (issue 21): as one tf.function it would
raise in round two (TF401), so `run` never advises a plain decorator for it; when graph mode pays,
the advice is one tf.function per call of the round, and the program `fix --from` writes runs
and prints what the original printed."""

from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "graph_programs", "model_per_round.py")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def fixed(tmp_path_factory, run_quiet):
    tmp = tmp_path_factory.mktemp("per_round")
    shutil.copy(PROGRAM, tmp / "model_per_round.py")
    alone = run_quiet([sys.executable, "model_per_round.py"], tmp)
    run_quiet([sys.executable, "-m", "tfadvisor", "run", "-q", "--budget", "20", "--format", "json",
          "--output", "run.json", "model_per_round.py"], tmp)
    report = json.loads((tmp / "run.json").read_text())
    fix = run_quiet([sys.executable, "-m", "tfadvisor", "fix", "--from", "run.json", "model_per_round.py"], tmp)
    after = run_quiet([sys.executable, "model_per_round.py"], tmp)
    return alone, report, fix, after, (tmp / "model_per_round.py").read_text()


def test_the_step_is_never_given_one_decorator_for_the_whole_program(fixed, schema_valid):
    _, report, *_ = fixed
    schema_valid(report)
    step = next(f for f in report["functions"] if f["qualname"] == "train_step")
    kinds = [e["kind"] for e in step["advice"]["edits"]]
    assert "decorate" not in kinds
    if step["verdict"] == "decorate":  # graph mode paid in this run (it does by far on an idle machine)
        (edit,) = step["advice"]["edits"]
        assert edit["kind"] == "decorate-per-call" and edit["caller"].endswith("::train_round")
        assert any("one tf.function per call of train_round" in a for a in step["assumptions"])


def test_the_fixed_program_runs_as_the_original(fixed):
    alone, report, fix, after, code = fixed
    assert alone.returncode == 0 and after.returncode == 0, after.stderr[-2000:]
    assert after.stdout == alone.stdout
    step = next(f for f in report["functions"] if f["qualname"] == "train_step")
    if step["verdict"] == "decorate":
        assert "train_step_fn = tf.function(train_step)" in code
        assert "@tf.function" not in code
        assert "one tf.function per call of train_round" in fix.stdout
