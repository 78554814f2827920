"""What a rule is: a code, its words, its examples, and how it finds problems.

One rule is one module under ``tfadvisor/rules/`` holding one ``Rule`` subclass decorated with
``@register``. Its ``bad`` and ``good`` examples are real code: they are its unit tests (a bad
example must fire the rule exactly on the lines whose comment starts with the rule's code, a good
one must not fire it) and they are its documentation (``docs/rules.md``, ``tfadvisor explain``).

A rule finds problems in one of two ways:

- ``check(ctx)``: the per-file pass calls it for every function with a ``ScopeContext``; it yields
  ``Hit`` objects. Whether a hit becomes a finding depends on ``scope``: ``graph`` hits only count in
  graph code (a tf.function, a function about to become one, and everything they call);
  ``always`` hits count everywhere; ``decorated`` hits only in functions decorated today.
- ``check_project(project)``: the project pass calls it once with every function linked; it yields
  ``Finding`` objects directly (call sites, recursion, transitive side effects).

Advice rules (TF5xx) fire from the verdicts the advice module gives; they only carry words and
examples.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, ClassVar, Literal

from tfadvisor.analysis.summary import Hit, ModuleSummary
from tfadvisor.model import Severity

if TYPE_CHECKING:
    import ast

    from tfadvisor.analysis.context import ScopeContext
    from tfadvisor.analysis.project import Project

Scope = Literal["graph", "always", "decorated", "project", "advice", "runtime"]
FixSafety = Literal["none", "safe", "unsafe"]
# How `fix` carries a rule's fix out: "edit", a rewrite at the finding's line (one ``RuleEdit`` in
# ``fix/edits.py`` names the rule); "verdict", the function's verdict edit (decorator options);
# "keras", the measured Keras advice of a `run` report (compile() options, tf.data edits:
# ``fix/keras_edits.py``).
FixBy = Literal["edit", "verdict", "keras"]


class Rule:
    code: ClassVar[str]
    name: ClassVar[str]
    severity: ClassVar[Severity] = Severity.WARNING
    summary: ClassVar[str]  # one line, the finding's message unless the rule words its own
    why: ClassVar[str]  # why it matters, with the TensorFlow error text users meet
    bad: ClassVar[tuple[str, ...]]
    good: ClassVar[tuple[str, ...]]
    fix: ClassVar[FixSafety] = "none"
    fix_description: ClassVar[str] = ""
    fix_by: ClassVar[FixBy] = "edit"
    scope: ClassVar[Scope] = "graph"
    # Whether a hit in a callee is a hazard of its callers too (a print is; recursion is not: a
    # recursive helper over Python structures runs fine at trace time inside its caller's graph).
    transitive: ClassVar[bool] = True
    # Whether it is about the tf.function's own parameters, so it holds only where the function is
    # the tf.function (decorated, or eager and advised to be): not in a helper a graph calls.
    entry_only: ClassVar[bool] = False
    # For an advice rule: whether its note is said whatever the verdict (the function stays as it
    # is, and the note says what would speed it up), not only with a verdict that asks for a change.
    said_on_status_quo: ClassVar[bool] = False
    # For an advice rule whose summary speaks of a tf.function: its words for a function that is not
    # one (a helper told to fix what breaks its callers' graph, with no decorator of its own).
    summary_undecorated: ClassVar[str | None] = None
    detection: ClassVar[str] = "S"  # S, S~ (guesses types) or D (run time only), as in docs/rules.md

    # per-file hook; rules without one set it to None
    def check(self, ctx: ScopeContext) -> Iterable[Hit]:  # pragma: no cover - overridden
        return ()

    check_module: Callable[[ScopeContext], Iterable[Hit]] | None = None  # optional: hits in the module body

    def check_project(self, project: Project) -> Iterable[tuple[str, Hit]]:
        """(function id, hit) pairs found with the whole project linked."""
        return ()

    @classmethod
    def hit_stands(cls, project: Project, module: ModuleSummary, hit: Hit) -> bool:
        """Whether ``hit``, in ``module`` (its body or one of its functions), stands once the whole
        project is linked."""
        return True

    # helpers for subclasses --------------------------------------------------------------------
    def hit(self, node: ast.AST, message: str | None = None, depends_on: tuple[str, ...] = (),
            speculative: bool = False, unconverted_only: bool = False, setters: tuple[str, ...] = ()) -> Hit:
        return Hit(rule=self.code, line=node.lineno, col=node.col_offset,  # type: ignore[attr-defined]
                   end_line=getattr(node, "end_lineno", None) or node.lineno,  # type: ignore[attr-defined]
                   end_col=getattr(node, "end_col_offset", None) or node.col_offset,  # type: ignore[attr-defined]
                   message=message or self.summary, depends_on=depends_on, speculative=speculative,
                   unconverted_only=unconverted_only, setters=setters)

    @classmethod
    def expected_lines(cls, example: str) -> list[int]:
        """Lines of a bad example marked with a comment starting with this rule's code."""
        marker = re.compile(r"#\s*" + re.escape(cls.code) + r"\b")
        return [n for n, line in enumerate(example.splitlines(), 1) if marker.search(line)]


_REGISTRY: dict[str, type[Rule]] = {}


def register(cls: type[Rule]) -> type[Rule]:
    """Class decorator: make a rule known to every command."""
    if not re.fullmatch(r"TF\d{3}", cls.code):
        raise ValueError(f"bad rule code {cls.code!r}")
    if cls.code in _REGISTRY and _REGISTRY[cls.code] is not cls:
        raise ValueError(f"two rules with code {cls.code}")
    if not cls.bad or not cls.good:
        raise ValueError(f"{cls.code} needs bad and good examples: a rule without both does not exist")
    if "check" not in cls.__dict__ and not any("check" in b.__dict__ for b in cls.__mro__[1:-2]):
        cls.check = None  # type: ignore[assignment]
    _REGISTRY[cls.code] = cls
    return cls


def registry() -> dict[str, type[Rule]]:
    from tfadvisor import rules as _package

    _package.load_all()
    return dict(sorted(_REGISTRY.items()))

