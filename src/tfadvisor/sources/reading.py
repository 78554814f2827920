"""Reading one source file into Python text, whatever it is: a module or a notebook.

Every failure becomes a ``SourceError`` with a one-line reason, never an exception that stops the
run. Notebook cells are joined into one text (magics blanked, so line numbers stay put) and a
``cell_map`` turns a line of that text back into (cell, line in cell).
"""

from __future__ import annotations

import io
import json
import os
import stat
import tokenize
from dataclasses import dataclass, field

MAX_BYTES = 10 * 1024 * 1024
_NOT_UTF8 = "not UTF-8, and no '# -*- coding: ... -*-' line (PEP 263) names its encoding"


class SourceError(Exception):
    """A file that cannot be analysed; the message is the one-line reason shown to the user."""


@dataclass
class Source:
    path: str
    text: str
    encoding: str = "utf-8"
    notebook: bool = False
    # For notebooks: for each line of ``text`` (1-based index - 1), (cell index, line in cell).
    cell_map: list[tuple[int, int]] = field(default_factory=list)

    def locate(self, line: int) -> tuple[int, int] | None:
        """(cell, line in cell), both 1-based, for a line of a notebook's joined text."""
        if not self.notebook or not 1 <= line <= len(self.cell_map):
            return None
        cell, cell_line = self.cell_map[line - 1]
        return cell + 1, cell_line + 1


def read_bytes(path: str, max_bytes: int = MAX_BYTES) -> tuple[bytes, os.stat_result]:
    """A regular file's bytes and its stat (``fix`` keeps the mode and notices later changes);
    ``SourceError`` with a one-line reason for anything else."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise SourceError("no such file or directory") from None
    except OSError as exc:
        raise SourceError(f"cannot read: {exc.strerror or exc}") from None
    if stat.S_ISDIR(st.st_mode):
        try:
            os.scandir(path).close()
        except OSError as exc:  # discover yields folders it could not list
            raise SourceError(f"cannot read directory: {exc.strerror or exc}") from None
        raise SourceError("is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise SourceError("not a regular file (FIFO, socket or device)")
    too_big = f"over the {max_bytes // (1024 * 1024)} MB limit"
    if st.st_size > max_bytes:
        raise SourceError(f"file is {st.st_size / 1e6:.1f} MB, {too_big}")
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise SourceError(f"cannot read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:  # it grew after the stat: never hand on a cut-off file
        raise SourceError(f"file grew while read, {too_big}")
    return data, st


def decode_python(data: bytes) -> tuple[str, str]:
    """Decode Python source bytes honouring a BOM and a PEP 263 coding cookie."""
    if b"\x00" in data:
        raise SourceError("binary file (contains NUL bytes)")
    try:
        encoding, cookie = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:
        if "invalid or missing encoding declaration" in str(exc):  # not UTF-8 in the first 2 lines
            raise SourceError(_NOT_UTF8) from None
        raise SourceError(f"bad encoding declaration: {exc}") from None
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding.startswith("utf-8") and not any(b"coding" in line for line in cookie):
            line = data.count(b"\n", 0, exc.start) + 1
            raise SourceError(f"{_NOT_UTF8} (line {line})") from None
        raise SourceError(f"cannot decode as {encoding}: {exc.reason}") from None
    except LookupError as exc:
        raise SourceError(f"cannot decode as {encoding}: {exc}") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    return text, encoding


def _is_magic(line: str) -> bool:
    stripped = line.lstrip()
    return stripped.startswith(("%", "!"))


def notebook_to_source(path: str, data: bytes) -> Source:
    try:
        nb = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceError(f"notebook is not valid JSON: {str(exc).splitlines()[0]}") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells", []), list):
        raise SourceError("notebook has no 'cells' list")
    lines: list[str] = []
    cell_map: list[tuple[int, int]] = []
    for index, cell in enumerate(nb.get("cells", [])):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        src = cell.get("source", "")
        if isinstance(src, list) and all(isinstance(part, str) for part in src):
            text = "".join(src)
        elif isinstance(src, str):
            text = src
        else:  # hand-edited or foreign JSON: say so rather than analyse str() of it
            raise SourceError(f"notebook cell {index + 1}: 'source' is not text")
        in_magic_cell = text.lstrip().startswith("%%")
        for number, line in enumerate(text.splitlines()):
            # Blank (not drop) magics and shell escapes so line numbers still match the cell.
            lines.append("" if in_magic_cell or _is_magic(line) else line)
            cell_map.append((index, number))
    return Source(path=path, text="\n".join(lines) + "\n", notebook=True, cell_map=cell_map)


def read_source(path: str, max_bytes: int = MAX_BYTES) -> Source:
    data, _ = read_bytes(path, max_bytes)
    if path.endswith(".ipynb"):
        return notebook_to_source(path, data)
    if not data.strip():
        if os.path.basename(path) == "__init__.py":
            return Source(path=path, text="")  # an empty package marker is normal, not an error
        raise SourceError("empty file")
    text, encoding = decode_python(data)
    return Source(path=path, text=text, encoding=encoding)
