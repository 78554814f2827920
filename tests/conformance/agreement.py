"""Whether a static rule agrees with TensorFlow on a variant, and the per-rule figures.

A rule *claims* a variant when ``check`` reports it there at warning or error level (an info-level
finding is a note resting on a guess, not a claim). TensorFlow *confirms* the claim when the
label it gave the variant is one the rule is about (``CONCERNS``). They agree when both say yes or
both say no: a variant TensorFlow accepts must not fire the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The labels (variant.py) that make each rule's claim true.
CONCERNS: dict[str, frozenset[str]] = {
    **{c: frozenset({"retraces"}) for c in ("TF101", "TF102", "TF103", "TF503")},
    "TF109": frozenset({"raises"}),
    "TF110": frozenset({"raises"}),
    **{c: frozenset({"differs"}) for c in ("TF105", "TF106", "TF201", "TF202", "TF205")},
    **{c: frozenset({"raises"}) for c in ("TF206", "TF301", "TF302", "TF303", "TF304", "TF305",
                                          "TF306", "TF308", "TF309", "TF310", "TF404", "TF406",
                                          "TF407")},
    # TF401: a variable made on a later trace raises; one made once per argument object, traced once
    # for two objects, is shared between them (differs: variant slot-variable-keyed-by-the-argument-one-trace)
    **{c: frozenset({"raises", "differs"}) for c in ("TF203", "TF204", "TF207", "TF208", "TF210", "TF401",
                                                     "TF402", "TF403")},
    "TF307": frozenset({"unrolled"}),
    "TF405": frozenset({"eager-on"}),
    "TF502": frozenset({"empty"}),
}
THRESHOLD = 0.95  # every error/warning rule must agree with TensorFlow on this share of its variants


def claims(code: str, source: str) -> list[int]:
    """Lines where ``check`` reports ``code`` at warning or error level in this program."""
    from tfadvisor.check import check_source
    from tfadvisor.model import Severity

    report = check_source(source, "variant.py")
    return sorted({f.line for f in report.findings if f.rule == code and f.severity is not Severity.INFO})


def confirmed(code: str, labels: list[str] | frozenset[str]) -> bool:
    return bool(set(labels) & CONCERNS[code])


@dataclass
class Figure:
    code: str
    variants: int = 0
    agree: int = 0
    real: int = 0
    bad: int = 0  # variants TensorFlow confirms the rule's claim on
    disagreements: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.agree / self.variants if self.variants else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"variants": self.variants, "agree": self.agree, "bad": self.bad, "good": self.variants - self.bad,
                "real": self.real}


def figures(results: list[dict[str, Any]], fired: dict[tuple[str, str], list[int]]) -> dict[str, Figure]:
    """Per rule: how many variants, how many agree (``fired``: (rule, variant) -> claimed lines)."""
    out: dict[str, Figure] = {}
    for r in results:
        fig = out.setdefault(r["rule"], Figure(r["rule"]))
        fig.variants += 1
        fig.real += bool(r["real"])
        tf_says = confirmed(r["rule"], r["labels"])
        fig.bad += tf_says
        rule_says = bool(fired[(r["rule"], r["name"])])
        if tf_says == rule_says:
            fig.agree += 1
        else:
            fig.disagreements.append(f"{r['name']}: TensorFlow {'+'.join(r['labels'])}, rule "
                                     f"{'fires' if rule_says else 'silent'}")
    return out
