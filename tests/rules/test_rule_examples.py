"""Every rule's examples are its tests: bad examples fire it on the marked lines, good ones don't."""

from __future__ import annotations

import pytest

from tfadvisor.check import check_source
from tfadvisor.rules import all_rules

# Run-time rules (scope "runtime": TF104, TF506, TF6xx) are measured by `run`: the static check
# does not test their examples; test_runtime_rule_examples.py runs them under `run`.
STATIC = [r for r in all_rules() if r.scope != "runtime"]
BAD = [(r.code, i, code) for r in STATIC for i, code in enumerate(r.bad)]
GOOD = [(r.code, i, code) for r in STATIC for i, code in enumerate(r.good)]


def _lines(code: str, rule: str) -> list[int]:
    report = check_source(code, "example.py")
    return sorted({f.line for f in report.findings if f.rule == rule})


@pytest.mark.parametrize(("rule", "index", "code"), BAD, ids=[f"{c}-bad{i}" for c, i, _ in BAD])
def test_bad_example_fires_on_marked_lines(rule: str, index: int, code: str) -> None:
    from tfadvisor.rules import get_rule

    expected = get_rule(rule).expected_lines(code)
    assert expected, f"{rule} bad example {index} marks no line with '# {rule}'"
    assert _lines(code, rule) == expected


@pytest.mark.parametrize(("rule", "index", "code"), GOOD, ids=[f"{c}-good{i}" for c, i, _ in GOOD])
def test_good_example_does_not_fire(rule: str, index: int, code: str) -> None:
    assert _lines(code, rule) == []


def test_every_rule_has_two_examples_of_each_kind() -> None:
    for rule in all_rules():
        assert len(rule.bad) >= 2 and len(rule.good) >= 2, rule.code
        assert rule.summary and rule.why and rule.name, rule.code


def test_runtime_rules_examples_parse_and_mark_lines() -> None:
    import ast

    runtime = [r for r in all_rules() if r.scope == "runtime"]
    assert runtime, "the catalog lists the run-time rules too"
    for rule in runtime:
        assert rule.detection == "D", rule.code
        for code in (*rule.bad, *rule.good):
            ast.parse(code)
        assert all(rule.expected_lines(code) for code in rule.bad), rule.code


def test_catalog_is_complete() -> None:
    codes = {r.code for r in all_rules()}
    expected = {f"TF{n}" for n in (*range(101, 107), *range(201, 209), *range(301, 310),
                                   *range(401, 408), *range(501, 507), *range(601, 606))}
    assert expected <= codes, sorted(expected - codes)


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.code)
def test_rule_declares_fix_and_detection(rule) -> None:  # type: ignore[no-untyped-def]
    assert rule.fix in ("none", "safe", "unsafe")
    assert (rule.fix == "none") == (not rule.fix_description), rule.code
    assert rule.detection in ("S", "S~", "D")
    assert rule.scope in ("graph", "always", "decorated", "project", "advice", "runtime")
