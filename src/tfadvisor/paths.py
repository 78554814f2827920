"""How paths appear in reports: relative to where the command ran, with forward slashes. One
spelling for `check` and `run`, since function ids (``path::qualname``) are joined on it."""

from __future__ import annotations

import os


def display_path(path: str) -> str:
    """``path`` relative to the working directory; absolute when it lies outside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive on Windows
        rel = path
    if rel.startswith(".." + os.sep) and os.path.isabs(path):
        rel = path
    return rel.replace(os.sep, "/")
