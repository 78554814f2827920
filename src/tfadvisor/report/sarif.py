"""SARIF 2.1.0 for code scanning (GitHub, GitLab, VS Code's SARIF viewer).

One run; the driver lists only the rules that fired, with their docs as help text. Results carry
repo-relative URIs, 1-based regions and a ``partialFingerprints`` entry that survives code moving
up or down (rule + path + function + the normalised text of the line, not its number), so code
scanning keeps an alert's identity across commits. Suppressed findings are kept as results with an
in-source suppression, which is how SARIF consumers expect ``# tfadvisor: ignore[...]`` to appear.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from typing import Any
from urllib.parse import quote

from tfadvisor import __version__
from tfadvisor.model import Finding, Report, Severity, local_id, split_local_id
from tfadvisor.report._rules import RuleInfo, rule_info
from tfadvisor.report._source import char_col, line_text, notebook_file_line

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/tfadvisor/"
FINGERPRINT_KEY = "tfadvisor/v1"

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def level(severity: Severity | str) -> str:
    """SARIF level of a tfadvisor severity (``info`` is SARIF's ``note``)."""
    return _LEVEL[Severity(severity)]


def artifact_uri(path: str) -> str:
    """A relative URI reference for ``path``: forward slashes, percent-encoded, no leading ``./``."""
    path = path.replace(os.sep, "/").replace("\\", "/")
    if os.path.isabs(path) or re.match(r"^[A-Za-z]:/", path):
        return "file://" + ("" if path.startswith("/") else "/") + quote(path)
    while path.startswith("./"):
        path = path[2:]
    return quote(path)


def _normalise(text: str) -> str:
    return " ".join(text.split())


def fingerprint(finding: Finding, root: str | None = None) -> str:
    """Stable identity of a finding: rule, path, function and the line's text (whitespace-normalised).

    Without the source file (report rendered elsewhere), the message stands in for the line text.
    """
    text = line_text(finding.path, finding.line, root)
    anchor = _normalise(text) if text is not None else "message:" + _normalise(finding.message)
    key = "\0".join((finding.rule, finding.path.replace("\\", "/"), finding.function or "", anchor))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def _region(f: Finding, root: str | None = None) -> dict[str, int]:
    if f.path.endswith(".ipynb"):
        # Lines index the joined cells; point at the notebook file's own line instead (no columns:
        # they would count JSON escapes). The cell and line in cell go in the result's properties.
        line = notebook_file_line(f.path, f.cell, f.cell_line, root) if f.cell and f.cell_line else None
        return {"startLine": line or 1}
    start_line = max(1, f.line)
    end_line = max(start_line, f.end_line or start_line)
    start_col = max(1, char_col(f.path, start_line, f.col, root) + 1)
    end_byte = f.end_col if f.end_col is not None else f.col
    end_col = max(1, char_col(f.path, end_line, end_byte, root) + 1)
    if end_line == start_line and end_col < start_col:
        end_col = start_col
    return {"startLine": start_line, "startColumn": start_col, "endLine": end_line, "endColumn": end_col}


def _cell_suffix(f: Finding) -> str:
    if f.cell is None:
        return ""
    return f" (cell {f.cell}" + (f", line {f.cell_line})" if f.cell_line is not None else ")")


def _descriptor(info: RuleInfo, fallback_level: str) -> dict[str, Any]:
    short = info.summary.split("\n", 1)[0] if info.summary else info.title
    full = "\n\n".join(p for p in (info.summary, info.why) if p) or info.title
    out: dict[str, Any] = {
        "id": info.code,
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "help": {"text": info.text(), "markdown": info.markdown()},
        "defaultConfiguration": {"level": level(info.severity) if info.severity in ("error", "warning", "info") else fallback_level},
        "properties": {"tags": ["tensorflow", "tf.function", info.code[:3] + "xx"]},
    }
    if info.name:
        out["name"] = info.name
    return out


def build(report: Report, *, root: str | None = None) -> dict[str, Any]:
    """The SARIF log as a dict (``render`` serialises it)."""
    fired: list[str] = []
    worst: dict[str, Severity] = {}
    for f in report.findings:
        if f.rule not in worst:
            fired.append(f.rule)
            worst[f.rule] = f.severity
        elif Severity(f.severity).rank > Severity(worst[f.rule]).rank:
            worst[f.rule] = f.severity
    fired.sort()
    index = {code: i for i, code in enumerate(fired)}
    rules = [_descriptor(rule_info(code), level(worst[code])) for code in fired]

    results: list[dict[str, Any]] = []
    seen: Counter[str] = Counter()
    by_id = {fn.id: fn for fn in report.functions}
    for f in sorted(report.findings, key=Finding.sort_key):
        base = fingerprint(f, root)
        seen[base] += 1  # identical lines in one function: keep each alert distinct and stable
        location: dict[str, Any] = {
            "physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(f.path), "uriBaseId": "%SRCROOT%"},
                "region": _region(f, root),
            }
        }
        if f.function:
            qualname = split_local_id(local_id(f.function))[0]  # train_step for train_step#2
            location["logicalLocations"] = [
                {"fullyQualifiedName": f.function, "name": qualname.rsplit(".", 1)[-1], "kind": "function"}
            ]
        result: dict[str, Any] = {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": level(f.severity),
            "message": {"text": (f.message or rule_info(f.rule).title) + _cell_suffix(f)},
            "locations": [location],
            "partialFingerprints": {FINGERPRINT_KEY: f"{base}:{seen[base]}"},
        }
        properties: dict[str, Any] = {}
        verdict = by_id.get(f.function or "")
        if verdict is not None:  # the verdict of the finding's function, and how sure it is
            properties["verdict"] = verdict.verdict.value
            properties["confidence"] = verdict.confidence
        if f.fix is not None:
            properties["fix"] = {"safe": f.fix.safe, "description": f.fix.description}
        if f.cell is not None:
            properties["cell"] = f.cell
            if f.cell_line is not None:
                properties["cellLine"] = f.cell_line
        if properties:
            result["properties"] = properties
        if f.suppressed:
            result["suppressions"] = [{"kind": "inSource", "justification": "# tfadvisor: ignore"}]
        results.append(result)

    notifications = [
        {
            "level": "error",
            "message": {"text": f"could not analyse {fs.path}: {fs.error or 'unknown error'}"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": artifact_uri(fs.path), "uriBaseId": "%SRCROOT%"}}}],
            "descriptor": {"id": "file-error"},
        }
        for fs in report.files
        if fs.status == "error"
    ] + [
        {
            "level": "warning",
            "message": {"text": f"{fs.path}: {cell} (skipped; the rest of the notebook was analysed)"},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(fs.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": (notebook_file_line(fs.path, cell.cell, cell.line, root) if cell.line else None) or 1}}}],
            "descriptor": {"id": "notebook-cell-skipped"},
            "properties": {"cell": cell.cell, **({"cellLine": cell.line} if cell.line else {})},
        }
        for fs in report.files
        for cell in fs.skipped_cells
    ] + [
        {
            "level": "warning",
            "message": {"text": f"{fs.path}: {part} (skipped; the rest of the file was analysed)"},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": artifact_uri(fs.path), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": part.start, "endLine": part.end}}}],
            "descriptor": {"id": "lines-skipped"},
        }
        for fs in report.files
        for part in fs.skipped_lines
    ]
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications

    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "tfadvisor",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": rules,
            }
        },
        "invocations": [invocation],
        "columnKind": "unicodeCodePoints",
        "results": results,
        "properties": {"command": report.command, "verdicts": _verdict_counts(report)},
    }
    base = os.path.abspath(root or os.getcwd()).replace(os.sep, "/")
    run["originalUriBaseIds"] = {"%SRCROOT%": {"uri": "file://" + quote(base.rstrip("/") + "/")}}
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def _verdict_counts(report: Report) -> dict[str, dict[str, int]]:
    """Verdicts by confidence: ``unknown`` ones are where evidence was missing (run decides)."""
    out: dict[str, dict[str, int]] = {}
    for fn in report.functions:
        row = out.setdefault(fn.verdict.value, {})
        row[fn.confidence] = row.get(fn.confidence, 0) + 1
    return out


def render(report: Report, *, root: str | None = None, **_: Any) -> str:
    """SARIF 2.1.0 JSON text. ``root``: the folder the report's paths are relative to (default: cwd)."""
    return json.dumps(build(report, root=root), indent=2, ensure_ascii=False) + "\n"
