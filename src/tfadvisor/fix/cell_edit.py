"""Editing one notebook cell through the Python IPython reads in it, then putting the cell back.

``check`` analysed each cell as ``sources.cells`` turns it into Python, so ``fix`` edits that same
Python: every piece of IPython syntax (``!pip install a \\`` and its continuation, ``%time``,
``x = !ls``, ``obj?``, a ``%%time`` line) stays as the call IPython makes of it, marked with a
comment naming it, and after the edit each mark is replaced by the cell's own lines again. An
indented cell (which IPython dedents) gets its indentation back. A cell is only changed when the
edited cell, read again as IPython reads it, is exactly the Python that was edited.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from tfadvisor.sources.cells import CellCode, to_python

_MARK = "#tfadvisor-ipython-{}"
_MARK_RE = re.compile(r"#tfadvisor-ipython-(\d+)(\+?)$")


@dataclass(frozen=True)
class EditableCell:
    """A cell's Python with its IPython syntax marked (``python``), and what puts the cell back."""

    code: CellCode
    python: str
    trailing_newline: bool

    def restore(self, edited: str) -> str:
        """The cell's text for ``edited`` (``python`` after edits): IPython syntax and indentation back."""
        out: list[str] = []
        for line in edited.splitlines():
            match = _MARK_RE.search(line)
            if match is None:
                out.append(self.code.indent + line if line.strip() else line)
            elif not match.group(2):  # the first line of a piece; its continuation marks go
                first, last = self.code.ipython[int(match.group(1))]
                out.extend(self.code.source[first:last + 1])
        return "\n".join(out) + ("\n" if self.trailing_newline else "")

    def reads_back(self, edited: str, restored: str) -> bool:
        """Whether ``restored``, read as IPython reads a cell, is the Python ``edited`` is."""
        again = to_python(restored)
        if again.not_python is not None:
            return False
        try:
            return ast.dump(ast.parse(again.text)) == ast.dump(ast.parse(edited))
        except (SyntaxError, ValueError, RecursionError):
            return False


def editable(text: str, code: CellCode | None = None) -> EditableCell | str:
    """The cell ``text`` (``code``: its Python, if read already) ready to edit, or why it cannot be
    edited and put back exactly."""
    code = code or to_python(text)
    if code.not_python is not None:
        return f"a {code.not_python} is not Python"
    piece_of = {line: index for index, (first, last) in enumerate(code.ipython) for line in range(first, last + 1)}
    for number, (python, own) in enumerate(zip(code.lines, code.source, strict=False)):
        if number in piece_of or (not python.strip() and not own.strip()):
            continue
        if own != code.indent + python:  # e.g. >>> prompts IPython strips: no way back
            return f"line {number + 1} is not Python as written (IPython rewrites it)"
    lines: list[str] = []
    for number, python in enumerate(code.lines):
        piece = piece_of.get(number)
        if piece is None:
            lines.append(python)
            continue
        mark = _MARK.format(piece)
        first = code.lines[code.ipython[piece][0]]
        if number != code.ipython[piece][0]:  # a continuation line: a mark at the piece's indentation
            lines.append(first[: len(first) - len(first.lstrip())] + mark + "+")
        else:
            lines.append(f"{python}  {mark}" if python.strip() else mark)
    python_text = "\n".join(lines) + "\n" if lines else ""
    return EditableCell(code, python_text, text.endswith("\n"))
