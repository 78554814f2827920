"""Applying edits to a Jupyter notebook: each edit goes into the cell that holds its code.

Only code cells change; outputs, metadata, cell ids and key order are kept, and the JSON is written
back in the notebook's own layout (nbformat's ``indent=1`` unless the file uses another). Cells are
edited as the Python IPython reads in them, the same reading ``check`` used (``fix.cell_edit``), so
``!pip``/``%time`` lines, ``%%time`` cells and indented cells survive; ``%%bash`` cells are never
edited. Functions are found by their id in the notebook (``train_step#2`` is the second definition,
counted over the cells in order, as ``check`` counts). The TensorFlow alias is the notebook's (any
cell), and a missing ``import tensorflow as tf`` goes into the first code cell that can be edited.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from tfadvisor.fix.cell_edit import EditableCell, editable
from tfadvisor.fix.edits import Edit, FunctionEdit, Location, RuleEdit
from tfadvisor.fix.names import TfNames, tf_names
from tfadvisor.fix.transform import TransformError, TransformResult, add_import_to_code, apply_edits
from tfadvisor.fix.writer import parse_problem
from tfadvisor.sources.cells import to_python
from tfadvisor.sources.notebook import PARSE_FLAGS, cell_text
from tfadvisor.sources.reading import SourceError, notebook_to_source


class NotebookError(Exception):
    """The notebook cannot be edited; one-line reason."""


def _set_cell_text(cell: dict[str, Any], text: str) -> None:
    if isinstance(cell.get("source"), list):
        cell["source"] = text.splitlines(keepends=True)
    else:
        cell["source"] = text


def _definitions(tree: ast.AST) -> list[str]:
    """Every function qualname a cell defines (``C.m``, ``f.<locals>.g``), in source order."""
    found: list[tuple[int, int, str]] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                found.append((child.lineno, child.col_offset, name))
                walk(child, name + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    return [name for _, _, name in sorted(found)]


def _homes(trees: dict[int, ast.Module]) -> dict[str, tuple[int, str]]:
    """Each function's id in the notebook (``f``, ``f#2``) -> (its cell, its id within that cell)."""
    in_notebook: dict[str, int] = {}
    out: dict[str, tuple[int, str]] = {}
    for index in sorted(trees):
        in_cell: dict[str, int] = {}
        for qualname in _definitions(trees[index]):
            in_notebook[qualname] = in_notebook.get(qualname, 0) + 1
            in_cell[qualname] = in_cell.get(qualname, 0) + 1
            key = qualname + (f"#{in_notebook[qualname]}" if in_notebook[qualname] > 1 else "")
            out[key] = (index, qualname + (f"#{in_cell[qualname]}" if in_cell[qualname] > 1 else ""))
    return out


def _layout(text: str) -> dict[str, Any]:
    """json.dumps options that reproduce the file's layout as closely as possible."""
    match = re.match(r"\{\r?\n([ \t]+)\"", text)
    indent: int | str | None = None
    if match:
        ws = match.group(1)
        indent = len(ws) if set(ws) == {" "} else ws
    non_ascii = any(ord(ch) > 127 for ch in text)
    return {"indent": indent, "ensure_ascii": (not non_ascii) and "\\u" in text,
            "separators": (",", ": ") if indent is not None else ((", ", ": ") if ", " in text else (",", ":"))}


def fix_notebook(text: str, edits: Sequence[Edit], path: str = "notebook.ipynb") -> TransformResult:
    """Apply ``edits`` (lines as in the notebook's joined code, see ``sources.notebook``) to ``text``."""
    try:
        nb = json.loads(text)
        joined = notebook_to_source(path, text.encode("utf-8"))
    except (json.JSONDecodeError, SourceError) as exc:
        raise NotebookError(f"notebook is not valid JSON: {str(exc).splitlines()[0]}") from None
    cells = nb.get("cells", [])
    trees, ready = _read_cells(cells, {c.cell - 1 for c in joined.skipped_cells}, path)
    homes = _homes(trees)
    result = TransformResult(code=text)
    per_cell: dict[int, list[Edit]] = {}
    originals: dict[Edit, Edit] = {}  # an edit in its cell's terms -> as planned (for summaries)
    for planned in edits:
        home, edit = _place(planned, homes, joined.cell_map)
        originals[edit] = planned
        if home is None:
            result.skipped.append((edit, "not found in any code cell"))
        elif not isinstance(ready.get(home), EditableCell):
            result.skipped.append((edit, f"cell {home + 1} cannot be edited: {ready.get(home)}"))
        else:
            per_cell.setdefault(home, []).append(edit)
    editable_cells = {i: cell for i, cell in ready.items() if isinstance(cell, EditableCell)}
    edited = _edit_cells(editable_cells, per_cell, _shared_names(trees), result)
    for i, code in edited.items():
        cell = editable_cells[i]
        new_text = cell.restore(code)
        if cell.reads_back(code, new_text):
            _set_cell_text(cells[i], new_text)
            continue
        lost = per_cell.get(i, [])
        result.skipped.extend((e, f"cell {i + 1} would not read back the same after the edit") for e in lost)
        result.applied = [e for e in result.applied if e not in lost]
    result.applied = [originals.get(e, e) for e in result.applied]
    result.unchanged = [originals.get(e, e) for e in result.unchanged]
    result.skipped = [(originals.get(e, e), why) for e, why in result.skipped]
    if result.changed:
        result.code = _dump(nb, text)
    return result


