"""A cell becomes the Python IPython runs, line for line (issue 13), with or without IPython."""

from __future__ import annotations

import ast

import pytest

from tfadvisor.sources import cells
from tfadvisor.sources.cells import to_python

# (cell, the Python of each of its lines)
CASES = {
    "shell escape with continuation lines": (
        "!pip install -q a \\\n    b\nimport os",
        ["get_ipython().system('pip install -q a      b')", "", "import os"]),
    "cell magic whose body is Python": (
        "%%time\nx = 1\n!ls",
        ["", "x = 1", "get_ipython().system('ls')"]),
    "cell magic with arguments": (
        "%%capture out\ny = 2",
        ["", "y = 2"]),
    "line magic inside a block": (
        "try:\n    %tensorflow_version 2.x\nexcept Exception:\n    pass",
        ["try:", "    get_ipython().run_line_magic('tensorflow_version', '2.x')", "except Exception:", "    pass"]),
    "assignment from a shell command": (
        "files = !ls -la \\\n    /tmp\nn = len(files)",
        ["files = get_ipython().getoutput('ls -la      /tmp')", "", "n = len(files)"]),
    "assignment from a line magic": (
        "home = %env HOME",
        ["home = get_ipython().run_line_magic('env', 'HOME')"]),
    "help with ? and ??": (
        "tf.function?\ntf.reduce_sum??\n?len",
        ["get_ipython().run_line_magic('pinfo', 'tf.function')",
         "get_ipython().run_line_magic('pinfo2', 'tf.reduce_sum')",
         "get_ipython().run_line_magic('pinfo', 'len')"]),
    "an indented cell is dedented": (
        "    def f(x):\n        return x\n    f(1)",
        ["def f(x):", "    return x", "f(1)"]),
    "% starting a line inside an expression is an operator": (
        "msg = ('%s and %s'\n       % (a, b))",
        ["msg = ('%s and %s'", "       % (a, b))"]),
    "a one-line shell command runs as automagic": (
        "pip install -q tensorflow",
        ["get_ipython().run_line_magic('pip', 'install -q tensorflow')"]),
    "leading blank lines stay": (
        "\n\n%matplotlib inline\nimport os",
        ["", "", "get_ipython().run_line_magic('matplotlib', 'inline')", "import os"]),
}


@pytest.mark.parametrize("name", CASES)
def test_cell_as_ipython_reads_it_line_for_line(name: str) -> None:
    text, expected = CASES[name]
    code = to_python(text)
    assert code.faithful and code.not_python is None
    assert list(code.lines) == expected
    assert len(code.lines) == len(text.splitlines())
    ast.parse(code.text)


@pytest.mark.parametrize("name", CASES)
def test_same_python_as_ipython_apart_from_padding(name: str, ipython_shell) -> None:
    """Our reading is what a real IPython shell runs; only blank lines (which Python ignores) differ."""
    text, _ = CASES[name]
    code = to_python(text)
    body = text.split("\n", 1)[1] if text.startswith("%%") else text  # %%time transforms its body so
    theirs = ipython_shell.transform_cell(body)
    ours = "\n".join(code.lines[1:] if text.startswith("%%") else code.lines)
    assert ast.dump(ast.parse(ours)) == ast.dump(ast.parse(theirs))


def test_cell_magics_that_are_not_python_are_not_read() -> None:
    for text in ("%%bash\necho hi\nls", "%%writefile helper.py\ndef f(:\n", "%%html\n<b>x</b>"):
        code = to_python(text)
        assert code.not_python and code.not_python.startswith("%%")
        assert code.lines == ("",) * len(text.splitlines())


def test_pieces_of_ipython_syntax_are_located() -> None:
    code = to_python("import os\n!pip install a \\\n   b\nx = 1\n%time y = 2")
    assert code.ipython == ((1, 2), (4, 4))
    assert code.source[1:3] == ("!pip install a \\", "   b")


@pytest.mark.parametrize("name", CASES)
def test_without_ipython_the_same_lines_parse(name: str, without_ipython: None) -> None:
    """The fallback blanks what IPython would turn into calls; every line keeps its number."""
    text, expected = CASES[name]
    assert not cells.ipython_available()
    code = to_python(text)
    assert not code.faithful and len(code.lines) == len(expected)
    ast.parse(code.text)
    for ours, theirs in zip(code.lines, expected):
        if "get_ipython()" not in theirs:
            assert ours == theirs
        elif "=" not in theirs.split("(", 1)[0]:  # a statement of IPython's: a pass, or the same magic call
            assert ours in (theirs, theirs[: len(theirs) - len(theirs.lstrip())] + "pass")


def test_without_ipython_help_lines_and_block_magics_still_parse(without_ipython: None) -> None:
    code = to_python("tf.function?\ntry:\n    # only in Colab\n    %tensorflow_version 2.x\nexcept Exception:\n"
                     "    pass\nfiles = !ls")
    assert code.lines == ("pass", "try:", "    # only in Colab", "    pass", "except Exception:", "    pass",
                          "files = None")


def test_a_magics_class_that_registers_nothing_is_skipped() -> None:
    """IPython 8 re-exports its ``Magics`` base from ``IPython.core.magics`` with ``magics = None``:
    reading its line magics raised for every notebook with a line that could be an automagic
    (heldout36: 175 notebooks lost under IPython 8.12). Such a class registers nothing."""
    import types

    from IPython.core.magic import Magics, line_magic, magics_class

    @magics_class
    class Timing(Magics):
        @line_magic
        def lap(self, line: str) -> None:
            """A line magic of this test's own."""

    class Unfilled(Magics):
        magics = None  # the base's table as IPython 8 leaves it

    module = types.ModuleType("fake_magics")
    module.Timing, module.Unfilled = Timing, Unfilled  # type: ignore[attr-defined]
    assert cells.line_magics(module, Magics) == {"lap"}
