"""Reading the analysed source at render time (HTML shows finding lines, SARIF fingerprints them).

Why at render time: the report JSON stays small and free of source text. A file that is gone or
unreadable simply gives no lines; renderers must cope with that.
"""

from __future__ import annotations

import os
from functools import lru_cache


@lru_cache(maxsize=256)
def _read_lines(path: str) -> tuple[str, ...] | None:
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    if path.endswith(".ipynb"):
        return None  # lines of a notebook are cell lines, not file lines
    text = data.decode("utf-8", errors="replace")
    return tuple(text.splitlines())


def source_lines(path: str, root: str | None = None) -> tuple[str, ...] | None:
    """All lines of ``path`` (relative to ``root`` or the current folder), or None."""
    full = path if os.path.isabs(path) or root is None else os.path.join(root, path)
    return _read_lines(os.path.abspath(full))


def line_text(path: str, line: int, root: str | None = None) -> str | None:
    """Line ``line`` (1-based) of ``path``, or None if unavailable."""
    lines = source_lines(path, root)
    if lines is None or not 1 <= line <= len(lines):
        return None
    return lines[line - 1]


def clear_cache() -> None:
    """Forget read files (tests rewrite files between renders)."""
    _read_lines.cache_clear()
