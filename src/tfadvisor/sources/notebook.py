"""A notebook as one Python text: its code cells as IPython reads them, joined line for line.

Each cell becomes Python on its own (``sources.cells``) and is parsed on its own, as IPython
compiles each cell: a cell that is not Python even for IPython (an exercise's ``batch_size = ``) is
left out, blank, and listed with its reason, and every other cell is analysed. Blank lines stand in
for what is left out, so that line N of the text is always the same (cell, line) of ``cell_map``.
"""

from __future__ import annotations

import ast
import json
import warnings
from collections.abc import Iterable

from tfadvisor.model import SkippedCell
from tfadvisor.sources.cells import to_python
from tfadvisor.sources.source import Source, SourceError

# IPython runs top-level ``await`` in a cell (autoawait); so do we parse it.
PARSE_FLAGS = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT


def notebook_to_source(path: str, data: bytes) -> Source:
    """The code cells of the ``.ipynb`` bytes ``data``, read and joined; ``SourceError`` only when
    the file is not a notebook at all (not JSON, no cell list)."""
    try:
        nb = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceError(f"notebook is not valid JSON: {str(exc).splitlines()[0]}") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells", []), list):
        raise SourceError("notebook has no 'cells' list")
    cells: list[tuple[int, str]] = []
    unreadable: list[SkippedCell] = []
    for index, cell in enumerate(nb.get("cells", [])):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        text = cell_text(cell)
        if text is None:  # hand-edited or foreign JSON: say so rather than analyse str() of it
            unreadable.append(SkippedCell(index + 1, None, "'source' is not text"))
        else:
            cells.append((index, text))
    source = join_cells(path, cells)
    source.skipped_cells = sorted([*source.skipped_cells, *unreadable], key=lambda s: s.cell)
    return source


def cell_text(cell: dict) -> str | None:
    """A cell's source as one string (nbformat stores a string or a list of lines), None if neither."""
    src = cell.get("source", "")
    if isinstance(src, str):
        return src
    if isinstance(src, list) and all(isinstance(part, str) for part in src):
        return "".join(src)
    return None


def join_cells(path: str, cells: Iterable[tuple[int, str]]) -> Source:
    """``(cell index, cell text)`` pairs (0-based index) as one Source; cells that do not parse are
    blank in the text and listed in ``skipped_cells``."""
    lines: list[str] = []
    cell_map: list[tuple[int, int]] = []
    skipped: list[SkippedCell] = []
    for index, text in cells:
        code = to_python(text)
        python = list(code.lines)
        if code.not_python is None:
            problem = parse_problem(code.text, path)
            if problem is not None:
                line, reason = problem
                skipped.append(SkippedCell(index + 1, line, reason))
                python = ["" for _ in python]
        lines.extend(python)
        cell_map.extend((index, number) for number in range(len(python)))
    text = "\n".join(lines) + "\n" if lines else ""
    return Source(path=path, text=text, notebook=True, cell_map=cell_map, skipped_cells=skipped)


def parse_problem(python: str, path: str = "<cell>", flags: int = PARSE_FLAGS) -> tuple[int | None, str] | None:
    """(line, reason) when one cell's Python does not parse, else None. ``flags``: a cell's by
    default (top-level ``await``); a module's are ``ast.PyCF_ONLY_AST`` (sources/recover.py)."""
    try:
        with warnings.catch_warnings():  # invalid escapes and the like: not ours to show
            warnings.simplefilter("ignore")
            compile(python, path, "exec", flags, dont_inherit=True)
    except SyntaxError as exc:
        return exc.lineno, f"not Python: {exc.msg}"
    except (ValueError, RecursionError, MemoryError) as exc:  # NUL bytes, absurd nesting
        return None, f"cannot parse: {exc or type(exc).__name__}"
    return None
