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
    code, out = run("check", ".", "missing.py", "-f", "json", "-o", "report.json", cwd=tmp_path)
    assert "tfadvisor: missing.py: no such file or directory" in out  # stderr: the report is in a file
    data = json.loads((tmp_path / "report.json").read_text())
    schema_valid(data)
    status = {f["path"]: f for f in data["files"]}
    assert status["ok.py"]["status"] == "ok"
    for name in [*BAD_INPUTS, "big.py", "missing.py"]:
        assert status[name]["status"] == "error", name
        assert status[name]["error"] and "\n" not in status[name]["error"]
    assert "no such file" in status["missing.py"]["error"]
    assert "MB" in status["big.py"]["error"]
    assert code == 2  # missing.py was named: a usage error, after the rest was reported
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


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed command in a subprocess, as a user or CI runs it."""
    return subprocess.run([sys.executable, "-m", "tfadvisor", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "NO_COLOR": "1"})


@pytest.mark.parametrize("name, data, reason", [
    ("syntax.py", b"def f(:\n    pass\n", "syntax error at line 1"),
    ("binary.py", b"\x00\x01\x02binary", "binary file"),
    ("notjson.ipynb", b'{"cells": [', "notebook is not valid JSON"),
])
def test_a_file_that_cannot_be_analysed_exits_1_and_the_rest_is_reported(tmp_path: Path, name: str,
                                                                         data: bytes, reason: str) -> None:
    """Issue 22: these exited 0 (while --format github printed ::error for them). As ruff does, a
    file that cannot be analysed is an error: exit 1, whatever the findings; ``--fail-on never``
    still exits 0. The good file next to it is analysed and reported."""
    (tmp_path / name).write_bytes(data)
    (tmp_path / "good.py").write_text(GOOD)
    result = _cli("check", ".", cwd=tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"error {name}: {reason}" in result.stdout and "1 file could not be analysed" in result.stdout
    assert "1 function in 2 files" in result.stdout
    as_json = _cli("check", ".", "-f", "json", cwd=tmp_path)
    assert as_json.returncode == 1 and any(fn["id"] == "good.py::f" for fn in json.loads(as_json.stdout)["functions"])
    assert _cli("check", ".", "--fail-on", "never", cwd=tmp_path).returncode == 0
    assert _cli("check", "good.py", cwd=tmp_path).returncode == 0


def test_a_path_that_does_not_exist_is_a_usage_error_after_the_rest_is_reported(tmp_path: Path) -> None:
    """Issue 22: ``check nothere.py`` exited 0. A named path that does not exist is a usage error
    (exit 2, as mypy and pytest have it), also with --fail-on never; the other paths are still
    analysed and reported, and outside the text report stderr names the path."""
    (tmp_path / "bad.py").write_text(BAD)
    alone = _cli("check", "nothere.py", cwd=tmp_path)
    assert alone.returncode == 2 and "error nothere.py: no such file or directory" in alone.stdout
    both = _cli("check", "bad.py", "nothere.py", "-f", "json", cwd=tmp_path)
    assert both.returncode == 2
    assert "tfadvisor: nothere.py: no such file or directory" in both.stderr
    assert any(f["rule"] == "TF201" for f in json.loads(both.stdout)["findings"])
    assert _cli("check", "nothere.py", "--fail-on", "never", cwd=tmp_path).returncode == 2


def test_summary_counts_read_as_english(tmp_path: Path) -> None:
    """Issue 22: "1 files", "1 findings", "file(s)"."""
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "syntax.py").write_text("def f(:\n")
    out = _cli("check", ".", cwd=tmp_path).stdout
    assert "1 function in 2 files" in out and "1 finding (1 warning); 1 file could not be analysed" in out, out
    out = _cli("check", "bad.py", cwd=tmp_path).stdout
    assert "1 function in 1 file:" in out and "1 finding (1 warning)" in out, out


def test_verbose_shows_only_reason_codes_that_describe_the_function(tmp_path: Path) -> None:
    """Issue 22: ``-v`` showed TF502 (redundant decorator) on a plain function with no tensor work,
    and TF602 (a run-time rule: measured graph not worth it) on static estimates; the wording said
    "factor change from call to call". The JSON keeps the reasons as the advice gave them."""
    (tmp_path / "m.py").write_text(
        "import tensorflow as tf\n\n"
        "def add(a, b):\n    return a + b\n\n"
        "def once(x):\n    return tf.reduce_sum(tf.nn.relu(tf.matmul(x, x)) * 2.0 + 1.0)\n\n"
        "@tf.function\ndef scale(x, factor):\n    return tf.tanh(x * factor)\n\n"
        "@tf.function\ndef describe(name):\n    return name + '!'\n\n"
        "for i in range(10):\n    scale(tf.ones([2]), float(i))\n"
        "once(tf.ones([2, 2]))\nprint(add(1, 2), describe('a'))\n")
    out = _cli("check", "-v", "m.py", cwd=tmp_path).stdout
    lines = {line.split()[1]: line for line in out.splitlines() if line[:7].strip().isdigit()}
    assert "TF502" not in lines["add"] and "TF602" not in lines["once"], out
    assert "TF502" in lines["describe"], out  # a decorator that gives nothing: the rule applies
    assert "`factor` changes from call to call: one trace per value" in out, out
    data = json.loads(_cli("check", "m.py", "-f", "json", cwd=tmp_path).stdout)
    assert {fn["qualname"]: fn["reasons"] for fn in data["functions"]}["add"] == ["TF502"]
