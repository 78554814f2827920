"""Notebook edits land in the right cell; outputs, metadata and the JSON layout are kept."""

from __future__ import annotations

import json

import nbformat

from casekit import function_lines
from tfadvisor.fix.engine import run_plan, unified_diff
from tfadvisor.fix.planner import Options, plan
from tfadvisor.model import Facts, Finding, FixInfo, FunctionReport, Report, Severity, Verdict
from tfadvisor.sources.reading import notebook_to_source


def _notebook(first_cell: str) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Training"),
        nbformat.v4.new_code_cell(first_cell),
        nbformat.v4.new_code_cell(
            "def step(x, w):\n    print('step', x)\n    return tf.matmul(x, w)",
            execution_count=3, metadata={"tags": ["train"]},
            outputs=[nbformat.v4.new_output("stream", name="stdout", text="step 1\n")]),
        nbformat.v4.new_code_cell("%%time\nstep(1, 2)"),
        nbformat.v4.new_code_cell("!ls\nout = step(a, b)  # café"),
    ]
    return nb


def _report(path: str, text: str) -> Report:
    joined = notebook_to_source(path, text.encode())
    line, end = function_lines(joined.text)["step"]
    fid = f"{path}::step"
    fn = FunctionReport(id=fid, path=path, qualname="step", line=line, end_line=end, decorated=False,
                        facts=Facts(tensor_params=["x", "w"]), verdict=Verdict.DECORATE, reasons=["TF501"])
    finding = Finding(rule="TF201", severity=Severity.WARNING, path=path, line=line + 1, col=4,
                      end_line=line + 1, end_col=20, function=fid, message="print",
                      fix=FixInfo(safe=False, description="print -> tf.print"))
    return Report(functions=[fn], findings=[finding])


def test_notebook_edit_goes_to_its_cell(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    nb = _notebook("import tensorflow as tf\n%matplotlib inline")
    nbformat.write(nb, "nb.ipynb")
    text = open("nb.ipynb", encoding="utf-8").read()
    the_plan = plan(_report("nb.ipynb", text), Options(unsafe=True))

    diff_outcomes = run_plan(the_plan, ["nb.ipynb"], write=False)
    assert "nb.ipynb (cell 3)" in unified_diff(diff_outcomes[0])
    assert open("nb.ipynb", encoding="utf-8").read() == text  # --diff wrote nothing

    [outcome] = run_plan(the_plan, ["nb.ipynb"], write=True)
    assert outcome.written, outcome.error
    fixed = nbformat.read("nb.ipynb", as_version=4)
    nbformat.validate(fixed)
    assert fixed.cells[2].source == "@tf.function\ndef step(x, w):\n    tf.print('step', x)\n    return tf.matmul(x, w)"
    assert fixed.cells[2].outputs == nb.cells[2].outputs
    assert fixed.cells[2].metadata == nb.cells[2].metadata and fixed.cells[2].execution_count == 3
    assert fixed.cells[1].source == nb.cells[1].source  # magic kept, nothing added
    assert [c.source for c in fixed.cells[3:]] == [c.source for c in nb.cells[3:]]
    assert fixed.metadata == nb.metadata
    # The layout is nbformat's own: writing the fixed notebook with nbformat gives the same bytes.
    new_text = open("nb.ipynb", encoding="utf-8").read()
    assert new_text == nbformat.writes(fixed) + "\n"
    assert "café" in new_text

    again = run_plan(the_plan, ["nb.ipynb"], write=True)
    assert not any(o.changed for o in again)


def test_notebook_without_alias_gets_import_in_first_code_cell(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    nb = _notebook("import numpy as np")
    nb.cells[1]["source"] = "import numpy as np"
    nbformat.write(nb, "nb.ipynb")
    text = open("nb.ipynb", encoding="utf-8").read()
    [outcome] = run_plan(plan(_report("nb.ipynb", text), Options()), ["nb.ipynb"], write=True)
    assert outcome.written
    cells = json.load(open("nb.ipynb", encoding="utf-8"))["cells"]
    assert "".join(cells[1]["source"]) == "import tensorflow as tf\nimport numpy as np"
    assert "".join(cells[2]["source"]).startswith("@tf.function\ndef step")


def test_magic_lines_in_an_edited_cell_and_bom_crlf_layout_survive(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    nb = _notebook("import tensorflow as tf")
    nb.cells[2]["source"] = "%time x = 1\ndef step(x, w):\n    print('step', x)\n    !echo hi\n    return tf.matmul(x, w)"
    text = nbformat.writes(nb) + "\n"
    data = b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")
    (tmp_path / "nb.ipynb").write_bytes(data)
    report = _report("nb.ipynb", text)
    [outcome] = run_plan(plan(report, Options(unsafe=True)), ["nb.ipynb"], write=True)
    assert outcome.written, outcome.error
    new = (tmp_path / "nb.ipynb").read_bytes()
    assert new.startswith(b"\xef\xbb\xbf") and b"\r\n" in new and b"\n" not in new.replace(b"\r\n", b"")
    cell = json.loads(new.decode("utf-8-sig"))["cells"][2]
    assert "".join(cell["source"]) == (
        "%time x = 1\n@tf.function\ndef step(x, w):\n    tf.print('step', x)\n    !echo hi\n    return tf.matmul(x, w)")


def test_fix_names_skipped_and_applied_rule_edits_by_cell_and_line(tmp_path, monkeypatch) -> None:
    """Issue 22: `fix` on a notebook listed "TF201 at line 5 in f", line 5 of the cells joined,
    which the user never sees; now "cell 3, line 3", as `check` says it."""
    from click.testing import CliRunner

    from tfadvisor.cli.main import main

    monkeypatch.chdir(tmp_path)
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# t"),
                nbformat.v4.new_code_cell("import numpy as np\nimport tensorflow as tf"),
                nbformat.v4.new_code_cell("@tf.function\ndef f(x):\n    print(x)\n    return x * 2 + np.random.normal()")]
    nbformat.write(nb, "nb.ipynb")
    skipped = CliRunner().invoke(main, ["fix", "--diff", "nb.ipynb"])
    assert "nb.ipynb: TF201 at cell 3, line 3 in f: unsafe fix" in skipped.output, skipped.output
    applied = CliRunner().invoke(main, ["fix", "--diff", "--unsafe-fixes", "nb.ipynb"])
    assert "nb.ipynb: TF201 at cell 3, line 3 in f" in applied.output, applied.output
    assert "at line 5" not in skipped.output + applied.output
