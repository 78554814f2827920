"""Property tests: `check` and `fix` on generated code, text and bytes.

- ``check`` never raises on valid Python (hypothesmith, from the grammar and from the CST, and
  TensorFlow-flavoured modules built by ``strategies``), nor on arbitrary text or bytes on disk,
  as a module or as a notebook; every file gets one status and one-line reason; the JSON report
  always validates against the schema and is internally consistent (ids, lines, findings that
  name existing functions); an "internal error" status (a contained tfadvisor bug) never appears.
- ``fix``, through the CLI on generated files, leaves code that parses and a second run that
  changes nothing.

Examples per test come from the ``ci`` profile (bounded) unless ``--hypothesis-profile=long``.
"""

from __future__ import annotations

import ast
import json
import os
import re
import tempfile

import hypothesmith
import pytest
from click.testing import CliRunner
from hypothesis import assume, given
from hypothesis import strategies as st

from tfadvisor.check import analyze_file, check_paths, check_source
from tfadvisor.cli.main import main
from tfadvisor.model import Report, function_id, local_id, split_local_id
from tfadvisor.rules import selected

from .conftest import robust_settings
from .strategies import expected_ids, notebooks, parses, tf_modules

CODES = tuple(r.code for r in selected())


def assert_consistent(report: Report, schema_valid, text: str | None = None) -> dict:
    """Schema-valid JSON (through a real JSON round trip) whose parts agree with each other."""
    data = json.loads(json.dumps(report.to_dict()))
    schema_valid(data)
    ids = {fn["id"] for fn in data["functions"]}
    assert len(ids) == len(data["functions"]), "duplicate function ids"
    # Python's tokenizer ends a line at \r\n, \r or \n (a lone \r too, as in a generated source)
    lines = len(re.split(r"\r\n|\r|\n", text)) if text is not None else None
    definitions: dict[tuple[str, str], list[tuple[int, int]]] = {}
    for fn in data["functions"]:
        number = split_local_id(local_id(fn["id"]))[1]
        assert fn["id"] == function_id(fn["path"], fn["qualname"], number)
        definitions.setdefault((fn["path"], fn["qualname"]), []).append((fn["line"], number))
        assert 1 <= fn["line"] <= fn["end_line"], fn
        if lines is not None:
            assert fn["end_line"] <= lines, fn
    for found in definitions.values():  # a qualname defined again: #2, #3... in source order
        assert [n for _, n in sorted(found)] == list(range(1, len(found) + 1)), found
    for finding in data["findings"]:
        assert finding["function"] is None or finding["function"] in ids, finding
        assert finding["line"] >= 1 and finding["col"] >= 0, finding
        if lines is not None:
            assert finding["line"] <= lines, finding
    for status in data["files"]:
        assert status["status"] in ("ok", "error")
        if status["status"] == "error":
            assert status["error"] and "\n" not in status["error"], status
            assert "internal error" not in status["error"], status["error"]
    return data


def check_text(text: str, schema_valid) -> dict:
    report = check_source(text, "gen.py")
    data = assert_consistent(report, schema_valid, text)
    assert {fn["id"] for fn in data["functions"]} == expected_ids(text, "gen.py")
    return data


@robust_settings()
@given(source=hypothesmith.from_grammar())
def test_check_source_never_raises_on_grammar_python(source, schema_valid) -> None:
    assume(parses(source))
    check_text(source, schema_valid)


@robust_settings(scale=0.4)  # from_node is slow: about half a second an example
@given(source=hypothesmith.from_node())
def test_check_source_never_raises_on_cst_python(source, schema_valid) -> None:
    assume(parses(source))
    check_text(source, schema_valid)


@robust_settings(scale=3)  # cheap, and where the rules actually fire
@given(source=tf_modules())
def test_check_source_on_tensorflow_flavoured_modules(source, schema_valid) -> None:
    assume(parses(source))
    check_text(source, schema_valid)


