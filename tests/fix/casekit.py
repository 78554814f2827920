"""Building Reports by hand (from model.py dataclasses) for the before/after fixtures.

A fixture folder holds ``before.py``, ``after.py`` and ``case.json``: the verdicts and findings of
a report, written compactly; function lines come from parsing ``before.py`` as check would.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

from tfadvisor.fix.planner import Options
from tfadvisor.model import Facts, Finding, FixInfo, FunctionReport, Measurement, Report, Severity, Verdict

FIXTURES = Path(__file__).parent / "fixtures"


def function_lines(source: str) -> dict[str, tuple[int, int]]:
    """qualname -> (def line, end line), as ``ast`` (and so check) gives them."""
    found: dict[str, tuple[int, int]] = {}

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = prefix + child.name
                found.setdefault(name, (child.lineno, child.end_lineno or child.lineno))
                walk(child, name + ".<locals>.")
            elif isinstance(child, ast.ClassDef):
                walk(child, prefix + child.name + ".")
            else:
                walk(child, prefix)

    walk(ast.parse(source), "")
    return found


def build_report(case: dict[str, Any], source: str, path: str) -> Report:
    lines = function_lines(source)
    functions = []
    for f in case.get("functions", []):
        line, end = lines[f["qualname"]]
        fid = f"{path}::{f['qualname']}"
        measured = {k: f[k] for k in ("signatures", "xla_equivalent", "as_tensors") if k in f}
        functions.append(FunctionReport(
            id=fid, path=path, qualname=f["qualname"], line=line, end_line=end,
            decorated=f.get("decorated", False), facts=Facts(tensor_params=f.get("tensor_params", [])),
            verdict=Verdict(f["verdict"]), reasons=f.get("reasons", []),
            confidence=f.get("confidence", "certain"),
            measurement=Measurement(calls=2, **measured) if measured else None))
    findings = [
        Finding(rule=x["rule"], severity=Severity.WARNING, path=path, line=x["line"], col=x["col"],
                end_line=x.get("end_line", x["line"]), end_col=x["col"] + 1,
                function=f"{path}::{x['function']}" if x.get("function") else None,
                message=x["rule"], fix=FixInfo(safe=x.get("safe", True), description=f"{x['rule']} fix"))
        for x in case.get("findings", [])
    ]
    return Report(functions=functions, findings=findings)


def load_case(name: str) -> tuple[str, str, dict[str, Any]]:
    folder = FIXTURES / name
    return ((folder / "before.py").read_text(), (folder / "after.py").read_text(),
            json.loads((folder / "case.json").read_text()))


def case_options(case: dict[str, Any]) -> Options:
    opts = case.get("options", {})
    return Options(unsafe=opts.get("unsafe", False), select=tuple(opts.get("select", ())),
                   ignore=tuple(opts.get("ignore", ())))


def case_names() -> list[str]:
    return sorted(p.name for p in FIXTURES.iterdir() if (p / "case.json").exists())
