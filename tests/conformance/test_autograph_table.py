"""analysis/autograph.py's table says what TensorFlow does: each row's variants show it."""

from __future__ import annotations

from typing import Any

import pytest

from conformance.runner import load_variants, variant_modules
from tfadvisor.analysis.autograph import TABLE

_FAILS = {"raises", "differs"}


def _recorded() -> dict[str, frozenset[str]]:
    return {f"{code}/{v.name}": v.labels for code in variant_modules() for v in load_variants(code)}


@pytest.mark.parametrize("row", TABLE, ids=lambda r: r.construct[:40])
def test_row_evidence_says_what_the_row_says(row: Any) -> None:
    recorded = _recorded()
    assert row.evidence, row.construct
    for ref in row.evidence:
        assert ref in recorded, f"{row.construct}: no variant {ref}"
        fails = bool(recorded[ref] & _FAILS)
        assert fails != row.accepted, f"{row.construct}: {ref} is {'+'.join(sorted(recorded[ref]))}"


@pytest.mark.tf
def test_rows_hold_under_tensorflow(results: list[dict[str, Any]]) -> None:
    """With TensorFlow's labels of this session (the conformance fixture), not only the recorded ones."""
    labels = {f"{r['rule']}/{r['name']}": set(r["labels"]) for r in results}
    wrong = [f"{row.construct}: {ref} is {'+'.join(sorted(labels[ref]))}" for row in TABLE for ref in row.evidence
             if bool(labels[ref] & _FAILS) == row.accepted]
    assert not wrong, "\n".join(wrong)
