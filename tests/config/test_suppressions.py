"""`# tfadvisor: ignore[...]` comments: on the line, on the def line, bare; `--show-suppressed`."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from tfadvisor.check import check_source
from tfadvisor.cli.main import main

HEADER = "import numpy as np\nimport tensorflow as tf\n\n"


def findings(body: str) -> list[tuple[str, int, bool]]:
    report = check_source(HEADER + body, "example.py")
    return sorted((f.rule, f.line - 3, f.suppressed) for f in report.findings if f.rule in ("TF201", "TF205"))


def test_no_comment_nothing_suppressed() -> None:
    body = "@tf.function\ndef f(x):\n    print(x)\n    return x + np.random.rand()\n"
    assert findings(body) == [("TF201", 3, False), ("TF205", 4, False)]


def test_code_on_the_line_suppresses_only_that_code_there() -> None:
    body = ("@tf.function\ndef f(x):\n    print(x)  # tfadvisor: ignore[TF201]\n"
            "    print(x)\n    return x + np.random.rand()  # tfadvisor: ignore[TF201]\n")
    assert findings(body) == [("TF201", 3, True), ("TF201", 4, False), ("TF205", 5, False)]


def test_several_codes_and_lower_case() -> None:
    body = "@tf.function\ndef f(x):\n    print(np.random.rand())  # tfadvisor: ignore[tf201, TF205]\n    return x\n"
    assert findings(body) == [("TF201", 3, True), ("TF205", 3, True)]


def test_bare_ignore_suppresses_every_code_on_the_line() -> None:
    body = "@tf.function\ndef f(x):\n    print(np.random.rand())  # tfadvisor: ignore\n    print(x)\n    return x\n"
    assert findings(body) == [("TF201", 3, True), ("TF201", 4, False), ("TF205", 3, True)]


def test_def_line_suppresses_the_whole_function() -> None:
    body = ("@tf.function\ndef f(x):  # tfadvisor: ignore[TF201]\n    print(x)\n    print(x)\n"
            "    return x + np.random.rand()\n\n@tf.function\ndef g(x):\n    print(x)\n    return x\n")
    assert findings(body) == [("TF201", 3, True), ("TF201", 4, True), ("TF201", 9, False), ("TF205", 5, False)]


def test_show_suppressed_through_the_cli(tmp_path: Path) -> None:
    body = "@tf.function\ndef f(x):\n    print(x)  # tfadvisor: ignore[TF201]\n    return tf.square(x)\n"
    (tmp_path / "m.py").write_text(HEADER + body)
    old = os.getcwd()
    try:
        os.chdir(tmp_path)
        hidden = CliRunner().invoke(main, ["check", "m.py", "--select", "TF201"], env={"COLUMNS": "200"})
        shown = CliRunner().invoke(main, ["check", "m.py", "--select", "TF201", "--show-suppressed"],
                                   env={"COLUMNS": "200"})
        as_json = CliRunner().invoke(main, ["check", "m.py", "--select", "TF201", "-f", "json"])
    finally:
        os.chdir(old)
    assert hidden.exit_code == 0, hidden.output  # a suppressed finding does not fail the check
    assert "6:5" not in hidden.output and "(suppressed)" not in hidden.output
    assert "6:5" in shown.output and "(suppressed)" in shown.output
    data = json.loads(as_json.output)
    assert [(f["rule"], f["line"], f["suppressed"]) for f in data["findings"]] == [("TF201", 6, True)]
