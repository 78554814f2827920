"""Before/after fixtures: every edit kind and every fixable rule, through plan + engine + writer."""

from __future__ import annotations

import pytest

from casekit import build_report, case_names, case_options, load_case
from tfadvisor.fix.engine import run_plan
from tfadvisor.fix.planner import plan


@pytest.mark.parametrize("name", case_names())
def test_fixture(name: str, tmp_path, monkeypatch) -> None:
    before, after, case = load_case(name)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mod.py").write_text(before)
    report = build_report(case, before, "mod.py")
    the_plan = plan(report, case_options(case))

    outcomes = run_plan(the_plan, ["mod.py"], write=True)
    assert (tmp_path / "mod.py").read_text() == after
    assert all(o.error is None for o in outcomes), [o.error for o in outcomes]
    reasons = " | ".join(s.reason for o in outcomes for s in o.skipped)
    for expected in case.get("skipped", []):
        assert expected in reasons

    # Idempotent: the same plan on the fixed file changes nothing.
    again = run_plan(the_plan, ["mod.py"], write=True)
    assert not any(o.changed for o in again)
    assert (tmp_path / "mod.py").read_text() == after


def test_every_rule_with_an_edit_has_a_fixture() -> None:
    from tfadvisor.fix.edits import RULE_EDITS

    names = case_names()
    for rule in RULE_EDITS:
        assert any(n.startswith(f"rule_{rule}") for n in names), rule
    for kind in ("decorate", "undecorate", "reconfigure"):
        assert any(n.startswith(kind) for n in names), kind


def test_fix_is_declared_by_the_rule_and_carried_out_as_declared() -> None:
    """A rule says whether its findings are fixed, how safely and by what (an edit at the line, or
    the verdict's decorator edit); the planner has an edit exactly for the rules that say "edit"."""
    from tfadvisor.fix.edits import RULE_EDITS
    from tfadvisor.fix.planner import RETRACE_REASONS, XLA_REASONS
    from tfadvisor.rules import registry

    rules = registry()
    by_edit = {code for code, rule in rules.items() if rule.fix != "none" and rule.fix_by == "edit"}
    by_verdict = {code for code, rule in rules.items() if rule.fix != "none" and rule.fix_by == "verdict"}
    assert set(RULE_EDITS) == by_edit
    assert by_verdict <= set(RETRACE_REASONS + XLA_REASONS)
    assert all(rules[code].fix_description for code in by_edit | by_verdict)
