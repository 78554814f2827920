"""Each IPython syntax of issue 13 in a real .ipynb, through ``check`` and then ``fix`` and back.

Every fixture has a tf.function with a ``print`` (TF201, fixed by ``--unsafe-fixes`` as
``tf.print``) somewhere around the syntax: the finding must name its exact cell and line, and the fix
must change that line only, leaving the IPython syntax, the other cells, outputs and metadata as
they were.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import nbformat
import pytest
from click.testing import CliRunner

from tfadvisor.cli.main import main
from tfadvisor.sources import cells

FIXTURES = Path(__file__).parent / "fixtures"

# fixture -> (TF201 findings as (cell, line in cell), skipped cells as (cell, line))
EXPECTED: dict[str, tuple[list[tuple[int, int]], list[tuple[int, int | None]]]] = {
    "shell_continuation": ([(3, 5)], []),
    "cell_magic_time": ([(3, 4)], []),
    "cell_magic_capture": ([(3, 4)], []),
    "line_magic_in_block": ([(3, 4)], []),
    "system_assign": ([(3, 3)], []),
    "help_syntax": ([(3, 3)], []),
    "indented_cell": ([(3, 3)], []),
    "percent_in_expression": ([(3, 7)], []),
    "other_cell_magics": ([(5, 3)], []),
    "bad_cells": ([(4, 3)], [(3, 2), (5, 1)]),
    "redefined_train_step": ([(3, 3)], []),
}


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return result.exit_code, result.output


def _check(path: Path, schema_valid) -> dict:
    _, out = _cli("check", str(path), "--format", "json")
    data = json.loads(out)
    schema_valid(data)
    return data


@pytest.fixture(params=sorted(EXPECTED))
def notebook(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / f"{request.param}.ipynb"
    shutil.copy(FIXTURES / target.name, target)
    return target


def test_fixtures_cover_each_syntax_once() -> None:
    assert sorted(p.stem for p in FIXTURES.glob("*.ipynb")) == sorted(EXPECTED)


def test_check_points_at_the_cell_and_line(notebook: Path, schema_valid) -> None:
    data = _check(notebook, schema_valid)
    expected, skipped = EXPECTED[notebook.stem]
    [status] = data["files"]
    assert status["status"] == "ok" and status["error"] is None
    assert [(c["cell"], c["line"]) for c in status["skipped_cells"]] == skipped
    found = [(f["cell"], f["cell_line"]) for f in data["findings"] if f["rule"] == "TF201"]
    assert found == expected
    cells_json = json.loads(notebook.read_text())["cells"]
    for cell, line in found:
        assert "print(" in "".join(cells_json[cell - 1]["source"]).splitlines()[line - 1]


def test_fix_changes_the_print_line_only_and_reads_back(notebook: Path, schema_valid) -> None:
    before = nbformat.read(notebook, as_version=4)
    code, out = _cli("fix", "--unsafe-fixes", "--select", "TF201", str(notebook))
    assert code == 0, out
    after = nbformat.read(notebook, as_version=4)
    nbformat.validate(after)
    expected, _ = EXPECTED[notebook.stem]
    changed = {cell for cell, _ in expected}
    for number, (old, new) in enumerate(zip(before.cells, after.cells), 1):
        if number not in changed:
            assert new == old, number
            continue
        assert {k: v for k, v in new.items() if k != "source"} == {k: v for k, v in old.items() if k != "source"}
        old_lines, new_lines = old.source.splitlines(), new.source.splitlines()
        assert len(new_lines) == len(old_lines)
        differ = [i + 1 for i, (a, b) in enumerate(zip(old_lines, new_lines)) if a != b]
        assert differ == [line for cell, line in expected if cell == number]
        for i in differ:
            assert new_lines[i - 1] == old_lines[i - 1].replace("print(", "tf.print(", 1)
    again = _check(notebook, schema_valid)
    assert not [f for f in again["findings"] if f["rule"] == "TF201"]
    assert again["files"][0]["skipped_cells"] == _check_skipped(notebook.stem)
    text = notebook.read_text()
    assert _cli("fix", "--unsafe-fixes", "--select", "TF201", str(notebook))[0] == 0
    assert notebook.read_text() == text  # a second fix finds nothing to do


def _check_skipped(name: str) -> list[dict]:
    return [{"cell": c, "line": l, "reason": "not Python: invalid syntax"} for c, l in EXPECTED[name][1]]


def test_without_ipython_no_fixture_is_read_worse(notebook: Path, schema_valid, without_ipython: None) -> None:
    """The fallback reading finds the same findings in every fixture (before issue 13, five of
    these notebooks were dropped whole with a syntax error)."""
    assert not cells.ipython_available()
    data = _check(notebook, schema_valid)
    expected, skipped = EXPECTED[notebook.stem]
    assert [(c["cell"], c["line"]) for c in data["files"][0]["skipped_cells"]] == skipped
    assert [(f["cell"], f["cell_line"]) for f in data["findings"] if f["rule"] == "TF201"] == expected


STEP = ("def {name}(x):\n    for _ in tf.range(10):\n"
        "        x = tf.matmul(x, w) + tf.nn.relu(x) * 0.5 - tf.reduce_mean(x)\n    return tf.reduce_sum(x)\n"
        "for _ in range(100):\n    {name}(tf.ones([4, 4]))")


def test_decorators_added_around_ipython_syntax(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, schema_valid) -> None:
    """`decorate` adds a line inside cells with IPython syntax: it stays, lines below it move."""
    monkeypatch.chdir(tmp_path)
    book = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import tensorflow as tf\nw = tf.Variable(tf.ones([4, 4]))"),
        nbformat.v4.new_code_cell("%%time\n!echo start \\\n    now\n" + STEP.format(name="train_step")),
        nbformat.v4.new_code_cell("\n".join("    " + line for line in STEP.format(name="eval_step").splitlines())
                                  + "\n    %time eval_step(tf.ones([4, 4]))"),
    ])
    nbformat.write(book, "nb.ipynb")
    verdicts = {f["id"]: f["verdict"] for f in _check(Path("nb.ipynb"), schema_valid)["functions"]}
    assert verdicts == {"nb.ipynb::train_step": "decorate", "nb.ipynb::eval_step": "decorate"}
    code, out = _cli("fix", "nb.ipynb")
    assert code == 0, out
    cells = [c.source for c in nbformat.read("nb.ipynb", as_version=4).cells]
    assert cells[1] == "%%time\n!echo start \\\n    now\n@tf.function\n" + STEP.format(name="train_step")
    assert cells[2].startswith("    @tf.function\n    def eval_step(x):\n")
    assert cells[2].endswith("\n    %time eval_step(tf.ones([4, 4]))")
    again = _check(Path("nb.ipynb"), schema_valid)["functions"]
    assert [(f["id"], f["verdict"], f["decorated"]) for f in again] == [
        ("nb.ipynb::train_step", "keep", True), ("nb.ipynb::eval_step", "keep", True)]
