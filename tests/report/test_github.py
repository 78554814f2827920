"""GitHub workflow-command annotations: right fields, 1-based positions, nothing can break out."""

from __future__ import annotations

import re

from tfadvisor.model import Finding, Report, Severity
from tfadvisor.report import render
from tfadvisor.report.github import escape_data, escape_property

COMMAND = re.compile(r"^::(error|warning|notice) ((?:[A-Za-z]+=[^,:]*)(?:,[A-Za-z]+=[^,:]*)*)::(.*)$")


def parse(line: str) -> tuple[str, dict[str, str], str]:
    m = COMMAND.match(line)
    assert m, line
    props = dict(p.split("=", 1) for p in m.group(2).split(","))
    return m.group(1), props, m.group(3)


def test_one_annotation_per_active_finding(report: Report) -> None:
    lines = render(report, "github").splitlines()
    assert len(lines) == 5 + 1  # five active findings, one unreadable file; the suppressed one is left out
    kind, props, message = parse(lines[0])
    assert kind == "error"
    assert props == {"file": "pkg/trainer.py", "line": "20", "endLine": "20", "col": "9", "endColumn": "24",
                     "title": props["title"]}
    assert props["title"].startswith("TF202")
    assert message.startswith("TF202 ")
    kinds = [parse(x)[0] for x in lines]
    assert kinds.count("notice") == 1 and "warning" in kinds
    assert parse(lines[-1])[1]["file"] == "pkg/broken.py"


def test_hostile_text_is_escaped_on_one_line() -> None:
    f = Finding("TF201", Severity.INFO, "dir,x/a:b%.py", 3, 0, 3, 4, None, "50% done\r\n::error::injected")
    out = render(Report(findings=[f]), "github")
    assert out.count("\n") == 1
    kind, props, message = parse(out.rstrip("\n"))
    assert kind == "notice"
    assert props["file"] == "dir%2Cx/a%3Ab%25.py"
    assert message == "TF201 50%25 done%0D%0A::error::injected"


def test_multi_line_findings_carry_no_columns() -> None:
    f = Finding("TF301", Severity.ERROR, "a.py", 3, 4, 6, 10, None, "m")
    _, props, _ = parse(render(Report(findings=[f]), "github").strip())
    assert props["line"] == "3" and props["endLine"] == "6" and "col" not in props


def test_escaping_helpers() -> None:
    assert escape_data("a%b\nc") == "a%25b%0Ac"
    assert escape_property("a:b,c") == "a%3Ab%2Cc"
