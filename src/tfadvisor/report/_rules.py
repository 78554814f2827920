"""Rule metadata for renderers (SARIF rules[], HTML findings), read from the rule registry.

Why an adapter: renderers need a rule's name, summary and docs, and must still work when a report
names a rule this installation does not know (a newer report, a runtime-only TF6xx code, or the
registry not importable). Then the code alone is used: a renderer never fails for lack of metadata.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any


@dataclass(frozen=True)
class RuleInfo:
    code: str
    name: str = ""
    severity: str | None = None  # "error" | "warning" | "info"
    summary: str = ""
    why: str = ""
    bad: tuple[str, ...] = ()
    good: tuple[str, ...] = ()
    fix: str = ""  # a sentence on fix safety, "" when unknown
    scope: str = ""  # "runtime" for rules only a measurement can show (TF6xx)

    @property
    def title(self) -> str:
        """``TF301 return-in-one-branch`` (or just the code)."""
        return f"{self.code} {self.name}".strip()

    def markdown(self) -> str:
        """The rule's documentation as Markdown (SARIF ``help.markdown``)."""
        parts = [f"**{self.title}**"]
        if self.summary:
            parts.append(self.summary)
        if self.why:
            parts.append("## Why\n\n" + self.why)
        if self.bad:
            parts.append("## Example\n\n" + "\n\n".join(f"```python\n{b.strip(chr(10))}\n```" for b in self.bad))
        if self.good:
            parts.append("## Use instead\n\n" + "\n\n".join(f"```python\n{g.strip(chr(10))}\n```" for g in self.good))
        if self.fix:
            parts.append("## Fix\n\n" + self.fix)
        parts.append(f"Run `tfadvisor explain {self.code}` for more.")
        return "\n\n".join(parts)

    def text(self) -> str:
        """The same documentation as plain text (SARIF ``help.text``)."""
        parts = [self.title]
        if self.summary:
            parts.append(self.summary)
        if self.why:
            parts.append("Why: " + self.why)
        if self.bad:
            parts.append("Example:\n" + "\n\n".join(b.strip("\n") for b in self.bad))
        if self.good:
            parts.append("Use instead:\n" + "\n\n".join(g.strip("\n") for g in self.good))
        if self.fix:
            parts.append("Fix: " + self.fix)
        parts.append(f"Run `tfadvisor explain {self.code}` for more.")
        return "\n\n".join(parts)


def _first(obj: Any, *names: str) -> Any:
    for name in names:
        value = obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)
        if value not in (None, ""):
            return value
    return None


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return "\n\n".join(_text(v) for v in value if v)
    value = getattr(value, "value", value)  # Severity enums
    return str(value).strip()


def _examples(value: Any) -> tuple[str, ...]:
    if not value:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value if v)


def _fix_text(rule: Any) -> str:
    fix = _first(rule, "fix_safety", "fix", "fixable", "fix_safe")
    detail = _text(_first(rule, "fix_description"))
    if isinstance(fix, bool):
        fix = "safe" if fix else "none"
    words = {
        "safe": "Safe fix: `tfadvisor fix` applies it.",
        "unsafe": "Unsafe fix: `tfadvisor fix --unsafe-fixes` applies it; review the change.",
        "none": "No automatic fix.",
    }
    text = words.get(_text(fix), _text(fix))
    if detail and fix != "none":
        detail = detail[0].upper() + detail[1:]
        text = f"{text} {detail}" + ("" if detail.endswith(".") else ".")
    return text


def _to_info(code: str, rule: Any) -> RuleInfo:
    severity = _text(_first(rule, "severity", "default_severity", "level")) or None
    return RuleInfo(
        code=code,
        name=_text(_first(rule, "name", "slug")),
        severity=severity.lower() if severity else None,
        summary=_text(_first(rule, "summary", "message", "description")),
        why=_text(_first(rule, "why", "rationale", "explanation")),
        bad=_examples(_first(rule, "bad", "bad_examples", "invalid")),
        good=_examples(_first(rule, "good", "good_examples", "valid")),
        fix=_fix_text(rule),
        scope=_text(_first(rule, "scope")),
    )


def _lookup(code: str) -> Any:
    """The registry's rule for ``code`` (``tfadvisor.rules.get_rule``), or None if unknown/unavailable."""
    try:
        import tfadvisor.rules as rules
    except Exception:  # noqa: BLE001 - any failure there means "no metadata", never a crash
        return None
    getter = getattr(rules, "get_rule", None)
    try:
        if getter is not None:
            return getter(code)
        for rule in getattr(rules, "all_rules", lambda: [])():
            if getattr(rule, "code", None) == code:
                return rule
    except Exception:  # noqa: BLE001 - a broken rule module must not break rendering
        return None
    return None


@cache
def rule_info(code: str) -> RuleInfo:
    """Everything known about rule ``code``; at least the code itself."""
    rule = _lookup(code)
    return RuleInfo(code=code) if rule is None else _to_info(code, rule)


# Reason codes about a decorator the function has: on an undecorated function they would name a
# fault it cannot have (TF502 "redundant decorator" on a plain function with no tensor work).
_ABOUT_THE_DECORATOR = frozenset({"TF502"})


def shown_reasons(fn: Any) -> list[str]:
    """The reason codes a reader should see for one function: each one describes this function
    (no TF502 without a decorator) and says what was shown (a run-time rule, TF6xx, only with a
    measurement; ``check``'s static estimates say so in the function's assumptions instead)."""
    measured = getattr(fn, "measurement", None) is not None
    return [code for code in fn.reasons
            if (fn.decorated or code not in _ABOUT_THE_DECORATOR)
            and (measured or rule_info(code).scope != "runtime")]
