"""Reports written with ``--output`` get the user's usual file mode (0666 less the umask), not the
0600 of a temporary file (issue 13); a report written over an existing file keeps that file's mode."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from tfadvisor.cli.main import main


@pytest.fixture
def umask() -> Iterator[Callable[[int], int]]:
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.parametrize(("mask", "expected"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_new_report_follows_the_umask(tmp_path: Path, umask, mask: int, expected: int) -> None:
    (tmp_path / "a.py").write_text("def f(x):\n    return x\n")
    umask(mask)
    for fmt in ("json", "sarif", "text"):
        out = tmp_path / f"report.{fmt}"
        result = CliRunner().invoke(main, ["check", str(tmp_path / "a.py"), "--format", fmt, "--output", str(out)])
        assert result.exit_code == 0, result.output
        assert _mode(out) == expected, (fmt, oct(_mode(out)))
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".tfadvisor-")]


def test_report_written_over_a_file_keeps_its_mode(tmp_path: Path, umask) -> None:
    (tmp_path / "a.py").write_text("def f(x):\n    return x\n")
    out = tmp_path / "report.json"
    out.write_text("{}")
    out.chmod(0o640)
    result = CliRunner().invoke(main, ["check", str(tmp_path / "a.py"), "-f", "json", "-o", str(out)])
    assert result.exit_code == 0 and out.read_text().startswith("{\n")
    assert _mode(out) == 0o640


def test_generated_rules_page_follows_the_umask(tmp_path: Path, umask) -> None:
    from tfadvisor.rules.docs import main as docs_main

    umask(0o022)
    target = tmp_path / "docs" / "rules.md"
    assert docs_main(["--write", str(target)]) == 0
    assert _mode(target) == 0o644 and target.read_text().startswith("#")
