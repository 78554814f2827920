"""Every error/warning rule agrees with TensorFlow on its conformance variants (issue 20).

TensorFlow runs all variants once per session, in one child process (runner.py, through the
``results`` fixture of conftest.py); each rule's test then checks that TensorFlow still labels
its variants as recorded (the evidence), and that the static rule claims exactly the variants
TensorFlow confirms (agreement.py). The figures the docs show (src/tfadvisor/rules/
conformance.json) must be the ones measured here.
"""

from __future__ import annotations

from typing import Any

import pytest

from conformance.agreement import THRESHOLD, claims, confirmed, figures
from conformance.runner import load_variants, variant_modules
from tfadvisor.model import Severity
from tfadvisor.rules import all_rules
from tfadvisor.rules.conformance import load_figures

pytestmark = pytest.mark.tf
# The rules a conformance suite must ground: every static rule that can report at warning or error.
CLAIMING = sorted(r.code for r in all_rules()
                  if r.severity is not Severity.INFO and r.scope not in ("runtime",) and r.code != "TF100")


def test_every_claiming_rule_has_a_suite() -> None:
    assert sorted(set(CLAIMING) - set(variant_modules())) == []
    for code in CLAIMING:
        variants = load_variants(code)
        assert len(variants) >= 10, f"{code}: {len(variants)} variants, want at least 10"
        assert sum(v.real for v in variants) * 2 >= len(variants), f"{code}: fewer than half in real-code shapes"
        assert any(v.tf != "same" for v in variants) and any(v.tf == "same" for v in variants), code


@pytest.mark.parametrize("code", CLAIMING)
def test_tensorflow_labels_as_recorded(code: str, results: list[dict[str, Any]]) -> None:
    """The evidence: TensorFlow still does what each variant says it does."""
    mine = [r for r in results if r["rule"] == code]
    wrong = [f"{r['name']}: recorded {'+'.join(r['expected'])}, TensorFlow now {'+'.join(r['labels'])} "
             f"(eager {r['eager']['error']}, graph {r['graph']['error']})"
             for r in mine if sorted(r["labels"]) != r["expected"]]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("code", CLAIMING)
def test_rule_agrees_with_tensorflow(code: str, results: list[dict[str, Any]]) -> None:
    """The rule claims exactly the variants TensorFlow confirms (a known miss must say why)."""
    variants = {v.name: v for v in load_variants(code)}
    mine = [r for r in results if r["rule"] == code]
    fired = {(code, r["name"]): claims(code, variants[r["name"]].source) for r in mine}
    fig = figures(mine, fired)[code]
    unexplained = [d for d in fig.disagreements if not variants[d.split(":", 1)[0]].known]
    assert not unexplained, "\n".join(unexplained)
    assert fig.share >= THRESHOLD, f"{code}: {fig.agree}/{fig.variants} agree"


def test_published_figures_are_measured(results: list[dict[str, Any]]) -> None:
    """docs/rules.md shows src/tfadvisor/rules/conformance.json: it must be this run's figures."""
    sources = {(code, v.name): v.source for code in variant_modules() for v in load_variants(code)}
    fired = {(r["rule"], r["name"]): claims(r["rule"], sources[(r["rule"], r["name"])]) for r in results}
    measured = {code: fig.as_dict() for code, fig in figures(results, fired).items()}
    assert load_figures()["rules"] == measured, "run: python benchmarks/conformance.py --write"


def test_agreement_counts_only_claims_at_warning_or_error() -> None:
    assert confirmed("TF305", ["raises"]) and not confirmed("TF305", ["same"])
    assert claims("TF201", "def f():\n    print(1)\n") == []
