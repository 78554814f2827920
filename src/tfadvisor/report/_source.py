"""Reading the analysed source at render time (HTML shows finding lines, SARIF fingerprints them).

Why at render time: the report JSON stays small and free of source text. A file that is gone or
unreadable simply gives no lines; renderers must cope with that. Notebooks are read the way
``check`` reads them (cells joined, magics blanked), so a finding's line indexes the same text;
``notebook_file_line`` maps a (cell, line) back to a line of the ``.ipynb`` file itself, which is
what code scanning and CI annotations point at.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache


@dataclass(frozen=True)
class SourceView:
    """The lines a report's line numbers index, and how to label each line for a reader."""

    lines: tuple[str, ...]
    cells: tuple[tuple[int, int], ...] = field(default=())  # notebooks: (cell, line in cell), 1-based

    def label(self, line: int) -> str:
        if self.cells and 1 <= line <= len(self.cells):
            cell, cell_line = self.cells[line - 1]
            return f"[{cell}]:{cell_line}"
        return str(line)


def _full(path: str, root: str | None) -> str:
    return os.path.abspath(path if os.path.isabs(path) or root is None else os.path.join(root, path))


@lru_cache(maxsize=256)
def _view(full: str) -> SourceView | None:
    try:
        from tfadvisor.sources.reading import read_source

        src = read_source(full)
    except Exception:  # noqa: BLE001 - SourceError, OSError, or a reader that is not there
        return _plain(full)
    cells = tuple((c + 1, n + 1) for c, n in src.cell_map) if src.notebook else ()
    return SourceView(tuple(src.text.splitlines()), cells)


def _plain(full: str) -> SourceView | None:
    if full.endswith(".ipynb"):
        return None
    try:
        with open(full, "rb") as handle:
            data = handle.read()
    except (OSError, ValueError):  # ValueError: a NUL byte in the path
        return None
    return SourceView(tuple(data.decode("utf-8", errors="replace").splitlines()))


def view(path: str, root: str | None = None) -> SourceView | None:
    """The source ``path`` (relative to ``root`` or the current folder) as the analysis saw it."""
    return _view(_full(path, root))


def source_lines(path: str, root: str | None = None) -> tuple[str, ...] | None:
    """All lines of ``path`` as the analysis saw them, or None."""
    v = view(path, root)
    return None if v is None else v.lines


def line_text(path: str, line: int, root: str | None = None) -> str | None:
    """Line ``line`` (1-based) of ``path``, or None if unavailable."""
    lines = source_lines(path, root)
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


_SOURCE_KEY = re.compile(r'^\s*"source"\s*:')


@lru_cache(maxsize=64)
def _notebook_layout(full: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[tuple[str, ...], ...]] | None:
    """(raw lines, 1-based line of each cell's "source" key, each cell's source lines), or None."""
    try:
        with open(full, encoding="utf-8-sig") as handle:
            raw = handle.read()
        cells = json.loads(raw).get("cells", [])
    except (OSError, ValueError, AttributeError):
        return None
    lines = tuple(raw.splitlines())
    keys = tuple(n for n, text in enumerate(lines, 1) if _SOURCE_KEY.match(text))
    if len(keys) != len(cells):  # compact JSON or a "source" key elsewhere: no reliable mapping
        return None
    sources = []
    for cell in cells:
        src = cell.get("source", "") if isinstance(cell, dict) else ""
        sources.append(tuple(src) if isinstance(src, list) else tuple(str(src).splitlines(keepends=True)))
    return lines, keys, tuple(sources)


def notebook_file_line(path: str, cell: int, cell_line: int, root: str | None = None) -> int | None:
    """The line of the ``.ipynb`` file holding line ``cell_line`` of cell ``cell`` (both 1-based)."""
    layout = _notebook_layout(_full(path, root))
    if layout is None or not 1 <= cell <= len(layout[1]):
        return None
    lines, keys, sources = layout
    key = keys[cell - 1]
    src = sources[cell - 1]
    candidate = key + cell_line  # nbformat writes one string of a source list per line
    if 1 <= cell_line <= len(src) and candidate <= len(lines):
        text = lines[candidate - 1].strip().rstrip(",")
        try:
            if json.loads(text) == src[cell_line - 1]:
                return candidate
        except ValueError:
            pass
    return key


def clear_cache() -> None:
    """Forget read files (tests rewrite files between renders)."""
    _view.cache_clear()
    _notebook_layout.cache_clear()


def char_col(path: str, line: int, byte_col: int, root: str | None = None) -> int:
    """A 0-based column in code points for an ``ast`` column (UTF-8 bytes) on ``line``.

    ``ast`` counts bytes, editors and SARIF (``columnKind: unicodeCodePoints``) count characters;
    they differ on lines with non-ASCII text. Without the source, the byte column is returned.
    """
    text = line_text(path, line, root)
    if text is None or byte_col <= 0 or text.isascii():
        return byte_col
    return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))
