"""`tfadvisor.run` as a library call: the same Report as the command, with the hooks a caller follows."""

from __future__ import annotations

import os

import tfadvisor
from tfadvisor.measure import RunHooks, measure_program
from tfadvisor.model import Report, RunSummary, Verdict

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures")


def test_run_returns_the_report_and_calls_its_hooks_in_order(tmp_path, monkeypatch, schema_valid) -> None:
    program = os.path.join(FIXTURES, "graph_calls.py")
    monkeypatch.chdir(tmp_path)
    events: list[str] = []
    saved: list[Report] = []

    def ended(outcome: str, status: int, error: str | None) -> None:
        events.append(f"ended {outcome} {status}")

    def kept(report: Report) -> None:
        events.append("saved")
        saved.append(report)

    result = measure_program(program, budget_s=20, hooks=RunHooks(saved=kept, ended=ended))
    assert result.exit_status == 0
    assert events[0] == "ended ok 0" and events[1:] and set(events[1:]) == {"saved"}  # before replay and after
    run = result.report.run
    assert isinstance(run, RunSummary) and run.outcome == "ok" and run.table
    step = next(f for f in result.report.functions if f.qualname == "step")
    assert step.decorated and step.measurement is not None and step.measurement.graph_s is not None
    # the first checkpoint comes before any replay: observation only, already a whole report
    assert all(f.measurement is None or f.measurement.graph_s is None for f in saved[0].functions)
    for report in (saved[0], result.report):
        schema_valid(report.to_dict())


def test_tfadvisor_run_is_the_library_entry_point(tmp_path, monkeypatch) -> None:
    script = tmp_path / "tiny.py"
    script.write_text("def double(x):\n    return 2 * x\n\nprint(double(21))\n")
    monkeypatch.chdir(tmp_path)
    report = tfadvisor.run(str(script), budget_s=5)
    assert report.command == "run" and [r.qualname for r in report.run.table] == ["double"]
    assert report.function("tiny.py::double").verdict is Verdict.LEAVE_EAGER  # no tensor: never replayed


def test_the_static_report_made_beside_the_program_is_the_one_made_inline() -> None:
    """`run` forks `check` off before the program imports TensorFlow (its cost then overlaps the
    program's); in a fresh interpreter the fork happens, and the report is the same as inline."""
    import json
    import subprocess
    import sys

    script = (
        "import json, sys\n"
        "from tfadvisor.measure import StaticInBackground, _static_report\n"
        f"root = {os.path.join(FIXTURES, 'proj')!r}\n"
        "pending = StaticInBackground(root)\n"
        "forked = pending._pid != 0\n"
        "print(json.dumps([forked, pending.result().to_dict() == _static_report(root).to_dict(),\n"
        "                  'tensorflow' in sys.modules]))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    forked, same, imported_tf = json.loads(out.stdout.strip().splitlines()[-1])
    assert (forked or not hasattr(os, "fork")) and same and not imported_tf
