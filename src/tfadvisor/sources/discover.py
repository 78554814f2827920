"""Walking the paths a user names, the way linters do: skip what is never the user's code."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

SKIPPED_DIRS = frozenset(
    {".git", ".hg", ".svn", ".venv", "venv", "env", ".env", "site-packages", "dist-packages",
     "build", "dist", "node_modules", "__pycache__", ".tox", ".nox", ".mypy_cache",
     ".pytest_cache", ".ipynb_checkpoints", ".eggs"}
)
SUFFIXES = (".py", ".ipynb")


def _excluded(path: str, patterns: Iterable[str]) -> bool:
    name = os.path.basename(path)
    return any(fnmatch.fnmatch(name, p) or fnmatch.fnmatch(path, p) or fnmatch.fnmatch(path, f"*/{p}")
               or fnmatch.fnmatch(path, f"{p}/*") or fnmatch.fnmatch(path, f"*/{p}/*")
               for p in patterns)


def _is_virtualenv(directory: str) -> bool:
    return os.path.isfile(os.path.join(directory, "pyvenv.cfg"))


def discover(paths: Iterable[str | Path], exclude: Iterable[str] = ()) -> Iterator[str]:
    """Yield the files to analyse, in a stable order.

    A path named explicitly is always yielded (even a missing one, so that it is reported as an
    error); files inside named directories are yielded when they end in ``.py`` or ``.ipynb``.
    Symlinked directories are not followed (no loops). A folder that cannot be listed is yielded
    itself, so that reading it reports why instead of its files silently missing.
    """
    patterns = tuple(exclude)
    seen: set[str] = set()
    unlisted: list[str] = []

    def _unlisted(exc: OSError) -> None:
        if exc.filename:
            unlisted.append(os.path.normpath(os.fsdecode(exc.filename)))

    for raw in paths:
        path = os.path.normpath(str(raw))
        if not os.path.isdir(path):
            if path not in seen and not (patterns and _excluded(path, patterns)):
                seen.add(path)
                yield path
            continue
        for root, dirs, files in os.walk(path, onerror=_unlisted, followlinks=False):
            while unlisted:
                folder = unlisted.pop(0)
                if folder not in seen:
                    seen.add(folder)
                    yield folder
            dirs[:] = sorted(
                d for d in dirs
                if d not in SKIPPED_DIRS and not d.endswith(".egg-info")
                and not _is_virtualenv(os.path.join(root, d))
                and not (patterns and _excluded(os.path.join(root, d), patterns))
            )
            for name in sorted(files):
                if not name.endswith(SUFFIXES):
                    continue
                full = os.path.normpath(os.path.join(root, name))
                if full in seen or (patterns and _excluded(full, patterns)):
                    continue
                seen.add(full)
                yield full
        while unlisted:  # the last folder walked (or ``path`` itself) could not be listed
            folder = unlisted.pop(0)
            if folder not in seen:
                seen.add(folder)
                yield folder
