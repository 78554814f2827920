"""`tfadvisor fix` end to end: --diff, writing, the summary, idempotence and bad input."""

from __future__ import annotations

import json

from click.testing import CliRunner

from tfadvisor.cli.main import main
from tfadvisor.model import Facts, Finding, FixInfo, FunctionReport, Report, Severity, Verdict

SOURCE = """import tensorflow as tf


def step(x, w):
    print("loss", x)
    return tf.reduce_sum(tf.matmul(x, w))


@tf.function
def helper(n):
    return n + 1
"""


def _report(path: str = "a.py") -> dict:
    fns = [
        FunctionReport(id=f"{path}::step", path=path, qualname="step", line=4, end_line=6, decorated=False,
                       facts=Facts(tensor_params=["x", "w"]), verdict=Verdict.DECORATE, reasons=["TF501"]),
        FunctionReport(id=f"{path}::helper", path=path, qualname="helper", line=10, end_line=11, decorated=True,
                       facts=Facts(primitive_params=["n"]), verdict=Verdict.UNDECORATE, reasons=["TF502"]),
    ]
    findings = [Finding(rule="TF201", severity=Severity.WARNING, path=path, line=5, col=4, end_line=5, end_col=20,
                        function=f"{path}::step", message="print in graph code",
                        fix=FixInfo(safe=False, description="print -> tf.print"))]
    return Report(functions=fns, findings=findings, command="run").to_dict()


