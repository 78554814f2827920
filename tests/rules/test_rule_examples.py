"""Every rule's examples are its tests: bad examples fire it on the marked lines, good ones don't."""

from __future__ import annotations

import pytest

from tfadvisor.check import check_source
from tfadvisor.rules import all_rules

BAD = [(r.code, i, code) for r in all_rules() for i, code in enumerate(r.bad)]
GOOD = [(r.code, i, code) for r in all_rules() for i, code in enumerate(r.good)]


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
