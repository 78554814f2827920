"""Nothing lost: encodings, BOM, line endings and mode survive; changed or broken files are left alone."""

from __future__ import annotations

import os
import stat

import pytest

from tfadvisor.fix import engine
from tfadvisor.fix.edits import AddDecorator, RemoveDecorator
from tfadvisor.fix.engine import fix_file
from tfadvisor.fix.transform import TransformResult
from tfadvisor.fix.writer import WriteRefused, read_snapshot, write_back

DECORATE = [AddDecorator(origin="decorate", qualname="step", description="add @tf.function to step")]


def _write(path, data: bytes, mode: int = 0o640) -> None:
    path.write_bytes(data)
    os.chmod(path, mode)


def test_crlf_file_stays_crlf(tmp_path) -> None:
    p = tmp_path / "crlf.py"
    _write(p, b"import tensorflow as tf\r\n\r\n\r\ndef step(x):\r\n    return x + 1\r\n")
    out = fix_file(str(p), DECORATE, write=True)
    assert out.written and out.error is None
    assert p.read_bytes() == b"import tensorflow as tf\r\n\r\n\r\n@tf.function\r\ndef step(x):\r\n    return x + 1\r\n"


def test_bom_and_mode_kept(tmp_path) -> None:
    p = tmp_path / "bom.py"
    _write(p, b"\xef\xbb\xbfimport tensorflow as tf\n# caf\xc3\xa9\ndef step(x):\n    return x\n", mode=0o751)
    out = fix_file(str(p), DECORATE, write=True)
    assert out.written
    data = p.read_bytes()
    assert data.startswith(b"\xef\xbb\xbfimport tensorflow as tf\n# caf\xc3\xa9\n@tf.function\n")
    assert data.count(b"\xef\xbb\xbf") == 1
    assert stat.S_IMODE(os.stat(p).st_mode) == 0o751


def test_latin1_cookie_kept(tmp_path) -> None:
    p = tmp_path / "latin.py"
    source = "# -*- coding: latin-1 -*-\nimport tensorflow as tf\nNAME = 'señal'\n\ndef step(x):\n    return x\n"
    _write(p, source.encode("latin-1"))
    assert fix_file(str(p), DECORATE, write=True).written
    data = p.read_bytes()
    assert b"'se\xf1al'" in data  # still Latin-1, not UTF-8
    assert data.decode("latin-1") == source.replace("def step", "@tf.function\ndef step")


def test_no_trailing_newline_kept(tmp_path) -> None:
    p = tmp_path / "nonl.py"
    _write(p, b"import tensorflow as tf\ndef step(x):\n    return x")
    assert fix_file(str(p), DECORATE, write=True).written
    assert p.read_bytes() == b"import tensorflow as tf\n@tf.function\ndef step(x):\n    return x"


def test_symlink_edits_target_and_keeps_link(tmp_path) -> None:
    target = tmp_path / "real.py"
    _write(target, b"import tensorflow as tf\ndef step(x):\n    return x\n")
    link = tmp_path / "link.py"
    link.symlink_to(target)
    assert fix_file(str(link), DECORATE, write=True).written
    assert link.is_symlink()
    assert b"@tf.function" in target.read_bytes()


def test_changed_since_read_is_refused(tmp_path) -> None:
    p = tmp_path / "m.py"
    _write(p, b"def step(x):\n    return x\n")
    snapshot = read_snapshot(str(p))
    p.write_bytes(b"def step(x):\n    return x * 2  # saved by an editor meanwhile\n")
    with pytest.raises(WriteRefused, match="changed since it was read"):
        write_back(snapshot, "edited\n")
    assert p.read_bytes().endswith(b"meanwhile\n")
    assert [f for f in os.listdir(tmp_path) if f.endswith(".tmp")] == []


def test_engine_reports_a_file_saved_during_the_fix(tmp_path, monkeypatch) -> None:
    """Fault injection: an editor saves the file while fix is computing its edits."""
    p = tmp_path / "m.py"
    _write(p, b"import tensorflow as tf\ndef step(x):\n    return x\n")
    real_apply = engine.apply_edits

    def apply_then_save(code, edits):
        result = real_apply(code, edits)
        p.write_bytes(b"# saved meanwhile\n" + p.read_bytes())
        return result

    monkeypatch.setattr(engine, "apply_edits", apply_then_save)
    out = fix_file(str(p), DECORATE, write=True)
    assert not out.written and "changed since it was read" in (out.error or "")
    assert p.read_bytes().startswith(b"# saved meanwhile\n")


def test_unparseable_result_is_not_written(tmp_path, monkeypatch) -> None:
    """Fault injection: a broken edit result must never reach the disk."""
    p = tmp_path / "m.py"
    original = b"import tensorflow as tf\ndef step(x):\n    return x\n"
    _write(p, original)

    def broken(code, edits):
        return TransformResult(code=code.replace("def step(x):", "def step(x:"), applied=list(edits))

    monkeypatch.setattr(engine, "apply_edits", broken)
    out = fix_file(str(p), DECORATE, write=True)
    assert not out.written and "would not parse" in (out.error or "")
    assert out.applied == []
    assert p.read_bytes() == original


def test_input_that_does_not_parse_is_reported(tmp_path) -> None:
    p = tmp_path / "bad.py"
    _write(p, b"def step(x:\n    return x\n")
    out = fix_file(str(p), DECORATE, write=True)
    assert out.error and out.error.startswith("does not parse")
    assert "\n" not in out.error
    assert p.read_bytes() == b"def step(x:\n    return x\n"


def test_missing_and_binary_files_are_reported(tmp_path) -> None:
    assert fix_file(str(tmp_path / "nope.py"), DECORATE, write=True).error == "no such file or directory"
    b = tmp_path / "bin.py"
    b.write_bytes(b"\x00\x01")
    assert "binary" in (fix_file(str(b), DECORATE, write=True).error or "")


def test_remove_on_undecorated_changes_nothing(tmp_path) -> None:
    p = tmp_path / "m.py"
    _write(p, b"def step(x):\n    return x\n")
    out = fix_file(str(p), [RemoveDecorator(origin="undecorate", qualname="step")], write=True)
    assert not out.changed and not out.written


def test_rule_fix_on_a_function_changed_since_the_report_is_skipped(tmp_path) -> None:
    from tfadvisor.fix.edits import Location, PrintToTfPrint

    p = tmp_path / "m.py"
    # The report saw `step` as 3 lines (def + print + return); the file now has one more line.
    _write(p, b"import tensorflow as tf\ndef step(x):\n    y = x + 1\n    print(y)\n    return y\n")
    edit = PrintToTfPrint(origin="TF201", location=Location(line=3, col=4, end_line=3, function="step",
                                                            def_offset=1, span=2))
    out = fix_file(str(p), [edit], write=True)
    assert not out.written and "changed since the report" in out.skipped[0].reason
