"""The notebook magics in a real IPython InteractiveShell (history, namespace, magics as users run them)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

try:
    import IPython  # noqa: F401
except ImportError:  # pragma: no cover - depends on the machine
    if os.environ.get("CI"):
        raise
    pytest.skip("pip install ipython (the notebook extension's tests need it)", allow_module_level=True)

from tfadvisor.ipython import NotebookResult, as_calls, join_cells, parse_profile_line  # noqa: E402


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    from IPython.core.interactiveshell import InteractiveShell

    os.environ["IPYTHONDIR"] = str(tmp_path_factory.mktemp("ipython"))
    sh = InteractiveShell.instance()
    sh.run_cell("%load_ext tfadvisor", store_history=True)
    yield sh
    InteractiveShell.clear_instance()


def run(shell, code: str):
    result = shell.run_cell(code, store_history=True)
    assert result.error_in_exec is None and result.error_before_exec is None, result
    return result.result


CELL_IMPORT = "import tensorflow as tf\n"
CELL_STEP = '''@tf.function
def step(x):
    print("sum", x)
    return tf.reduce_sum(x * x)
'''
CELL_MAGICS = "%time y = 1\n!echo hi\nz = 2\n"
CELL_BROKEN = "def nope(:\n"


def test_check_names_findings_by_cell(shell) -> None:
    # the cells are only checked, never run: tensorflow need not be imported in this process
    shell.history_manager.store_inputs(shell.execution_count, CELL_IMPORT)
    shell.execution_count += 1
    first = shell.execution_count
    shell.history_manager.store_inputs(first, CELL_STEP)
    shell.execution_count += 1
    shell.history_manager.store_inputs(shell.execution_count, CELL_BROKEN)
    broken = shell.execution_count
    shell.execution_count += 1
    run(shell, CELL_MAGICS)
    result = run(shell, "%tfadvisor_check")
    assert isinstance(result, NotebookResult)
    prints = [f for f in result.report.findings if f.rule == "TF201"]
    assert prints and prints[0].cell == first and prints[0].cell_line == 3
    text = result.text()
    assert f"In [{first}], line 3: TF201" in text
    assert f"In [{broken}] skipped: not Python: " in text
    assert any(fn.qualname == "step" for fn in result.report.functions)
    html = result._repr_html_()
    assert "<code>TF201</code>" in html and "<script" not in html


def test_check_can_write_the_html_report(shell, tmp_path: Path) -> None:
    out = tmp_path / "nb.html"
    result = run(shell, f"%tfadvisor_check --html {out}")
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert f"HTML report written to {out}" in result.text()


def test_join_cells_reads_cells_as_ipython_does_and_keeps_line_numbers() -> None:
    history = join_cells([(1, "%%time\nx = 1\n"), (2, "a = 1\n%matplotlib inline\nb = !ls\nc = 3\n")])
    assert history.text.splitlines() == [
        "", "x = 1",  # %%time runs its body
        "a = 1", "get_ipython().run_line_magic('matplotlib', 'inline')", "b = get_ipython().getoutput('ls')", "c = 3"]
    assert history.locate(6) == (2, 4)


@pytest.mark.parametrize(
    ("line", "function", "expr"),
    [
        ("f --calls [(x,)] * 3", "f", "[(x,)] * 3"),
        ("obj.step --modes eager,graph --expected-calls 500 --calls calls", "obj.step", "calls"),
    ],
)
def test_profile_line_parsing(line: str, function: str, expr: str) -> None:
    args, got = parse_profile_line(line)
    assert args.function == function and got == expr


def test_profile_usage_errors_are_one_message(shell, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(shell, "%tfadvisor_profile f") is None
    assert "--calls EXPR is required" in capsys.readouterr().out
    assert run(shell, "%tfadvisor_profile no_such_fn --calls [1]") is None
    assert "cannot evaluate 'no_such_fn'" in capsys.readouterr().out
    run(shell, "def g(x):\n    return x\n")
    assert run(shell, "%tfadvisor_profile g --calls 5") is None
    assert "--calls must give a list of calls" in capsys.readouterr().out


def test_calls_forms() -> None:
    assert as_calls([((1,), {"k": 2}), (1, 2), 3]) == [((1,), {"k": 2}), ((1, 2), {}), ((3,), {})]


@pytest.mark.slow
@pytest.mark.tf
def test_profile_a_notebook_function(shell, tmp_path: Path) -> None:
    """Real measurement in a child process of a function that only exists in the notebook."""
    run(shell, "import tensorflow as tf\n")
    run(shell, "def many_small_ops(x):\n    for _ in range(20):\n        x = tf.tanh(x) * 0.5 + 0.1\n    return x\n")
    run(shell, "xs = [tf.random.normal([8, 8]) for _ in range(3)]\n")
    out = tmp_path / "profile.html"
    result = run(shell, f"%tfadvisor_profile many_small_ops --modes eager,graph --expected-calls 300 --html {out} --quiet --calls [(x,) for x in xs] * 10")
    assert isinstance(result, NotebookResult), result
    fn = result.report.functions[0]
    m = fn.measurement
    assert m is not None and m.error is None, result.text()
    assert m.eager_s and m.graph_s and m.calls == 300
    print(result.text())
    assert "many_small_ops (In [" in result.text() and "eager" in result.text()
    assert out.read_text(encoding="utf-8").count("<svg") >= 2


@pytest.mark.tf
def test_run_magic_names_the_cell_and_shows_the_users_frames(shell, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: ``%%tfadvisor_run`` named the kernel's file for the cell (``<ipython-input-3-...>``
    in a terminal, ``/tmp/ipykernel_.../123.py`` in Jupyter); a failing cell's traceback showed the
    magic's and the observer's frames. Now ``In [n], line l`` and the user's frames only."""
    pytest.importorskip("tensorflow")
    run(shell, "import tensorflow as tf\n")
    defined = shell.execution_count
    run(shell, "def step(x):\n    y = x\n    for _ in range(10):\n        y = tf.tanh(y) * 1.5\n    return tf.reduce_sum(y)\n\n"
               "def helper(x):\n    return tf.reshape(x, [3, 3])\n\n"
               "@tf.function\ndef bad(x):\n    return helper(x) * 2.0\n")
    result = run(shell, "%%tfadvisor_run --budget 20 --quiet\nfor _ in range(30):\n    step(tf.ones([3]))\n")
    assert isinstance(result, NotebookResult)
    step = next(fn for fn in result.report.functions if fn.qualname == "step")
    assert (step.cell, step.cell_line, step.path) == (defined, 1, "<notebook>.py")
    assert step.id == "<notebook>.py::step"
    assert all(f.cell == defined for f in result.report.findings), result.report.findings
    text = result.text()
    assert f"step (In [{defined}], line 1)" in text and "ipython-input" not in text, text
    assert all(r.id.startswith("<notebook>.py::") for r in result.report.run.table)

    capsys.readouterr()
    failing = shell.execution_count
    shell.run_cell("%%tfadvisor_run --budget 20 --quiet\nbad(tf.ones([4]))\n", store_history=True)
    trace = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().out)  # IPython colours its tracebacks
    trace = trace.split("\nOut[")[0]  # the magic's result follows
    assert f"In[{failing}], line 1" in trace and "Cannot reshape a tensor with 4 elements" in trace, trace
    assert "tfadvisor" not in trace and "tf__observed" not in trace and "observe.py" not in trace, trace
