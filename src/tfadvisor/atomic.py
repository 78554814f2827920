"""Writing a whole file or nothing: a temporary file in the same folder, then a rename.

``tempfile.mkstemp`` creates its file private (0600), which suits secrets, not reports: the file
gets the mode ``open()`` would have given it (0666 less the umask), or keeps the mode of the file
it replaces.
"""

from __future__ import annotations

import os
import stat
import tempfile


def default_mode() -> int:
    """The mode a new file gets from ``open()``: 0666 less the process's umask."""
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: str, text: str, encoding: str = "utf-8", *, make_folder: bool = False) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder and a rename."""
    folder = os.path.dirname(os.path.abspath(path))
    if make_folder:
        os.makedirs(folder, exist_ok=True)
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        mode = default_mode()
    fd, tmp = tempfile.mkstemp(prefix=".tfadvisor-", suffix=".tmp", dir=folder)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding=encoding, newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
