"""Every definition is judged (issue 13): a name defined again, in a later cell or later in a module,
is its own function entry (``path::qualname#2``) with its own verdict and findings; calls reach the
definition live where they are; ``fix --from`` and ``report`` work with those ids."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from tfadvisor.cli.main import main
from tfadvisor.model import function_id, local_id, split_local_id

FIXTURES = Path(__file__).parent / "fixtures"

MODULE = '''import tensorflow as tf

w = tf.Variable(tf.ones([4, 4]))


@tf.function
def train_step(x):
    print("x is", x)
    for _ in tf.range(10):
        x = tf.matmul(x, w) + tf.nn.relu(x) * 0.5 - tf.reduce_mean(x)
    return tf.reduce_sum(x)


for _ in range(100):
    train_step(tf.ones([4, 4]))


def train_step(x):
    for _ in tf.range(10):
        x = tf.matmul(x, w) + tf.nn.relu(x) * 0.5 - tf.reduce_mean(x)
    return tf.reduce_sum(x)


for _ in range(100):
    train_step(tf.ones([4, 4]))
'''

LIVE_AT_THE_CALL = '''import tensorflow as tf


def scale(x):
    return x * 2


scale(1.0)


def scale(x):
    return tf.square(x) * 2


scale(tf.ones([3]))


class Model:
    @tf.function
    def step(self, x):
        return self.helper(x)

    def helper(self, x):
        print("x is", x)
        return tf.square(x)


class Model:  # redefined in a later cell: its step calls its own helper
    @tf.function
    def step(self, x):
        return self.helper(x)

    def helper(self, x):
        return tf.square(x)
'''


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def _check(path: str, schema_valid) -> dict:
    data = json.loads(_cli("check", path, "--format", "json")[1])
    schema_valid(data)
    return data


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_two_train_step_cells_are_both_judged(here: Path, schema_valid) -> None:
    shutil.copy(FIXTURES / "redefined_train_step.ipynb", here / "nb.ipynb")
    data = _check("nb.ipynb", schema_valid)
    functions = {f["id"]: f for f in data["functions"]}
    assert sorted(functions) == ["nb.ipynb::train_step", "nb.ipynb::train_step#2"]
    first, second = functions["nb.ipynb::train_step"], functions["nb.ipynb::train_step#2"]
    assert first["qualname"] == second["qualname"] == "train_step"
    assert (first["cell"], first["cell_line"], second["cell"], second["cell_line"]) == (3, 2, 5, 2)
    # a print in a tf.function is a finding to fix (tf.print), not a change of what is computed
    assert first["verdict"] == second["verdict"] == "keep"
    [finding] = [f for f in data["findings"] if f["rule"] == "TF201"]
    assert finding["function"] == "nb.ipynb::train_step" and (finding["cell"], finding["cell_line"]) == (3, 3)


def test_calls_reach_the_definition_live_where_they_are(here: Path, schema_valid) -> None:
    (here / "live.py").write_text(LIVE_AT_THE_CALL)
    functions = {f["id"]: f for f in _check("live.py", schema_valid)["functions"]}
    # scale(1.0) is above the second def, scale(tf.ones(...)) below it
    assert functions["live.py::scale"]["facts"]["primitive_params"] == ["x"]
    assert functions["live.py::scale#2"]["facts"]["tensor_params"] == ["x"]
    # self.helper() reaches the helper of its own class body
    assert functions["live.py::Model.step"]["facts"]["python_side_effects"] is True
    assert functions["live.py::Model.step#2"]["facts"]["python_side_effects"] is False


def test_fix_from_a_report_edits_the_definition_each_entry_judged(here: Path, schema_valid) -> None:
    (here / "train.py").write_text(MODULE)
    assert _cli("check", "train.py", "--format", "json", "--output", "report.json")[0] == 1
    data = json.loads((here / "report.json").read_text())
    schema_valid(data)
    verdicts = {f["id"]: f["verdict"] for f in data["functions"]}
    assert verdicts == {"train.py::train_step": "keep", "train.py::train_step#2": "decorate"}

    code, out = _cli("report", "report.json", "--format", "text")
    assert code == 0 and "train_step#2" in out

    code, out = _cli("fix", "--unsafe-fixes", "--from", "report.json", "train.py")
    assert code == 0, out
    fixed = (here / "train.py").read_text()
    assert fixed == MODULE.replace('    print("x is", x)', '    tf.print("x is", x)').replace(
        "\n\ndef train_step(x):\n    for", "\n\n@tf.function\ndef train_step(x):\n    for")
    # ids stay: the same two entries, now both tf.functions with nothing to fix
    again = {f["id"]: f for f in _check("train.py", schema_valid)["functions"]}
    assert sorted(again) == sorted(verdicts)
    assert all(f["decorated"] for f in again.values())


def test_id_helpers_round_trip() -> None:
    assert function_id("a.py", "C.m") == "a.py::C.m"
    assert function_id("a.py", "C.m", 3) == "a.py::C.m#3"
    assert local_id("dir/a.py::f.<locals>.g#2") == "f.<locals>.g#2"
    assert split_local_id("f.<locals>.g#2") == ("f.<locals>.g", 2)
    assert split_local_id("f") == ("f", 1)


def test_run_attaches_what_it_observed_to_the_definition_that_ran(here: Path, schema_valid) -> None:
    """`run` observes functions by code object; its first line (the decorator) picks the entry."""
    from tfadvisor.check import check_paths
    from tfadvisor.runtime.run.observe import FunctionStats
    from tfadvisor.runtime.run.analysis import _static_index, _static_match

    (here / "train.py").write_text(MODULE)
    index = _static_index(check_paths(["train.py"], jobs=1))

    def ran(line: int) -> str:
        stats = FunctionStats(qualname="train_step", module="__main__", filename=str(here / "train.py"),
                              line=line, function=lambda x: x)
        return _static_match(index, stats).id

    assert ran(6) == "train.py::train_step"  # @tf.function on line 6, def on 7
    assert ran(18) == "train.py::train_step#2"
