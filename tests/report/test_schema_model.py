"""The JSON schema is checked against the model: every dataclass that ``Report.to_dict`` writes
has exactly its fields as properties of its schema definition (issue 21: the schema lacked eight
fields of the measurement that ``fix`` depends on, and nothing noticed)."""

from __future__ import annotations

import dataclasses
import json
from importlib import resources

import pytest

from tfadvisor import model

SCHEMA = json.loads(resources.files("tfadvisor").joinpath("schema/report.schema.json").read_text())
DEFS = SCHEMA["$defs"]

PAIRS = [
    (model.Facts, DEFS["facts"]),
    (model.Measurement, DEFS["measurement"]),
    (model.ModeMeasurement, DEFS["modeMeasurement"]),
    (model.FunctionReport, DEFS["function"]),
    (model.Finding, DEFS["finding"]),
    (model.FixInfo, DEFS["finding"]["properties"]["fix"]["oneOf"][1]),
    (model.Advice, DEFS["advice"]),
    (model.AdviceEdit, DEFS["adviceEdit"]),
    (model.RunRow, DEFS["runRow"]),
    (model.RunSummary, DEFS["runSummary"]),
    (model.ProfileSummary, DEFS["profileSummary"]),
    (model.FileStatus, SCHEMA["properties"]["files"]["items"]),
    (model.SkippedCell, SCHEMA["properties"]["files"]["items"]["properties"]["skipped_cells"]["items"]),
    (model.SkippedLines, SCHEMA["properties"]["files"]["items"]["properties"]["skipped_lines"]["items"]),
]


@pytest.mark.parametrize("cls, definition", PAIRS, ids=[c.__name__ for c, _ in PAIRS])
def test_schema_properties_are_the_dataclass_fields(cls, definition):
    fields = {f.name for f in dataclasses.fields(cls)}
    properties = set(definition["properties"])
    assert fields - properties == set(), f"{cls.__name__}: fields the schema does not describe"
    assert properties - fields == set(), f"{cls.__name__}: schema properties the model does not have"
    assert set(definition.get("required", ())) <= fields


def test_every_dataclass_of_the_model_is_in_the_schema():
    described = {cls for cls, _ in PAIRS} | {model.Report}
    written = {obj for obj in vars(model).values()
               if isinstance(obj, type) and dataclasses.is_dataclass(obj) and obj.__module__ == model.__name__}
    assert written - described == set()


def test_a_measured_report_with_advice_validates(schema_valid):
    advice = model.Advice(model.Verdict.DECORATE, why="5x faster", saving_s=1.5, calls=240, step="speed",
                          edits=[model.AdviceEdit("decorate"), model.AdviceEdit("pass-as-tensors", arguments={"epoch": "int32"})])
    m = model.Measurement(calls=240, eager_s=1e-3, graph_s=2e-4, trace_s=0.05, traces=1, as_tensors={"epoch": "int32"},
                          modes=[model.ModeMeasurement("eager", per_call_s=1e-3)], signatures=[{"x": ["tensor", "float32", [32]]}])
    fn = model.FunctionReport("a.py::f", "a.py", "f", 1, 3, False, model.Facts(needs_graph=["exported"]),
                              model.Verdict.DECORATE, measurement=m, advice=advice)
    data = model.Report(functions=[fn], command="run", run=model.RunSummary(budget_basis="--budget 3 s")).to_dict()
    schema_valid(data)
    back = model.Report.from_dict(json.loads(json.dumps(data)))
    assert back.functions[0].advice == advice and back.functions[0].facts.needs_graph == ["exported"]
