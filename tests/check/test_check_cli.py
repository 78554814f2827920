"""`tfadvisor check` end to end: exit status, formats, bad input, notebooks, no TensorFlow, no execution."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from tfadvisor.cli.main import main

GOOD = "import tensorflow as tf\n\ndef f(x, w):\n    return tf.reduce_sum(tf.matmul(x, w) * 2.0 + tf.nn.relu(x))\n"
BAD = "import tensorflow as tf\n\n@tf.function\ndef f(x):\n    print(x)\n    return tf.square(x)\n"


def run(*args: str, cwd: Path | None = None) -> tuple[int, str]:
    runner = CliRunner()
    old = os.getcwd()
    try:
        if cwd:
            os.chdir(cwd)
        result = runner.invoke(main, list(args), catch_exceptions=False)
    finally:
        os.chdir(old)
    return result.exit_code, result.output


def test_exit_status_and_json_schema(tmp_path: Path, schema_valid) -> None:
    (tmp_path / "good.py").write_text(GOOD)
    (tmp_path / "bad.py").write_text(BAD)
    code, out = run("check", "good.py", "--fail-on", "warning", cwd=tmp_path)
    assert code == 0, out
    code, out = run("check", ".", "-f", "json", cwd=tmp_path)
    assert code == 1
    data = json.loads(out)
    schema_valid(data)
    assert {f["path"] for f in data["files"]} == {"bad.py", "good.py"}
    assert any(f["rule"] == "TF201" and f["path"] == "bad.py" and f["line"] == 5 for f in data["findings"])
    assert {fn["id"] for fn in data["functions"]} == {"bad.py::f", "good.py::f"}


def test_output_file_is_written(tmp_path: Path, schema_valid) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    code, out = run("check", "bad.py", "-f", "json", "-o", "report.json", cwd=tmp_path)
    assert code == 1 and out == ""
    schema_valid(json.loads((tmp_path / "report.json").read_text()))


def test_select_and_ignore(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD)
    assert run("check", "bad.py", "--ignore", "TF2", cwd=tmp_path)[0] == 0
    code, out = run("check", "bad.py", "--select", "TF9", cwd=tmp_path)
    assert code == 2 and "unknown rule code" in out


BAD_INPUTS = {
    "syntax.py": b"def f(:\n    pass\n",
    "binary.py": b"\x00\x01\x02binary",
    "latin1.py": b"x = '\xe9'\n",
    "deep.py": b"x = " + b"(" * 10000 + b"1" + b")" * 10000 + b"\n",
    "notjson.ipynb": b"{not json",
}


def test_bad_files_are_reported_and_the_run_goes_on(tmp_path: Path, schema_valid) -> None:
    for name, data in BAD_INPUTS.items():
        (tmp_path / name).write_bytes(data)
    (tmp_path / "big.py").write_bytes(b"# x\n" * (3 * 1024 * 1024))  # 12 MB
    (tmp_path / "ok.py").write_text(GOOD)
    code, out = run("check", ".", "missing.py", "-f", "json", cwd=tmp_path)
    data = json.loads(out)
    schema_valid(data)
    status = {f["path"]: f for f in data["files"]}
    assert status["ok.py"]["status"] == "ok"
    for name in [*BAD_INPUTS, "big.py", "missing.py"]:
        assert status[name]["status"] == "error", name
        assert status[name]["error"] and "\n" not in status[name]["error"]
    assert "no such file" in status["missing.py"]["error"]
    assert "MB" in status["big.py"]["error"]
    assert code in (0, 1)  # bad files are not usage errors
    assert any(fn["id"] == "ok.py::f" for fn in data["functions"])


def test_an_empty_or_blank_module_is_valid_python(tmp_path: Path, schema_valid) -> None:
    """Issue 13: ``empty.py`` is a module Python imports without a word; check says ok too."""
    (tmp_path / "empty.py").write_bytes(b"")
    (tmp_path / "blank.py").write_bytes(b"\n   \n\t\n")
    code, out = run("check", "empty.py", "blank.py", "-f", "json", cwd=tmp_path)
    data = json.loads(out)
    schema_valid(data)
    assert [(f["path"], f["status"], f["error"]) for f in data["files"]] == [
        ("empty.py", "ok", None), ("blank.py", "ok", None)]
    assert code == 0 and data["functions"] == [] and data["findings"] == []


def test_pep263_coding_cookie_is_honoured(tmp_path: Path) -> None:
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\nimport tensorflow as tf\nname = '\xe9'\n"
                                        b"def f(x):\n    print(name)\n")
    code, out = run("check", "latin.py", "-f", "json", cwd=tmp_path)
    assert json.loads(out)["files"][0]["status"] == "ok"


def test_notebook_findings_point_at_cell_and_line(tmp_path: Path) -> None:
    nb = {"cells": [
        {"cell_type": "markdown", "source": ["# title"], "metadata": {}},
        {"cell_type": "code", "source": ["%matplotlib inline\n", "import tensorflow as tf\n"], "metadata": {}, "outputs": [], "execution_count": 1},
        {"cell_type": "code", "source": ["!pip install foo\n", "@tf.function\n", "def f(x):\n", "    print(x)\n", "    return x * 2\n"], "metadata": {}, "outputs": [], "execution_count": 2},
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "nb.ipynb").write_text(json.dumps(nb))
    code, out = run("check", "nb.ipynb", "-f", "json", cwd=tmp_path)
    finding = next(f for f in json.loads(out)["findings"] if f["rule"] == "TF201")
    assert (finding["cell"], finding["cell_line"]) == (3, 4)


def test_directories_skip_virtualenvs_and_excludes(tmp_path: Path) -> None:
    for folder in (".git", ".venv", "build", "node_modules", "vendor", "pkg"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "m.py").write_text(BAD)
    code, out = run("check", ".", "--exclude", "vendor", "-f", "json", cwd=tmp_path)
    assert {f["path"] for f in json.loads(out)["files"]} == {"pkg/m.py"}


def test_check_never_imports_tensorflow_nor_runs_the_code(tmp_path: Path) -> None:
    marker = tmp_path / "was_run"
    (tmp_path / "evil.py").write_text(
        "import tensorflow as tf\n"
        f"open({str(marker)!r}, 'w').write('ran')\n"
        "import sys\nsys.exit(3)\n" + GOOD)
    script = ("import sys\nfrom tfadvisor.check import check_paths\nfrom tfadvisor.report import render\n"
              f"r = check_paths([{str(tmp_path)!r}])\nrender(r, 'text'); render(r, 'json')\n"
              "assert 'tensorflow' not in sys.modules, 'check imported TensorFlow'\nprint(len(r.functions))\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "1"
    assert not marker.exists()


def test_parallel_and_serial_give_the_same_report(tmp_path: Path) -> None:
    from tfadvisor.check import PARALLEL_THRESHOLD, check_paths

    for i in range(PARALLEL_THRESHOLD + 2):
        (tmp_path / f"m{i}.py").write_text(BAD if i % 2 else GOOD)
    serial = check_paths([str(tmp_path)], jobs=1).to_dict()
    parallel = check_paths([str(tmp_path)], jobs=2).to_dict()
    assert serial == parallel
