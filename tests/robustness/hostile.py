"""The hostile-input tree: every kind of file a user's checkout can throw at `check` and `fix`.

``build(root)`` writes it and returns what each entry must produce: ``"ok"`` or a piece of the
one-line reason expected in ``files[]``. Kept apart from the tests so that a benchmark or a
debugging session can build the same tree.
"""

from __future__ import annotations

import json
import os

GOOD = "import tensorflow as tf\n\n\ndef f(x, w):\n    return tf.reduce_sum(tf.matmul(x, w) * 2.0 + tf.nn.relu(x))\n"
FIXABLE = "import tensorflow as tf\n\n\n@tf.function\ndef g(x):\n    print(x)\n    return tf.square(x)\n"
DEPTH = 10_000
MANY_FUNCTIONS = 5_000
BIG_BYTES = 20 * 1024 * 1024


def _many_functions(n: int) -> str:
    parts = ["import tensorflow as tf\n"]
    for i in range(n):
        parts.append(f"\ndef f{i}(x, w):\n    y = tf.matmul(x, w)\n    return tf.nn.relu(y) + {i}\n")
    return "".join(parts)


def _notebook(cells: list[dict]) -> str:
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def build(root: str, *, unreadable: bool) -> dict[str, str]:
    """Write the tree under ``root``; ``{relative path: "ok" | expected reason fragment}``.

    ``unreadable``: also make a file and a folder that cannot be read (mode 000; the caller runs
    the command as a user for whom permissions hold, not as root).
    """
    expected: dict[str, str] = {}

    def write(name: str, data: bytes | str, outcome: str) -> None:
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data.encode() if isinstance(data, str) else data)
        expected[name] = outcome

    write("good.py", GOOD, "ok")
    write("fixable.py", FIXABLE, "ok")
    write("empty.py", b"", "ok")
    write("whitespace.py", b"\n\n   \n", "ok")
    write("nul.py", b"import tensorflow as tf\x00\ndef f(x):\n    return x\n", "NUL")
    write("mixed_endings.py", b"import tensorflow as tf\r\n\r\n@tf.function\ndef g(x):\r\n    print(x)\r"
          b"    return tf.square(x)\r\n", "ok")
    write("bom.py", b"\xef\xbb\xbf" + FIXABLE.encode(), "ok")
    write("latin1_cookie.py", b"# -*- coding: latin-1 -*-\nname = '\xe9t\xe9'\n" + FIXABLE.encode(), "ok")
    write("latin1_no_cookie.py", b"name = '\xe9t\xe9'\n" + GOOD.encode(), "not UTF-8")
    write("bad_cookie.py", b"# -*- coding: klingon -*-\nx = 1\n", "encoding")
    write("big.py", b"# padding\n" * (BIG_BYTES // 10), "MB")
    write("deep_parens.py", "x = " + "(" * DEPTH + "1" + ")" * DEPTH + "\n", "syntax error")
    write("deep_sum.py", "def f(x):\n    return x" + " + x" * DEPTH + "\n", "nested")
    write("deep_attr.py", "y = x" + ".a" * DEPTH + "\n", "nested")
    write("deep_not.py", "y = " + "not " * DEPTH + "x\n", "nested")
    write("many_functions.py", _many_functions(MANY_FUNCTIONS), "ok")
    write("syntax.py", "def f(:\n    pass\n", "syntax error")
    write("notjson.ipynb", "{this is not json", "not valid JSON")
    write("nocode.ipynb", _notebook([{"cell_type": "markdown", "source": ["# only prose"], "metadata": {}}]), "ok")
    write("empty_notebook.ipynb", _notebook([]), "ok")
    write("nb.ipynb", _notebook([{"cell_type": "code", "source": ["%matplotlib inline\n", FIXABLE],
                                  "metadata": {}, "outputs": [], "execution_count": 1}]), "ok")

    os.symlink("loop_b.py", os.path.join(root, "loop_a.py"))
    os.symlink("loop_a.py", os.path.join(root, "loop_b.py"))
    expected["loop_a.py"] = expected["loop_b.py"] = "symbolic links"
    os.symlink("nowhere.py", os.path.join(root, "dangling.py"))
    expected["dangling.py"] = "no such file"
    os.symlink(".", os.path.join(root, "self_loop_dir"))  # a folder loop: never followed
    os.mkfifo(os.path.join(root, "fifo.py"))
    expected["fifo.py"] = "not a regular file"
    os.mkdir(os.path.join(root, "folder.py"))  # a folder whose name looks like a module
    write("folder.py/inner.py", GOOD, "ok")
    if unreadable:
        write("unreadable.py", GOOD, "Permission denied")
        os.chmod(os.path.join(root, "unreadable.py"), 0)
        write("locked/inside.py", GOOD, "ok")
        del expected["locked/inside.py"]
        os.chmod(os.path.join(root, "locked"), 0)
        expected["locked"] = "Permission denied"
    return expected


EXPLICIT_MISSING = "missing.py"  # named on the command line, never created
