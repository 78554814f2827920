"""TF302 defined-in-one-branch."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import defined_before, ends_with_exit, likely_tensor, stores, used_after
from tfadvisor.rules.base import Rule, register


@register
class DefinedInOneBranch(Rule):
    code = "TF302"
    name = "defined-in-one-branch"
    severity = Severity.ERROR
    summary = "a name is assigned in only one branch of a tensor-dependent if and used after it"
    why = """\
AutoGraph turns an `if` on a tensor into `tf.cond`, which runs both branches as functions and needs
every name used after the `if` to have a value from each. A name set in one branch only fails
while tracing with `ValueError: 'x' must also be initialized in the else branch` (or `'x' must
also be initialized in the main branch`, and `'x' is None at the end of the else branch` when it
started as None). Give the name a value before the `if`, or in both branches.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def relu_or_zero(x):
    if tf.reduce_sum(x) > 0:  # TF302
        y = tf.nn.relu(x)
    return y
""",
        """\
import tensorflow as tf

@tf.function
def pick(x, threshold):
    total = tf.reduce_sum(x)
    if total > threshold:  # TF302
        scale = 2.0
    else:
        tf.print("below")
    return x * scale
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def relu_or_zero(x):
    y = tf.zeros_like(x)
    if tf.reduce_sum(x) > 0:
        y = tf.nn.relu(x)
    return y
""",
        """\
import tensorflow as tf

@tf.function
def forward(x, training=False):
    if training:
        noise = tf.random.normal(tf.shape(x))
        x = x + noise
    return x
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        if ctx.function is None:
            return
        for node in ctx.scope.nodes(ast.If):
            body, orelse = node.body, node.orelse
            if ends_with_exit(body) or ends_with_exit(orelse):
                continue  # the other path is the only one that continues
            is_tensor, deps = likely_tensor(ctx, node.test)
            if not is_tensor:
                continue
            in_body, in_else = stores(ctx, body), stores(ctx, orelse)
            one_sided = [n for n in (*in_body, *in_else) if (n in in_body) != (n in in_else)]
            if not one_sided:
                continue
            end = node.end_lineno or node.lineno
            names = [n for n in dict.fromkeys(one_sided)
                     if not _defined_on_path(ctx, n, node) and used_after(ctx, n, end)]
            if not names:
                continue
            branch = "else" if names[0] in in_body else "main"
            listed = ", ".join(f"'{n}'" for n in names)
            yield Hit(self.code, node.lineno, node.col_offset, node.test.end_lineno or node.lineno,
                      node.test.end_col_offset or 0,
                      f"{listed} assigned in one branch of a tensor if and used after it: tf.cond needs it "
                      f"in the {branch} branch too", depends_on=deps)


def _defined_on_path(ctx: ScopeContext, name: str, node: ast.If) -> bool:
    """``defined_before``, minus bindings in another branch of an ``if`` that holds ``node``
    (``if a: w = 3.0 elif b: w = 2.0``: the elif's else has no w)."""
    if not defined_before(ctx, name, node.lineno):
        return False
    if name not in ctx.local_names:
        return True
    for store in ctx.scope.nodes(ast.Name):
        if store.id == name and isinstance(store.ctx, ast.Store) and store.lineno < node.lineno:
            if not any(_apart(ctx, store, node, outer) for outer in ctx.enclosing(node) if isinstance(outer, ast.If)):
                return True
    return False


def _apart(ctx: ScopeContext, a: ast.AST, b: ast.AST, if_node: ast.If) -> bool:
    where_a, where_b = ctx.in_branch(a, if_node), ctx.in_branch(b, if_node)
    return where_a is not None and where_b is not None and where_a != where_b
