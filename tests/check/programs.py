"""Checking small multi-file programs written afresh in the shapes a judged split showed."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tfadvisor.check import check_paths
from tfadvisor.model import Report, Verdict


def check(tmp_path: Path, files: dict[str, str]) -> Report:
    for name, code in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(code))
    return check_paths([str(tmp_path)])


def verdicts(tmp_path: Path, files: dict[str, str]) -> dict[str, Verdict]:
    return {fn.qualname: fn.verdict for fn in check(tmp_path, files).functions}
