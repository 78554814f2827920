"""The run-time rules' examples are tests too: each runs under `tfadvisor run` (real TensorFlow), a
bad one must report the rule on its marked line and a good one must not.

Checked here: the rules whose outcome does not hinge on how fast this machine is (retrace counts,
behaviour that differs, errors). TF104, TF506 and TF602 follow speed verdicts (a shape-retracing
option that pays, XLA that pays, a graph that does not), so on a shared machine their examples
are documentation only; they still parse and mark their lines (test_rule_examples.py).
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tfadvisor.rules import get_rule

CHECKED_BY_RUN = ("TF601", "TF603", "TF604", "TF605")
CASES = [(code, kind, i) for code in CHECKED_BY_RUN for kind in ("bad", "good")
         for i in range(len(getattr(get_rule(code), kind)))]


@pytest.mark.slow
@pytest.mark.parametrize(("code", "kind", "index"), CASES, ids=[f"{c}-{k}{i}" for c, k, i in CASES])
def test_runtime_rule_example_under_run(tmp_path, code: str, kind: str, index: int) -> None:
    rule = get_rule(code)
    source = getattr(rule, kind)[index]
    (tmp_path / "example.py").write_text(source)
    proc = subprocess.run([sys.executable, "-m", "tfadvisor", "run", "example.py", "--format", "json",
                           "--output", "report.json", "--quiet", "--budget", "60"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    report = json.loads((tmp_path / "report.json").read_text())
    lines = sorted({f["line"] for f in report["findings"] if f["rule"] == code})
    expected = rule.expected_lines(source) if kind == "bad" else []
    assert lines == expected, proc.stderr[-2000:]
