"""A module that does not parse as a whole, read block by block: nothing else in it is lost.

Real repositories keep scripts with one bad line: a listing copied from a book (curly quotes, an
en dash), a Python 2 ``print``, a training section left half-edited, shell lines (``!pip``) pasted
from a notebook. Python refuses the whole file; the analysis need not. The file is cut into its
top-level blocks (a statement starting in column 0 with the lines indented under it, decorators
with what they decorate, ``else``/``except`` with the statement they continue); each block that
parses alone is kept, each that does not is blanked (line numbers stay the file's) and reported.
"""

from __future__ import annotations

import ast
import re

from tfadvisor.model import SkippedLines
from tfadvisor.sources.notebook import parse_problem

# Lines that continue the block above rather than start one.
_CONTINUES = re.compile(r"(else|elif|except|finally|case)\b|[)\]}]")
_MAX_BLOCKS = 2000  # beyond that, a file that does not parse is reported as it always was


def recover(text: str) -> tuple[str, list[SkippedLines]] | None:
    """``text`` with its unparsable top-level blocks blanked, and what was blanked; None when
    nothing can be kept (no block parses, or every block does)."""
    lines = text.split("\n")  # not splitlines(): Python's lines end at \n only, not at \x1c or \u2028
    blocks = _blocks(lines)
    if not blocks or len(blocks) > _MAX_BLOCKS:
        return None
    kept = list(lines)
    skipped: list[SkippedLines] = []
    for start, end in blocks:
        chunk = "\n".join(lines[start:end]) + "\n"
        problem = parse_problem(chunk, flags=ast.PyCF_ONLY_AST)
        if problem is None:
            continue
        for i in range(start, end):
            kept[i] = ""
        line, reason = problem
        skipped.append(SkippedLines(start + 1, end, start + line if line else None, reason))
    if not skipped or len(skipped) == len(blocks):
        return None
    return "\n".join(kept), skipped  # the caller parses it (check.py), and fails as before if it cannot


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """(first, end) line indexes, 0-based and end exclusive, of each top-level block."""
    starts: list[int] = []
    pending_decorator = False
    for i, line in enumerate(lines):
        if not line.strip() or line[0] in " \t#":
            continue
        if _CONTINUES.match(line) or pending_decorator:
            pending_decorator = line.startswith("@")
            continue
        starts.append(i)
        pending_decorator = line.startswith("@")
    out = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        while end > start + 1 and not lines[end - 1].strip():
            end -= 1  # blank lines after a block belong to no block
        out.append((start, end))
    return out
