"""TF301 return-in-one-branch."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import likely_tensor
from tfadvisor.rules.base import Rule, register


@register
class ReturnInOneBranch(Rule):
    code = "TF301"
    name = "return-in-one-branch"
    severity = Severity.ERROR
    summary = "a tensor-dependent if returns a value on one branch only; the other path returns None"
    why = """\
AutoGraph turns an `if` on a tensor into `tf.cond`, whose branches must both produce a value. When
one branch returns and the other falls through to the end of the function (an implicit `return
None`), tracing fails with `ValueError: A value must also be returned from the else branch. If a
value is returned from one branch of a conditional a value must be returned from all branches.`
(newer TensorFlow: `the else branch must also have a return statement.`). A bare `return` counts,
and a Python `raise` on the other path does not: it runs while tracing (tests/conformance/
variants/tf301.py). Return on every path.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def f(a, b):
    if tf.greater(a, b):  # TF301
        return tf.constant(1)
""",
        """\
import tensorflow as tf

@tf.function
def clip(x):
    total = tf.reduce_sum(x)
    if total > 10.0:  # TF301
        return x / total
    tf.print("small")
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def f(a, b):
    if tf.greater(a, b):
        return tf.constant(1)
    return tf.constant(0)
""",
        """\
import tensorflow as tf

@tf.function
def f(x, training=False):
    if not training:
        return x
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        fn = ctx.function
        if fn is None or not ctx.scope.nodes(ast.Return):
            return
        for node, continues in _ifs(fn.body, False):
            body_has, else_has = _has_return(node.body, ctx), _has_return(node.orelse, ctx)
            if not (body_has or else_has):
                continue
            if _path_returns(node.body, continues) and _path_returns(node.orelse, continues):
                continue
            is_tensor, deps = likely_tensor(ctx, node.test)
            if not is_tensor:
                continue
            yield Hit(self.code, node.lineno, node.col_offset, node.test.end_lineno or node.lineno,
                      node.test.end_col_offset or 0, self.summary, depends_on=deps)


def _ifs(block: list[ast.stmt], continues: bool) -> Iterator[tuple[ast.If, bool]]:
    """Every ``if`` outside loops, with whether falling through it reaches a ``return``
    (``continues``: whether falling off the end of ``block`` does)."""
    for index, stmt in enumerate(block):
        rest = block[index + 1:]
        after = _returns(rest) or (not _ends_with_exit(rest) and continues)
        if isinstance(stmt, ast.If):
            yield stmt, after
            yield from _ifs(stmt.body, after)
            yield from _ifs(stmt.orelse, after)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from _ifs(stmt.body, after)
        elif isinstance(stmt, ast.Try):
            yield from _ifs(stmt.body, after)
            for handler in stmt.handlers:
                yield from _ifs(handler.body, after)
        # Loops are TF306's business: a return under a tensor condition in a loop fails either way.


def _returns(stmts: list[ast.stmt]) -> bool:
    """Every path through ``stmts`` ends in a ``return`` (a Python ``raise`` runs at trace time)."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If):
        return _returns(last.body) and _returns(last.orelse)
    return False


def _path_returns(branch: list[ast.stmt], continues: bool) -> bool:
    return _returns(branch) or (not _ends_with_exit(branch) and continues)


def _has_return(stmts: list[ast.stmt], ctx: ScopeContext) -> bool:
    """A ``return`` of this function inside ``stmts``: one of the scope's own (nested functions
    have theirs) within the lines the statements span, without walking them again."""
    if not stmts:
        return False
    first, last = stmts[0].lineno, stmts[-1].end_lineno or stmts[-1].lineno
    return any(first <= node.lineno <= last for node in ctx.scope.nodes(ast.Return))


def _ends_with_exit(stmts: list[ast.stmt]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], (ast.Return, ast.Raise))