def _read_cells(cells: list[Any], skipped: set[int], path: str) -> tuple[dict[int, ast.Module], dict[int, EditableCell | str]]:
    """Every cell check analysed, parsed as check read it; and each one ready to edit (or why not)."""
    trees: dict[int, ast.Module] = {}
    ready: dict[int, EditableCell | str] = {}
    for i, cell in enumerate(cells):
        source = cell_text(cell) if isinstance(cell, dict) and cell.get("cell_type") == "code" else None
        if source is None or i in skipped:
            continue
        code = to_python(source)
        ready[i] = editable(source, code)
        if code.not_python is None:
            trees[i] = compile(code.text, path, "exec", PARSE_FLAGS, dont_inherit=True)
    return trees, ready


def _shared_names(trees: dict[int, ast.Module]) -> TfNames:
    """The TensorFlow names of the whole notebook: an alias imported in one cell serves them all."""
    names = TfNames()
    for tree in trees.values():
        cell_names = tf_names(tree)
        names.modules.update(cell_names.modules)
        names.functions |= cell_names.functions
        names.bound |= cell_names.bound
    return names


def _edit_cells(cells: dict[int, EditableCell], per_cell: dict[int, list[Edit]], names: TfNames,
                result: TransformResult) -> dict[int, str]:
    """Apply each cell's edits to its Python; the cells' new Python (only those that changed)."""
    edited: dict[int, str] = {}
    import_needed: str | None = None
    for i, cell_edits in per_cell.items():
        code = cells[i].python
        try:
            cell_result = apply_edits(code, cell_edits, names=names, insert_import=False)
        except TransformError as exc:
            result.skipped.extend((e, f"cell {i + 1} {exc}") for e in cell_edits)
            continue
        problem = parse_problem(cell_result.code) if cell_result.code != code else None
        if problem:
            result.skipped.extend((e, f"cell {i + 1} would not parse after the edit ({problem})")
                                  for e in cell_result.applied)
            continue
        result.applied += cell_result.applied
        result.unchanged += cell_result.unchanged
        result.skipped += cell_result.skipped
        result.notes += cell_result.notes
        import_needed = import_needed or cell_result.import_added
        if cell_result.code != code:
            edited[i] = cell_result.code
    if import_needed and cells:
        plain = [i for i, cell in cells.items() if not cell.code.ipython and not cell.code.indent]
        first = min(plain or cells)
        edited[first] = add_import_to_code(edited.get(first, cells[first].python), import_needed)
        result.import_added = import_needed
    return edited


def _dump(nb: dict[str, Any], text: str) -> str:
    """The notebook as JSON in the layout (indent, line endings, final newline) of ``text``."""
    out = json.dumps(nb, **_layout(text))
    if text.endswith("\n"):
        out += "\n"
    if "\r\n" in text:
        out = out.replace("\n", "\r\n")
    return out


def _place(edit: Edit, homes: dict[str, tuple[int, str]], cell_map: list[tuple[int, int]]) -> tuple[int | None, Edit]:
    """The cell an edit goes to, and the edit in that cell's terms (its function id and lines)."""
    if isinstance(edit, FunctionEdit):
        home = homes.get(edit.qualname)
        return (home[0], replace(edit, qualname=home[1])) if home else (None, edit)
    assert isinstance(edit, RuleEdit)
    loc = edit.location
    if loc.function:
        home = homes.get(loc.function)
        return (home[0], replace(edit, location=replace(loc, function=home[1]))) if home else (None, edit)
    if 1 <= loc.line <= len(cell_map):
        cell, line = cell_map[loc.line - 1]
        local = line + 1
        return cell, replace(edit, location=Location(line=local, col=loc.col, end_line=local + max(0, loc.end_line - loc.line),
                                                     function=None, def_offset=None, span=loc.span))
    return None, edit
