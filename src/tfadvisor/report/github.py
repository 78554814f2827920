"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` per finding.

Printed to stdout inside a workflow step, each line becomes an annotation on the pull request diff.
Values are escaped as GitHub's runner expects (``%``, CR and LF everywhere; also ``:`` and ``,``
inside properties), so a message can never end the command early or inject another one.
"""

from __future__ import annotations

from typing import Any

from tfadvisor.model import Finding, Report, Severity
from tfadvisor.report._rules import rule_info
from tfadvisor.report._source import char_col, notebook_file_line

_COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(value: str) -> str:
    """Escape a command's message (after ``::``)."""
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(value: str) -> str:
    """Escape a property value (``file=...``, ``title=...``)."""
    return escape_data(value).replace(":", "%3A").replace(",", "%2C")


def _command(kind: str, properties: dict[str, Any], message: str) -> str:
    props = ",".join(f"{k}={escape_property(str(v))}" for k, v in properties.items() if v is not None)
    return f"::{kind} {props}::{escape_data(message)}" if props else f"::{kind}::{escape_data(message)}"


def annotation(f: Finding) -> str:
    """The workflow command for one finding (1-based line and column, as GitHub expects)."""
    file = f.path.replace("\\", "/").removeprefix("./")
    message = f"{f.rule} {f.message}".strip()
    if f.path.endswith(".ipynb"):  # point at the notebook file's own line; say which cell
        line = (notebook_file_line(f.path, f.cell, f.cell_line) if f.cell and f.cell_line else None) or 1
        props: dict[str, Any] = {"file": file, "line": line, "title": rule_info(f.rule).title}
        where = f" (cell {f.cell}, line {f.cell_line})" if f.cell is not None else ""
        return _command(_COMMAND[Severity(f.severity)], props, message + where)
    line = max(1, f.line)
    end_line = max(line, f.end_line or line)
    props = {"file": file, "line": line, "endLine": end_line}
    if end_line == line:  # GitHub ignores columns on multi-line annotations
        props["col"] = max(1, char_col(f.path, line, f.col) + 1)
        props["endColumn"] = max(props["col"], char_col(f.path, line, f.end_col) + 1)
    props["title"] = rule_info(f.rule).title
    return _command(_COMMAND[Severity(f.severity)], props, message)


def render(report: Report, **_: Any) -> str:
    lines = [annotation(f) for f in sorted(report.findings, key=Finding.sort_key) if not f.suppressed]
    lines += [
        _command("error", {"file": fs.path, "title": "tfadvisor could not analyse this file"}, fs.error or "unreadable")
        for fs in report.files
        if fs.status == "error"
    ]
    lines += [  # a notebook analysed without some cells: one notice per cell, on its line
        _command("notice", {"file": fs.path, "line": (notebook_file_line(fs.path, c.cell, c.line) if c.line else None) or 1,
                            "title": "tfadvisor skipped this notebook cell"}, str(c))
        for fs in report.files
        for c in fs.skipped_cells
    ] + [  # a module analysed without some top-level blocks: one notice per block
        _command("notice", {"file": fs.path, "line": part.start, "endLine": part.end,
                            "title": "tfadvisor skipped lines that are not Python"}, str(part))
        for fs in report.files
        for part in fs.skipped_lines
    ]
    return "".join(line + "\n" for line in lines)
