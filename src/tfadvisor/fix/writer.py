"""Reading a file for fixing and writing it back without ever losing it.

A ``Snapshot`` remembers the exact bytes read (and their hash), the encoding (PEP 263 cookie or
BOM), and the file's mode. Writing re-reads the file first and refuses when it changed since the
snapshot (an editor saved it meanwhile); it checks that the new text parses, encodes it as the
original was encoded (line endings are kept by the edit engine itself), writes a temporary file in
the same folder with the same mode, and renames it over the original: a reader sees the old file
or the new one, never half of one.
"""

from __future__ import annotations

import ast
import hashlib
import os
import stat
import tempfile
from dataclasses import dataclass

import libcst as cst

from tfadvisor.sources.reading import SourceError, decode_python, read_bytes


class WriteRefused(Exception):
    """The file was left untouched; the message is the one-line reason."""


@dataclass
class Snapshot:
    path: str  # as the user named it
    real_path: str  # symlinks resolved: the file that is replaced
    data: bytes
    text: str  # decoded, BOM removed, line endings as in the file
    encoding: str  # codec to write back with ("utf-8-sig" writes the BOM again)
    mode: int
    digest: str


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def read_snapshot(path: str) -> Snapshot:
    """Read ``path`` for fixing; ``SourceError`` with a one-line reason when it cannot be."""
    real = os.path.realpath(path)
    data, st = read_bytes(real)
    if path.endswith(".ipynb"):
        encoding = "utf-8-sig" if data.startswith(b"\xef\xbb\xbf") else "utf-8"
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError as exc:
            raise SourceError(f"notebook is not UTF-8: {exc.reason}") from None
    else:
        text, encoding = decode_python(data)
    return Snapshot(path=path, real_path=real, data=data, text=text, encoding=encoding,
                    mode=stat.S_IMODE(st.st_mode), digest=_digest(data))


def parse_problem(code: str) -> str | None:
    """Why ``code`` is not valid Python for both ``ast`` and libcst, or None when it is."""
    try:
        ast.parse(code)
        cst.parse_module(code)
    except SyntaxError as exc:
        return f"line {exc.lineno}: {exc.msg}"
    except cst.ParserSyntaxError as exc:
        return f"line {exc.raw_line}: {str(exc).splitlines()[0]}"
    except (ValueError, RecursionError, MemoryError) as exc:
        return f"{type(exc).__name__}: {exc}"
    return None


def encode(snapshot: Snapshot, text: str) -> bytes:
    try:
        return text.encode(snapshot.encoding)
    except UnicodeEncodeError as exc:
        raise WriteRefused(f"the fixed text cannot be encoded as {snapshot.encoding}: {exc.reason}") from None


def changed_since(snapshot: Snapshot) -> bool:
    try:
        with open(snapshot.real_path, "rb") as handle:
            return _digest(handle.read()) != snapshot.digest
    except OSError:
        return True


def write_back(snapshot: Snapshot, text: str) -> None:
    """Replace the file with ``text`` atomically, or raise ``WriteRefused`` and leave it as it was."""
    data = encode(snapshot, text)
    if changed_since(snapshot):
        raise WriteRefused("changed since it was read; run fix again")
    folder = os.path.dirname(snapshot.real_path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=".tfadvisor-fix-", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise WriteRefused(f"cannot write in {folder}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, snapshot.mode)
        if changed_since(snapshot):  # last look, just before the rename
            raise WriteRefused("changed since it was read; run fix again")
        os.replace(tmp, snapshot.real_path)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise WriteRefused(f"cannot write: {exc.strerror or exc}") from None
        raise
