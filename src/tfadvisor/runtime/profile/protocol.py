"""Framed pickle messages between the parent and a child worker: 8-byte length, then pickle.

The child writes to a private duplicate of its stdout (the user's prints go to stderr), so
output from the measured code can never corrupt a message.
"""

from __future__ import annotations

import os
import pickle
import struct
from typing import IO, Any

_HEADER = struct.Struct("!Q")


def write_message(stream: IO[bytes], message: Any) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def read_message(stream: IO[bytes]) -> Any:
    """Blocking read of one message; EOFError when the other side closed."""
    header = _read_exact(stream, _HEADER.size)
    (size,) = _HEADER.unpack(header)
    return pickle.loads(_read_exact(stream, size))


def _read_exact(stream: IO[bytes], size: int) -> bytes:
    chunks = []
    while size:
        chunk = stream.read(size)
        if not chunk:
            raise EOFError("stream closed")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


class FrameReader:
    """Non-blocking side of the parent: feed bytes read from a pipe, take complete messages."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Any]:
        self._buffer.extend(data)
        out = []
        while len(self._buffer) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._buffer)
            if len(self._buffer) < _HEADER.size + size:
                break
            payload = bytes(self._buffer[_HEADER.size : _HEADER.size + size])
            del self._buffer[: _HEADER.size + size]
            out.append(pickle.loads(payload))
        return out


def read_available(fd: int) -> bytes:
    return os.read(fd, 1 << 20)
