"""Reading one source file into Python text, whatever it is: a module or a notebook.

Every failure becomes a ``SourceError`` with a one-line reason, never an exception that stops the
run. Notebooks are read by ``sources.notebook`` (cells as IPython reads them, joined line for line).
"""

from __future__ import annotations

import io
import os
import stat
import tokenize

from tfadvisor.sources.notebook import notebook_to_source
from tfadvisor.sources.source import Source, SourceError

__all__ = ["MAX_BYTES", "Source", "SourceError", "decode_python", "notebook_to_source", "read_bytes",
           "read_source"]

MAX_BYTES = 10 * 1024 * 1024
_NOT_UTF8 = "not UTF-8, and no '# -*- coding: ... -*-' line (PEP 263) names its encoding"


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


def read_source(path: str, max_bytes: int = MAX_BYTES) -> Source:
    data, _ = read_bytes(path, max_bytes)
    if path.endswith(".ipynb"):
        return notebook_to_source(path, data)
    if not data.strip():  # an empty or blank module is valid Python (and __init__.py often is one)
        return Source(path=path, text="")
    text, encoding = decode_python(data)
    return Source(path=path, text=text, encoding=encoding)