def _on_disk(name: str, data: bytes, schema_valid) -> dict:
    """analyze_file and check_paths on one file: never raise, exactly one status, consistent."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, name)
        with open(path, "wb") as handle:
            handle.write(data)
        status, summary = analyze_file(path, CODES)
        assert (summary is None) == (status.status == "error"), status
        if status.status == "error":
            assert status.error and "\n" not in status.error
            assert "internal error" not in status.error, status.error
        report = check_paths([path], jobs=1)
        assert len(report.files) == 1 and report.files[0].status == status.status
        return assert_consistent(report, schema_valid)


@robust_settings(scale=2)
@given(data=st.binary(max_size=2000))
def test_arbitrary_bytes_as_a_module(data, schema_valid) -> None:
    _on_disk("blob.py", data, schema_valid)


@robust_settings(scale=2)
@given(data=st.binary(max_size=2000))
def test_arbitrary_bytes_as_a_notebook(data, schema_valid) -> None:
    _on_disk("blob.ipynb", data, schema_valid)


@robust_settings(scale=2)
@given(text=st.text(max_size=2000))
def test_arbitrary_text_on_disk_and_in_memory(text, schema_valid) -> None:
    """Text check_paths accepts is text check_source accepts, with the same functions."""
    data = _on_disk("text.py", text.encode("utf-8", "surrogatepass"), schema_valid)
    if data["files"][0]["status"] == "ok" and "\ufeff" not in text and "\r" not in text:
        in_memory = check_source(text, "text.py")
        assert len(in_memory.functions) == len(data["functions"])


@robust_settings(scale=2)
@given(nb=notebooks())
def test_arbitrary_notebook_json(nb, schema_valid) -> None:
    _on_disk("nb.ipynb", json.dumps(nb).encode(), schema_valid)


def _tree(sources: list[str], root: str) -> list[str]:
    paths = []
    for i, text in enumerate(sources):
        path = os.path.join(root, f"m{i}.py")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
        paths.append(path)
    return paths


def _snapshot(paths: list[str]) -> dict[str, str]:
    out = {}
    for p in paths:
        with open(p, encoding="utf-8") as handle:
            out[p] = handle.read()
    return out


@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe-fixes"])
@robust_settings(scale=0.6)
@given(sources=st.lists(tf_modules(), min_size=1, max_size=3))
def test_fix_cli_output_parses_and_is_idempotent(sources, unsafe) -> None:
    sources = [s for s in sources if parses(s)]
    assume(sources)
    extra = ["--unsafe-fixes"] if unsafe else []
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        paths = _tree(sources, tmp)
        first = runner.invoke(main, ["fix", tmp, *extra])
        assert first.exit_code in (0, 1), first.output
        assert "Traceback" not in first.output
        after = _snapshot(paths)
        for path, text in after.items():
            ast.parse(text)  # fixed code always parses
        second = runner.invoke(main, ["fix", tmp, *extra])
        assert second.exit_code in (0, 1), second.output
        assert _snapshot(paths) == after, "a second fix changed the code again"
        diff = runner.invoke(main, ["fix", "--diff", tmp, *extra])
        assert diff.exit_code == 0 or "left untouched" in diff.output, diff.output


def test_unsafe_fix_of_print_is_idempotent(tmp_path) -> None:
    """The smallest case hypothesis found: one fix run must reach the fixed point."""
    path = tmp_path / "m.py"
    path.write_text("import tensorflow as tf\n\n@tf.function\ndef g(x):\n    print(x)\n    return x * 2\n")
    runner = CliRunner()
    first = runner.invoke(main, ["fix", "--unsafe-fixes", str(path)])
    assert first.exit_code == 0 and "tf.print(x)" in path.read_text(), first.output
    once = path.read_text()
    second = runner.invoke(main, ["fix", "--unsafe-fixes", str(path)])
    assert path.read_text() == once, second.output


def test_notebook_cell_whose_source_is_not_text_is_skipped_with_its_reason(tmp_path, schema_valid) -> None:
    """Regression (found by test_arbitrary_notebook_json): ``"source": [null]`` was an internal error.
    Issue 13: one bad cell never drops the notebook; it is listed and the other cells analysed."""
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps({"cells": [{"cell_type": "code", "source": [None]},
                                          {"cell_type": "code", "source": "def f(x):\n    return x\n"}],
                                "nbformat": 4}))
    status, summary = analyze_file(str(path), CODES)
    assert status.status == "ok" and [str(c) for c in status.skipped_cells] == ["cell 1: 'source' is not text"]
    assert summary is not None and [fn.id for fn in summary.functions] == [f"{status.path}::f"]
