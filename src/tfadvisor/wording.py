"""Words that depend on a count or a list, in one place: "1 file", "2 files", "`a` and `b`".

Every layer that writes sentences for people uses these, so that no message says "1 files" or
"x change" again.
"""

from __future__ import annotations

from collections.abc import Sequence


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``plural(1, "file")`` -> ``"1 file"``; ``plural(2, "file")`` -> ``"2 files"``;
    ``many`` for irregular nouns (``plural(n, "info", "infos")``)."""
    return f"{count} {noun if count == 1 else (many or noun + 's')}"


def names(items: Sequence[str], quote: bool = True) -> str:
    """``a`` / ``a and b`` / ``a, b and c``, each in backticks unless ``quote`` is false."""
    shown = [f"`{item}`" if quote else item for item in items]
    if len(shown) <= 1:
        return "".join(shown)
    return f"{', '.join(shown[:-1])} and {shown[-1]}"


def verb(count: int, singular: str, many: str) -> str:
    """The verb agreeing with ``count`` subjects: ``verb(1, "changes", "change")``."""
    return singular if count == 1 else many
