"""Rule metadata for renderers (SARIF rules[], HTML findings), read from the rule registry.

Why an adapter: renderers need a rule's name, summary and docs, and must still work when a report
names a rule this installation does not know (a newer report, a runtime-only TF6xx code, or the
registry not importable). Then the code alone is used: a renderer never fails for lack of metadata.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class RuleInfo:
    code: str
    name: str = ""
    severity: str | None = None  # "error" | "warning" | "info"
    summary: str = ""
    why: str = ""
    bad: str = ""
    good: str = ""
    fix: str = ""  # a sentence on fix safety, "" when unknown

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
            parts.append("## Example\n\n```python\n" + self.bad.strip("\n") + "\n```")
        if self.good:
            parts.append("## Use instead\n\n```python\n" + self.good.strip("\n") + "\n```")
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
            parts.append("Example:\n" + self.bad.strip("\n"))
        if self.good:
            parts.append("Use instead:\n" + self.good.strip("\n"))
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


def _fix_text(rule: Any) -> str:
    fix = _first(rule, "fix_safety", "fix", "fixable", "fix_safe")
    if isinstance(fix, bool):
        return "A safe fix is available (`tfadvisor fix`)." if fix else "No automatic fix."
    return _text(fix)


def _to_info(code: str, rule: Any) -> RuleInfo:
    severity = _text(_first(rule, "severity", "default_severity", "level")) or None
    return RuleInfo(
        code=code,
        name=_text(_first(rule, "name", "slug")),
        severity=severity.lower() if severity else None,
        summary=_text(_first(rule, "summary", "message", "short", "description", "__doc__")),
        why=_text(_first(rule, "why", "rationale", "explanation")),
        bad=_text(_first(rule, "bad", "bad_example", "bad_examples", "invalid", "example")),
        good=_text(_first(rule, "good", "good_example", "good_examples", "valid", "use_instead")),
        fix=_fix_text(rule),
    )


def _lookup(code: str) -> Any:
    """The registry's object for ``code``, or None (registry missing, or rule unknown)."""
    try:
        from tfadvisor.rules import registry  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 - any failure there means "no metadata", never a crash
        registry = None
    if registry is not None:
        getter = getattr(registry, "get_rule", None) or getattr(registry, "get", None)
        if getter is not None:
            try:
                found = getter(code)
            except Exception:  # noqa: BLE001 - unknown codes may raise KeyError/LookupError
                found = None
            if found is not None:
                return found
        listing = getattr(registry, "all_rules", None)
        if listing is not None:
            try:
                for rule in listing():
                    if _first(rule, "code", "id") == code:
                        return rule
            except Exception:  # noqa: BLE001
                return None
    return None


@lru_cache(maxsize=None)
def rule_info(code: str) -> RuleInfo:
    """Everything known about rule ``code``; at least the code itself."""
    rule = _lookup(code)
    return RuleInfo(code=code) if rule is None else _to_info(code, rule)
