"""speed.py: the deterministic sample, and a real (tiny) run of check against pylint."""

from __future__ import annotations

from pathlib import Path

import pytest

import speed


def test_sample_is_deterministic_and_spread():
    files = [Path(f"f{i:03d}.py") for i in range(100)]
    picked = speed.sample(list(reversed(files)), 10)
    assert picked == speed.sample(files, 10)
    assert picked[0] == files[0] and picked[-1] == files[90]
    assert speed.sample(files, None) == files


@pytest.mark.slow
def test_tiny_run_prints_both_tools(tmp_path, capsys):
    pytest.importorskip("pylint")
    (tmp_path / "a.py").write_text("import tensorflow as tf\n\n\ndef f(x):\n    return tf.nn.relu(x)\n")
    (tmp_path / "b.py").write_text('"""Doc."""\n\nVALUE = 1\n')
    assert speed.main(["--path", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "| tfadvisor check |" in out and "| pylint |" in out and "time ratio pylint / check" in out


def test_bad_path_is_one_line(tmp_path, capsys):
    assert speed.main(["--path", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err.strip().startswith("speed: ")