def _setup(tmp_path, monkeypatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.py").write_text(SOURCE)
    (tmp_path / "b.py").write_text(SOURCE)
    report = _report("a.py")
    other = _report("b.py")
    report["functions"] += other["functions"]
    report["findings"] += other["findings"]
    (tmp_path / "report.json").write_text(json.dumps(report))
    return CliRunner()


def test_diff_changes_nothing_and_exits_1(tmp_path, monkeypatch) -> None:
    runner = _setup(tmp_path, monkeypatch)
    result = runner.invoke(main, ["fix", "a.py", "--from", "report.json", "--diff"])
    assert result.exit_code == 1, result.output
    assert "+@tf.function\n def step" in result.stdout
    assert "-@tf.function\n def helper" in result.stdout
    assert "unsafe fix; --unsafe-fixes applies it" in result.stderr
    assert (tmp_path / "a.py").read_text() == SOURCE


def test_fix_writes_only_the_named_files_and_twice_is_a_no_op(tmp_path, monkeypatch) -> None:
    runner = _setup(tmp_path, monkeypatch)
    result = runner.invoke(main, ["fix", "a.py", "--from", "report.json", "--unsafe-fixes"])
    assert result.exit_code == 0, result.output
    assert "fixed 1 file: 3 edits (TF201 1, decorate 1, undecorate 1)" in result.output
    fixed = (tmp_path / "a.py").read_text()
    assert "@tf.function\ndef step" in fixed and 'tf.print("loss", x)' in fixed
    assert "@tf.function\ndef helper" not in fixed
    assert (tmp_path / "b.py").read_text() == SOURCE  # in the report, but not asked for

    second = runner.invoke(main, ["fix", "a.py", "--from", "report.json", "--unsafe-fixes"])
    assert second.exit_code == 0 and "nothing to fix" in second.output
    assert (tmp_path / "a.py").read_text() == fixed
    diff = runner.invoke(main, ["fix", "a.py", "--from", "report.json", "--unsafe-fixes", "--diff"])
    assert diff.exit_code == 0 and diff.stdout == ""


def test_select_and_ignore(tmp_path, monkeypatch) -> None:
    runner = _setup(tmp_path, monkeypatch)
    result = runner.invoke(main, ["fix", "a.py", "--from", "report.json", "--unsafe-fixes", "--select", "TF2,undecorate"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "a.py").read_text()
    assert "tf.print" in text and "@tf.function\ndef step" not in text and "@tf.function\ndef helper" not in text
    (tmp_path / "a.py").write_text(SOURCE)
    result = runner.invoke(main, ["fix", "a.py", "--from", "report.json", "--ignore", "TF502"])
    text = (tmp_path / "a.py").read_text()
    assert "@tf.function\ndef step" in text and "@tf.function\ndef helper" in text


def test_bad_report_files_give_one_line(tmp_path, monkeypatch) -> None:
    runner = _setup(tmp_path, monkeypatch)
    (tmp_path / "junk.json").write_text("{not json")
    (tmp_path / "other.json").write_text(json.dumps({"tool": {"name": "ruff"}}))
    for name, expected in (("junk.json", "not a JSON report"), ("other.json", "not a tfadvisor report"),
                           ("missing.json", "cannot read")):
        result = runner.invoke(main, ["fix", "a.py", "--from", name])
        assert result.exit_code != 0
        assert expected in result.output and "Traceback" not in result.output
        assert len(result.output.strip().splitlines()) == 1


def test_missing_path_is_reported_not_crashed(tmp_path, monkeypatch) -> None:
    runner = _setup(tmp_path, monkeypatch)
    report = _report("gone.py")
    (tmp_path / "gone.json").write_text(json.dumps(report))
    result = runner.invoke(main, ["fix", "gone.py", "--from", "gone.json"])
    assert result.exit_code == 1
    assert "gone.py: no such file or directory" in result.output


def test_without_report_runs_the_static_check(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.py").write_text(
        "import tensorflow as tf\n\n\n@tf.function\ndef count(paths):\n    return len(paths)\n\n\n"
        "count(['a', 'b'])\n")
    runner = CliRunner()
    result = runner.invoke(main, ["fix", "m.py", "--diff"])
    assert result.exit_code == 1, result.output  # no tensor work: check says undecorate
    assert "-@tf.function\n def count" in result.stdout
    again = runner.invoke(main, ["fix", "m.py"])
    assert again.exit_code == 0, again.output
    assert runner.invoke(main, ["fix", "m.py", "--diff"]).exit_code == 0  # converged


def test_fix_never_imports_tensorflow(tmp_path) -> None:
    """DESIGN: `fix` needs no TensorFlow. Run a whole fix (static check included) in a fresh interpreter."""
    import subprocess
    import sys

    (tmp_path / "m.py").write_text(SOURCE)
    code = ("import sys\nfrom click.testing import CliRunner\nfrom tfadvisor.cli.main import main\n"
            "r = CliRunner().invoke(main, ['fix', 'm.py', '--diff'])\n"
            "assert r.exception is None or isinstance(r.exception, SystemExit), r.output\n"
            "print('TF' if 'tensorflow' in sys.modules else 'NO-TF')\n")
    proc = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip().endswith("NO-TF"), proc.stdout + proc.stderr


def test_fix_from_applies_the_measured_advice_with_its_call_site_change(tmp_path, monkeypatch) -> None:
    """Issue 21: `decorate` + "pass `epoch` as a tensor" for a function that is not yet a tf.function
    was neither applied nor listed as skipped. Both edits of the advice are applied."""
    from tfadvisor.model import Advice, AdviceEdit

    runner = _setup(tmp_path, monkeypatch)
    (tmp_path / "e.py").write_text(
        "import tensorflow as tf\n\n\ndef step(x, epoch):\n    return x * tf.cast(epoch, tf.float32)\n\n\n"
        "for epoch in range(3):\n    step(tf.ones([2]), epoch)\n")
    advice = Advice(Verdict.DECORATE, option="input_signature", saving_s=0.5,
                    edits=[AdviceEdit("decorate"), AdviceEdit("pass-as-tensors", arguments={"epoch": "int32"})])
    fn = FunctionReport(id="e.py::step", path="e.py", qualname="step", line=4, end_line=5, decorated=False,
                        facts=Facts(), verdict=Verdict.DECORATE, reasons=["TF501", "TF601", "TF101"], advice=advice)
    (tmp_path / "r.json").write_text(json.dumps(Report(functions=[fn], command="run").to_dict()))
    result = runner.invoke(main, ["fix", "--from", "r.json", "e.py"])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "e.py").read_text()
    assert "@tf.function\ndef step(x, epoch):" in text
    assert "step(tf.ones([2]), tf.constant(epoch, tf.int32))" in text
