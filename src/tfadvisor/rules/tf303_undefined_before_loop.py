"""TF303 undefined-before-loop."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from tfadvisor.analysis.context import ScopeContext
from tfadvisor.analysis.summary import Hit
from tfadvisor.model import Severity
from tfadvisor.rules._util import defined_before, stores, tf_loop, used_after
from tfadvisor.rules.base import Rule, register


@register
class UndefinedBeforeLoop(Rule):
    code = "TF303"
    name = "undefined-before-loop"
    severity = Severity.ERROR
    summary = "a name first assigned inside a TensorFlow loop is used after the loop"
    why = """\
AutoGraph turns a `for` over `tf.range`, a tensor or a dataset (and a `while` on a tensor) into
`tf.while_loop`, whose loop variables need a value before the first iteration: the loop may run
zero times. A name first assigned inside such a loop and used after it fails while tracing with
`ValueError: 'x' must be defined before the loop.` Initialise it before the loop with the shape
and dtype it will have.
"""
    bad = (
        """\
import tensorflow as tf

@tf.function
def last_value(x):
    for i in tf.range(tf.shape(x)[0]):  # TF303
        last = x[i]
    return last
""",
        """\
import tensorflow as tf

@tf.function
def countdown(n):
    n = tf.constant(n)
    while n > 0:  # TF303
        result = n * 2
        n -= 1
    return result
""",
    )
    good = (
        """\
import tensorflow as tf

@tf.function
def last_value(x):
    last = tf.zeros_like(x[0])
    for i in tf.range(tf.shape(x)[0]):
        last = x[i]
    return last
""",
        """\
import tensorflow as tf

@tf.function
def unrolled(x):
    for i in range(3):
        y = x * i
    return y
""",
    )
    detection = "S~"

    def check(self, ctx: ScopeContext) -> Iterator[Hit]:
        if ctx.function is None:
            return
        for loop in ctx.scope.nodes(ast.For, ast.While):
            is_tf, deps = tf_loop(ctx, loop)
            if not is_tf:
                continue
            assigned = stores(ctx, loop.body)  # type: ignore[attr-defined]
            if isinstance(loop, ast.For):
                for t in ast.walk(loop.target):
                    if isinstance(t, ast.Name):
                        assigned.pop(t.id, None)  # the loop target is defined by the loop itself
            if not assigned:
                continue
            end = loop.end_lineno or loop.lineno  # type: ignore[attr-defined]
            names = [n for n, node in assigned.items()
                     if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and not defined_before(ctx, n, loop.lineno) and used_after(ctx, n, end)]  # type: ignore[attr-defined]
            if not names:
                continue
            listed = ", ".join(f"'{n}'" for n in names)
            head = loop.iter if isinstance(loop, ast.For) else loop.test  # type: ignore[attr-defined]
            yield Hit(self.code, loop.lineno, loop.col_offset, head.end_lineno or loop.lineno,  # type: ignore[attr-defined]
                      head.end_col_offset or 0,
                      f"{listed} first assigned inside a TensorFlow loop and used after it: it must be "
                      f"defined before the loop", depends_on=deps)
