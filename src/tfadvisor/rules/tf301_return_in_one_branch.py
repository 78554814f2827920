"""TF301 return-in-one-branch."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import likely_tensor
from tfadvisor.rules.base import Rule, register


def _returns_value(stmts: list[ast.stmt], ctx: ScopeContext) -> ast.Return | None:
    for stmt in stmts:
        for node in ctx.walk(stmt):
            if isinstance(node, ast.Return) and node.value is not None:
                return node
    return None


def _ends_with_exit(stmts: list[ast.stmt]) -> bool:
    return bool(stmts) and isinstance(stmts[-1], (ast.Return, ast.Raise))


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
(newer TensorFlow: `the else branch must also have a return statement.`). Return a value on every
path.
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
        if fn is None or _ends_with_exit(fn.body):
            return
        for node in ctx.scope.nodes(ast.If):
            in_body = _returns_value(node.body, ctx)
            in_else = _returns_value(node.orelse, ctx)
            if bool(in_body) == bool(in_else):
                continue
            is_tensor, deps = likely_tensor(ctx, node.test)
            if not is_tensor:
                continue
            yield Hit(self.code, node.lineno, node.col_offset, node.test.end_lineno or node.lineno,
                      node.test.end_col_offset or 0, self.summary, depends_on=deps)
