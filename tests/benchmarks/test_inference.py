"""benchmarks/inference: the labelled values stay well-formed and tune-only, and the harness's pure
parts (kind mapping, pyright probes, intervals) do what the decision note says they do."""

from __future__ import annotations

import ast
import importlib.util
import json
import sys
from pathlib import Path

import pytest
import tomllib

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "inference"
KINDS = {"tensor", "dataset", "model", "numpy", "scalar", "container", "other", "unknown"}


def _load(name: str):
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))  # compare.py imports engines.py by name
    spec = importlib.util.spec_from_file_location(f"inference_{name}", HERE / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


engines = _load("engines")
compare = _load("compare")


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / name).read_text().splitlines() if line.strip()]


def test_every_drawn_value_is_labelled_once_with_a_kind_and_why():
    sample = {v["id"] for v in _rows("sample.jsonl")}
    labels = _rows("labels.jsonl")
    assert [v["id"] for v in labels] == sorted(sample)
    for v in labels:
        assert v["label"] in KINDS, v["id"]
        assert v["why"] and "\n" not in v["quote"] and len(v["quote"]) <= 120
        assert v["label"] == "unknown" or v["fix"] in compare.FIXES or v["fix"] == "ok", v["id"]


def test_values_come_only_from_the_tuning_split():
    with (HERE.parent / "realworld" / "repos.toml").open("rb") as handle:
        split = {r["name"]: r.get("split") for r in tomllib.load(handle)["repo"]}
    assert {split[v["repo"]] for v in _rows("labels.jsonl")} == {"tune4"}


def test_class_names_map_to_kinds_through_their_ancestors():
    assert engines.classify("tensorflow.python.framework.ops.EagerTensor", []) == "tensor"
    assert engines.classify("tensorflow.python.data.ops.dataset_ops.BatchDataset", []) == "dataset"
    assert engines.classify("mypkg.models.Net", ["keras.src.models.model.Model", "builtins.object"]) == "model"
    assert engines.classify("numpy.ndarray", []) == "numpy"
    assert engines.classify("builtins.str", []) == "scalar"
    assert engines.classify("collections.OrderedDict", ["builtins.dict"]) == "container"
    assert engines.classify("mypkg.Config", ["builtins.object"]) == "other"


def test_a_none_beside_another_kind_is_dropped_but_alone_is_a_scalar():
    assert engines.normalize(["tensor", "none"]) == ["tensor"]
    assert engines.normalize(["none"]) == ["scalar"]
    assert engines.normalize(["scalar", "tensor", "scalar"]) == ["scalar", "tensor"]


def test_pyright_unions_are_split_at_the_top_level_only():
    members = engines._union_members("Tensor | Sequence[Tensor | str] | None")
    assert members == ["Tensor", "Sequence[Tensor | str]", "None"]
    assert [engines._member_kind(m) for m in members] == ["tensor", "container", "none"]
    assert engines._member_kind("Unknown") == "?"


def test_probes_keep_the_file_valid_and_tag_each_value(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    source = ('"""Doc."""\nfrom __future__ import annotations\nimport numpy as np\n\n\n'
              "def one(x): return x\n\n\n"
              "def step(a,\n         b):\n    if a:\n        pass\n    return f(np.ones(3),\n             b)\n")
    (repo / "m.py").write_text(source)
    tree = ast.parse(source)
    one, step = tree.body[3], tree.body[4]
    call = step.body[1].value
    values = [
        {"id": "v001", "path": "m.py", "what": "param", "name": "x", "line": one.args.args[0].lineno,
         "col": one.args.args[0].col_offset},
        {"id": "v002", "path": "m.py", "what": "param", "name": "b", "line": step.args.args[1].lineno,
         "col": step.args.args[1].col_offset},
        {"id": "v003", "path": "m.py", "what": "arg", "name": "b", "line": call.args[1].lineno,
         "col": call.args[1].col_offset, "end_line": call.args[1].end_lineno, "end_col": call.args[1].end_col_offset},
    ]
    tags = engines.probe_copy(tmp_path, "repo", values, tmp_path / "copy")
    assert tags == {1: "v001", 2: "v002", 3: "v003"}
    probed = (tmp_path / "copy" / "m.py").read_text()
    ast.parse(probed)  # still valid Python, __future__ import still first
    assert probed.index("from __future__") < probed.index("from _tfa_probe import _tfa_kind")
    for tag in (1, 2, 3):
        assert "_tfa_kind(" in probed and f", {tag}))" in probed


def test_wilson_interval_brackets_the_ratio():
    low, high = compare.wilson(16, 21)
    assert low < 16 / 21 < high and 0 <= low and high <= 1
    assert compare.fmt(0, 0) == "-"


@pytest.mark.parametrize("kinds,expected", [([], None), (["tensor"], "tensor"), (["scalar", "tensor"], "mixed")])
def test_an_answer_is_one_kind_mixed_or_none(kinds, expected):
    assert compare.answer_kind({"kinds": kinds, "raw": ""}) == expected
