"""The corpus is complete and consistent: every function has a driver, every verdict and rule family is covered."""

from __future__ import annotations

import ast
import json

import pytest

import ground_truth as gt

pytest.importorskip("tensorflow")


@pytest.fixture(scope="module")
def entries():
    from corpus.index import ENTRIES

    return ENTRIES


def test_at_least_80_functions_each_with_a_driver(entries):
    functions = gt.corpus_functions()
    assert len(functions) >= 80
    assert sorted(functions) == sorted(entries), "every mlproj function needs exactly one driver"
    assert all(callable(e.driver) for e in entries.values())


def test_every_verdict_and_rule_family_is_intended_somewhere(entries):
    from corpus.index import VERDICTS

    assert {e.intended for e in entries.values()} == set(VERDICTS)
    families = {code[:3] for e in entries.values() for code in e.rules}
    assert {"TF1", "TF2", "TF3", "TF4", "TF5"} <= families


def test_some_functions_are_already_decorated():
    decorated = [fid for fid in gt.corpus_functions() if gt.is_decorated(fid)]
    assert len(decorated) >= 10


def test_labels_are_fresh_and_cover_the_corpus():
    labels = json.loads(gt.LABELS.read_text())
    assert labels["corpus_digest"] == gt.corpus_digest(), "run `python benchmarks/ground_truth.py`"
    assert sorted(labels["functions"]) == sorted(gt.corpus_functions())
    measured = [f["label"] for f in labels["functions"].values()]
    assert measured.count(None) <= len(measured) // 20, "too many functions without a label"
    assert {v for v in measured if v} == {"decorate", "keep", "reconfigure", "undecorate", "fix-first", "leave-eager"}
