"""Applying the answers to the code: edits as data, a libcst engine, safe atomic writes.

Public API (no TensorFlow import anywhere here):

- ``plan(report, Options(unsafe=..., select=..., ignore=...)) -> Plan``: which edits each file
  gets (a `run` report's ``Measurement`` carries the call signatures it observed);
- ``run_plan(plan, paths, write=True) -> list[FileOutcome]``: apply them to the named files only;
- ``apply_edits(code, edits) -> TransformResult`` and ``fix_notebook(text, edits)`` for one text;
- ``unified_diff(outcome)`` for review.
"""

from tfadvisor.fix.edits import (
    AddDecorator,
    DisableRunEagerly,
    Edit,
    Location,
    PrintToTfPrint,
    RangeToTfRange,
    RemoveDecorator,
    SetDecoratorOptions,
    Skipped,
    TensorSpecData,
)
from tfadvisor.fix.engine import FileOutcome, fix_file, run_plan, unified_diff
from tfadvisor.fix.notebooks import fix_notebook
from tfadvisor.fix.planner import Options, Plan, plan
from tfadvisor.fix.transform import TransformResult, apply_edits

__all__ = [
    "AddDecorator", "DisableRunEagerly", "Edit", "FileOutcome", "Location", "Options", "Plan",
    "PrintToTfPrint", "RangeToTfRange", "RemoveDecorator", "SetDecoratorOptions", "Skipped",
    "TensorSpecData", "TransformResult", "apply_edits", "fix_file", "fix_notebook", "plan",
    "run_plan", "unified_diff",
]
