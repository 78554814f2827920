"""Applying edits to a Jupyter notebook: each edit goes into the cell that holds its code.

Only code cells change; outputs, metadata, cell ids and key order are kept, and the JSON is written
back in the notebook's own layout (nbformat's ``indent=1`` unless the file uses another). Magic and
shell lines (``%time``, ``!pip``) are swapped for placeholder comments while a cell is edited and
put back after; ``%%`` cells are never edited. The TensorFlow alias is the notebook's (any cell),
and a missing ``import tensorflow as tf`` goes into the first code cell.
"""

from __future__ import annotations

import ast
import json
import re
from dataclasses import replace
from typing import Any, Sequence

from tfadvisor.fix.edits import Edit, FunctionEdit, Location, RuleEdit
from tfadvisor.fix.names import TfNames, tf_names
from tfadvisor.fix.transform import TransformError, TransformResult, add_import_to_code, apply_edits
from tfadvisor.fix.writer import parse_problem
from tfadvisor.sources.reading import SourceError, notebook_to_source

_PLACEHOLDER = "#tfadvisor-magic-{}"
_PLACEHOLDER_RE = re.compile(r"^[ \t]*#tfadvisor-magic-(\d+)$")


class NotebookError(Exception):
    """The notebook cannot be edited; one-line reason."""


def _cell_text(cell: dict[str, Any]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def _set_cell_text(cell: dict[str, Any], text: str) -> None:
    if isinstance(cell.get("source"), list):
        cell["source"] = text.splitlines(keepends=True)
    else:
        cell["source"] = text


def _mask(text: str) -> tuple[str, list[str]]:
    """Replace magic/shell lines by indented placeholder comments (so the cell parses)."""
    saved: list[str] = []
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        stripped = body.lstrip()
        if stripped.startswith(("%", "!")) or _PLACEHOLDER_RE.match(body):
            indent = body[: len(body) - len(stripped)]
            out.append(indent + _PLACEHOLDER.format(len(saved)) + line[len(body):])
            saved.append(body)
        else:
            out.append(line)
    return "".join(out), saved


def _unmask(text: str, saved: list[str]) -> str:
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        match = _PLACEHOLDER_RE.match(body)
        out.append(saved[int(match.group(1))] + line[len(body):] if match else line)
    return "".join(out)


def _qualnames(tree: ast.AST) -> set[str]:
    """Every function qualname a cell defines (``C.m``, ``f.<locals>.g``)."""
    found: set[str] = set()

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                found.add(name)
                walk(child, name + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(tree, "")
    return found


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
    """Apply ``edits`` (lines as in the notebook's joined code, see ``sources.reading``) to ``text``."""
    try:
        nb = json.loads(text)
        joined = notebook_to_source(path, text.encode("utf-8"))
    except (json.JSONDecodeError, SourceError) as exc:
        raise NotebookError(f"notebook is not valid JSON: {str(exc).splitlines()[0]}") from None
    cells = nb.get("cells", [])
    code_cells = [i for i, c in enumerate(cells) if isinstance(c, dict) and c.get("cell_type") == "code"
                  and not _cell_text(c).lstrip().startswith("%%")]
    masked: dict[int, tuple[str, list[str]]] = {i: _mask(_cell_text(cells[i])) for i in code_cells}
    trees: dict[int, ast.Module] = {}
    for i, (code, _) in masked.items():
        try:
            trees[i] = ast.parse(code)
        except (SyntaxError, ValueError):
            pass  # a cell that does not parse is left alone
    names = TfNames()
    for tree in trees.values():
        cell_names = tf_names(tree)
        names.modules.update(cell_names.modules)
        names.functions |= cell_names.functions
        names.bound |= cell_names.bound
    defined = {i: _qualnames(tree) for i, tree in trees.items()}

    per_cell: dict[int, list[Edit]] = {}
    result = TransformResult(code=text)
    for edit in edits:
        if isinstance(edit, FunctionEdit):
            homes = [i for i in trees if edit.qualname in defined[i]]
        else:
            assert isinstance(edit, RuleEdit)
            homes = _rule_home(edit, joined.cell_map, defined, trees)
            if homes and edit.location.function is None:
                edit = _to_cell_lines(edit, joined.cell_map)
        if not homes:
            result.skipped.append((edit, "not found in any code cell"))
        for i in homes[:1]:
            per_cell.setdefault(i, []).append(edit)

    import_needed: str | None = None
    for i, cell_edits in per_cell.items():
        code, saved = masked[i]
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
            masked[i] = (cell_result.code, saved)
    if import_needed and code_cells:
        first = code_cells[0]
        code, saved = masked[first]
        masked[first] = (add_import_to_code(code, import_needed), saved)
        result.import_added = import_needed
    if not result.changed:
        return result
    for i, (code, saved) in masked.items():
        new_text = _unmask(code, saved)
        if new_text != _cell_text(cells[i]):
            _set_cell_text(cells[i], new_text)
    layout = _layout(text)
    out = json.dumps(nb, **layout)
    if text.endswith("\n"):
        out += "\n"
    if "\r\n" in text:
        out = out.replace("\n", "\r\n")
    result.code = out
    return result


def _rule_home(edit: RuleEdit, cell_map: list[tuple[int, int]], defined: dict[int, set[str]],
               trees: dict[int, ast.Module]) -> list[int]:
    loc = edit.location
    if loc.function:
        return [i for i in trees if loc.function in defined[i]]
    if 1 <= loc.line <= len(cell_map):
        cell = cell_map[loc.line - 1][0]
        return [cell] if cell in trees else []
    return []


def _to_cell_lines(edit: RuleEdit, cell_map: list[tuple[int, int]]) -> RuleEdit:
    loc = edit.location
    local = cell_map[loc.line - 1][1] + 1
    return replace(edit, location=Location(line=local, col=loc.col, end_line=local + max(0, loc.end_line - loc.line),
                                           function=None, def_offset=None, span=loc.span))
