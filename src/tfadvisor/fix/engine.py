"""Running a plan over files: read, edit, check, then write or diff. One file's trouble never
stops the others, and a file is only ever replaced by text that parses."""

from __future__ import annotations

import difflib
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tfadvisor.fix import keras_edits
from tfadvisor.fix.edits import Edit, Skipped
from tfadvisor.fix.notebooks import NotebookError, fix_notebook
from tfadvisor.fix.planner import Plan
from tfadvisor.fix.transform import TransformError, apply_edits
from tfadvisor.fix.writer import WriteRefused, parse_problem, read_snapshot, write_back
from tfadvisor.sources.reading import SourceError


@dataclass
class FileOutcome:
    path: str
    before: str = ""
    after: str | None = None  # None: unchanged
    applied: list[Edit] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    error: str | None = None  # the file was left untouched because of this
    written: bool = False

    @property
    def changed(self) -> bool:
        return self.after is not None and self.after != self.before

    def absorb(self, later: FileOutcome) -> None:
        """Fold a later round on the same file into this one: every round's edits and notes, the
        last round's skips and error, the text after the last change (``before`` stays the first)."""
        self.applied += later.applied
        self.notes += later.notes
        self.skipped = later.skipped
        self.error = later.error or self.error
        if later.changed:
            self.after = later.after
            self.written = self.written or later.written


def _key(path: str) -> str:
    return os.path.normcase(os.path.abspath(path))


def fix_file(path: str, edits: Sequence[Edit], *, write: bool) -> FileOutcome:
    """Apply ``edits`` to one file; write it back when ``write`` and something changed."""
    outcome = FileOutcome(path=path)
    try:
        snapshot = read_snapshot(path)
    except SourceError as exc:
        outcome.error = str(exc)
        return outcome
    outcome.before = snapshot.text
    try:
        if path.endswith(".ipynb"):
            result = fix_notebook(snapshot.text, edits, path)
        else:
            result = keras_edits.apply_with(snapshot.text, edits, apply_edits)  # compile()/tf.data edits first
    except (TransformError, NotebookError) as exc:
        outcome.error = str(exc)
        return outcome
    outcome.applied = list(result.applied)
    outcome.notes = list(result.notes)
    outcome.skipped = [Skipped(path, e.label, reason) for e, reason in result.skipped]
    if result.import_added:
        outcome.notes.append(f"added `{result.import_added}`")
    if not result.changed or result.code == snapshot.text:
        return outcome
    problem = _check(path, result.code)
    if problem:
        outcome.error = f"the fixed code would not parse ({problem}); file left untouched"
        outcome.applied = []
        return outcome
    outcome.after = result.code
    if write:
        try:
            write_back(snapshot, result.code)
            outcome.written = True
        except WriteRefused as exc:
            outcome.error = str(exc)
    return outcome


def _check(path: str, text: str) -> str | None:
    if not path.endswith(".ipynb"):
        return parse_problem(text)
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:  # pragma: no cover - json.dumps wrote it
        return f"notebook JSON: {exc}"
    return None  # each edited cell was checked by fix_notebook


def run_plan(plan: Plan, paths: Iterable[str], *, write: bool) -> list[FileOutcome]:
    """Fix the files named in ``paths`` only (a report may mention others: they are left alone)."""
    by_key: dict[str, list[Edit]] = {}
    skipped_by_key: dict[str, list[Skipped]] = {}
    for path, edits in plan.edits.items():
        by_key.setdefault(_key(path), []).extend(edits)
    for skip in plan.skipped:
        skipped_by_key.setdefault(_key(skip.path), []).append(skip)
    outcomes = []
    for path in paths:
        key = _key(path)
        edits = by_key.get(key, [])
        planned_skips = [Skipped(path, s.what, s.reason) for s in skipped_by_key.get(key, [])]
        if not edits:
            if planned_skips:
                outcomes.append(FileOutcome(path=path, skipped=planned_skips))
            continue
        outcome = fix_file(path, edits, write=write)
        outcome.skipped = planned_skips + outcome.skipped
        outcomes.append(outcome)
    return outcomes


def unified_diff(outcome: FileOutcome) -> str:
    """A reviewable diff: the file for Python, cell by cell for notebooks."""
    if not outcome.changed or outcome.after is None:
        return ""
    if outcome.path.endswith(".ipynb"):
        return _notebook_diff(outcome.path, outcome.before, outcome.after)
    return _diff(outcome.before, outcome.after, f"a/{outcome.path}", f"b/{outcome.path}")


def _diff(before: str, after: str, a: str, b: str) -> str:
    lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), a, b)
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out).replace("\r\n", "\n")


def _notebook_diff(path: str, before: str, after: str) -> str:
    old, new = json.loads(before), json.loads(after)
    parts = []
    for index, (c_old, c_new) in enumerate(zip(old.get("cells", []), new.get("cells", []), strict=False)):
        text_old = "".join(c_old.get("source", "")) if isinstance(c_old.get("source"), list) else c_old.get("source", "")
        text_new = "".join(c_new.get("source", "")) if isinstance(c_new.get("source"), list) else c_new.get("source", "")
        if text_old != text_new:
            name = f"{path} (cell {index + 1})"
            parts.append(_diff(_ended(text_old), _ended(text_new), f"a/{name}", f"b/{name}"))
    return "".join(parts)


def _ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"
